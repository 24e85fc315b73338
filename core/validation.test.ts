/**
 * Every registered route, fed generated bad input (wrong types, missing fields, oversized strings,
 * malformed JSON, bad path params, unknown query params), answers with a client error or success,
 * never a 5xx. Routes are enumerated from the registry, so a new route is covered automatically.
 */
import { expect } from 'chai';
import { sharedApp, type TestApp, type TestClient } from './testing/index.ts';
import type { RegisteredRoute } from './plugin-api.ts';

const BAD_PARAMS = ['abc', '-1', '0', '99999999999999', "1'%20or%201=1", '%00', 'null', '1.5'];
const BAD_VALUES: unknown[] = [null, 12345, -1, true, 'x'.repeat(10_000), [], {}, ['a'], { nested: { deep: 1 } }, '', ' ', '<script>alert(1)</script>'];

function fillPath(path: string, value: string) {
  return path.replace(/:(\w+)/g, value);
}

function propsOf(app: TestApp, schema: any): Record<string, any> {
  if (!schema) return {};
  let s = schema;
  for (let i = 0; i < 5 && s?.$ref; i++) s = app.schemas.get(s.$ref.split('#')[0]);
  return s?.properties ?? {};
}

describe('validation: no route answers 5xx to bad input', function () {
  this.timeout(240_000);
  let app: TestApp;
  let admin: TestClient & { me: any };
  const failures: string[] = [];

  before(async () => {
    app = await sharedApp();
  });

  async function signedIn(): Promise<TestClient> {
    if (!admin || (await admin.get('/api/auth/user')).status !== 200) admin = await app.user({ role: 'Admin' });
    return admin;
  }

  async function probe(c: TestClient, r: RegisteredRoute, path: string, body?: unknown, raw?: string) {
    const res = raw !== undefined ? await c.req(r.method, path, raw, { 'content-type': 'application/json' }) : await c.req(r.method, path, body);
    // 502/503/504 with a message are honest answers about an unreachable or unconfigured outside
    // service (Wikidata, geocoding, Google Maps: no network here), not server errors.
    const upstream = [502, 503, 504].includes(res.status) && typeof res.body?.message === 'string' && res.body.message.length > 0;
    if (res.status >= 500 && !upstream) failures.push(`${r.method} ${path} ${raw ?? JSON.stringify(body)?.slice(0, 80)} → ${res.status} ${res.text.slice(0, 200)}`);
    return res;
  }

  it('covers every route with generated bad inputs', async () => {
    const routes = app.routes.filter((r) => app.enabled.has(r.plugin) && !/logout|account$|delete-user/.test(r.path));
    expect(routes.length).to.be.greaterThan(0);
    for (const r of routes) {
      for (const who of ['anonymous', 'signed-in'] as const) {
        const c = who === 'anonymous' ? app.client() : await signedIn();
        const hasParams = /:\w+/.test(r.path);
        if (hasParams) for (const p of BAD_PARAMS) await probe(c, r, fillPath(r.path, p), r.method === 'GET' ? undefined : {});
        const okPath = fillPath(r.path, '1');
        // unknown / wrongly typed query parameters
        const qprops = Object.keys(propsOf(app, r.schema?.query));
        await probe(c, r, `${okPath}?unknownParam=1&limit=-5&page=abc&cursor=%ZZ`);
        for (const q of qprops) {
          await probe(c, r, `${okPath}?${q}=${encodeURIComponent('x'.repeat(5000))}`);
          await probe(c, r, `${okPath}?${q}=-1&${q}=2`);
        }
        if (r.method === 'GET' || r.bodyType === 'multipart') continue;
        await probe(c, r, okPath, undefined, '{"broken": ');
        for (const b of [[], 'text', 42, null]) await probe(c, r, okPath, undefined, JSON.stringify(b));
        const props = propsOf(app, r.schema?.body);
        await probe(c, r, okPath, {});
        for (const [name] of Object.entries(props)) {
          for (const v of BAD_VALUES) await probe(c, r, okPath, { [name]: v });
        }
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});
