/**
 * Badges and notifications fed by the real source plugins over real HTTP: check-ins (museums),
 * museum follows, insights and likes (insights), user follows (accounts). Each part is skipped
 * when its source plugin or route is absent.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { BadgesService, type BadgesApi } from '../public.ts';
import { MuseumsService, positionAt } from '../../museums/public.ts';

const hasRoute = (app: TestApp, method: string, path: string) => app.routes.some((r) => r.method === method && r.path === path);

/** Museums side by side on the Rue de Rivoli (about 20 m apart): a member can visit them all at once. */
const positions = new Map<number, { latitude: number; longitude: number; accuracy: number }>();
async function museums(app: TestApp, n: number): Promise<number[]> {
  const api = app.services.get(MuseumsService);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = await api.createMuseum({ name: uniqueName('Museum '), address: `${i + 1} Rue de Rivoli`, city: 'Paris', country: 'France', latitude: 48.8606 + i * 0.0002, longitude: 2.3376 } as any, null);
    positions.set(m.id, positionAt(m));
    ids.push(m.id);
  }
  return ids;
}
/** A check-in from a phone standing in the museum (verified check-ins are the ones badges count). */
const checkIn = (u: SignedInClient, id: number) => u.post(`/api/museums/${id}/checkin`, positions.get(id));

const unread = async (u: SignedInClient) => (await u.get('/api/notifications/unread-count')).body.count as number;

describe('badges and notifications over real HTTP', function () {
  let app: TestApp;
  let badges: BadgesApi;
  before(async function () {
    app = await sharedApp();
    badges = app.services.get(BadgesService);
  });

  it('concurrent check-ins at several museums award the badge once; exactly one answer carries it', async function () {
    if (!hasRoute(app, 'POST', '/api/museums/:id/checkin')) this.skip();
    const user = await app.user();
    const badge = await badges.createBadge({ name: uniqueName('Explorer '), description: 'Checked in 4 times.', icon: '🧭', color: '#0EA5E9', requirement: { type: 'check_ins', count: 4 } });
    const ids = await museums(app, 7);
    const before = await unread(user);
    const answers = await Promise.all(ids.map((id) => checkIn(user, id)));
    for (const a of answers) expect(a.status, a.text).to.equal(201);
    const carrying = answers.filter((a) => a.body.badges.some((b: any) => b.id === badge.id));
    expect(carrying).to.have.length(1);
    expect(carrying[0].body.badges.find((b: any) => b.id === badge.id)).to.include({ name: badge.name, icon: '🧭', color: '#0EA5E9', description: 'Checked in 4 times.' });
    expect((await badges.counts(user.me.id)).check_ins).to.equal(7);
    const mine = (await user.get(`/api/user/${user.me.id}/badges`)).body.filter((u: any) => u.badge.name === badge.name);
    expect(mine).to.have.length(1);
    // one badge notification for this badge (written after the answer: issue 18)
    await app.events.settled();
    const inbox = (await user.get('/api/notifications?limit=100')).body.items.filter((n: any) => n.type === 'badge' && n.params?.badgeId === badge.id);
    expect(inbox).to.have.length(1);
    expect(await unread(user)).to.be.at.least(before + 1);
    // a second check-in at the same museum the same day is refused by museums and counts nothing
    const again = await checkIn(user, ids[0]);
    if (again.status === 201) expect(again.body.badges).to.deep.equal([]);
    expect((await badges.counts(user.me.id)).check_ins).to.equal(7);
  });

  it('museum follows count while they last (toggle over HTTP)', async function () {
    if (!hasRoute(app, 'POST', '/api/museums/:id/follow')) this.skip();
    const user = await app.user();
    const [a, b] = await museums(app, 2);
    const badge = await badges.createBadge({ name: uniqueName('Curious '), description: 'Follows 2 museums.', icon: '👀', color: '#8B5CF6', requirement: { type: 'follows', count: 2 } });
    expect((await user.post(`/api/museums/${a}/follow`)).body.following).to.equal(true);
    expect((await user.post(`/api/museums/${a}/follow`)).body.following).to.equal(false);
    expect((await badges.counts(user.me.id)).follows).to.equal(0);
    await user.post(`/api/museums/${a}/follow`);
    await user.post(`/api/museums/${b}/follow`);
    expect((await badges.counts(user.me.id)).follows).to.equal(2);
    expect((await badges.userBadges(user.me.id)).map((u) => u.badgeId)).to.include(badge.id);
  });

  it('a user follow over HTTP notifies the followed member once, and honours followNotifications', async function () {
    if (!hasRoute(app, 'POST', '/api/user/:id/follow')) this.skip();
    const a = await app.user({ firstName: 'Ada', lastName: 'Lovelace' });
    const b = await app.user();
    await a.post(`/api/user/${b.me.id}/follow`);
    await a.post(`/api/user/${b.me.id}/follow`); // unfollow
    await a.post(`/api/user/${b.me.id}/follow`); // follow again: no second notification
    const got = (await b.get('/api/notifications?limit=100')).body.items.filter((n: any) => n.type === 'follow');
    expect(got).to.have.length(1);
    expect(got[0].message).to.equal('Ada Lovelace started following you.');
    if (hasRoute(app, 'PUT', '/api/user/preferences')) {
      const c = await app.user();
      const r = await c.put('/api/user/preferences', { followNotifications: false });
      expect(r.status, r.text).to.equal(200);
      await a.post(`/api/user/${c.me.id}/follow`);
      expect((await c.get('/api/notifications?limit=100')).body.items).to.have.length(0);
    }
  });

  it('insights and likes received over HTTP: posts count, likes count for the author, the author is notified', async function () {
    if (!hasRoute(app, 'POST', '/api/posts') || !hasRoute(app, 'POST', '/api/posts/:id/like')) this.skip();
    const author = await app.user();
    const fan = await app.user({ firstName: 'Fan', lastName: 'One' });
    const postsBadge = await badges.createBadge({ name: uniqueName('Writer '), description: 'Shared an insight.', icon: '✍️', color: '#10B981', requirement: { type: 'posts', count: 1 } });
    const r = await author.post('/api/posts', { content: 'The Winged Victory at the top of the Daru staircase.', type: 'text', videoUrl: null, museumId: null, tags: [] });
    expect(r.status, r.text).to.be.oneOf([200, 201]);
    expect((await badges.counts(author.me.id)).posts).to.equal(1);
    expect((await badges.userBadges(author.me.id)).map((u) => u.badgeId)).to.include(postsBadge.id);
    expect(r.body.badges.map((b: any) => b.id)).to.include(postsBadge.id);
    const like = await fan.post(`/api/posts/${r.body.id}/like`);
    expect(like.status, like.text).to.equal(200);
    // likes received count after the answer (the liker's answer carries nothing of the author's)
    await app.events.settled();
    expect((await badges.counts(author.me.id)).likes).to.equal(1);
    await waitFor(async () => (await author.get('/api/notifications?limit=100')).body.items.some((n: any) => n.type === 'like'));
    const likeNote = (await author.get('/api/notifications?limit=100')).body.items.find((n: any) => n.type === 'like');
    expect(likeNote.message).to.equal('Fan One liked your insight.');
    await fan.post(`/api/posts/${r.body.id}/like`); // unlike
    await app.events.settled();
    expect((await badges.counts(author.me.id)).likes).to.equal(0);
    expect((await badges.counts(fan.me.id)).likes).to.equal(0);
  });
});
