import { expect } from 'chai';
import { sharedApp, startTestApp, uniqueName, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { BadgesService, type BadgeInput, type BadgesApi, type EarnedBadge } from '../public.ts';
import { UserBadgesProvider } from '../../accounts/public.ts';
import { graphemeCount, iconProblem } from '../shared/badge-rules.ts';
import { RETRO_JOB } from './service.ts';

let seq = 1_500_000_000 + Math.floor(Math.random() * 100_000_000);
const nextId = () => ++seq;

function input(over: Partial<BadgeInput> & { type?: BadgeInput['requirement']['type']; count?: number } = {}): BadgeInput {
  return {
    name: over.name ?? uniqueName('Badge '),
    description: over.description ?? 'A test badge',
    icon: over.icon ?? '🏆',
    color: over.color ?? '#3B82F6',
    requirement: over.requirement ?? { type: over.type ?? 'check_ins', count: over.count ?? 5 },
  };
}

async function checkIn(app: TestApp, userId: number, checkInId = nextId()): Promise<EarnedBadge[]> {
  return (await app.events.emit('museums.museum.checkedIn', { userId, museumId: 1, checkInId, verified: true })) as EarnedBadge[];
}

const mine = (earned: EarnedBadge[], badgeId: number) => earned.filter((b) => b.id === badgeId);

describe('badges', function () {
  let app: TestApp;
  let badges: BadgesApi;
  before(async () => {
    app = await sharedApp();
    badges = app.services.get(BadgesService);
  });

  describe('icon rule (grapheme clusters, not code units)', () => {
    it('counts a family emoji as one character and refuses three trophies', async () => {
      expect(graphemeCount('👨‍👩‍👧‍👦')).to.equal(1);
      expect('👨‍👩‍👧‍👦'.length).to.equal(11);
      expect(graphemeCount('🏆🏆')).to.equal(2);
      expect(graphemeCount('🏆🏆🏆')).to.equal(3);
      expect(iconProblem('👨‍👩‍👧‍👦')).to.equal(null);
      expect(iconProblem('🏆🏆')).to.equal(null);
      expect(iconProblem('🏛️')).to.equal(null);
      expect(iconProblem('🇫🇷🇯🇵')).to.equal(null);
      expect(iconProblem('🏆🏆🏆')).to.equal('Icon must be at most 2 characters');
      expect(iconProblem('  ')).to.equal('Icon is required');
    });

    it('createBadge accepts 👨‍👩‍👧‍👦 and 🏆🏆 and refuses 🏆🏆🏆 with a 400', async () => {
      const a = await badges.createBadge(input({ icon: '👨‍👩‍👧‍👦', count: 999 }));
      expect(a.icon).to.equal('👨‍👩‍👧‍👦');
      const b = await badges.createBadge(input({ icon: '🏆🏆', count: 999 }));
      expect(b.icon).to.equal('🏆🏆');
      let err: any = null;
      try {
        await badges.createBadge(input({ icon: '🏆🏆🏆' }));
      } catch (e) {
        err = e;
      }
      expect(err?.status).to.equal(400);
      expect(err.message).to.equal('Icon must be at most 2 characters');
      expect(err.errors).to.deep.include({ path: '/icon', message: 'Icon must be at most 2 characters' });
      await badges.deleteBadge(a.id);
      await badges.deleteBadge(b.id);
    });

    it('validates the other fields with the admin form texts and refuses a duplicate name (409)', async () => {
      const bad = async (over: any) => {
        try {
          await badges.createBadge({ ...input(), ...over });
        } catch (e: any) {
          return e;
        }
        throw new Error('accepted');
      };
      expect((await bad({ name: '  ' })).errors).to.deep.include({ path: '/name', message: 'Name is required' });
      expect((await bad({ description: '' })).errors).to.deep.include({ path: '/description', message: 'Description is required' });
      expect((await bad({ color: 'blue' })).status).to.equal(400);
      expect((await bad({ requirement: { type: 'check_ins', count: 0 } })).errors).to.deep.include({ path: '/requirement/count', message: 'Requirement count must be at least 1' });
      expect((await bad({ requirement: { type: 'visits', count: 1 } })).status).to.equal(400);
      const name = uniqueName('Dup ');
      const first = await badges.createBadge(input({ name, color: '#abc', count: 999 }));
      expect(first.color).to.equal('#AABBCC');
      const dup = await bad({ name: name.toUpperCase() });
      expect(dup.status).to.equal(409);
      expect(dup.message).to.equal('A badge with this name already exists');
      await badges.deleteBadge(first.id);
    });
  });

  describe('awarding from events', () => {
    it('awards at exactly the threshold, not before, once, with earnedAt', async () => {
      const user = await app.user();
      const badge = await badges.createBadge(input({ count: 3 }));
      expect(mine(await checkIn(app, user.me.id), badge.id)).to.have.length(0);
      expect(mine(await checkIn(app, user.me.id), badge.id)).to.have.length(0);
      expect((await badges.userBadges(user.me.id)).filter((ub) => ub.badgeId === badge.id)).to.have.length(0);
      const before = Date.now();
      const third = mine(await checkIn(app, user.me.id), badge.id);
      expect(third).to.have.length(1);
      expect(third[0]).to.include({ id: badge.id, name: badge.name, icon: '🏆', color: '#3B82F6', description: 'A test badge' });
      expect(Date.parse(third[0].earnedAt)).to.be.within(before - 5000, Date.now() + 5000);
      expect(mine(await checkIn(app, user.me.id), badge.id)).to.have.length(0);
      const held = (await badges.userBadges(user.me.id)).filter((ub) => ub.badgeId === badge.id);
      expect(held).to.have.length(1);
      expect(held[0].earnedAt).to.equal(third[0].earnedAt);
      expect((await badges.counts(user.me.id)).check_ins).to.equal(4);
    });

    it('counts a repeated event (same check-in) once', async () => {
      const user = await app.user();
      const id = nextId();
      await checkIn(app, user.me.id, id);
      await checkIn(app, user.me.id, id);
      expect((await badges.counts(user.me.id)).check_ins).to.equal(1);
    });

    it('never double-awards under concurrent events (distinct and duplicate)', async () => {
      const user = await app.user();
      const badge = await badges.createBadge(input({ count: 4 }));
      const results = await Promise.all(Array.from({ length: 12 }, () => checkIn(app, user.me.id)));
      const awards = results.flatMap((r) => mine(r, badge.id));
      expect(awards).to.have.length(1);
      expect((await badges.counts(user.me.id)).check_ins).to.equal(12);
      const rows = await app.knex('user_badges').where({ user_id: user.me.id, badge_id: badge.id });
      expect(rows).to.have.length(1);

      // the same event delivered many times at once counts once
      const other = await app.user();
      const id = nextId();
      await Promise.all(Array.from({ length: 8 }, () => checkIn(app, other.me.id, id)));
      expect((await badges.counts(other.me.id)).check_ins).to.equal(1);
    });

    it('counts posts (created, deleted) and returns the earned badge to the post answer', async () => {
      const user = await app.user();
      const badge = await badges.createBadge(input({ type: 'posts', count: 2 }));
      const p1 = nextId();
      const p2 = nextId();
      await app.events.emit('insights.post.created', { postId: p1, userId: user.me.id, museumId: null, type: 'text' });
      await app.events.emit('insights.post.deleted', { postId: p1, userId: user.me.id, museumId: null });
      expect((await badges.counts(user.me.id)).posts).to.equal(0);
      const r1 = (await app.events.emit('insights.post.created', { postId: p2, userId: user.me.id, museumId: null, type: 'text' })) as EarnedBadge[];
      expect(mine(r1, badge.id)).to.have.length(0);
      const r2 = (await app.events.emit('insights.post.created', { postId: nextId(), userId: user.me.id, museumId: null, type: 'video' })) as EarnedBadge[];
      expect(mine(r2, badge.id)).to.have.length(1);
    });

    it('counts likes received (not self-likes), takes back unlikes and the likes of a deleted post', async () => {
      const author = await app.user();
      const fans = await Promise.all([app.user(), app.user(), app.user()]);
      const badge = await badges.createBadge(input({ type: 'likes', count: 3 }));
      const post = nextId();
      const like = (userId: number, liked: boolean, postId = post) => app.events.emit('insights.post.liked', { postId, userId, authorId: author.me.id, liked, likesCount: 0 });
      await like(author.me.id, true); // self-like: ignored
      await like(fans[0].me.id, true);
      await like(fans[0].me.id, true); // duplicate
      await like(fans[1].me.id, true);
      expect((await badges.counts(author.me.id)).likes).to.equal(2);
      await like(fans[1].me.id, false);
      expect((await badges.counts(author.me.id)).likes).to.equal(1);
      await like(fans[1].me.id, true);
      await like(fans[2].me.id, true);
      expect((await badges.counts(author.me.id)).likes).to.equal(3);
      expect((await badges.userBadges(author.me.id)).map((u) => u.badgeId)).to.include(badge.id);
      for (const f of fans) expect((await badges.counts(f.me.id)).likes).to.equal(0);
      // another post's like, then the first post is deleted: its likes go
      await like(fans[0].me.id, true, nextId());
      await app.events.emit('insights.post.deleted', { postId: post, userId: author.me.id, museumId: null });
      expect((await badges.counts(author.me.id)).likes).to.equal(1);
      // the badge, once earned, is kept
      expect((await badges.userBadges(author.me.id)).map((u) => u.badgeId)).to.include(badge.id);
    });

    it('counts museums followed (unfollow lowers) and communities joined (leave and deletion lower)', async () => {
      const user = await app.user();
      const follows = await badges.createBadge(input({ type: 'follows', count: 2 }));
      const joins = await badges.createBadge(input({ type: 'community_joins', count: 2 }));
      const follow = (museumId: number, following: boolean) => app.events.emit('museums.museum.followed', { userId: user.me.id, museumId, following });
      await follow(10, true);
      await follow(10, false);
      await follow(10, true);
      expect((await badges.counts(user.me.id)).follows).to.equal(1);
      const r = (await follow(11, true)) as EarnedBadge[];
      expect(mine(r, follows.id)).to.have.length(1);
      await follow(11, false);
      expect(mine((await follow(11, true)) as EarnedBadge[], follows.id)).to.have.length(0);

      const c1 = nextId();
      const c2 = nextId();
      await app.events.emit('communities.member.joined', { communityId: c1, userId: user.me.id });
      await app.events.emit('communities.member.left', { communityId: c1, userId: user.me.id });
      await app.events.emit('communities.member.joined', { communityId: c1, userId: user.me.id });
      expect((await badges.counts(user.me.id)).community_joins).to.equal(1);
      await app.events.emit('communities.community.deleting', { communityId: c1 });
      expect((await badges.counts(user.me.id)).community_joins).to.equal(0);
      await app.events.emit('communities.member.joined', { communityId: c2, userId: user.me.id });
      const j = (await app.events.emit('communities.member.joined', { communityId: nextId(), userId: user.me.id })) as EarnedBadge[];
      expect(mine(j, joins.id)).to.have.length(1);
    });
  });

  describe('retroactive awarding and deletion', () => {
    it('awards a new badge, and a lowered one, to members who already qualify (in the background)', async () => {
      const a = await app.user();
      const b = await app.user();
      for (let i = 0; i < 3; i++) await checkIn(app, a.me.id);
      await checkIn(app, b.me.id);
      const fresh = await badges.createBadge(input({ count: 3 }));
      await waitFor(async () => (await badges.userBadges(a.me.id)).some((u) => u.badgeId === fresh.id));
      const hard = await badges.createBadge(input({ count: 50 }));
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 300));
      expect((await badges.userBadges(a.me.id)).some((u) => u.badgeId === hard.id)).to.equal(false);
      await badges.updateBadge(hard.id, { ...input({ name: hard.name, count: 1 }) });
      await waitFor(async () => (await badges.userBadges(b.me.id)).some((u) => u.badgeId === hard.id));
      expect((await badges.userBadges(a.me.id)).some((u) => u.badgeId === hard.id)).to.equal(true);
      expect((await badges.userBadges(b.me.id)).some((u) => u.badgeId === fresh.id)).to.equal(false);
      expect((await badges.getBadge(hard.id))!.earnedCount).to.be.at.least(2);
    });

    it('works in batches (small batch size) and awards each member once', async function () {
      const small = await startTestApp({ plugins: { disabled: ['admin', 'events', 'groups'], config: { badges: { retroBatchSize: 2 } } } });
      try {
        const api = small.services.get(BadgesService);
        const users: SignedInClient[] = [];
        for (let i = 0; i < 7; i++) users.push(await small.user());
        for (const u of users) {
          await small.events.emit('museums.museum.checkedIn', { userId: u.me.id, museumId: 1, checkInId: nextId(), verified: true });
          await small.events.emit('museums.museum.checkedIn', { userId: u.me.id, museumId: 1, checkInId: nextId(), verified: true });
        }
        await small.events.emit('museums.museum.checkedIn', { userId: users[0].me.id, museumId: 1, checkInId: nextId(), verified: true });
        const badge = await api.createBadge(input({ count: 2 }));
        await waitFor(async () => (await api.getBadge(badge.id))!.earnedCount === 7, { timeout: 15000 });
        const job = await small.knex('core_jobs').where({ name: 'badges.awardRetroactive' }).orderBy('id', 'desc').first();
        await waitFor(async () => (await small.jobs.get(job.id))?.status === 'done');
        expect((await small.jobs.get(job.id))!.result).to.deep.equal({ awarded: 7, deleted: false });
        const rows = await small.knex('user_badges').where({ badge_id: badge.id });
        expect(rows).to.have.length(7);
      } finally {
        await small.close();
      }
    });

    it('a deleted badge disappears from profiles', async () => {
      const user = await app.user();
      const badge = await badges.createBadge(input({ count: 1 }));
      expect(mine(await checkIn(app, user.me.id), badge.id)).to.have.length(1);
      const provider = app.services.get(UserBadgesProvider);
      expect((await provider.listUserBadges(user.me.id)).map((u) => u.badge.id)).to.include(badge.id);
      expect(await badges.deleteBadge(badge.id)).to.equal(true);
      expect(await badges.deleteBadge(badge.id)).to.equal(false);
      expect((await provider.listUserBadges(user.me.id)).map((u) => u.badge.id)).to.not.include(badge.id);
      if (app.routes.some((r) => r.method === 'GET' && r.path === '/api/user/:id/badges')) {
        const r = await app.client().get(`/api/user/${user.me.id}/badges`);
        expect(r.status).to.equal(200);
        expect(r.body.map((u: any) => u.badge.name)).to.not.include(badge.name);
      }
    });
  });

  describe('seed', () => {
    it('loads the starter set from seeds/badges once (a second run adds nothing)', async () => {
      const server = app.servers.get('badges')!;
      const ctx = app.contexts.get('badges')!;
      const progress = { start() {}, tick() {} };
      await server.seed!(ctx, progress);
      const [{ n: first }] = await app.knex('badges').count({ n: '*' });
      await server.seed!(ctx, progress);
      const [{ n: second }] = await app.knex('badges').count({ n: '*' });
      expect(Number(second)).to.equal(Number(first));
      const names = (await badges.listBadges()).map((b) => b.name);
      expect(names).to.include.members(['First Visit', 'Explorer', 'First Insight', 'Crowd Favorite', 'Curious Mind', 'Team Player']);
      const explorer = (await badges.listBadges()).find((b) => b.name === 'Explorer')!;
      expect(explorer.requirement).to.deep.equal({ type: 'check_ins', count: 5 });
      // issue 20: members whose museum-fact confirmations help
      expect((await badges.listBadges()).find((b) => b.name === 'Fact Keeper')!.requirement).to.deep.equal({ type: 'fact_confirmations', count: 5 });
    });
  });

  describe('routes and admin service', () => {
    it('GET /api/user/{id}/badges answers the badges with details (accounts route, our data)', async function () {
      if (!app.routes.some((r) => r.method === 'GET' && r.path === '/api/user/:id/badges')) this.skip();
      const user = await app.user();
      const badge = await badges.createBadge(input({ count: 1, icon: '🦖', color: '#10B981' }));
      await checkIn(app, user.me.id);
      const r = await app.client().get(`/api/user/${user.me.id}/badges`);
      expect(r.status).to.equal(200);
      const got = r.body.find((u: any) => u.badge.name === badge.name);
      expect(got).to.be.an('object');
      expect(got.badge).to.include({ name: badge.name, description: 'A test badge', icon: '🦖', color: '#10B981' });
      expect(got.earnedAt).to.be.a('string');
    });

    it('GET /api/badges lists definitions; /api/badges/progress needs sign-in and shows counts', async () => {
      const badge = await badges.createBadge(input({ count: 2 }));
      const list = await app.client().get('/api/badges');
      expect(list.status).to.equal(200);
      const def = list.body.find((b: any) => b.id === badge.id);
      expect(def).to.deep.include({ name: badge.name, requirement: { type: 'check_ins', count: 2 } });
      expect((await app.client().get('/api/badges/progress')).status).to.equal(401);
      const user = await app.user();
      await checkIn(app, user.me.id);
      let p = await user.get('/api/badges/progress');
      expect(p.status).to.equal(200);
      expect(p.body.counts.check_ins).to.equal(1);
      expect(p.body.badges.find((x: any) => x.badge.id === badge.id)).to.deep.include({ current: 1, earnedAt: null });
      await checkIn(app, user.me.id);
      p = await user.get('/api/badges/progress');
      expect(p.body.badges.find((x: any) => x.badge.id === badge.id).earnedAt).to.be.a('string');
    });

    it('recent earnings, stats (completion rate = earned / badge count %) and paged awards', async () => {
      const user = await app.user({ firstName: 'Ada', lastName: 'Lovelace' });
      const badge = await badges.createBadge(input({ count: 1 }));
      await checkIn(app, user.me.id);
      expect((await badges.recentUserBadges(10)).length).to.be.at.most(10);
      // Other files share this app and award badges meanwhile (a 1-check-in badge is also awarded
      // retroactively to them), so ours may not be among the newest 10: look further back.
      const recent = await badges.recentUserBadges(100);
      const r = recent.find((x) => x.badgeId === badge.id && x.userId === user.me.id);
      expect(r).to.deep.include({ userName: 'Ada Lovelace' });
      expect(r!.badge).to.deep.include({ name: badge.name });
      // The new badge's retroactive awarding runs as a background job: finish it (and any other
      // file's) before comparing the stats with the table, or it awards between the two reads.
      await app.jobs.runDue({ only: [RETRO_JOB] });
      await app.jobs.drain();
      await app.events.settled();
      const s = await badges.stats();
      const [{ b }] = await app.knex('badges').count({ b: '*' });
      const [{ e }] = await app.knex('user_badges').count({ e: '*' });
      expect(s.badgeCount).to.equal(Number(b));
      expect(s.earnedCount).to.equal(Number(e));
      expect(s.completionRate).to.equal(Math.round((Number(e) / Number(b)) * 1000) / 10);
      const page = await badges.listUserBadges({ badgeId: badge.id, page: 1, pageSize: 5 });
      const [{ t }] = await app.knex('user_badges').where({ badge_id: badge.id }).count({ t: '*' });
      expect(page).to.deep.include({ total: Number(t), page: 1, pageSize: 5 });
      expect(page.items.length).to.equal(Math.min(5, Number(t)));
      expect(page.items.every((i) => i.badgeId === badge.id)).to.equal(true);
      const times = page.items.map((i) => Date.parse(i.earnedAt));
      expect([...times].sort((x, y) => y - x)).to.deep.equal(times);
    });
  });
});
