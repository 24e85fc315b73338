/**
 * Badges, notifications, monetization and the audit log itself.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { planFeatures, toCents } from '../shared/monetization.ts';
import { actionIcon, actionStyle, pageWindow, titleCase } from '../shared/actions.ts';
import { numericIds } from './routes-content.ts';
import { auditOf } from './test-helpers.ts';

describe('admin: badges, notifications, monetization, audit log', function () {
  let app: TestApp;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(120_000);
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  describe('badges', () => {
    it('creates, edits and deletes badges with audit entries; lists recent earnings and the completion rate', async () => {
      const input = { name: uniqueName('Explorer '), description: 'Check in twice', icon: '🧭', color: '#3B82F6', requirement: { type: 'check_ins', count: 2 } };
      const c = await admin.post('/api/admin/badges', input);
      expect(c.status).to.equal(201);
      expect(c.body).to.include({ name: input.name, icon: '🧭', earnedCount: 0 });
      const u = await admin.put(`/api/admin/badges/${c.body.id}`, { ...input, id: c.body.id, requirement: { type: 'check_ins', count: 1 } });
      expect(u.status).to.equal(200);
      expect(u.body.requirement.count).to.equal(1);
      const [upd] = await auditOf(admin, 'badge', c.body.id, 'update_badge');
      expect(upd.details.before.requirement.count).to.equal(2);
      expect(upd.details.after.requirement.count).to.equal(1);

      // A member earns it.
      const member = await app.user({});
      await app.events.emit('museums.museum.checkedIn', { userId: member.me.id, museumId: 1, checkInId: 1_000_000_000 + Math.floor(Math.random() * 1e9), verified: true });
      const recent = await admin.get('/api/admin/user-badges');
      expect(recent.status).to.equal(200);
      expect(recent.body.length).to.be.at.most(10);
      expect(recent.body.some((ub: any) => ub.userId === member.me.id && ub.badgeId === c.body.id)).to.equal(true);
      const stats = await admin.get('/api/admin/badges/stats');
      expect(stats.body.badgeCount).to.be.at.least(1);
      expect(stats.body.completionRate).to.be.closeTo((stats.body.earnedCount / stats.body.badgeCount) * 100, 0.01);

      const list = await admin.get('/api/admin/badges');
      const earnedBeforeDelete = list.body.find((b: any) => b.id === c.body.id).earnedCount;
      // A 1-check-in badge is also awarded (retroactively) to other members of this shared test app.
      const earners = recent.body.filter((ub: any) => ub.badgeId === c.body.id).length;
      expect(list.body.find((b: any) => b.id === c.body.id).earnedCount).to.be.at.least(Math.max(1, earners));

      const tooLong = await admin.post('/api/admin/badges', { ...input, name: uniqueName('B'), icon: '🏆🏆🏆' });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.message).to.equal('Icon must be at most 2 characters');
      expect(await auditOf(admin, 'badge', null, 'create_badge').then((l) => l.filter((e) => e.details?.after?.name === tooLong.body?.name))).to.have.length(0);

      const d = await admin.del(`/api/admin/badges/${c.body.id}`);
      expect(d.status).to.equal(200);
      expect((await admin.get('/api/admin/badges')).body.some((b: any) => b.id === c.body.id)).to.equal(false);
      const [del] = await auditOf(admin, 'badge', c.body.id, 'delete_badge');
      expect(del.details).to.include({ name: input.name });
      expect(del.details.earnedCount).to.be.at.least(earnedBeforeDelete);
      expect((await admin.del(`/api/admin/badges/${c.body.id}`)).status).to.equal(404);
      expect((await admin.put(`/api/admin/badges/${c.body.id}`, input)).status).to.equal(404);
    });
  });

  describe('notifications', () => {
    it('sends to listed ids (non-numeric dropped) and answers the count; title and message required', async () => {
      const a = await app.user({});
      const b = await app.user({});
      const r = await admin.post('/api/admin/send-notification', { title: 'Maintenance', message: 'Tonight at 10', targetUserIds: [a.me.id, String(b.me.id), 'abc', '', 1.5, -2] });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ count: 2, success: true });
      const inbox = await a.get('/api/notifications');
      expect(inbox.body.items[0]).to.include({ title: 'Maintenance', message: 'Tonight at 10', type: 'admin', priority: 'normal' });
      const [entry] = await auditOf(admin, 'notification', null, 'send_notification');
      expect(entry.details).to.include({ title: 'Maintenance', audience: 'users', count: 2, priority: 'normal' });

      for (const body of [{ title: '', message: 'x' }, { title: 'x', message: '   ' }, { message: 'x' }]) {
        const bad = await admin.post('/api/admin/send-notification', body);
        expect(bad.status).to.equal(400);
        expect(bad.body.message).to.equal('Please fill in all required fields');
      }
      const none = await admin.post('/api/admin/send-notification', { title: 't', message: 'm', targetUserIds: ['abc'] });
      expect(none.status).to.equal(400);
    });

    it('sends to every member without ids, with a priority', async () => {
      const a = await app.user({});
      const r = await admin.post('/api/admin/send-notification', { title: 'Hello all', message: 'Welcome', priority: 'high' });
      expect(r.status).to.equal(200);
      expect(r.body.count).to.be.at.least(2);
      const inbox = await a.get('/api/notifications');
      expect(inbox.body.items.find((n: any) => n.title === 'Hello all')).to.include({ priority: 'high' });
    });

    it('previews the recipient count before sending, and a preview sends and records nothing (issue 21)', async () => {
      const a = await app.user({});
      const title = uniqueName('Preview ');
      const count = async (table: string) => Number((await app.knex(table).count({ n: '*' }))[0].n);
      const before = { sends: await count('notification_sends'), actions: await count('admin_actions'), inbox: await count('notifications') };
      const all = await admin.post('/api/admin/send-notification', { title, message: 'm', preview: true });
      expect(all.status, all.text).to.equal(200);
      expect(all.body).to.deep.equal({ count: await count('users'), success: true, preview: true });
      const some = await admin.post('/api/admin/send-notification', { title, message: 'm', targetUserIds: [a.me.id, admin.me.id, 2147483000, 'abc'], preview: true });
      expect(some.body).to.deep.equal({ count: 2, success: true, preview: true });
      expect({ sends: await count('notification_sends'), actions: await count('admin_actions'), inbox: await count('notifications') }).to.deep.equal(before);
      expect((await a.get('/api/notifications')).body.items.some((n: any) => n.title === title)).to.equal(false);
      // the same checks as a send: title and message required, members only
      expect((await admin.post('/api/admin/send-notification', { title: ' ', message: 'm', preview: true })).status).to.equal(400);
      expect((await a.post('/api/admin/send-notification', { title, message: 'm', preview: true })).status).to.equal(403);
      // the send itself reaches the previewed number
      const sent = await admin.post('/api/admin/send-notification', { title, message: 'm', targetUserIds: [a.me.id, admin.me.id, 2147483000] });
      expect(sent.body.count).to.equal(2);
    });

    it('drops non-numeric ids', () => {
      expect(numericIds([1, '2', ' 3 ', 'x', '4a', '', 0, -1, 2.5, '2', null, {}])).to.deep.equal([1, 2, 3]);
    });
  });

  describe('monetization', () => {
    it('creates the default plan with the §9 features; amounts are decimals in the API and cents in the database', async () => {
      const r = await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'basic', amount: 9.99, currency: 'USD', features: { exclusiveContent: true } });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ type: 'premium_subscription', plan: 'basic', amount: 9.99, currency: 'USD', status: 'active' });
      expect(r.body.features).to.deep.equal({ unlimitedCheckIns: true, prioritySupport: false, exclusiveContent: false, advancedAnalytics: false });
      const row = await app.knex('admin_monetization_plans').where({ id: r.body.id }).first();
      expect(Number(row.amount_cents)).to.equal(999);
      const [entry] = await auditOf(admin, 'monetization_plan', r.body.id, 'create_monetization_plan');
      expect(entry.details).to.include({ amountCents: 999, currency: 'USD' });

      const three = await admin.post('/api/admin/monetization', { type: 'event_promotion', plan: 'basic', amount: 19.999, currency: 'USD' });
      expect(three.status).to.equal(400);
      expect(three.body.message).to.equal('Amount must have at most 2 decimal places');
      expect((await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'basic', currency: 'USD' })).body.message).to.equal('Amount is required');
      expect((await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'basic', amount: 5, currency: 'JPY' })).status).to.equal(400);
    });

    it('links a plan to a member or a museum', async () => {
      const member = await app.user({ firstName: 'Paying', lastName: 'Member' });
      const p = await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'premium', amount: 19.99, currency: 'EUR', userId: member.me.id });
      expect(p.body.user).to.include({ firstName: 'Paying', lastName: 'Member', email: member.me.email, role: 'Traveler' });
      expect(p.body.features).to.deep.equal({ unlimitedCheckIns: true, prioritySupport: true, exclusiveContent: true, advancedAnalytics: true });
      expect((await admin.post('/api/admin/monetization', { type: 'museum_partnership', plan: 'basic', amount: 49.99, currency: 'USD', museumId: 2147480000 })).status).to.equal(404);
    });

    it('activates and deactivates with the status only; an expired plan reads expired and can be reactivated', async () => {
      const p = (await admin.post('/api/admin/monetization', { type: 'museum_partnership', plan: 'enterprise', amount: 49.99, currency: 'GBP' })).body;
      expect(Object.values(p.features).every(Boolean)).to.equal(true);
      const off = await admin.patch(`/api/admin/monetization/${p.id}`, { status: 'inactive' });
      expect(off.status).to.equal(200);
      expect(off.body.status).to.equal('inactive');
      expect((await admin.patch(`/api/admin/monetization/${p.id}`, { status: 'inactive' })).status).to.equal(409);
      expect((await admin.patch(`/api/admin/monetization/${p.id}`, { status: 'active', amount: 1 })).status).to.equal(400);
      const on = await admin.patch(`/api/admin/monetization/${p.id}`, { status: 'active' });
      expect(on.body.status).to.equal('active');
      await app.knex('admin_monetization_plans').where({ id: p.id }).update({ end_date: new Date(Date.now() - 1000) });
      const listed = (await admin.get('/api/admin/monetization?status=expired&pageSize=100')).body.items;
      expect(listed.find((x: any) => x.id === p.id).status).to.equal('expired');
      const again = await admin.patch(`/api/admin/monetization/${p.id}`, { status: 'active' });
      expect(again.body).to.include({ status: 'active', endDate: null });
      const actions = (await auditOf(admin, 'monetization_plan', p.id)).map((e) => e.action);
      expect(actions).to.deep.equal(['activate_monetization_plan', 'activate_monetization_plan', 'deactivate_monetization_plan', 'create_monetization_plan']);
      expect((await admin.patch('/api/admin/monetization/2147480000', { status: 'active' })).status).to.equal(404);
    });

    it('revenue statistics per currency (sum of active, mean over all) and monthly revenue in USD cents', async () => {
      const overview = async () => (await admin.get('/api/admin/analytics/overview')).body.find((m: any) => m.metric === 'monthly_revenue').value;
      const stats = async () => (await admin.get('/api/admin/monetization/stats')).body;
      const before = await stats();
      const revBefore = await overview();
      const a = (await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'basic', amount: 10, currency: 'USD' })).body;
      await admin.post('/api/admin/monetization', { type: 'event_promotion', plan: 'basic', amount: 19.99, currency: 'USD' });
      const c = (await admin.post('/api/admin/monetization', { type: 'premium_subscription', plan: 'basic', amount: 5.5, currency: 'USD' })).body;
      await admin.patch(`/api/admin/monetization/${c.id}`, { status: 'inactive' });
      const after = await stats();
      const usd = (s: any) => s.currencies.find((x: any) => x.currency === 'USD') ?? { activeRevenue: 0, totalPlans: 0, activePlans: 0, averageRevenue: 0 };
      expect(usd(after).activeRevenue).to.be.closeTo(usd(before).activeRevenue + 29.99, 0.001);
      expect(usd(after).totalPlans).to.equal(usd(before).totalPlans + 3);
      expect(usd(after).activePlans).to.equal(usd(before).activePlans + 2);
      const rows = await app.knex('admin_monetization_plans').where({ currency: 'USD' }).select('amount_cents');
      const mean = rows.reduce((s: number, r: any) => s + Number(r.amount_cents), 0) / rows.length / 100;
      expect(usd(after).averageRevenue).to.be.closeTo(mean, 0.006);
      expect(await overview()).to.equal(revBefore + 1000 + 1999);
      expect(a.amount).to.equal(10);
    });

    it('feature rules and cents conversion', () => {
      expect(planFeatures('premium_subscription', 'enterprise')).to.deep.equal({ unlimitedCheckIns: true, prioritySupport: true, exclusiveContent: false, advancedAnalytics: false });
      expect(planFeatures('event_promotion', 'basic', { featuredPlacement: true, bogus: true })).to.deep.equal({ featuredPlacement: true, memberNotification: false, socialSharing: false });
      expect(toCents(9.99)).to.equal(999);
      expect(toCents(0.1 + 0.2)).to.equal(30); // binary noise is not a third decimal
      expect(toCents(9.999)).to.equal(null);
      expect(toCents(49.99)).to.equal(4999);
      expect(toCents(1.005)).to.equal(null);
    });
  });

  describe('audit log', () => {
    it('pages newest first with admin name and username', async () => {
      const p1 = await admin.get('/api/admin/actions/all?pageSize=3');
      expect(p1.status).to.equal(200);
      expect(p1.body).to.include({ page: 1, pageSize: 3 });
      expect(p1.body.items).to.have.length(3);
      const p2 = await admin.get('/api/admin/actions/all?pageSize=3&page=2');
      expect(p2.body.items[0].id).to.be.lessThan(p1.body.items[2].id);
      const item = p1.body.items[0];
      expect(item).to.have.all.keys('id', 'action', 'targetType', 'targetId', 'reason', 'details', 'adminId', 'adminName', 'adminUsername', 'outcome', 'createdAt');
      expect((await admin.get('/api/admin/actions/all')).body.pageSize).to.equal(10);
    });

    it('a failed delegated change leaves no entry', async () => {
      const before = (await admin.get('/api/admin/actions/all?pageSize=1')).body.total;
      expect((await admin.post('/api/admin/verify-museum', { museumId: 2147480000, verified: true })).status).to.equal(404);
      expect((await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: 2147480000 })).status).to.equal(404);
      expect((await admin.get('/api/admin/actions/all?pageSize=1')).body.total).to.equal(before);
    });

    it('names, icons, styles and the 5-button window of the Recent Admin Actions list', () => {
      expect(titleCase('approve_museum_edit_suggestion')).to.equal('Approve Museum Edit Suggestion');
      expect(actionIcon('moderate_user_permanent_ban')).to.equal('user');
      expect(actionIcon('verify_museum')).to.equal('museum');
      expect(actionIcon('delete_badge')).to.equal('badge');
      expect(actionIcon('send_notification')).to.equal('notification');
      expect(actionStyle('delete_user')).to.equal('destructive');
      expect(actionStyle('moderate_user_temporary_ban')).to.equal('destructive');
      expect(actionStyle('approve_museum_suggestion')).to.equal('default');
      expect(actionStyle('moderate_user_warning')).to.equal('secondary');
      expect(actionStyle('create_monetization_plan')).to.equal('outline');
      expect(pageWindow(1, 12)).to.deep.equal([1, 2, 3, 4, 5]);
      expect(pageWindow(7, 12)).to.deep.equal([5, 6, 7, 8, 9]);
      expect(pageWindow(12, 12)).to.deep.equal([8, 9, 10, 11, 12]);
      expect(pageWindow(2, 3)).to.deep.equal([1, 2, 3]);
      expect(pageWindow(1, 0)).to.deep.equal([]);
    });
  });
});
