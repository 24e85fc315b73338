/**
 * Concurrency and invariants (issue 10): a model-based property test with fast-check. Each run
 * builds fresh objects (an insight, a museum, a community with a post, a group, a meetup with 2
 * seats and a waitlist, a museum event with 1 seat and a waitlist), then plays batches of
 * actions by a pool of members — likes, follows of users and museums, check-ins, community and
 * group joins and leaves, RSVPs and cancellations — each batch sent concurrently. After every
 * batch: every counter the API shows equals its aggregate in the owning table, no capacity is
 * exceeded, a free seat never sits beside a waitlist, nothing is negative, toggles land where the
 * model says (each successful toggle flips), and no answer is a 5xx.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { sharedApp, type SignedInClient, type TestApp } from '../testing/index.ts';
import { meetupBody, museumBody, museumEventBody, must } from './fixtures/world.ts';

const RUNS = Number(process.env.INVARIANT_RUNS ?? 12);
const POOL = 6;

type Action =
  | { k: 'likePost'; u: number }
  | { k: 'followUser'; u: number; v: number }
  | { k: 'followMuseum'; u: number }
  | { k: 'checkIn'; u: number }
  | { k: 'joinCommunity'; u: number }
  | { k: 'leaveCommunity'; u: number }
  | { k: 'likeCommunityPost'; u: number }
  | { k: 'joinGroup'; u: number }
  | { k: 'leaveGroup'; u: number }
  | { k: 'rsvpMeetup'; u: number }
  | { k: 'cancelMeetup'; u: number }
  | { k: 'rsvpEvent'; u: number; status: 'attending' | 'interested' }
  | { k: 'cancelEvent'; u: number };

const user = fc.integer({ min: 0, max: POOL - 1 });
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ k: fc.constant('likePost' as const), u: user }),
  fc.record({ k: fc.constant('followUser' as const), u: user, v: user }).filter((a) => a.u !== a.v),
  fc.record({ k: fc.constant('followMuseum' as const), u: user }),
  fc.record({ k: fc.constant('checkIn' as const), u: user }),
  fc.record({ k: fc.constant('joinCommunity' as const), u: user }),
  fc.record({ k: fc.constant('leaveCommunity' as const), u: user }),
  fc.record({ k: fc.constant('likeCommunityPost' as const), u: user }),
  fc.record({ k: fc.constant('joinGroup' as const), u: user }),
  fc.record({ k: fc.constant('leaveGroup' as const), u: user }),
  { weight: 3, arbitrary: fc.record({ k: fc.constant('rsvpMeetup' as const), u: user }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('cancelMeetup' as const), u: user }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('rsvpEvent' as const), u: user, status: fc.constantFrom('attending' as const, 'attending' as const, 'interested' as const) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('cancelEvent' as const), u: user }) },
);
// Batches of concurrent actions; duplicates (the same member toggling twice at once) are the point.
const scenarioArb = fc.array(fc.array(actionArb, { minLength: 2, maxLength: 12 }), { minLength: 2, maxLength: 5 });

interface Objects {
  post: number;
  museum: number;
  community: number;
  cPost: number;
  group: number;
  meetup: number;
  event: number;
}

/**
 * Toggle bookkeeping, per batch: the requests of one batch run concurrently, so for each key the
 * answers must be explainable by SOME order of the toggles (linearizability): starting from s0,
 * k successful toggles answer ceil(k/2) times "not s0" and floor(k/2) times "s0", and leave the
 * row at s0 when k is even, flipped when k is odd.
 */
class ToggleModel {
  private state = new Map<string, boolean>();
  private answers = new Map<string, boolean[]>();
  start(key: string, state: boolean) {
    if (!this.state.has(key)) this.state.set(key, state);
  }
  answered(key: string, reported: boolean) {
    this.answers.set(key, [...(this.answers.get(key) ?? []), reported]);
  }
  /** checks one batch against the rows found now; moves the model to the next batch */
  endBatch(found: (key: string) => Promise<boolean>): Promise<string[]> {
    return (async () => {
      const bad: string[] = [];
      for (const [key, s0] of this.state) {
        const got = this.answers.get(key) ?? [];
        const k = got.length;
        const on = got.filter(Boolean).length;
        const wantOn = s0 ? Math.floor(k / 2) : Math.ceil(k / 2);
        const final = k % 2 === 1 ? !s0 : s0;
        const have = await found(key);
        if (on !== wantOn || have !== final) {
          bad.push(`toggle ${key}: from ${s0 ? 'on' : 'off'}, ${k} concurrent toggles answered [${got.join(', ')}] and left it ${have ? 'on' : 'off'} — no order of ${k} toggles gives that`);
        }
        this.state.set(key, have);
      }
      this.answers.clear();
      return bad;
    })();
  }
}

describe('quality: concurrency and invariants (model-based)', function () {
  this.timeout(900_000);
  let app: TestApp;
  let admin: SignedInClient;
  let creator: SignedInClient;
  let pool: SignedInClient[];
  const stats = new Map<string, number>();

  before(async () => {
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
    creator = await app.user({ role: 'Ambassador' });
    pool = await Promise.all(Array.from({ length: POOL }, () => app.user()));
  });

  async function freshObjects(): Promise<Objects> {
    const post = must(await creator.post('/api/posts', { type: 'text', content: 'Invariant insight' }), 'post').id;
    const museum = must(await admin.post('/api/admin/create-museum', museumBody(`Invariant museum ${Date.now()}${Math.random()}`)), 'museum').id;
    const community = must(await creator.post('/api/communities', { name: `Invariant community ${Math.random()}`, membershipType: 'open' }), 'community').id;
    const cPost = must(await creator.post(`/api/communities/${community}/posts`, { type: 'text', content: 'Like me' }), 'community post').id;
    const group = must(await creator.post('/api/groups', { name: `Invariant group ${Math.random()}` }), 'group').id;
    const meetup = must(await creator.post(`/api/communities/${community}/meetups`, meetupBody('Invariant meetup', { maxAttendees: 2, enableWaitlist: true, whoCanJoin: 'anyone' })), 'meetup').id;
    const event = must(await admin.post('/api/museum-events', museumEventBody(museum, 'Invariant event', { maxAttendees: 1, enableWaitlist: true })), 'event').id;
    return { post, museum, community, cPost, group, meetup, event };
  }

  async function run(o: Objects, a: Action, model: ToggleModel, failures: string[]): Promise<void> {
    const c = pool[a.u];
    const uid = c.me.id;
    let r;
    switch (a.k) {
      case 'likePost':
        r = await c.post(`/api/posts/${o.post}/like`);
        if (r.status === 200) model.answered(`like:${uid}`, r.body.liked);
        break;
      case 'followUser':
        r = await c.post(`/api/user/${pool[a.v].me.id}/follow`);
        if (r.status === 200) model.answered(`follow:${uid}:${pool[a.v].me.id}`, r.body.following);
        break;
      case 'followMuseum':
        r = await c.post(`/api/museums/${o.museum}/follow`);
        if (r.status === 200) model.answered(`museum:${uid}`, r.body.following);
        break;
      case 'checkIn':
        r = await c.post(`/api/museums/${o.museum}/checkin`);
        break;
      case 'joinCommunity':
        r = await c.post(`/api/communities/${o.community}/join`, {});
        break;
      case 'leaveCommunity':
        r = await c.post(`/api/communities/${o.community}/leave`);
        break;
      case 'likeCommunityPost':
        r = await c.post(`/api/community-posts/${o.cPost}/like`);
        break;
      case 'joinGroup':
        r = await c.post(`/api/groups/${o.group}/join`, {});
        break;
      case 'leaveGroup':
        r = await c.del(`/api/groups/${o.group}/leave`);
        break;
      case 'rsvpMeetup':
        r = await c.post(`/api/meetups/${o.meetup}/join`, { status: 'attending' });
        break;
      case 'cancelMeetup':
        r = await c.del(`/api/meetups/${o.meetup}/join`);
        break;
      case 'rsvpEvent':
        r = await c.post(`/api/museum-events/${o.event}/join`, { status: a.status });
        break;
      case 'cancelEvent':
        r = await c.del(`/api/museum-events/${o.event}/join`);
        break;
    }
    if (r.status >= 500) failures.push(`${JSON.stringify(a)} → ${r.status} ${r.text.slice(0, 200)}`);
    stats.set(`${a.k} ${r.status}`, (stats.get(`${a.k} ${r.status}`) ?? 0) + 1);
    if ((a.k === 'rsvpMeetup' || a.k === 'rsvpEvent') && r.body?.userStatus === 'waitlisted') stats.set('waitlisted answers', (stats.get('waitlisted answers') ?? 0) + 1);
  }

  async function count(table: string, where: Record<string, unknown>): Promise<number> {
    const [row] = await app.knex(table).where(where).count({ n: '*' });
    return Number(row.n);
  }

  async function checkInvariants(o: Objects, model: ToggleModel): Promise<string[]> {
    const bad: string[] = [];
    const eq = (what: string, shown: unknown, actual: number) => {
      if (shown !== actual) bad.push(`${what}: API shows ${shown}, the table holds ${actual}`);
      if (typeof shown === 'number' && shown < 0) bad.push(`${what}: negative (${shown})`);
    };
    const viewer = admin;
    const post = (await viewer.get(`/api/posts/${o.post}`)).body;
    eq('insight likesCount', post.likesCount, await count('insights_likes', { post_id: o.post }));
    for (const u of pool) {
      const p = (await viewer.get(`/api/user/${u.me.id}`)).body;
      eq(`user ${u.me.id} followersCount`, p.followersCount, await count('user_follows', { following_id: u.me.id }));
      eq(`user ${u.me.id} followingCount`, p.followingCount, await count('user_follows', { follower_id: u.me.id }));
    }
    const m = (await viewer.get(`/api/museums/${o.museum}`)).body;
    eq('museum followerCount', m.followerCount, await count('museum_follows', { museum_id: o.museum }));
    eq('museum checkInCount', m.checkInCount, await count('museum_checkins', { museum_id: o.museum }));
    const com = (await viewer.get(`/api/communities/${o.community}`)).body;
    eq('community memberCount', com.memberCount, await count('community_members', { community_id: o.community }));
    const cPosts = (await creator.get(`/api/communities/${o.community}/posts`)).body;
    const cp = (cPosts.items ?? cPosts).find((x: any) => x.id === o.cPost);
    eq('community post likesCount', cp?.likesCount, await count('community_post_likes', { post_id: o.cPost }));
    const g = (await creator.get(`/api/groups/${o.group}`)).body;
    eq('group memberCount', g.memberCount, await count('group_members', { group_id: o.group }));
    for (const [what, id, path] of [['meetup', o.meetup, `/api/meetups/${o.meetup}`], ['museum event', o.event, `/api/museum-events/${o.event}`]] as const) {
      const e = (await viewer.get(path)).body;
      const attending = await count('events_attendees', { event_id: id, status: 'attending' });
      const waitlisted = await count('events_attendees', { event_id: id, status: 'waitlisted' });
      eq(`${what} currentAttendees`, e.currentAttendees, attending);
      eq(`${what} waitlistCount`, e.waitlistCount, waitlisted);
      if (attending > e.maxAttendees) bad.push(`${what}: ${attending} attending over a capacity of ${e.maxAttendees}`);
      if (attending < e.maxAttendees && waitlisted > 0) bad.push(`${what}: a free seat (${attending}/${e.maxAttendees}) while ${waitlisted} wait`);
      const [row] = await app.knex('events_events').where({ id }).select('current_attendees');
      if (row.current_attendees !== attending) bad.push(`${what}: stored current_attendees ${row.current_attendees} ≠ ${attending}`);
    }
    // the model: the toggles of this batch are explainable by some order
    bad.push(
      ...(await model.endBatch(async (key) => {
        const [kind, a, b] = key.split(':');
        if (kind === 'like') return (await count('insights_likes', { post_id: o.post, user_id: Number(a) })) === 1;
        if (kind === 'follow') return (await count('user_follows', { follower_id: Number(a), following_id: Number(b) })) === 1;
        return (await count('museum_follows', { museum_id: o.museum, user_id: Number(a) })) === 1;
      })),
    );
    return bad;
  }

  it(`${RUNS} runs of concurrent batches keep every counter equal to its aggregate, within capacity, never negative`, async () => {
    let runs = 0;
    let actions = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (batches) => {
        runs++;
        const o = await freshObjects();
        const model = new ToggleModel();
        // initial states of what the model tracks
        for (const u of pool) {
          model.start(`like:${u.me.id}`, false);
          model.start(`museum:${u.me.id}`, false);
          for (const v of pool) if (u !== v) model.start(`follow:${u.me.id}:${v.me.id}`, (await count('user_follows', { follower_id: u.me.id, following_id: v.me.id })) === 1);
        }
        for (const [i, batch] of batches.entries()) {
          const failures: string[] = [];
          await Promise.all(batch.map((a) => run(o, a, model, failures)));
          actions += batch.length;
          const bad = [...failures, ...(await checkInvariants(o, model))];
          if (bad.length) throw new Error(`after batch ${i + 1} of ${JSON.stringify(batches)}:\n  ${bad.join('\n  ')}`);
        }
      }),
      { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true, seed: process.env.INVARIANT_SEED ? Number(process.env.INVARIANT_SEED) : undefined },
    );
    console.log(`      ${runs} runs, ${actions} actions: ${[...stats].sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    expect(runs).to.equal(RUNS);
    expect(actions).to.be.above(RUNS * 4);
  });
});
