import { expect } from 'chai';
import { sharedApp, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { follow, setVisibility, textPost } from './test-helpers.ts';

async function mentionNotes(c: SignedInClient) {
  const r = await c.get('/api/notifications?limit=100');
  expect(r.status).to.equal(200);
  return (r.body.items as any[]).filter((n) => n.type === 'mention');
}

/** Waits until the other notifications of a request have landed, then answers the mention ones. */
async function settledMentions(c: SignedInClient, expected: number) {
  if (expected > 0) await waitFor(async () => ((await mentionNotes(c)).length >= expected ? true : null));
  else await new Promise((r) => setTimeout(r, 300));
  return mentionNotes(c);
}

describe('insights: mentions', function () {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('an @username in an insight is stored as a link range, notifies the member, and is read back without re-parsing', async () => {
    const [author, ann] = await Promise.all([app.user(), app.user()]);
    const text = `Thanks @${ann.me.username}! And @nobody_${Date.now()} too.`;
    const post = await textPost(author, text);
    expect(post.mentions).to.deep.equal([{ userId: ann.me.id, username: ann.me.username, start: 7, length: ann.me.username.length + 1 }]);
    const read = await author.get(`/api/posts/${post.id}`);
    expect(read.body.mentions).to.deep.equal(post.mentions);
    const notes = await settledMentions(ann, 1);
    expect(notes).to.have.length(1);
    expect(notes[0].link).to.equal(`/insights/${post.id}`);
    // Stored, not re-parsed: the range stays what was resolved at write time, whatever happens to preferences later.
    expect((await ann.put('/api/user/preferences', { allowTagging: false })).status).to.equal(200);
    expect((await author.get(`/api/posts/${post.id}`)).body.mentions).to.have.length(1);
  });

  it('mentions in comments (case-insensitive), once per person, never the author themself', async () => {
    const [author, ann, commenter] = await Promise.all([app.user(), app.user(), app.user()]);
    const post = await textPost(author, 'A post');
    const upper = ann.me.username.toUpperCase();
    const c = await commenter.post(`/api/posts/${post.id}/comments`, { content: `@${upper} look, @${ann.me.username} and @${commenter.me.username}` });
    expect(c.status, c.text).to.equal(201);
    expect(c.body.mentions.map((m: any) => m.userId)).to.deep.equal([ann.me.id, ann.me.id, commenter.me.id]);
    const list = await author.get(`/api/posts/${post.id}/comments`);
    expect(list.body[0].mentions).to.deep.equal(c.body.mentions);
    expect(await settledMentions(ann, 1)).to.have.length(1);
    expect(await settledMentions(commenter, 0)).to.have.length(0);
  });

  it('allowTagging off: plain text, no notification', async () => {
    const [author, shy] = await Promise.all([app.user(), app.user()]);
    expect((await shy.put('/api/user/preferences', { allowTagging: false })).status).to.equal(200);
    const post = await textPost(author, `Hello @${shy.me.username}`);
    expect(post.mentions).to.deep.equal([]);
    const c = await author.post(`/api/posts/${post.id}/comments`, { content: `again @${shy.me.username}` });
    expect(c.body.mentions).to.deep.equal([]);
    expect(await settledMentions(shy, 0)).to.have.length(0);
  });

  it("a member the author may not reach (accounts' canView rule) stays plain text and is not told", async () => {
    const [author, hidden] = await Promise.all([app.user(), app.user()]);
    await setVisibility(hidden, 'friends');
    const post = await textPost(author, `Hey @${hidden.me.username}`);
    expect(post.mentions).to.deep.equal([]);
    expect(await settledMentions(hidden, 0)).to.have.length(0);
    // The same rule, once the author may see them (a friends-only profile is open to its followers).
    await follow(app, author, hidden.me.id);
    const again = await textPost(author, `Hey @${hidden.me.username}`);
    expect(again.mentions.map((m: any) => m.userId)).to.deep.equal([hidden.me.id]);
    expect(await settledMentions(hidden, 1)).to.have.length(1);
  });
});
