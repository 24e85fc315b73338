import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';
import { openSse, type SseStream } from '../../../core/testing/sse.ts';
import { createMuseum, follow, setVisibility, textPost } from './test-helpers.ts';

describe('insights: live updates (feed.new, post.commented) and the new-insights count', function () {
  this.timeout(60000);
  let app: TestApp;
  const streams: SseStream[] = [];
  before(async () => {
    app = await sharedApp();
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });

  it('a followed member’s new insight: feed.new on the stream, and the count says how many are new', async () => {
    const viewer = await app.user();
    const author = await app.user();
    await follow(app, viewer, author.me.id);
    const first = await textPost(author, 'first');
    await app.events.settled(); // its feed.new is sent after its answer: before the stream opens
    const s = await openSse(viewer);
    streams.push(s);
    const p2 = await textPost(author, 'second');
    const e = await s.next((x) => x.event === 'feed.new');
    expect(e.data).to.deep.equal({ postId: p2.id });
    const p3 = await textPost(author, 'third');
    await s.next((x) => x.event === 'feed.new' && x.data.postId === p3.id);
    const r = await viewer.get(`/api/feed/new-count?since=${encodeURIComponent(first.createdAt)}&sinceId=${first.id}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.count).to.equal(2);
    // the viewer's own new insight is not "new" for them
    await textPost(viewer, 'mine');
    expect((await viewer.get(`/api/feed/new-count?since=${encodeURIComponent(first.createdAt)}&sinceId=${first.id}`)).body.count).to.equal(2);
    expect((await viewer.get('/api/feed/new-count?since=yesterday&sinceId=1')).status).to.equal(400);
    expect((await app.client().get(`/api/feed/new-count?since=${encodeURIComponent(first.createdAt)}&sinceId=1`)).status).to.equal(401);
  });

  it('a followed museum’s insight by a private author: the hint may come, but nothing is counted for who may not see it', async () => {
    const viewer = await app.user();
    const author = await app.user();
    const museum = await createMuseum(app, `Live museum ${Date.now()}`);
    expect((await viewer.post(`/api/museums/${museum.id}/follow`)).status).to.equal(200);
    const before = await textPost(await app.user(), 'an older public insight', { museumId: museum.id });
    expect(await setVisibility(author, 'private')).to.equal(true);
    await textPost(author, 'private author about the museum', { museumId: museum.id });
    const count = await viewer.get(`/api/feed/new-count?since=${encodeURIComponent(before.createdAt)}&sinceId=${before.id}`);
    expect(count.body.count).to.equal(0);
    // a public author about the museum: feed.new reaches the museum's follower, and it is counted
    const s = await openSse(viewer);
    streams.push(s);
    const pub = await textPost(await app.user(), 'public author about the museum', { museumId: museum.id });
    await s.next((x) => x.event === 'feed.new' && x.data.postId === pub.id);
    expect((await viewer.get(`/api/feed/new-count?since=${encodeURIComponent(before.createdAt)}&sinceId=${before.id}`)).body.count).to.equal(1);
  });

  it('a followed museum’s insight by a member blocked either way: no feed.new', async () => {
    const viewer = await app.user();
    const blocker = await app.user();
    const blocked = await app.user();
    const museum = await createMuseum(app, `Live block museum ${Date.now()}`);
    expect((await viewer.post(`/api/museums/${museum.id}/follow`)).status).to.equal(200);
    expect((await blocker.post(`/api/user/${viewer.me.id}/block`)).status).to.be.oneOf([200, 201]);
    expect((await viewer.post(`/api/user/${blocked.me.id}/block`)).status).to.be.oneOf([200, 201]);
    const s = await openSse(viewer);
    streams.push(s);
    const hidden = [await textPost(blocker, 'by one who blocked the viewer', { museumId: museum.id }), await textPost(blocked, 'by one the viewer blocked', { museumId: museum.id })];
    await app.events.settled();
    // one stream's events come in order: once a later insight's hint is here, the earlier ones would be too
    const pub = await textPost(await app.user(), 'public author about the museum', { museumId: museum.id });
    await s.next((x) => x.event === 'feed.new' && x.data.postId === pub.id);
    const told = s.events.filter((x) => x.event === 'feed.new').map((x) => x.data.postId);
    expect(told).to.not.include(hidden[0].id);
    expect(told).to.not.include(hidden[1].id);
  });

  it('a comment on one’s insight arrives as post.commented (not for one’s own comments)', async () => {
    const author = await app.user();
    const other = await app.user();
    const post = await textPost(author, 'comment on me');
    const s = await openSse(author);
    streams.push(s);
    await author.post(`/api/posts/${post.id}/comments`, { content: 'my own note' });
    const c = await other.post(`/api/posts/${post.id}/comments`, { content: 'nice' });
    expect(c.status, c.text).to.equal(201);
    const e = await s.next((x) => x.event === 'post.commented');
    expect(e.data).to.deep.equal({ postId: post.id, commentId: c.body.id });
    expect(s.events.filter((x) => x.event === 'post.commented')).to.have.length(1);
  });
});
