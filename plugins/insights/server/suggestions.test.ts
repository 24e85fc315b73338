/**
 * Issue 21: every suggestion surface falls back in order — network → interests and home →
 * trending/active → most followed/popular — so none is empty while the data exists; private,
 * blocked and muted members never appear; what the member follows is left out.
 * Each case runs on a database of its own (a fresh app) to control what exists.
 */
import { expect } from 'chai';
import { startTestApp, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { countStatements } from '../../../core/testing/statements.ts';
import { MuseumsService } from '../../museums/public.ts';
import { follow, setVisibility, textPost } from './test-helpers.ts';

const ids = (body: any[]) => body.map((x) => x.id);

async function museum(app: TestApp, name: string, extra: Record<string, unknown> = {}) {
  return app.services.get(MuseumsService).createMuseum({ name, address: '1 Main St', city: 'Lyon', country: 'France', description: 'A test museum', ...extra } as any, null);
}

describe('insights: suggestions never empty (issue 21)', function () {
  this.timeout(120000);

  describe('a brand-new member on a database with only popular data', () => {
    let app: TestApp;
    let newbie: SignedInClient;
    let star: SignedInClient, second: SignedInClient, closed: SignedInClient, blocker: SignedInClient, muted: SignedInClient, friendsOnly: SignedInClient;
    let art: any, history: any, science: any;
    before(async () => {
      app = await startTestApp();
      [star, second, closed, blocker, muted, friendsOnly] = await Promise.all([app.user(), app.user(), app.user(), app.user(), app.user(), app.user()]);
      const fans = await Promise.all([app.user(), app.user(), app.user()]);
      art = await museum(app, 'Popular Art Museum', { category: 'Art Museums' });
      history = await museum(app, 'Quiet History Museum', { category: 'History Museums' });
      science = await museum(app, 'Middle Science Museum', { category: 'Science Museums' });
      // popularity only: follows between members and of museums, no insight, comment or like
      await setVisibility(closed, 'private');
      await setVisibility(friendsOnly, 'friends');
      for (const f of fans) {
        await follow(app, f, star.me.id);
        await follow(app, f, closed.me.id, closed);
        await follow(app, f, blocker.me.id);
        await follow(app, f, muted.me.id);
        await follow(app, f, friendsOnly.me.id);
        await f.post(`/api/museums/${art.id}/follow`);
      }
      await follow(app, fans[0], second.me.id);
      await follow(app, second, star.me.id); // the most followed of all (4)
      await fans[0].post(`/api/museums/${science.id}/follow`);
      // the follows are older than any trending window: nothing trends this quarter
      await app.knex('insights_museum_activity').update({ created_at: app.knex.raw(`now() - interval '120 days'`) });
      newbie = await app.user();
      expect((await blocker.post(`/api/user/${newbie.me.id}/block`)).status).to.equal(200);
      expect((await newbie.post(`/api/user/${muted.me.id}/mute`, {})).status).to.equal(200);
    });
    after(() => app?.close());

    it('People to Follow: the most followed visible members, never private, friends-only, blocking, muted members nor yourself', async () => {
      const r = await newbie.get('/api/recommendations/users?limit=20');
      expect(r.status).to.equal(200);
      expect(r.body.length).to.be.greaterThan(0);
      expect(r.body[0]).to.include({ id: star.me.id, reason: 'popular', mutualFollowersCount: 0 });
      expect(ids(r.body)).to.include(second.me.id);
      for (const hidden of [closed, friendsOnly, blocker, muted, newbie]) expect(ids(r.body), hidden.me.username).to.not.include(hidden.me.id);
      expect(ids(r.body).indexOf(star.me.id)).to.be.lessThan(ids(r.body).indexOf(second.me.id));
    });

    it('People to Follow: members the viewer may not see never crowd out the popular ones, however many are more followed', async () => {
      // 210 private members, each more followed than anyone above (more than the popular pool of 200)
      const tag = Math.random().toString(36).slice(2, 8);
      const added: number[] = (
        await app.knex.raw(
          `insert into users (slug, username, email, password_hash, followers_count)
           select 'crowd-' || ? || '-' || g, 'crowd_' || ? || '_' || g, 'crowd-' || ? || '-' || g || '@test.invalid', 'x', 1000 + g
             from generate_series(1, 210) g returning id`,
          [tag, tag, tag],
        )
      ).rows.map((r: any) => Number(r.id));
      try {
        await app.knex('user_preferences').insert(added.map((id) => ({ user_id: id, profile_visibility: 'private' })));
        const r = await newbie.get('/api/recommendations/users?limit=20');
        expect(r.status).to.equal(200);
        expect(r.body.length, 'suggestions').to.be.greaterThan(0);
        expect(ids(r.body).filter((id) => added.includes(id))).to.deep.equal([]);
        expect(r.body[0]).to.include({ id: star.me.id, reason: 'popular' });
      } finally {
        await app.knex('user_preferences').whereIn('user_id', added).del();
        await app.knex('users').whereIn('id', added).del();
      }
    });

    it('Active Members: the most followed when nobody was active in 30 days, with the same privacy rule, for members and visitors', async () => {
      for (const c of [newbie, app.client()]) {
        const r = await c.get('/api/users/active?limit=20');
        expect(r.status).to.equal(200);
        expect(r.body[0]).to.include({ id: star.me.id, reason: 'popular', recentInsightsCount: 0 });
        expect(ids(r.body)).to.not.include(closed.me.id);
        expect(ids(r.body)).to.not.include(friendsOnly.me.id);
      }
      const mine = ids((await newbie.get('/api/users/active?limit=20')).body);
      for (const hidden of [blocker, muted, newbie]) expect(mine).to.not.include(hidden.me.id);
    });

    it('Trending Museums: a quiet quarter falls back to the most popular museums', async () => {
      const r = await app.client().get('/api/trending/museums?limit=5');
      expect(r.status).to.equal(200);
      expect(ids(r.body)).to.deep.equal([art.id, science.id, history.id]);
      expect(r.body[0]).to.include({ reason: 'popular' });
    });

    it('Museums For You: popular museums for a member with no network nor interests, never one they follow', async () => {
      const r = await newbie.get('/api/recommendations/museums?limit=5');
      expect(ids(r.body)).to.deep.equal([art.id, science.id, history.id]);
      expect(r.body.every((m: any) => m.reason === 'popular')).to.equal(true);
      await newbie.post(`/api/museums/${art.id}/follow`);
      expect(ids((await newbie.get('/api/recommendations/museums?limit=5')).body)).to.deep.equal([science.id, history.id]);
      await newbie.post(`/api/museums/${art.id}/follow`); // unfollow again
    });

    it('interests come before popularity: museums of the categories picked, then members who follow them', async () => {
      const picked = await app.user();
      expect((await picked.put('/api/user/onboarding', { interests: ['History Museums'] })).status).to.equal(200);
      let m = await picked.get('/api/recommendations/museums?limit=5');
      expect(m.body[0]).to.include({ id: history.id, reason: 'interest' });
      expect(ids(m.body)).to.deep.equal([history.id, art.id, science.id]);
      // someone follows the history museum: they are suggested before the most followed members
      const historian = await app.user();
      await historian.post(`/api/museums/${history.id}/follow`);
      const p = await picked.get('/api/recommendations/users?limit=20');
      expect(p.body[0]).to.include({ id: historian.me.id, reason: 'interests' });
      expect(p.body[1]).to.include({ id: star.me.id, reason: 'popular' });
      // a home near the science museum: nearby, after the interests
      const lyon = await museum(app, 'Nearby Science Museum', { category: 'Science Museums', latitude: 45.76, longitude: 4.84 });
      expect((await picked.put('/api/user/onboarding', { location: { latitude: 45.75, longitude: 4.85 } })).status).to.equal(200);
      m = await picked.get('/api/recommendations/museums?limit=5');
      expect(ids(m.body).slice(0, 2)).to.deep.equal([history.id, lyon.id]);
      expect(m.body[1]).to.include({ reason: 'nearby' });
      // few statements whatever the fallbacks walked (session included; issue 18's way of counting)
      const counter = countStatements(app);
      const budget: Array<[string, number]> = [
        ['/api/recommendations/users?limit=20', 7],
        ['/api/recommendations/museums?limit=5', 8],
        ['/api/trending/museums?limit=5', 4],
        ['/api/users/active?limit=20', 4],
      ];
      for (const [path, most] of budget) {
        const { res, log } = await counter.request(picked, 'GET', path);
        expect(res.status).to.equal(200);
        expect(log.all.length, `${path}:\n${log.all.join('\n')}`).to.be.at.most(most);
      }
    });

    it('network suggestions come first when they exist', async () => {
      const me = await app.user();
      const friend = await app.user();
      const friendOfFriend = await app.user();
      await follow(app, me, friend.me.id);
      await follow(app, friend, friendOfFriend.me.id);
      await friend.post(`/api/museums/${history.id}/follow`);
      const p = await me.get('/api/recommendations/users?limit=20');
      expect(p.body[0]).to.include({ id: friendOfFriend.me.id, reason: 'network', mutualFollowersCount: 1 });
      expect(ids(p.body)).to.not.include(friend.me.id); // already followed
      expect(ids(p.body)).to.include(star.me.id); // and the fallbacks after it
      const m = await me.get('/api/recommendations/museums?limit=5');
      expect(m.body[0]).to.include({ id: history.id, reason: 'network', networkFollowersCount: 1 });
      expect(m.body.length, 'every museum of this database: none is followed').to.equal(4);
    });
  });

  describe('trending widens its window when the week is quiet', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp();
    });
    after(() => app?.close());

    it('ranks this week first, then the month, then the quarter, then the popular ones, each with its window', async () => {
      const [week, month, quarter, idle] = [await museum(app, 'Week'), await museum(app, 'Month'), await museum(app, 'Quarter'), await museum(app, 'Idle')];
      const u = await app.user();
      await textPost(u, 'this month', { museumId: month.id });
      await textPost(u, 'this month too', { museumId: month.id });
      await textPost(u, 'this quarter', { museumId: quarter.id });
      await app.knex('insights_posts').where({ museum_id: month.id }).update({ created_at: app.knex.raw(`now() - interval '20 days'`) });
      await app.knex('insights_posts').where({ museum_id: quarter.id }).update({ created_at: app.knex.raw(`now() - interval '60 days'`) });
      let r = await app.client().get('/api/trending/museums?limit=10');
      expect(ids(r.body).slice(0, 2)).to.deep.equal([month.id, quarter.id]);
      expect(r.body[0]).to.include({ reason: 'trending', trendingWindowDays: 30, recentInsightsCount: 2 });
      expect(r.body[1]).to.include({ trendingWindowDays: 90, recentInsightsCount: 1 });
      expect(r.body.slice(2).every((m: any) => m.reason === 'popular')).to.equal(true);
      expect(r.body).to.have.length(4);
      await textPost(u, 'this week', { museumId: week.id });
      r = await app.client().get('/api/trending/museums?limit=10');
      expect(ids(r.body).slice(0, 3)).to.deep.equal([week.id, month.id, quarter.id]);
      expect(r.body[0]).to.include({ trendingWindowDays: 7, recentInsightsCount: 1 });
      // a full week leaves the wider windows out
      expect(ids((await app.client().get('/api/trending/museums?limit=1')).body)).to.deep.equal([week.id]);
    });
  });
});
