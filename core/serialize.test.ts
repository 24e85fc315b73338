/**
 * Compiled response serializers (core/serialize.ts, issue 18) keep the allow-list guarantee: a
 * property its schema does not declare never leaves the server, at any depth, whether the answer
 * is written by fast-json-stringify or (schemas it cannot honour exactly, data it refuses) by the
 * allow-list path. Real router, real HTTP, both with and without response validation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { expect } from 'chai';
import { SchemaRegistry } from './schemas.ts';
import { RouteRegistry, buildRouter } from './routes.ts';
import { PermissionRegistry } from './permissions.ts';
import { compileSerializer } from './serialize.ts';

const person = {
  $id: 'probe/Person',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', minLength: 1, 'x-label': 'Name' },
    bio: { type: ['string', 'null'] },
    badge: { anyOf: [{ $ref: 'probe/Badge' }, { type: 'null' }] },
    tags: { type: 'array', items: { type: 'string' } },
    address: { type: 'object', additionalProperties: false, properties: { city: { type: 'string' } } },
    replies: { type: 'array', items: { $ref: 'probe/Person' } },
    kind: { type: 'string', enum: ['a', 'b'], default: 'a' },
  },
  allOf: [{ if: { required: ['kind'], properties: { kind: { const: 'b' } } }, then: { required: ['bio'] } }],
};
const badge = { $id: 'probe/Badge', type: 'object', additionalProperties: false, properties: { label: { type: 'string' }, at: { type: 'string', format: 'date-time' } } };
const open = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    meta: { type: 'object', additionalProperties: true, properties: { a: { type: 'integer' } } },
    inner: { type: 'object', additionalProperties: false, properties: { keep: { type: 'string' } } },
  },
};
const either = {
  type: 'object',
  additionalProperties: false,
  properties: {
    item: {
      anyOf: [
        { type: 'object', additionalProperties: false, required: ['kind', 'x'], properties: { kind: { const: 'x' }, x: { type: 'integer' } } },
        { type: 'object', additionalProperties: false, required: ['kind', 'y'], properties: { kind: { const: 'y' }, y: { type: 'string' } } },
      ],
    },
  },
};

function registry(): SchemaRegistry {
  const reg = new SchemaRegistry();
  reg.add(badge, 'probe');
  reg.add(person, 'probe');
  return reg;
}

const secret = 'do-not-send';
const at = new Date('2026-11-24T10:00:00.000Z');
const full = {
  id: 1,
  name: 'Ada',
  password_hash: secret,
  bio: null,
  badge: { label: 'Explorer', at, secret },
  tags: ['x'],
  address: { city: 'Paris', street: secret },
  replies: [{ id: 2, name: 'Bo', email: secret, replies: [{ id: 3, name: 'Cy', token: secret }] }],
};

describe('compiled response serializers (allow-list kept)', () => {
  it('compile the shapes they honour exactly, and name why the others keep the allow-list path', () => {
    const reg = registry();
    expect(compileSerializer(reg, { $ref: 'probe/Person' }).reason).to.equal(null);
    expect(compileSerializer(reg, { type: 'array', items: { $ref: 'probe/Person' } }).reason).to.equal(null);
    expect(compileSerializer(reg, { allOf: [{ $ref: 'probe/Person' }] }).reason).to.equal(null);
    expect(compileSerializer(reg, open).reason).to.equal('an object open to more properties');
    expect(compileSerializer(reg, { type: 'object', properties: { a: { type: 'integer' } } }).reason).to.equal('an object open to more properties');
    expect(compileSerializer(reg, { type: 'object', additionalProperties: { type: 'integer' } }).reason).to.equal('an object open to more properties');
    expect(compileSerializer(reg, either).reason).to.equal('anyOf/oneOf other than "X or null"');
    expect(compileSerializer(reg, { type: 'object', additionalProperties: false, patternProperties: { '^x': {} } }).reason).to.equal('keyword patternProperties');
    expect(compileSerializer(reg, { type: ['string', 'integer'] }).reason).to.equal('several types');
    expect(compileSerializer(reg, { type: 'array', items: [{ type: 'string' }] }).reason).to.equal('tuple items');
    expect(compileSerializer(reg, { type: 'object', additionalProperties: false, if: { additionalProperties: false }, then: {} }).reason).to.equal('if/then/else that shapes the answer');
  });

  for (const validate of [false, true]) {
    describe(validate ? 'with response validation (tests, development)' : 'without response validation (production)', () => {
      let server: http.Server;
      let base = '';
      before(async () => {
        const reg = registry();
        const routes = new RouteRegistry();
        const add = (path: string, response: unknown, handler: () => unknown) =>
          routes.add('probe', { method: 'GET', path, operationId: path.replace(/\W/g, ''), schema: { response: response as any }, handler });
        add('/person', { $ref: 'probe/Person' }, () => full);
        add('/people', { type: 'array', items: { $ref: 'probe/Person' } }, () => [full, { ...full, id: 9, kind: 'b', bio: 'hi' }]);
        add('/open', open, () => ({ id: 1, secret, meta: { a: 1, extra: 'kept: open object' }, inner: { keep: 'k', drop: secret } }));
        add('/either', either, () => ({ secret, item: { kind: 'x', x: 7, hidden: secret } }));
        // a required property missing: the serializer refuses; the allow-list path answers (production)
        add('/partial', { $ref: 'probe/Person' }, () => ({ id: 4, secret }));
        const koa = new Koa();
        koa.use(async (ctx, next) => {
          try {
            await next();
          } catch (e) {
            ctx.status = 500;
            ctx.body = { message: (e as Error).message };
          }
        });
        koa.use(buildRouter(reg, routes.routes, { enabled: new Set(['probe']), permissions: new PermissionRegistry(), validateResponses: validate }).routes());
        server = http.createServer(koa.callback());
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      after(() => {
        server.close();
      });

      const get = async (path: string) => {
        const r = await fetch(base + path);
        const text = await r.text();
        return { status: r.status, type: r.headers.get('content-type'), text, body: JSON.parse(text) };
      };

      it('nested objects, arrays, nullable values, "X or null" refs and recursion: only what the schema declares, defaults filled in', async () => {
        const r = await get('/person');
        expect(r.status, r.text).to.equal(200);
        expect(r.type).to.match(/^application\/json/);
        expect(r.text).to.not.include(secret);
        expect(r.body).to.deep.equal({
          id: 1,
          name: 'Ada',
          bio: null,
          badge: { label: 'Explorer', at: at.toISOString() },
          tags: ['x'],
          address: { city: 'Paris' },
          replies: [{ id: 2, name: 'Bo', kind: 'a', replies: [{ id: 3, name: 'Cy', kind: 'a' }] }],
          kind: 'a',
        });
        const list = await get('/people');
        expect(list.text).to.not.include(secret);
        expect(list.body.map((p: any) => [p.id, p.kind, p.bio])).to.deep.equal([
          [1, 'a', null],
          [9, 'b', 'hi'],
        ]);
      });

      it('an open object (additionalProperties true) keeps the allow-list path: its own extra properties pass, closed objects inside stay closed', async () => {
        const r = await get('/open');
        expect(r.status).to.equal(200);
        expect(r.body).to.deep.equal({ id: 1, meta: { a: 1, extra: 'kept: open object' }, inner: { keep: 'k' } });
      });

      it('anyOf of two shapes keeps the allow-list path, which still drops what no branch declares', async () => {
        const r = await get('/either');
        expect(r.status).to.equal(200);
        expect(r.text).to.not.include(secret);
        expect(r.body).to.deep.equal({ item: { kind: 'x', x: 7 } });
      });

      it(validate ? 'an answer missing a required property is an error' : 'an answer the serializer refuses (a required property missing) is written by the allow-list path', async () => {
        const r = await get('/partial');
        if (validate) {
          expect(r.status).to.equal(500);
        } else {
          expect(r.status).to.equal(200);
          expect(r.body).to.deep.equal({ id: 4, kind: 'a' });
        }
      });
    });
  }
});
