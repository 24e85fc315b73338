/**
 * Users tab: list and search, moderation (enforced end to end), roles, deletion, self-protection,
 * and the analytics overview.
 */
import { expect } from 'chai';
import { sharedApp, startTestApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { ModerationService } from '../public.ts';
import { auditOf } from './test-helpers.ts';

async function login(app: TestApp, u: SignedInClient) {
  const c = app.client();
  const r = await c.post('/api/auth/login', { email: u.me.email, password: u.me.password });
  return { client: c, res: r };
}

describe('admin: users, moderation and roles', function () {
  let app: TestApp;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(120_000);
    app = await sharedApp();
    admin = await app.user({ role: 'Admin', firstName: 'Ada', lastName: 'Root' });
  });

  describe('list and search', () => {
    it('lists users 10 per page with email, role and the active moderation; search on name, username and email', async () => {
      const tag = uniqueName('zq');
      const made: SignedInClient[] = [];
      for (let i = 0; i < 12; i++) made.push(await app.user({ username: `${tag}${i}`, firstName: 'Searchy', lastName: `Person${i}` }));
      const p1 = await admin.get(`/api/admin/users?q=${tag}`);
      expect(p1.status).to.equal(200);
      expect(p1.body.total).to.equal(12);
      expect(p1.body.pageSize).to.equal(10);
      expect(p1.body.items).to.have.length(10);
      const p2 = await admin.get(`/api/admin/users?q=${tag}&page=2`);
      expect(p2.body.items).to.have.length(2);
      const row = p1.body.items[0];
      expect(row).to.have.all.keys('id', 'slug', 'username', 'firstName', 'lastName', 'email', 'role', 'profileImageUrl', 'profileImageInfo', 'moderation');
      expect(row.email).to.match(/@example\.test$/);
      expect(row.moderation).to.equal(null);

      const byEmail = await admin.get(`/api/admin/users/search?q=${made[3].me.email.toUpperCase()}`);
      expect(byEmail.status).to.equal(200);
      expect(byEmail.body.items.map((u: any) => u.id)).to.deep.equal([made[3].me.id]);

      await admin.post('/api/admin/moderate-user', { userId: made[5].me.id, type: 'content_restriction', reason: 'spam' });
      const again = await admin.get(`/api/admin/users/search?q=${made[5].me.username}`);
      expect(again.body.items[0].moderation).to.include({ type: 'content_restriction', reason: 'spam', status: 'active', expiresAt: null });
    });

    it('filters by role, accepting other spellings', async () => {
      const m = await app.user({ role: 'Museum Manager' });
      const r = await admin.get(`/api/admin/users?role=museum_manager&q=${m.me.username}`);
      expect(r.body.items.map((u: any) => u.id)).to.deep.equal([m.me.id]);
      expect((await admin.get('/api/admin/users?role=wizard')).status).to.equal(400);
    });
  });

  describe('moderation is enforced', () => {
    it('a temporary ban ends the live session at once and refuses sign-in with a message until it expires', async () => {
      const member = await app.user({});
      const second = (await login(app, member)).client; // a second live session
      expect((await member.get('/api/auth/user')).status).to.equal(200);

      const r = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'temporary_ban', reason: 'Flooding the feed', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ userId: member.me.id, type: 'temporary_ban', status: 'active', reason: 'Flooding the feed' });

      expect((await member.get('/api/auth/user')).status).to.equal(401);
      expect((await second.get('/api/auth/user')).status).to.equal(401);
      const refused = await login(app, member);
      expect(refused.res.status).to.equal(403);
      expect(refused.res.body.message).to.match(/^Your account is suspended until .+ UTC\. Reason: Flooding the feed$/);

      const [entry] = await auditOf(admin, 'user', member.me.id, 'moderate_user_temporary_ban');
      expect(entry).to.include({ reason: 'Flooding the feed', adminId: admin.me.id, adminName: 'Ada Root', adminUsername: admin.me.username, outcome: 'done' });
      expect(entry.details).to.include({ type: 'temporary_ban', moderationId: r.body.id });

      // The clock moves past the expiry: the member signs in again.
      await app.knex('admin_moderations').where({ id: r.body.id }).update({ expires_at: new Date(Date.now() - 1000) });
      const back = await login(app, member);
      expect(back.res.status).to.equal(200);
      expect((await back.client.get('/api/auth/user')).status).to.equal(200);
      const mods = await admin.get(`/api/admin/moderations?status=all&userId=${member.me.id}`);
      expect(mods.body.items[0].status).to.equal('expired');
      expect((await admin.get(`/api/admin/moderations?userId=${member.me.id}`)).body.total).to.equal(0);
    });

    it('a temporary ban without an expiry lasts 7 days; a permanent ban has none and can be lifted', async () => {
      const member = await app.user({});
      const t = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'temporary_ban', reason: 'cool off' });
      const days = (new Date(t.body.expiresAt).getTime() - Date.now()) / 86400_000;
      expect(days).to.be.within(6.99, 7.01);
      await admin.post(`/api/admin/moderations/${t.body.id}/lift`, { reason: 'appeal' });

      const p = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'permanent_ban', reason: 'fraud', expiresAt: '' });
      expect(p.status).to.equal(201);
      expect(p.body.expiresAt).to.equal(null);
      const refused = await login(app, member);
      expect(refused.res.status).to.equal(403);
      expect(refused.res.body.message).to.equal('Your account has been permanently banned. Reason: fraud');

      const lift = await admin.post(`/api/admin/moderations/${p.body.id}/lift`, { reason: 'mistake' });
      expect(lift.status).to.equal(200);
      expect(lift.body.status).to.equal('revoked');
      expect((await admin.post(`/api/admin/moderations/${p.body.id}/lift`, {})).status).to.equal(409);
      expect((await login(app, member)).res.status).to.equal(200);
      const [entry] = await auditOf(admin, 'user', member.me.id, 'lift_user_moderation');
      expect(entry.reason).to.equal('mistake');
    });

    it('a content restriction refuses posting (insights) until lifted, and the member is told', async () => {
      const member = await app.user({});
      expect((await member.post('/api/posts', { type: 'text', content: 'Before the restriction' })).status).to.equal(201);
      const until = new Date(Date.now() + 2 * 86400_000).toISOString();
      const r = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'content_restriction', reason: 'Off-topic posts', expiresAt: until });
      expect(r.status).to.equal(201);
      expect(await app.services.get(ModerationService).isRestricted(member.me.id)).to.equal(true);
      const refused = await member.post('/api/posts', { type: 'text', content: 'During the restriction' });
      expect(refused.status).to.equal(403);
      expect((await member.get('/api/auth/user')).status).to.equal(200); // still signed in: only content is refused

      const inbox = await member.get('/api/notifications');
      const note = inbox.body.items.find((n: any) => n.type === 'moderation');
      expect(note, 'restriction notification').to.exist;
      expect(note.message).to.contain('Off-topic posts');

      await admin.post(`/api/admin/moderations/${r.body.id}/lift`, {});
      expect(await app.services.get(ModerationService).isRestricted(member.me.id)).to.equal(false);
      expect((await member.post('/api/posts', { type: 'text', content: 'After the restriction' })).status).to.equal(201);
    });

    it('a warning notifies the member (type moderation) and does not restrict', async () => {
      const member = await app.user({});
      const r = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'warning', reason: 'Be kind in comments' });
      expect(r.status).to.equal(201);
      const inbox = await member.get('/api/notifications');
      expect(inbox.status).to.equal(200);
      const note = inbox.body.items.find((n: any) => n.type === 'moderation');
      expect(note).to.include({ title: 'You received a warning', message: 'An administrator warned you: Be kind in comments' });
      expect(await app.services.get(ModerationService).isRestricted(member.me.id)).to.equal(false);
      expect((await admin.get(`/api/admin/users/search?q=${member.me.username}`)).body.items[0].moderation.type).to.equal('warning');
    });

    it('validates: reason required, expiry only for temporary bans and restrictions, in the future, user must exist', async () => {
      const member = await app.user({});
      const noReason = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'warning', reason: '  ' });
      expect(noReason.status).to.equal(400);
      expect(noReason.body.message).to.equal('Reason is required');
      const missing = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'warning' });
      expect(missing.body.message).to.equal('Reason is required');
      const warnExpiry = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'warning', reason: 'x', expiresAt: new Date(Date.now() + 1e6).toISOString() });
      expect(warnExpiry.status).to.equal(400);
      const past = await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'content_restriction', reason: 'x', expiresAt: '2001-01-01T00:00:00Z' });
      expect(past.body.message).to.equal('Expiry must be in the future');
      expect((await admin.post('/api/admin/moderate-user', { userId: member.me.id, type: 'delete_user', reason: 'x' })).status).to.equal(400);
      expect((await admin.post('/api/admin/moderate-user', { userId: 2147480000, type: 'warning', reason: 'x' })).status).to.equal(404);
      expect((await admin.get(`/api/admin/moderations?status=all&userId=${member.me.id}`)).body.total).to.equal(0);
    });
  });

  describe('roles and deletion', () => {
    it('changes a role (other spellings accepted) and records before/after', async () => {
      const member = await app.user({});
      const r = await admin.post('/api/admin/change-user-role', { userId: member.me.id, role: 'museum_manager' });
      expect(r.status).to.equal(200);
      expect(r.body.role).to.equal('Museum Manager');
      expect((await member.get('/api/auth/user')).body.role).to.equal('Museum Manager');
      const [entry] = await auditOf(admin, 'user', member.me.id, 'change_user_role');
      expect(entry.details).to.include({ before: 'Traveler', after: 'Museum Manager' });
      const bad = await admin.post('/api/admin/change-user-role', { userId: member.me.id, role: 'Overlord' });
      expect(bad.status).to.equal(400);
      // names of Object.prototype's members are not roles (the fuzzer's seed 619478945 got a 500)
      for (const role of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        const proto = await admin.post('/api/admin/change-user-role', { userId: member.me.id, role });
        expect(proto.status, `${role}: ${proto.text}`).to.equal(400);
      }
      expect((await admin.post('/api/admin/change-user-role', { userId: 2147480000, role: 'Admin' })).status).to.equal(404);
    });

    it('deletes a user (reason in the JSON body of DELETE) with a snapshot in the audit log', async () => {
      const member = await app.user({ firstName: 'Gone', lastName: 'Soon' });
      const noReason = await admin.del('/api/admin/delete-user', { userId: member.me.id });
      expect(noReason.status).to.equal(400);
      expect(noReason.body.message).to.equal('Reason is required');
      const r = await admin.del('/api/admin/delete-user', { userId: member.me.id, reason: 'Requested by the member' });
      expect(r.status).to.equal(200);
      expect((await member.get('/api/auth/user')).status).to.equal(401);
      expect((await admin.get(`/api/admin/users/search?q=${member.me.username}`)).body.total).to.equal(0);
      const [entry] = await auditOf(admin, 'user', member.me.id, 'delete_user');
      expect(entry).to.include({ reason: 'Requested by the member', outcome: 'done' });
      expect(entry.details).to.include({ username: member.me.username, email: member.me.email, name: 'Gone Soon' });
      expect((await admin.del('/api/admin/delete-user', { userId: member.me.id, reason: 'again' })).status).to.equal(404);
    });

    it('an admin cannot ban, restrict, warn, demote or delete themselves', async () => {
      const me = admin.me.id;
      for (const type of ['warning', 'temporary_ban', 'permanent_ban', 'content_restriction']) {
        const r = await admin.post('/api/admin/moderate-user', { userId: me, type, reason: 'x' });
        expect(r.status, type).to.equal(400);
        expect(r.body.message).to.equal('You cannot moderate yourself');
      }
      const role = await admin.post('/api/admin/change-user-role', { userId: me, role: 'Traveler' });
      expect(role.status).to.equal(400);
      expect(role.body.message).to.equal('You cannot change your own role');
      const del = await admin.del('/api/admin/delete-user', { userId: me, reason: 'x' });
      expect(del.status).to.equal(400);
      expect((await admin.get('/api/auth/user')).body.role).to.equal('Admin');
    });

    it('a demoted or banned admin loses the dashboard at once', async () => {
      const other = await app.user({ role: 'Admin' });
      expect((await other.get('/api/admin/users')).status).to.equal(200);
      await admin.post('/api/admin/change-user-role', { userId: other.me.id, role: 'Traveler' });
      expect((await other.get('/api/admin/users')).status).to.equal(403);
      const third = await app.user({ role: 'Admin' });
      expect((await admin.post('/api/admin/moderate-user', { userId: third.me.id, type: 'temporary_ban', reason: 'compromised account' })).status).to.equal(201);
      expect((await third.get('/api/admin/users')).status).to.equal(401);
    });
  });

  describe('analytics overview', () => {
    it('answers metric/value pairs computed from the data; daily active users count members seen in 24 h', async () => {
      const get = async () => Object.fromEntries((await admin.get('/api/admin/analytics/overview')).body.map((m: any) => [m.metric, m.value]));
      const before = await get();
      expect(Object.keys(before)).to.deep.equal(['total_users', 'total_museums', 'daily_active_users', 'monthly_revenue']);
      const fresh = await app.user({});
      await fresh.get('/api/auth/user');
      const after = await get();
      expect(after.total_users).to.equal(before.total_users + 1);
      expect(after.daily_active_users).to.equal(before.daily_active_users + 1);
      await app.knex('admin_user_activity').where({ user_id: fresh.me.id }).update({ last_seen_at: new Date(Date.now() - 25 * 3600_000) });
      expect((await get()).daily_active_users).to.equal(before.daily_active_users);
    });
  });
});

describe('admin: the last Admin stays (a database of its own)', function () {
  let app: TestApp;
  before(async function () {
    this.timeout(120_000);
    app = await startTestApp();
  });
  after(() => app?.close());

  it('two admins demoting each other at once: exactly one succeeds and one Admin remains', async () => {
    const a = await app.user({ role: 'Admin' });
    const b = await app.user({ role: 'Admin' });
    const [ra, rb] = await Promise.all([
      a.post('/api/admin/change-user-role', { userId: b.me.id, role: 'Traveler' }),
      b.post('/api/admin/change-user-role', { userId: a.me.id, role: 'Traveler' }),
    ]);
    expect([ra.status, rb.status].sort()).to.deep.equal([200, 403]);
    expect(await app.knex('users').where({ role: 'Admin' }).count({ n: '*' }).then((r) => Number(r[0].n))).to.equal(1);
  });

  it('two admins deleting each other at once: exactly one succeeds', async () => {
    const [a, b] = [await app.user({ role: 'Admin' }), await app.user({ role: 'Admin' })];
    const [ra, rb] = await Promise.all([
      a.del('/api/admin/delete-user', { userId: b.me.id, reason: 'x' }),
      b.del('/api/admin/delete-user', { userId: a.me.id, reason: 'y' }),
    ]);
    // The loser is refused: 403 when its request got past sign-in before the other deletion, 401 after.
    expect([ra.status, rb.status].filter((x) => x === 200)).to.have.length(1);
    expect([ra.status, rb.status].filter((x) => x === 401 || x === 403)).to.have.length(1);
    expect(await app.knex('users').whereIn('id', [a.me.id, b.me.id]).count({ n: '*' }).then((r) => Number(r[0].n))).to.equal(1);
  });
});
