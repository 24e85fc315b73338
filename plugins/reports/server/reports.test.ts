import { expect } from 'chai';
import { startTestApp, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { textPost } from '../../insights/server/test-helpers.ts';
import { auditOf } from '../../admin/server/test-helpers.ts';
import { meetupBody } from '../../../core/quality/fixtures/world.ts';

const report = (c: SignedInClient, body: Record<string, unknown>) => c.post('/api/reports', { category: 'spam', ...body });

async function inbox(c: SignedInClient) {
  const r = await c.get('/api/notifications?limit=100');
  expect(r.status).to.equal(200);
  return r.body.items as any[];
}

async function queue(admin: SignedInClient, qs = '') {
  const r = await admin.get(`/api/admin/reports${qs}`);
  expect(r.status, r.text).to.equal(200);
  return r.body;
}

describe('reports', function () {
  let app: TestApp;
  let admin: SignedInClient;
  before(async () => {
    // A small throttle, so the throttle test is quick; the other tests use fresh reporters.
    app = await startTestApp({ plugins: { disabled: [], config: { reports: { perWindow: 5, windowSeconds: 3600 } } } });
    admin = await app.user({ role: 'Admin' });
  });
  after(() => app?.close());

  it('files a report with a snapshot of the content, one open report per reporter and target (409)', async () => {
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'Buy cheap tickets at example.com');
    const r = await report(reporter, { targetType: 'insight', targetId: post.id, note: '  obvious spam  ' });
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ targetType: 'insight', targetId: post.id, category: 'spam', note: 'obvious spam', status: 'open', resolution: null });
    expect(r.body.link).to.equal(`/insights/${post.id}`);

    const again = await report(reporter, { targetType: 'insight', targetId: post.id, category: 'hate' });
    expect(again.status).to.equal(409);
    expect(again.body.message).to.be.a('string');

    // Concurrent duplicates: exactly one is stored (the partial unique index decides).
    const other = await app.user();
    const burst = await Promise.all([1, 2, 3].map(() => report(other, { targetType: 'insight', targetId: post.id })));
    expect(burst.map((x) => x.status).sort()).to.deep.equal([201, 409, 409]);

    // The content changes afterwards; the queue shows it as it was reported.
    const q = await queue(admin, '?targetType=insight');
    const item = q.items.find((i: any) => i.targetId === post.id);
    expect(item.reporterCount).to.equal(2);
    expect(item.snapshot.text).to.equal('Buy cheap tickets at example.com');
    expect(item.snapshot.owner.id).to.equal(author.me.id);
    expect(item.notes.map((n: any) => n.note)).to.deep.equal(['obvious spam']);
    expect(item.canRemove).to.equal(true);
  });

  it('refuses bad input with a clear 400, unknown or invisible targets with 404, and your own content', async () => {
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'My own words');
    expect((await report(reporter, { targetType: 'museum', targetId: 1 })).status).to.equal(400);
    expect((await report(reporter, { targetType: 'insight', targetId: post.id, category: 'boring' })).status).to.equal(400);
    const long = await report(reporter, { targetType: 'insight', targetId: post.id, note: 'x'.repeat(1001) });
    expect(long.status).to.equal(400);
    expect(long.body.message).to.be.a('string');
    expect((await report(reporter, { targetType: 'insight', targetId: 2_000_000_000 })).status).to.equal(404);
    expect((await report(reporter, { targetType: 'user', targetId: 2_000_000_000 })).status).to.equal(404);
    expect((await report(author, { targetType: 'insight', targetId: post.id })).status).to.equal(400);
    expect((await report(author, { targetType: 'user', targetId: author.me.id })).status).to.equal(400);
    expect((await app.client().post('/api/reports', { targetType: 'insight', targetId: post.id, category: 'spam' })).status).to.equal(401);
    // a message that does not exist (the messages plugin describes messages)
    expect((await report(reporter, { targetType: 'message', targetId: 2_000_000_000 })).status).to.equal(404);
  });

  it('throttles each member (counted in the database, exact under concurrency)', async () => {
    const reporter = await app.user();
    const targets = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => app.user()));
    const res = await Promise.all(targets.map((t) => report(reporter, { targetType: 'user', targetId: t.me.id })));
    const codes = res.map((r) => r.status).sort();
    expect(codes).to.deep.equal([201, 201, 201, 201, 201, 429, 429]);
    // Another member is not affected.
    const other = await app.user();
    expect((await report(other, { targetType: 'user', targetId: targets[0].me.id })).status).to.equal(201);
  });

  it('resolves reports on an insight that is deleted (and on its comments), and tells the reporter', async () => {
    const [author, reporter, commenter] = await Promise.all([app.user(), app.user(), app.user()]);
    const post = await textPost(author, 'Soon gone');
    const c = await commenter.post(`/api/posts/${post.id}/comments`, { content: 'a rude comment' });
    expect(c.status).to.equal(201);
    const r1 = await report(reporter, { targetType: 'insight', targetId: post.id });
    const r2 = await report(reporter, { targetType: 'comment', targetId: c.body.id, category: 'harassment' });
    expect(r1.status).to.equal(201);
    expect(r2.status).to.equal(201);
    expect((await author.del(`/api/posts/${post.id}`)).status).to.equal(200);
    const mine = await reporter.get('/api/reports/mine');
    expect(mine.status).to.equal(200);
    const byId = new Map(mine.body.items.map((i: any) => [i.id, i]));
    expect(byId.get(r1.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
    expect(byId.get(r2.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
    const n = await waitFor(async () => (await inbox(reporter)).filter((x) => x.type === 'report').length === 2 || null);
    expect(n).to.equal(true);
  });

  it('resolves reports on a comment its author deletes', async () => {
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'A post');
    const c = await author.post(`/api/posts/${post.id}/comments`, { content: 'regret this' });
    const r = await report(reporter, { targetType: 'comment', targetId: c.body.id });
    expect(r.status).to.equal(201);
    expect((await author.del(`/api/comments/${c.body.id}`)).status).to.equal(200);
    const mine = await reporter.get('/api/reports/mine');
    expect(mine.body.items.find((i: any) => i.id === r.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
  });

  it('GET /api/reports/mine: only the caller’s reports, newest first, cursor-paged', async () => {
    const [reporter, someone] = await Promise.all([app.user(), app.user()]);
    const targets = await Promise.all([1, 2, 3].map(() => app.user()));
    const ids: number[] = [];
    for (const t of targets) ids.push((await report(reporter, { targetType: 'user', targetId: t.me.id })).body.id);
    await report(someone, { targetType: 'user', targetId: targets[0].me.id });
    const p1 = await reporter.get('/api/reports/mine?limit=2');
    expect(p1.body.items.map((i: any) => i.id)).to.deep.equal([ids[2], ids[1]]);
    expect(p1.body.nextCursor).to.be.a('string');
    const p2 = await reporter.get(`/api/reports/mine?limit=2&cursor=${p1.body.nextCursor}`);
    expect(p2.body.items.map((i: any) => i.id)).to.deep.equal([ids[0]]);
    expect(p2.body.nextCursor).to.equal(null);
    expect((await reporter.get('/api/reports/mine?cursor=%%%')).status).to.equal(400);
    expect((await app.client().get('/api/reports/mine')).status).to.equal(401);
  });

  it('admin queue: filters by status, category and type; members may not read it or act', async () => {
    const [author, reporter, member] = await Promise.all([app.user(), app.user(), app.user()]);
    const post = await textPost(author, 'Filter me');
    const r = await report(reporter, { targetType: 'insight', targetId: post.id, category: 'misinformation' });
    const hit = (await queue(admin, '?status=open&category=misinformation&targetType=insight')).items.find((i: any) => i.id === r.body.id);
    expect(hit).to.include({ status: 'open', targetType: 'insight' });
    expect(hit.categories).to.deep.equal(['misinformation']);
    expect((await queue(admin, '?category=spam&targetType=insight')).items.find((i: any) => i.id === r.body.id)).to.equal(undefined);
    expect((await queue(admin, '?targetType=user')).items.find((i: any) => i.id === r.body.id)).to.equal(undefined);
    expect((await admin.get('/api/admin/reports?status=nope')).status).to.equal(400);
    expect((await member.get('/api/admin/reports')).status).to.equal(403);
    expect((await member.post(`/api/admin/reports/${r.body.id}/action`, { action: 'dismiss' })).status).to.equal(403);
  });

  it('dismiss closes every open report on the target, is audited, tells reporters; a second action is 409', async () => {
    const [author, a, b] = await Promise.all([app.user(), app.user(), app.user()]);
    const post = await textPost(author, 'Harmless');
    const ra = await report(a, { targetType: 'insight', targetId: post.id });
    await report(b, { targetType: 'insight', targetId: post.id, category: 'other' });
    const res = await admin.post(`/api/admin/reports/${ra.body.id}/action`, { action: 'dismiss', reason: 'fine' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ resolved: 2, status: 'dismissed', resolution: 'dismissed' });
    expect((await admin.post(`/api/admin/reports/${ra.body.id}/action`, { action: 'dismiss' })).status).to.equal(409);
    const audit = await auditOf(admin, 'insight', post.id, 'dismiss_reports');
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ outcome: 'done', reason: 'fine' });
    expect((await a.get('/api/reports/mine')).body.items[0]).to.include({ status: 'dismissed' });
    await waitFor(async () => (await inbox(b)).some((x) => x.type === 'report') || null);
    // A new report after a dismissal is a new open report (the old one is closed).
    expect((await report(a, { targetType: 'insight', targetId: post.id })).status).to.equal(201);
    expect((await admin.post('/api/admin/reports/2000000000/action', { action: 'dismiss' })).status).to.equal(404);
  });

  it('remove content deletes it through its owner (audited) and resolves the reports', async () => {
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'Remove me');
    const r = await report(reporter, { targetType: 'insight', targetId: post.id, category: 'hate' });
    const res = await admin.post(`/api/admin/reports/${r.body.id}/action`, { action: 'remove_content', reason: 'hateful' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ status: 'resolved', resolution: 'content_removed', resolved: 1 });
    expect((await reporter.get(`/api/posts/${post.id}`)).status).to.equal(404);
    const audit = await auditOf(admin, 'insight', post.id, 'remove_reported_content');
    expect(audit).to.have.length(1);
    expect(audit[0]).to.include({ outcome: 'done', reason: 'hateful' });
    const q = await queue(admin, '?status=resolved&targetType=insight');
    expect(q.items.find((i: any) => i.id === r.body.id)).to.include({ resolution: 'content_removed' });
    // A member report cannot be "removed".
    const target = await app.user();
    const ru = await report(reporter, { targetType: 'user', targetId: target.me.id });
    expect((await admin.post(`/api/admin/reports/${ru.body.id}/action`, { action: 'remove_content' })).status).to.equal(409);
  });

  it('messages: reportable by members of the conversation only, with a snapshot; removing or deleting one resolves its reports', async () => {
    const [ann, bob, outsider] = await Promise.all([app.user(), app.user(), app.user()]);
    expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const conv = await ann.post('/api/conversations', { participantIds: [bob.me.id], message: { text: 'Buy cheap tickets at spam.example' } });
    expect(conv.status, conv.text).to.equal(201);
    const first = conv.body.lastMessage.id;
    const second = (await ann.post(`/api/conversations/${conv.body.id}/messages`, { text: 'Second spam' })).body.id;
    expect((await report(outsider, { targetType: 'message', targetId: first })).status).to.equal(404);
    expect((await report(ann, { targetType: 'message', targetId: first })).status).to.equal(400);
    const r1 = await report(bob, { targetType: 'message', targetId: first });
    const r2 = await report(bob, { targetType: 'message', targetId: second });
    expect(r1.status, r1.text).to.equal(201);
    expect(r2.status, r2.text).to.equal(201);
    const q = await queue(admin, '?targetType=message');
    const item = q.items.find((i: any) => i.id === r1.body.id);
    expect(item.snapshot).to.include({ text: 'Buy cheap tickets at spam.example', link: `/messages/${conv.body.id}` });
    expect(item.canRemove).to.equal(true);
    // the Admin removes the first: it shows as deleted to both members
    const res = await admin.post(`/api/admin/reports/${r1.body.id}/action`, { action: 'remove_content', reason: 'spam' });
    expect(res.status, res.text).to.equal(200);
    const thread = (await bob.get(`/api/conversations/${conv.body.id}/messages`)).body.items;
    expect(thread.find((m: any) => m.id === first)).to.include({ deleted: true, text: '' });
    // the author deletes the second: its report resolves
    expect((await ann.del(`/api/messages/${second}`)).status).to.equal(200);
    const mine = new Map((await bob.get('/api/reports/mine')).body.items.map((i: any) => [i.id, i]));
    expect(mine.get(r1.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
    expect(mine.get(r2.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
    // the author can be warned from a message report
    const third = (await ann.post(`/api/conversations/${conv.body.id}/messages`, { text: 'Third spam' })).body.id;
    const r3 = await report(bob, { targetType: 'message', targetId: third });
    expect((await admin.post(`/api/admin/reports/${r3.body.id}/action`, { action: 'warn', reason: 'no spam' })).status).to.equal(200);
  });

  it('warn, restrict and ban act on the author through the admin moderation, audited with the reports', async () => {
    const [w, rs, tb, pb, reporter] = await Promise.all([app.user(), app.user(), app.user(), app.user(), app.user()]);
    const cases: Array<[SignedInClient, string, string, string]> = [
      [w, 'warn', 'warned', 'moderate_user_warning'],
      [rs, 'restrict', 'restricted', 'moderate_user_content_restriction'],
      [tb, 'temporary_ban', 'temporarily_banned', 'moderate_user_temporary_ban'],
      [pb, 'permanent_ban', 'permanently_banned', 'moderate_user_permanent_ban'],
    ];
    for (const [who, action, resolution, audited] of cases) {
      const post = await textPost(who, `Post by ${who.me.username}`);
      const r = await report(reporter, { targetType: 'insight', targetId: post.id, category: 'harassment' });
      // A reason is required (told to the member).
      expect((await admin.post(`/api/admin/reports/${r.body.id}/action`, { action })).status).to.equal(400);
      const res = await admin.post(`/api/admin/reports/${r.body.id}/action`, { action, reason: 'Be kind' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ status: 'resolved', resolution });
      const entries = await auditOf(admin, 'user', who.me.id, audited);
      expect(entries).to.have.length(1);
      expect(entries[0].details.reportIds).to.deep.equal([r.body.id]);
    }
    // The moderations are in effect: the restricted member cannot post, the banned are signed out.
    expect((await rs.post('/api/posts', { type: 'text', content: 'again', videoUrl: null, museumId: null, tags: [] })).status).to.equal(403);
    expect((await tb.get('/api/reports/mine')).status).to.equal(401);
    expect((await pb.get('/api/reports/mine')).status).to.equal(401);
    const warned = await waitFor(async () => (await inbox(w)).find((x) => x.type === 'moderation') ?? null);
    expect(warned.message).to.contain('Be kind');
  });

  it('a failed moderation leaves the reports open (reserve, then act, then release on failure)', async () => {
    const reporter = await app.user();
    const r = await report(reporter, { targetType: 'user', targetId: admin.me.id, category: 'other' });
    expect(r.status).to.equal(201);
    const res = await admin.post(`/api/admin/reports/${r.body.id}/action`, { action: 'warn', reason: 'self' });
    expect(res.status).to.equal(400);
    expect((await reporter.get('/api/reports/mine')).body.items[0]).to.include({ status: 'open' });
  });
  it('meetups: described as the reporter may see them; removing or deleting one resolves its reports', async () => {
    const [organizer, reporter, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    const open = (await organizer.post('/api/communities', { name: `Reports C ${Date.now()}`, description: 'open', membershipType: 'open' })).body;
    const priv = (await organizer.post('/api/communities', { name: `Reports P ${Date.now()}`, description: 'private', membershipType: 'private' })).body;
    const m1 = await organizer.post(`/api/communities/${open.id}/meetups`, meetupBody('Loud meetup'));
    expect(m1.status, m1.text).to.equal(201);
    const m2 = await organizer.post(`/api/communities/${priv.id}/meetups`, meetupBody('Hidden meetup'));
    expect(m2.status, m2.text).to.equal(201);
    // A meetup of a private community is not found for someone outside it.
    expect((await report(outsider, { targetType: 'meetup', targetId: m2.body.id })).status).to.equal(404);
    const r = await report(reporter, { targetType: 'meetup', targetId: m1.body.id, category: 'violence' });
    expect(r.status, r.text).to.equal(201);
    const item = (await queue(admin, '?targetType=meetup')).items.find((i: any) => i.id === r.body.id);
    expect(item.snapshot).to.include({ title: 'Loud meetup', link: `/meetups/${m1.body.id}` });
    expect(item.snapshot.owner.id).to.equal(organizer.me.id);
    const res = await admin.post(`/api/admin/reports/${r.body.id}/action`, { action: 'remove_content', reason: 'threats' });
    expect(res.status, res.text).to.equal(200);
    expect((await organizer.get(`/api/meetups/${m1.body.id}`)).status).to.equal(404);
    expect((await reporter.get('/api/reports/mine')).body.items[0]).to.include({ status: 'resolved', resolution: 'content_removed' });
  });

  it('community posts and comments: reportable by those who may read them; deleting them resolves the reports', async () => {
    const [creator, reporter, outsider] = await Promise.all([app.user({ role: 'Ambassador' }), app.user(), app.user()]);
    const c = (await creator.post('/api/communities', { name: `Reports D ${Date.now()}`, description: 'open', membershipType: 'open' })).body;
    const priv = (await creator.post('/api/communities', { name: `Reports Q ${Date.now()}`, description: 'private', membershipType: 'private' })).body;
    expect((await reporter.post(`/api/communities/${c.id}/join`, {})).status).to.be.oneOf([200, 201]);
    const post = (await creator.post(`/api/communities/${c.id}/posts`, { type: 'text', content: 'Community words' })).body;
    const comment = (await creator.post(`/api/community-posts/${post.id}/comments`, { content: 'Community reply' })).body;
    const hidden = (await creator.post(`/api/communities/${priv.id}/posts`, { type: 'text', content: 'Members only' })).body;
    expect((await report(outsider, { targetType: 'community_post', targetId: hidden.id })).status).to.equal(404);
    const rp = await report(reporter, { targetType: 'community_post', targetId: post.id });
    const rc = await report(reporter, { targetType: 'community_comment', targetId: comment.id });
    expect(rp.status, rp.text).to.equal(201);
    expect(rc.status, rc.text).to.equal(201);
    const q = await queue(admin, '?targetType=community_comment');
    expect(q.items.find((i: any) => i.id === rc.body.id).snapshot).to.include({ text: 'Community reply' });
    expect(q.items.find((i: any) => i.id === rc.body.id).canRemove).to.equal(false);
    expect((await creator.del(`/api/community-comments/${comment.id}`)).status).to.equal(200);
    expect((await creator.del(`/api/community-posts/${post.id}`)).status).to.equal(200);
    const mine = new Map((await reporter.get('/api/reports/mine')).body.items.map((i: any) => [i.id, i]));
    expect(mine.get(rp.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
    expect(mine.get(rc.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
  });
  it('deleting a whole community resolves the reports on its posts, comments and replies', async () => {
    const [creator, reporter] = await Promise.all([app.user({ role: 'Ambassador' }), app.user()]);
    const c = (await creator.post('/api/communities', { name: `Reports Gone ${Date.now()}`, description: 'open', membershipType: 'open' })).body;
    expect((await reporter.post(`/api/communities/${c.id}/join`, {})).status).to.be.oneOf([200, 201]);
    const post = (await creator.post(`/api/communities/${c.id}/posts`, { type: 'text', content: 'Soon gone' })).body;
    const other = (await creator.post(`/api/communities/${c.id}/posts`, { type: 'text', content: 'Also gone' })).body;
    const comment = (await creator.post(`/api/community-posts/${post.id}/comments`, { content: 'A comment' })).body;
    const reply = (await creator.post(`/api/community-posts/${post.id}/comments`, { content: 'A reply', parentId: comment.id })).body;
    expect(reply.id, JSON.stringify(reply)).to.be.a('number');
    const made = [
      await report(reporter, { targetType: 'community_post', targetId: other.id }),
      await report(reporter, { targetType: 'community_comment', targetId: comment.id }),
      await report(reporter, { targetType: 'community_comment', targetId: reply.id }),
    ];
    for (const r of made) expect(r.status, r.text).to.equal(201);
    expect((await creator.del(`/api/communities/${c.id}`)).status).to.equal(200);
    const mine = new Map((await reporter.get('/api/reports/mine')).body.items.map((i: any) => [i.id, i]));
    for (const r of made) expect(mine.get(r.body.id)).to.include({ status: 'resolved', resolution: 'content_removed' });
  });

  it('an account that is deleted takes the open reports on its content with it', async () => {
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'Written by someone who leaves');
    const r1 = await report(reporter, { targetType: 'insight', targetId: post.id });
    const r2 = await report(reporter, { targetType: 'user', targetId: author.me.id });
    expect(r1.status, r1.text).to.equal(201);
    expect(r2.status, r2.text).to.equal(201);
    expect((await author.del('/api/user/account')).status).to.equal(200);
    await waitFor(async () => {
      const mine = new Map((await reporter.get('/api/reports/mine')).body.items.map((i: any) => [i.id, i]));
      return [r1, r2].every((r) => (mine.get(r.body.id) as any)?.status === 'resolved');
    });
    const mine = new Map((await reporter.get('/api/reports/mine')).body.items.map((i: any) => [i.id, i]));
    expect(mine.get(r1.body.id)).to.include({ resolution: 'content_removed' });
  });

  it('two Admins acting on the same target at once: exactly one acts, the other gets 409', async () => {
    const admin2 = await app.user({ role: 'Admin' });
    const [author, reporter] = await Promise.all([app.user(), app.user()]);
    const post = await textPost(author, 'Contested');
    const r = await report(reporter, { targetType: 'insight', targetId: post.id });
    const res = await Promise.all([
      admin.post(`/api/admin/reports/${r.body.id}/action`, { action: 'warn', reason: 'first' }),
      admin2.post(`/api/admin/reports/${r.body.id}/action`, { action: 'warn', reason: 'second' }),
    ]);
    expect(res.map((x) => x.status).sort()).to.deep.equal([200, 409]);
    // One warning, one audit entry.
    expect(await auditOf(admin, 'user', author.me.id, 'moderate_user_warning')).to.have.length(1);
  });
});
