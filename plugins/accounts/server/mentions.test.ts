/**
 * @username mentions outside insights (insights has its own suite): community and group posts and
 * comments resolve them with accounts' one rule (AccountsApi.resolveMentions: allowTagging, blocks,
 * visibility), store them with the text, and notify the mentioned member, only where that member
 * may read the text.
 */
import { expect } from 'chai';
import { sharedApp, waitFor, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { findCandidates } from './mentions.ts';

async function mentionNotes(c: SignedInClient) {
  const r = await c.get('/api/notifications?limit=100');
  expect(r.status).to.equal(200);
  return (r.body.items as any[]).filter((n) => n.type === 'mention');
}
async function settled(c: SignedInClient, expected: number) {
  if (expected > 0) await waitFor(async () => ((await mentionNotes(c)).length >= expected ? true : null));
  else await new Promise((r) => setTimeout(r, 300));
  return mentionNotes(c);
}
const range = (u: SignedInClient, start: number) => ({ userId: u.me.id, username: u.me.username, start, length: u.me.username.length + 1 });

describe('mentions in community and group discussions', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('finds @names, not e-mail addresses, and trims sentence punctuation', () => {
    const c = findCandidates('hi @ann_b, mail bob@example.com and @x and @carl.');
    expect(c.map((x) => x.names)).to.deep.equal([['ann_b'], ['carl.', 'carl']]);
    expect(c[0].start).to.equal(3);
  });

  it('community posts and comments: stored links, a notification; allowTagging off and blocks stay plain text', async () => {
    const [creator, ann, shy, blocker] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user(), app.user()]);
    expect((await shy.put('/api/user/preferences', { allowTagging: false })).status).to.equal(200);
    expect((await blocker.post(`/api/user/${creator.me.id}/block`)).status).to.equal(200);
    const c = (await creator.post('/api/communities', { name: `Mentions ${Date.now()}`, description: 'open', membershipType: 'open' })).body;
    const text = `Hello @${ann.me.username} and @${shy.me.username} and @${blocker.me.username}`;
    const post = await creator.post(`/api/communities/${c.id}/posts`, { type: 'text', content: text });
    expect(post.status, post.text).to.equal(201);
    expect(post.body.mentions).to.deep.equal([range(ann, 6)]);
    const feed = await creator.get(`/api/communities/${c.id}/posts`);
    expect(feed.body.items.find((p: any) => p.id === post.body.id).mentions).to.deep.equal(post.body.mentions);
    const notes = await settled(ann, 1);
    expect(notes).to.have.length(1);
    // straight to the post on the community's page (issue 21), with its first words
    expect(notes[0].link).to.equal(`/communities/${c.id}#post-${post.body.id}`);
    expect(notes[0].params.excerpt).to.equal(text);
    expect(await settled(shy, 0)).to.have.length(0);
    expect(await settled(blocker, 0)).to.have.length(0);
    // a comment
    const cm = await creator.post(`/api/community-posts/${post.body.id}/comments`, { content: `@${ann.me.username} see above` });
    expect(cm.status, cm.text).to.equal(201);
    expect(cm.body.mentions).to.deep.equal([range(ann, 0)]);
    expect((await creator.get(`/api/community-posts/${post.body.id}/comments`)).body[0].mentions).to.deep.equal(cm.body.mentions);
    expect(await settled(ann, 2)).to.have.length(2);
  });

  it('a private community: only its members are mentioned (others cannot read it); only members are told', async () => {
    const [creator, member, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    const c = (await creator.post('/api/communities', { name: `Mentions P ${Date.now()}`, description: 'private', membershipType: 'private' })).body;
    expect((await member.post(`/api/communities/${c.id}/join`, {})).status, 'join').to.be.oneOf([200, 201]);
    const reqs = (await creator.get(`/api/communities/${c.id}/join-requests`)).body as any[];
    const id = reqs.find((r) => r.user?.id === member.me.id)?.id;
    expect((await creator.post(`/api/communities/${c.id}/join-requests/${id}/accept`, {})).status).to.be.oneOf([200, 201]);
    const post = await creator.post(`/api/communities/${c.id}/posts`, { type: 'text', content: `@${member.me.username} @${outsider.me.username}` });
    expect(post.status, post.text).to.equal(201);
    expect(post.body.mentions.map((m: any) => m.userId)).to.deep.equal([member.me.id]);
    expect(await settled(member, 1)).to.have.length(1);
    expect(await settled(outsider, 0)).to.have.length(0);
  });

  it('group posts and comments: members are mentioned and told; non-members stay plain text', async () => {
    const [owner, ann, outsider] = await Promise.all([app.user(), app.user(), app.user()]);
    const g = (await owner.post('/api/groups', { name: `Mention group ${Date.now()}` })).body;
    expect((await ann.post(`/api/groups/${g.id}/join`)).status).to.be.oneOf([200, 201]);
    const text = `Hi @${ann.me.username} and @${outsider.me.username}`;
    const p = await owner.post(`/api/groups/${g.id}/posts`, { content: text });
    expect(p.status, p.text).to.equal(201);
    expect(p.body.mentions).to.deep.equal([range(ann, 3)]);
    expect((await owner.get(`/api/groups/${g.id}/posts`)).body.items[0].mentions).to.deep.equal(p.body.mentions);
    const notes = await settled(ann, 1);
    // straight to the post on the group's page, like a community's
    expect(notes[0].link).to.equal(`/groups/${g.id}#post-${p.body.id}`);
    expect(await settled(outsider, 0)).to.have.length(0);
    const cm = await ann.post(`/api/group-posts/${p.body.id}/comments`, { content: `thanks @${owner.me.username}` });
    expect(cm.status, cm.text).to.equal(201);
    expect(cm.body.mentions).to.deep.equal([range(owner, 7)]);
    expect((await owner.get(`/api/group-posts/${p.body.id}/comments`)).body[0].mentions).to.deep.equal(cm.body.mentions);
    // the post's author hears of the comment once (the comment notification, to the post), not twice
    const comment = await waitFor(async () => ((await owner.get('/api/notifications')).body.items as any[]).find((n) => n.type === 'comment') ?? null);
    expect(comment.link).to.equal(`/groups/${g.id}#post-${p.body.id}`);
    expect(await mentionNotes(owner)).to.have.length(0);
    // allowTagging off: plain text
    expect((await ann.put('/api/user/preferences', { allowTagging: false })).status).to.equal(200);
    const again = await owner.post(`/api/groups/${g.id}/posts`, { content: `@${ann.me.username} again` });
    expect(again.body.mentions).to.deep.equal([]);
  });

  it('a member who muted the author with notifications is not told of a mention (the link stays)', async () => {
    const [author, ann] = await Promise.all([app.user(), app.user()]);
    expect((await ann.post(`/api/user/${author.me.id}/mute`, { notifications: true })).status).to.equal(200);
    const r = await author.post('/api/posts', { type: 'text', content: `Hi @${ann.me.username}`, videoUrl: null, museumId: null, tags: [] });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.mentions.map((m: any) => m.userId)).to.deep.equal([ann.me.id]);
    const g = (await author.post('/api/groups', { name: `Muted mention ${Date.now()}` })).body;
    expect((await ann.post(`/api/groups/${g.id}/join`)).status).to.be.oneOf([200, 201]);
    expect((await author.post(`/api/groups/${g.id}/posts`, { content: `@${ann.me.username} here` })).status).to.equal(201);
    expect(await settled(ann, 0)).to.have.length(0);
  });
});
