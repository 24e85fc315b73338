import { expect } from 'chai';
import { startTestApp, setDeletionPending, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { NotificationsService } from '../public.ts';

/**
 * Issue 21 item 9: notifications open the content (the insight, the comment), carry an excerpt of
 * it, and the likes of one insight are one row ("Noah and 3 others liked your insight"), grouped in
 * the list's statement after the accounts rule (blocked and muted members neither named nor
 * counted), paged by groups.
 */
describe('notifications: deep links, excerpts and grouped likes', function () {
  let app: TestApp;
  // An app of its own without badges: on the shared app, the author's insights earn badges (the
  // starter set and other files' one-post badges), whose notifications would count beside the likes
  before(async () => {
    app = await startTestApp({ plugins: { disabled: ['badges'] } });
  });
  after(async () => {
    await app?.close();
  });

  async function page(user: SignedInClient, q = '') {
    const r = await user.get(`/api/notifications${q}`);
    expect(r.status, r.text).to.equal(200);
    return r.body as { items: any[]; nextCursor: string | null };
  }
  async function unread(user: SignedInClient): Promise<number> {
    return (await user.get('/api/notifications/unread-count')).body.count;
  }
  async function insight(author: SignedInClient, content: string): Promise<number> {
    const r = await author.post('/api/posts', { type: 'text', content, videoUrl: null, museumId: null, tags: [] });
    expect(r.status, r.text).to.be.oneOf([200, 201]);
    return r.body.id;
  }
  async function like(u: SignedInClient, postId: number) {
    const r = await u.post(`/api/posts/${postId}/like`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.liked).to.equal(true);
  }

  it('likes of one insight are one row linking to the insight, with its excerpt; blocked and muted likers are not counted', async () => {
    const author = await app.user();
    const names = ['Noah', 'Emma', 'Liam', 'Zoe', 'Mia', 'Theo'];
    const fans: SignedInClient[] = [];
    for (const n of names) fans.push(await app.user({ firstName: n, lastName: 'Fan' }));
    const text = `Saw the ${'very '.repeat(40)}long Monet room today, the water lilies glow in the afternoon light.`;
    const post = await insight(author, text);
    const other = await insight(author, 'A second insight.');
    for (const f of fans.slice(0, 4)) await like(f, post);
    await like(fans[4], other); // another insight: its own row
    await like(fans[5], post); // the newest liker of the first insight
    await app.events.settled();

    let p = await page(author);
    const likes = p.items.filter((n) => n.type === 'like');
    expect(likes).to.have.length(2);
    const [group, single] = likes;
    expect(group).to.deep.include({ link: `/insights/${post}`, groupCount: 5, actorCount: 5, read: false, template: 'notifications:templates.like' });
    expect(group.params.name).to.equal('Theo Fan'); // the newest is named
    expect(group.params.excerpt.length).to.be.at.most(120);
    expect(group.params.excerpt).to.match(/^Saw the very very/).and.to.match(/…$/);
    expect(single).to.deep.include({ link: `/insights/${other}`, groupCount: 1, actorCount: 1 });
    expect(single.params.excerpt).to.equal('A second insight.');
    expect(await unread(author)).to.equal(2); // a group counts once

    // the author blocks one liker and mutes another (with notifications): neither counted nor named
    expect((await author.post(`/api/user/${fans[1].me.id}/block`)).status).to.be.oneOf([200, 201]);
    expect((await author.post(`/api/user/${fans[5].me.id}/mute`, { notifications: true })).status).to.be.oneOf([200, 201]);
    p = await page(author);
    const g = p.items.find((n) => n.link === `/insights/${post}`);
    expect(g).to.deep.include({ groupCount: 3, actorCount: 3 });
    expect(g.params.name).to.equal('Zoe Fan'); // Theo is muted: the newest visible liker is named

    // marking the group's row read marks the whole group read
    const r = await author.post(`/api/notifications/${g.id}/read`);
    expect(r.status).to.equal(200);
    p = await page(author);
    expect(p.items.find((n) => n.link === `/insights/${post}`).read).to.equal(true);
    expect(await unread(author)).to.equal(1);
    // every row it showed is read (the blocked liker's too, older); the muted liker's newer, hidden row is not touched
    const rows = await app.knex('notifications').where({ user_id: author.me.id, group_key: `like:insight:${post}` }).orderBy('id').select('read', 'actor_id');
    expect(rows.map((x: any) => x.read)).to.deep.equal([true, true, true, true, false]);
    expect(rows[4].actor_id).to.equal(fans[5].me.id);
    // a new like afterwards makes the group unread again
    const late = await app.user({ firstName: 'Late', lastName: 'Fan' });
    await like(late, post);
    await app.events.settled();
    p = await page(author);
    expect(p.items[0]).to.deep.include({ link: `/insights/${post}`, read: false, groupCount: 4 });
    expect(p.items[0].params.name).to.equal('Late Fan');
    const unreadOnly = await page(author, '?unread=true');
    expect(unreadOnly.items.find((n) => n.link === `/insights/${post}`)).to.deep.include({ groupCount: 1, actorCount: 1 });
  });

  it('pages over groups: no group split or repeated across pages', async () => {
    const author = await app.user();
    const posts: number[] = [];
    for (let i = 0; i < 3; i++) posts.push(await insight(author, `Insight number ${i}`));
    const likers: SignedInClient[] = [];
    for (let i = 0; i < 4; i++) likers.push(await app.user());
    // interleaved likes: 0,1,2,0,1,2…
    for (const l of likers) for (const p of posts) await like(l, p);
    await app.events.settled();
    const seen: any[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const p = await page(author, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...p.items);
      cursor = p.nextCursor;
      if (!cursor) break;
    }
    expect(seen.map((n) => n.link)).to.deep.equal([...posts].reverse().map((id) => `/insights/${id}`));
    expect(seen.map((n) => n.groupCount)).to.deep.equal([4, 4, 4]);
  });

  it('a comment and a reply link to the comment on the insight (#comment-id), with the comment as excerpt', async () => {
    const author = await app.user();
    const commenter = await app.user({ firstName: 'Ada', lastName: 'Comment' });
    const replier = await app.user({ firstName: 'Rex', lastName: 'Reply' });
    const post = await insight(author, 'The new wing opened.');
    const c = await commenter.post(`/api/posts/${post}/comments`, { content: 'Loved the   sculpture garden!' });
    expect(c.status, c.text).to.be.oneOf([200, 201]);
    const reply = await replier.post(`/api/posts/${post}/comments`, { content: 'Me too, see you there.', parentId: c.body.id });
    expect(reply.status, reply.text).to.be.oneOf([200, 201]);
    await app.events.settled();
    const mine = (await page(author)).items.filter((n) => n.type === 'comment');
    expect(mine.map((n) => n.link)).to.deep.equal([`/insights/${post}#comment-${reply.body.id}`, `/insights/${post}#comment-${c.body.id}`]);
    expect(mine[1].params.excerpt).to.equal('Loved the sculpture garden!');
    expect(mine[1].groupCount).to.equal(1); // comments are not grouped
    const told = (await page(commenter)).items.filter((n) => n.type === 'comment');
    expect(told[0]).to.deep.include({ title: 'New reply', link: `/insights/${post}#comment-${reply.body.id}` });
    expect(told[0].params.excerpt).to.equal('Me too, see you there.');
  });

  it('the unread count counts groups, leaves out a blocked actor\'s, and stops at 100 (the bell shows 99+)', async () => {
    const svc = app.services.get(NotificationsService);
    const member = await app.user();
    const [a, b, blocked] = [await app.user(), await app.user(), await app.user()];
    // three groups of likes, two rows each, and one of a member the recipient blocks
    for (const g of ['g1', 'g2', 'g3']) {
      for (const actor of [a, b]) await svc.notify([member.me.id], { type: 'like', title: 'Like', message: 'liked', actorId: actor.me.id, groupKey: `like:insight:${g}`, dedupeKey: `${g}:${actor.me.id}` });
    }
    await svc.notify([member.me.id], { type: 'like', title: 'Like', message: 'liked', actorId: blocked.me.id, groupKey: 'like:insight:g4' });
    expect((await member.post(`/api/user/${blocked.me.id}/block`)).status).to.be.oneOf([200, 201]);
    expect(await unread(member)).to.equal(3);
    // 120 rows of their own (no group): counted up to 100
    for (let i = 0; i < 120; i++) await svc.notify([member.me.id], { type: 'admin', title: `Notice ${i}`, message: 'Something happened' });
    expect(await unread(member)).to.equal(100);
    expect(await svc.unreadCount(member.me.id)).to.equal(100);
    expect((await member.post('/api/notifications/read-all')).status).to.equal(200);
    expect(await unread(member)).to.equal(0);
  });
  it('a member whose deletion is pending is left out of others\' inboxes and unread counts until they sign in again', async () => {
    const svc = app.services.get(NotificationsService);
    const member = await app.user();
    const leaving = await app.user();
    await svc.notify([member.me.id], { type: 'follow', title: 'New follower', message: 'followed you', actorId: leaving.me.id });
    await svc.notify([member.me.id], { type: 'admin', title: 'Notice', message: 'Something happened' });
    const titles = async () => ((await member.get('/api/notifications?limit=50')).body.items as any[]).map((n) => n.title);
    expect(await titles()).to.include.members(['New follower', 'Notice']);
    expect(await unread(member)).to.equal(2);
    await setDeletionPending(app, leaving.me.id);
    expect(await titles()).to.deep.equal(['Notice']);
    expect(await unread(member)).to.equal(1);
    // signing in cancels the deletion: the notification is back
    expect((await app.client().post('/api/auth/login', { email: leaving.me.email, password: leaving.me.password })).status).to.equal(200);
    expect((await app.knex('users').where({ id: leaving.me.id }).first('deletion_requested_at')).deletion_requested_at).to.equal(null);
    expect(await titles()).to.include('New follower');
    expect(await unread(member)).to.equal(2);
  });
});

