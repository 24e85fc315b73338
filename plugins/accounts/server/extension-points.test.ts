import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../../core/testing/index.ts';
import { PLUGINS_DIR } from '../../../core/plugins.ts';
import { UserBadgesProvider, UserStatsProvider, type UserBadge } from '../public.ts';

/**
 * The accounts plugin alone: GET /api/user/{id}/badges and insightsCount come from the optional
 * providers other plugins register (UserBadgesProvider, UserStatsProvider), and answer [] / 0 without them.
 */
describe('accounts: extension points (accounts alone)', function () {
  this.timeout(60_000);
  let app: TestApp;
  const badges = new Map<number, UserBadge[]>();
  const insights = new Map<number, number>();

  before(async () => {
    const others = fs.readdirSync(PLUGINS_DIR).filter((d) => d !== 'accounts' && fs.existsSync(path.join(PLUGINS_DIR, d, 'index.ts')));
    app = await startTestApp({ plugins: { disabled: others, config: {} } });
  });
  after(async () => {
    await app?.close();
  });

  it('answers [] and 0 while no plugin provides badges or stats', async () => {
    const u = await app.user();
    expect((await u.get(`/api/user/${u.me.id}/badges`)).body).to.deep.equal([]);
    expect((await u.get('/api/user')).body.insightsCount).to.equal(0);
  });

  it('answers what the providers give, with privacy applied to badges', async () => {
    app.services.provide(UserBadgesProvider, { listUserBadges: async (id) => badges.get(id) ?? [] });
    app.services.provide(UserStatsProvider, {
      insightsCounts: async (ids) => new Map(ids.filter((i) => insights.has(i)).map((i) => [i, insights.get(i)!])),
    });
    const u = await app.user();
    badges.set(u.me.id, [
      { id: 7, earnedAt: new Date('2026-01-02T03:04:05Z').toISOString(), badge: { id: 3, name: 'Explorer', description: 'Ten check-ins', icon: '🧭', color: '#3B82F6' } },
    ]);
    insights.set(u.me.id, 5);
    const viewer = await app.user();
    const list = await viewer.get(`/api/user/${u.me.id}/badges`);
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.equal([{ id: 7, earnedAt: '2026-01-02T03:04:05.000Z', badge: { id: 3, name: 'Explorer', description: 'Ten check-ins', icon: '🧭', color: '#3B82F6' } }]);
    expect((await viewer.get(`/api/user/${u.me.id}`)).body.insightsCount).to.equal(5);
    expect((await viewer.get(`/api/user/${viewer.me.id}`)).body.insightsCount).to.equal(0);
    await u.put('/api/user/preferences', { profileVisibility: 'private' });
    const hidden = await viewer.get(`/api/user/${u.me.id}/badges`);
    expect(hidden.status).to.equal(403);
    expect(hidden.body.message).to.equal('This profile is private');
    expect((await u.get(`/api/user/${u.me.id}/badges`)).body).to.have.length(1);
  });
});
