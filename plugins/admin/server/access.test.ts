/**
 * Every admin route is Admin-only on the server: 401 signed out, 403 for each other role. The
 * table must name every route the plugin registers (a new route without a row fails here).
 */
import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { NON_ADMIN_ROLES, roleClients, type RoleClients } from './test-helpers.ts';

const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; url: string; body?: unknown }> = [
  { method: 'GET', path: '/api/admin/actions/all', url: '/api/admin/actions/all' },
  { method: 'GET', path: '/api/admin/analytics/overview', url: '/api/admin/analytics/overview' },
  { method: 'GET', path: '/api/admin/users', url: '/api/admin/users' },
  { method: 'GET', path: '/api/admin/users/search', url: '/api/admin/users/search?q=ann' },
  { method: 'GET', path: '/api/admin/moderations', url: '/api/admin/moderations' },
  { method: 'POST', path: '/api/admin/moderate-user', url: '/api/admin/moderate-user', body: { userId: 1, type: 'warning', reason: 'x' } },
  { method: 'POST', path: '/api/admin/moderations/:id/lift', url: '/api/admin/moderations/1/lift', body: {} },
  { method: 'POST', path: '/api/admin/change-user-role', url: '/api/admin/change-user-role', body: { userId: 1, role: 'Admin' } },
  { method: 'DELETE', path: '/api/admin/delete-user', url: '/api/admin/delete-user', body: { userId: 1, reason: 'x' } },
  { method: 'GET', path: '/api/admin/museums', url: '/api/admin/museums' },
  { method: 'POST', path: '/api/admin/create-museum', url: '/api/admin/create-museum', body: { name: 'x' } },
  { method: 'PUT', path: '/api/admin/museums/:id', url: '/api/admin/museums/1', body: { name: 'x' } },
  { method: 'POST', path: '/api/admin/verify-museum', url: '/api/admin/verify-museum', body: { museumId: 1, verified: true } },
  { method: 'POST', path: '/api/admin/assign-museum-manager', url: '/api/admin/assign-museum-manager', body: { museumId: 1, managerId: null } },
  { method: 'GET', path: '/api/admin/museum-managers', url: '/api/admin/museum-managers?q=an' },
  { method: 'POST', path: '/api/admin/update-museums', url: '/api/admin/update-museums', body: {} },
  { method: 'GET', path: '/api/admin/jobs/:id', url: '/api/admin/jobs/1' },
  { method: 'GET', path: '/api/admin/museum-edit-suggestions', url: '/api/admin/museum-edit-suggestions' },
  { method: 'POST', path: '/api/admin/approve-museum-edit-suggestion', url: '/api/admin/approve-museum-edit-suggestion', body: { suggestionId: 1 } },
  { method: 'POST', path: '/api/admin/reject-museum-edit-suggestion', url: '/api/admin/reject-museum-edit-suggestion', body: { suggestionId: 1 } },
  { method: 'GET', path: '/api/admin/museum-suggestions', url: '/api/admin/museum-suggestions' },
  { method: 'POST', path: '/api/admin/approve-museum-suggestion', url: '/api/admin/approve-museum-suggestion', body: { suggestionId: 1 } },
  { method: 'POST', path: '/api/admin/reject-museum-suggestion', url: '/api/admin/reject-museum-suggestion', body: { suggestionId: 1 } },
  { method: 'GET', path: '/api/admin/badges', url: '/api/admin/badges' },
  { method: 'POST', path: '/api/admin/badges', url: '/api/admin/badges', body: { name: 'x' } },
  { method: 'PUT', path: '/api/admin/badges/:id', url: '/api/admin/badges/1', body: { name: 'x' } },
  { method: 'DELETE', path: '/api/admin/badges/:id', url: '/api/admin/badges/1' },
  { method: 'GET', path: '/api/admin/user-badges', url: '/api/admin/user-badges' },
  { method: 'GET', path: '/api/admin/badges/stats', url: '/api/admin/badges/stats' },
  { method: 'POST', path: '/api/admin/send-notification', url: '/api/admin/send-notification', body: { title: 't', message: 'm' } },
  { method: 'GET', path: '/api/admin/monetization', url: '/api/admin/monetization' },
  { method: 'GET', path: '/api/admin/monetization/stats', url: '/api/admin/monetization/stats' },
  { method: 'POST', path: '/api/admin/monetization', url: '/api/admin/monetization', body: { type: 'premium_subscription', plan: 'basic', amount: 9.99, currency: 'USD' } },
  { method: 'PATCH', path: '/api/admin/monetization/:id', url: '/api/admin/monetization/1', body: { status: 'inactive' } },
];

describe('admin: every route is Admin-only', function () {
  let app: TestApp;
  let c: RoleClients;
  before(async function () {
    this.timeout(120_000);
    app = await sharedApp();
    c = await roleClients(app);
  });

  it('the table names every admin route, and every admin route demands the Admin role', () => {
    const registered = app.routes.filter((r) => r.plugin === 'admin');
    const table = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const r of registered) {
      expect(table.has(`${r.method} ${r.path}`), `${r.method} ${r.path} has no row`).to.equal(true);
      expect(r.roles, `${r.method} ${r.path}`).to.deep.equal(['Admin']);
    }
    expect(registered.length).to.equal(ROUTES.length);
  });

  for (const r of ROUTES) {
    it(`${r.method} ${r.path}: 401 signed out, 403 for ${NON_ADMIN_ROLES.join(', ')}`, async () => {
      const anon = await c.anon.req(r.method, r.url, r.body);
      expect(anon.status, 'signed out').to.equal(401);
      expect(anon.body.message).to.equal('Authentication required');
      for (const role of NON_ADMIN_ROLES) {
        const res = await c.others[role].req(r.method, r.url, r.body);
        expect(res.status, role).to.equal(403);
        expect(res.body.message).to.equal('Access denied');
      }
    });
  }

  it('a refused request changes nothing and writes no audit entry', async () => {
    const before = (await c.admin.get('/api/admin/actions/all?pageSize=1')).body.total;
    const victim = await app.user({});
    const r = await c.others['Museum Manager'].post('/api/admin/moderate-user', { userId: victim.me.id, type: 'permanent_ban', reason: 'no' });
    expect(r.status).to.equal(403);
    expect((await victim.get('/api/auth/user')).status).to.equal(200);
    expect((await c.admin.get('/api/admin/actions/all?pageSize=1')).body.total).to.equal(before);
  });
});
