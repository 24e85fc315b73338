/**
 * Authorization matrix (issue 10): every registered route × every role × own/other's object,
 * against the one table in core/quality/authz/. Built through the real HTTP API on an app of its
 * own (admin probes delete users and museums).
 *
 * AUTHZ_RECORD=1 prints what each cell answered instead of failing: the quick way to draft the
 * row of a new route (then read the plugin and write the expectation the product should have).
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../testing/index.ts';
import { buildWorld, meetupBody, museumBody, must, ROLES, type World, type Role } from './fixtures/world.ts';
import { startExternalStub, type ExternalStub } from './fixtures/external-stub.ts';
import { AUTHZ_TABLE } from './authz/index.ts';
import { knownBug } from './known-bugs.ts';
import { buildPath, expectationFor, isSuccess, matches, type AuthzRow, type Expect, type Obj } from './authz/types.ts';

const RECORD = process.env.AUTHZ_RECORD === '1';

interface Cell {
  as: Role;
  obj: Obj | null;
  expect: Expect | undefined;
}

function cellsOf(row: AuthzRow): Cell[] {
  const out: Cell[] = [];
  for (const as of ROLES) {
    for (const obj of row.objects ?? [null]) {
      if (obj === 'own' && as === 'anon') continue; // a visitor owns nothing
      out.push({ as, obj, expect: expectationFor(row, as, obj) });
    }
  }
  // Refusals first, then the probes that succeed (and may change what later probes see).
  return out.sort((a, b) => Number(a.expect !== undefined && isSuccess(a.expect)) - Number(b.expect !== undefined && isSuccess(b.expect)));
}

async function probe(w: World, row: AuthzRow, cell: Cell): Promise<{ status: number; text: string } | null> {
  const client = w.c[cell.as];
  const req = row.req ? await row.req({ w, as: cell.as, obj: cell.obj, client }) : {};
  if (req === null) return null;
  const method = row.route.split(' ')[0];
  const path = buildPath(row.route, req);
  const c = req.client ?? client;
  const r = req.files ? await c.upload(path, req.files, req.fields ?? {}, method) : await c.req(method, path, req.body);
  return { status: r.status, text: r.text };
}

describe('quality: authorization matrix', function () {
  this.timeout(600_000);
  let app: TestApp;
  let w: World;
  let stub: ExternalStub;
  const rows = Object.entries(AUTHZ_TABLE).flatMap(([plugin, list]) => list.map((r) => ({ plugin, row: r })));

  before(async () => {
    stub = await startExternalStub();
    app = await startTestApp(stub.overrides());
    w = await buildWorld(app);
  });
  after(async () => {
    await app?.close();
    await stub?.close();
  });

  it('has exactly one row for every registered route, and no row for a route that does not exist', () => {
    const registered = app.routes.filter((r) => app.enabled.has(r.plugin) || r.plugin === 'core').map((r) => `${r.method} ${r.path}`);
    const tabled = rows.map((r) => r.row.route);
    const dup = tabled.filter((r, i) => tabled.indexOf(r) !== i);
    expect(dup, 'routes with two rows').to.deep.equal([]);
    expect(registered.filter((r) => !tabled.includes(r)), 'routes without a row in core/quality/authz/<plugin>.ts').to.deep.equal([]);
    expect(tabled.filter((r) => !registered.includes(r)), 'rows for routes that are not registered').to.deep.equal([]);
    // rows sit in their owner's file
    for (const { plugin, row } of rows) {
      const def = app.routes.find((r) => `${r.method} ${r.path}` === row.route);
      expect(def?.plugin, `${row.route} is in authz/${plugin}.ts`).to.equal(plugin);
    }
  });

  it('has an expectation for every route × role × object', () => {
    const missing: string[] = [];
    for (const { row } of rows) for (const c of cellsOf(row)) if (c.expect === undefined) missing.push(`${row.route} as ${c.as}${c.obj ? `:${c.obj}` : ''}`);
    expect(missing).to.deep.equal([]);
  });

  for (const { plugin, row } of rows) {
    it(`${row.route}  [${plugin}]`, async function () {
      const failures: string[] = [];
      const known: string[] = [];
      const seen: string[] = [];
      for (const cell of cellsOf(row)) {
        if (cell.expect === 'n/a') continue;
        const r = await probe(w, row, cell);
        const label = `${cell.as}${cell.obj ? `:${cell.obj}` : ''}`;
        if (r === null) {
          failures.push(`${label}: the row builds no request but expects ${cell.expect}`);
          continue;
        }
        seen.push(`${label}=${r.status}`);
        const ok = r.status < 500 && cell.expect !== undefined && matches(cell.expect, r.status);
        const bug = row.bugs?.[label] ?? row.bugs?.[cell.as];
        if (bug) {
          const b = knownBug(bug);
          if (ok) failures.push(`${label}: known bug '${bug}' (${b.owner}) is fixed — remove it from the row and from core/quality/known-bugs.ts`);
          else known.push(`${label} answered ${r.status}: known bug '${bug}' (${b.owner})`);
          continue;
        }
        if (r.status >= 500) failures.push(`${label}: ${r.status} ${r.text.slice(0, 300)}`);
        else if (!ok) failures.push(`${label}: expected ${cell.expect}, got ${r.status} ${r.text.slice(0, 200)}`);
      }
      if (RECORD) {
        console.log(`    ${row.route}: ${seen.join(' ')}`);
        return;
      }
      expect(failures, `${row.route}\n      ${failures.join('\n      ')}`).to.deep.equal([]);
      if (known.length) this.test!.title += `  (KNOWN BUG: ${known.join('; ')})`;
    });
  }

  describe('object-level probes', () => {
    it('mass assignment: role, id or an owner field in a body never takes effect', async () => {
      const t = w.c.traveler as any;
      const before = await app.knex('users').where({ id: t.me.id }).first('role', 'email');
      const r1 = await t.put('/api/user/profile', { bio: 'mass assignment probe', role: 'Admin', id: w.other.me.id });
      expect(r1.status, r1.text).to.be.oneOf([200, 400]);
      const me = await t.get('/api/auth/user');
      expect(me.body.role).to.equal('Traveler');
      expect(me.body.id).to.equal(t.me.id);
      expect(await app.knex('users').where({ id: t.me.id }).first('role', 'email')).to.deep.equal(before);
      expect((await app.knex('users').where({ id: w.other.me.id }).first('bio')).bio).to.not.equal('mass assignment probe');

      const r2 = await app.client().post('/api/auth/register', { email: `ma${Date.now()}@example.test`, password: 'a-Fine-passphrase-93', firstName: 'M', lastName: 'A', username: `ma${Date.now()}`, role: 'Admin' });
      if (r2.status === 201) expect(r2.body.role).to.equal('Traveler');
      else expect(r2.status).to.equal(400);

      const r3 = await t.post('/api/posts', { type: 'text', content: 'owner probe', userId: w.other.me.id });
      if (r3.status === 201) expect(r3.body.user.id).to.equal(t.me.id);
      else expect(r3.status).to.equal(400);

      const r4 = await w.c.creator.patch(`/api/communities/${w.community.id}`, { creatorId: t.me.id, memberCount: 999 });
      expect(r4.status).to.be.oneOf([200, 400]);
      const c = await w.c.creator.get(`/api/communities/${w.community.id}`);
      expect(c.body.creator.id).to.equal(w.u.creator.id);
      expect(c.body.memberCount).to.be.below(999);

      const r5 = await w.c.creator.post(`/api/communities/${w.community.id}/meetups`, { ...meetupBody('Owner probe'), organizerId: t.me.id });
      expect(r5.status, r5.text).to.equal(201);
      expect(r5.body.organizer.id).to.equal(w.u.creator.id);
    });

    it("editing another member's post or another community's members through a mismatched path is refused", async () => {
      // a moderator of C removing a member of D by naming C in the path with D's member id
      const r1 = await w.c.moderator.del(`/api/communities/${w.community.id}/members/${w.memberIds.otherInD}`);
      expect(r1.status).to.be.oneOf([403, 404]);
      // the creator of C names D's member under C's id: not a member of C
      const r2 = await w.c.creator.del(`/api/communities/${w.community.id}/members/${w.memberIds.otherInD}`);
      expect(r2.status).to.equal(404);
      expect(await app.knex('community_members').where({ id: w.memberIds.otherInD }).first('id')).to.exist;
      // D's post deleted by C's creator
      const r3 = await w.c.creator.del(`/api/community-posts/${w.dPost.id}`);
      expect(r3.status).to.equal(403);
      // another member's insight and group post
      expect((await w.c.member.del(`/api/posts/${w.post.id}`)).status).to.equal(403);
      expect((await w.c.traveler.del(`/api/group-posts/${w.gPost.id}`)).status).to.equal(403);
      // a manager of B editing A, or A's event
      expect((await w.c.managerOther.patch(`/api/museums/${w.museumA.id}/edit`, museumBody(w.museumA.name))).status).to.equal(403);
      expect((await w.c.managerOther.del(`/api/museum-events/${w.museumEvent.id}`)).status).to.equal(403);
      // another member's notification
      expect((await w.c.member.post(`/api/notifications/999999/read`)).status).to.equal(404);
      // still there
      expect((await w.other.get(`/api/posts/${w.post.id}`)).status).to.equal(200);
    });

    it('private communities and groups: non-members see neither their discussions nor their meetups', async () => {
      const secret = must(await w.c.creator.post(`/api/communities/${w.privateCommunity.id}/meetups`, meetupBody('Private community meetup')), 'private meetup');
      const g = must(await w.c.creator.post('/api/groups', { name: 'Private group', isPrivate: true }), 'private group');
      const gSecret = must(await w.c.creator.post(`/api/groups/${g.id}/meetups`, meetupBody('Private group meetup')), 'private group meetup');
      const t = w.c.traveler;
      // what already holds
      expect((await t.get(`/api/communities/${w.privateCommunity.id}/posts`)).status).to.equal(403);
      expect((await t.get(`/api/communities/${w.privateCommunity.id}/members`)).status).to.equal(403);
      expect((await t.get(`/api/groups/${g.id}`)).status).to.equal(403);
      expect((await t.get(`/api/groups/${g.id}/posts`)).status).to.equal(403);
      // meetups
      const leaks: string[] = [];
      for (const path of [`/api/meetups/${secret.id}`, `/api/meetups/${gSecret.id}`, `/api/communities/${w.privateCommunity.id}/meetups`, `/api/groups/${g.id}/meetups`]) {
        const r = await t.get(path);
        if (r.status === 200 && JSON.stringify(r.body).includes('meetup')) leaks.push(`${path} → 200`);
      }
      for (const path of ['/api/meetups?limit=200', '/api/search/events?q=Private']) {
        const r = await t.get(path);
        const ids = (r.body ?? []).map((e: any) => e.id);
        if (ids.includes(secret.id) || ids.includes(gSecret.id)) leaks.push(`${path} lists them`);
      }
      expect(leaks).to.deep.equal([]);
    });
  });
});
