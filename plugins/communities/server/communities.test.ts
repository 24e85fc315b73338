import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp, type TestClient } from '../../../core/testing/index.ts';

/**
 * Communities API: every route, and every permission row of part 2 §6 that concerns communities,
 * for the signed-out visitor, a non-member, a member, a moderator, a community admin and the creator.
 */
describe('communities API', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await sharedApp();
  });

  interface World {
    id: number;
    creator: SignedInClient;
    admin: SignedInClient;
    moderator: SignedInClient;
    member: SignedInClient;
    outsider: SignedInClient;
    anon: TestClient;
    memberId: (u: SignedInClient) => Promise<number>;
  }

  async function memberIdOf(viewer: TestClient, communityId: number, userId: number): Promise<number> {
    const r = await viewer.get(`/api/communities/${communityId}/members`);
    expect(r.status).to.equal(200);
    const m = r.body.find((x: any) => x.userId === userId);
    if (!m) throw new Error(`user ${userId} is not a member of ${communityId}`);
    return m.id;
  }

  /** A community with a creator, a community admin, a moderator, a member and an outsider. */
  async function world(body: Record<string, unknown> = {}): Promise<World> {
    const creator = await app.user({ role: 'Ambassador' });
    const res = await creator.post('/api/communities', { name: uniqueName('Community '), ...body });
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id as number;
    const [admin, moderator, member, outsider] = await Promise.all([app.user(), app.user(), app.user(), app.user()]);
    for (const u of [admin, moderator, member]) {
      const j = await u.post(`/api/communities/${id}/join`);
      if (j.body.status === 'requested') {
        const reqs = await creator.get(`/api/communities/${id}/join-requests`);
        const r = reqs.body.find((x: any) => x.user.id === u.me.id);
        expect((await creator.post(`/api/communities/${id}/join-requests/${r.id}/accept`)).status).to.equal(200);
      } else expect(j.status, j.text).to.equal(200);
    }
    const memberId = (u: SignedInClient) => memberIdOf(creator, id, u.me.id);
    expect((await creator.patch(`/api/communities/${id}/members/${await memberId(admin)}/role`, { role: 'admin' })).status).to.equal(200);
    expect((await creator.patch(`/api/communities/${id}/members/${await memberId(moderator)}/role`, { role: 'moderator' })).status).to.equal(200);
    return { id, creator, admin, moderator, member, outsider, anon: app.client(), memberId };
  }

  async function post(c: TestClient, communityId: number, body: Record<string, unknown> = {}) {
    return c.post(`/api/communities/${communityId}/posts`, { type: 'text', content: `hello ${uniqueName()}`, ...body });
  }

  async function notifications(c: SignedInClient): Promise<any[]> {
    const r = await c.get('/api/notifications?limit=50');
    expect(r.status).to.equal(200);
    return r.body.items;
  }

  describe('create, list, search, detail', () => {
    it('lets only Ambassadors and Admins create; defaults type general and membership open; splits and trims tags', async () => {
      expect((await app.client().post('/api/communities', { name: 'x' })).status).to.equal(401);
      const traveler = await app.user();
      const refused = await traveler.post('/api/communities', { name: 'x' });
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal('Only ambassadors and admins can create communities');
      const manager = await app.user({ role: 'Museum Manager' });
      expect((await manager.post('/api/communities', { name: 'x' })).status).to.equal(403);

      const amb = await app.user({ role: 'Ambassador' });
      const name = uniqueName('Impressionists ');
      const r = await amb.post('/api/communities', { name: `  ${name}  `, description: 'Monet & co', location: 'Paris', tags: ' art, painting ,, Art ,  19th century ' });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ name, type: 'general', membershipType: 'open', memberCount: 1, isMember: true, isCreator: true, role: 'admin', creatorId: amb.me.id });
      expect(r.body.tags).to.deep.equal(['art', 'painting', '19th century']);
      expect(r.body.creator).to.include({ id: amb.me.id, username: amb.me.username });

      const admin = await app.user({ role: 'Admin' });
      const r2 = await admin.post('/api/communities', { name: uniqueName('Private '), membershipType: 'private', type: 'photography', tags: ['a ', ' b'] });
      expect(r2.status).to.equal(201);
      expect(r2.body).to.include({ membershipType: 'private', type: 'photography' });
      expect(r2.body.tags).to.deep.equal(['a', 'b']);
    });

    it("accepts 'public' as the other reading of 'open'", async () => {
      const amb = await app.user({ role: 'Ambassador' });
      const r = await amb.post('/api/communities', { name: uniqueName('Pub '), membershipType: 'public' });
      expect(r.body.membershipType).to.equal('open');
      const p = await amb.patch(`/api/communities/${r.body.id}`, { membershipType: 'private' });
      expect(p.body.membershipType).to.equal('private');
      expect((await amb.patch(`/api/communities/${r.body.id}`, { membershipType: 'public' })).body.membershipType).to.equal('open');
    });

    it('refuses a missing or blank name', async () => {
      const amb = await app.user({ role: 'Ambassador' });
      const a = await amb.post('/api/communities', { description: 'no name' });
      expect(a.status).to.equal(400);
      expect(a.body.message).to.equal('Community name is required');
      const b = await amb.post('/api/communities', { name: '   ' });
      expect(b.status).to.equal(400);
      expect(b.body.message).to.equal('Community name is required');
    });

    it('lists and searches communities with the card fields, for everyone', async () => {
      const w = await world({ description: 'Sculpture lovers', tags: ['marble', 'bronze', 'casting'] });
      const name = (await w.creator.get(`/api/communities/${w.id}`)).body.name as string;
      const list = await w.member.get('/api/communities');
      expect(list.status).to.equal(200);
      const card = list.body.find((c: any) => c.id === w.id);
      expect(card).to.include({ name, memberCount: 4, membershipType: 'open', isMember: true, role: 'member' });
      expect(card.tags).to.deep.equal(['marble', 'bronze', 'casting']);
      const anon = await app.client().get(`/api/communities?q=${encodeURIComponent(name)}`);
      expect(anon.status).to.equal(200);
      expect(anon.body.map((c: any) => c.id)).to.deep.equal([w.id]);
      expect(anon.body[0]).to.include({ isMember: false, role: null });
      const byTag = await w.outsider.get('/api/search/communities?q=bronze');
      expect(byTag.body.map((c: any) => c.id)).to.include(w.id);
      expect((await w.outsider.get('/api/search/communities?q=zzzz-no-such-thing')).body).to.deep.equal([]);
      expect((await w.outsider.get('/api/search/communities?q=%25')).status).to.equal(200);
      if (app.enabled.has('museums')) {
        const all = await app.client().get(`/api/search?q=${encodeURIComponent(name)}`);
        expect(all.body.communities.map((c: any) => c.id)).to.include(w.id);
      }
    });

    it('shows isMember, role, memberCount and creator in the detail for each viewer', async () => {
      const w = await world();
      const as = async (c: TestClient) => (await c.get(`/api/communities/${w.id}`)).body;
      expect(await as(w.creator)).to.include({ isMember: true, isCreator: true, role: 'admin', memberCount: 4 });
      expect(await as(w.admin)).to.include({ isMember: true, isCreator: false, role: 'admin' });
      expect(await as(w.moderator)).to.include({ isMember: true, role: 'moderator' });
      expect(await as(w.member)).to.include({ isMember: true, role: 'member' });
      expect(await as(w.outsider)).to.include({ isMember: false, role: null });
      const anon = await as(w.anon);
      expect(anon).to.include({ isMember: false, role: null, memberCount: 4 });
      expect(anon.creator.id).to.equal(w.creator.me.id);
      expect((await as(w.member)).permissions).to.deep.equal({ canPost: true, canComment: true, canModerate: false, canManageMembers: false, canChangeRoles: false, canEdit: false, canDelete: false });
      expect((await as(w.moderator)).permissions).to.include({ canModerate: true, canManageMembers: false });
      expect((await as(w.admin)).permissions).to.include({ canModerate: true, canManageMembers: true, canChangeRoles: false });
      expect((await as(w.creator)).permissions).to.include({ canChangeRoles: true, canEdit: true, canDelete: true });
      const missing = await w.member.get('/api/communities/2147483000');
      expect(missing.status).to.equal(404);
      expect(missing.body.message).to.equal('Community not found');
    });
  });

  describe('join and leave', () => {
    it('the creator is always a member and can neither join nor leave', async () => {
      const w = await world();
      expect((await w.creator.post(`/api/communities/${w.id}/join`)).status).to.equal(400);
      const leave = await w.creator.post(`/api/communities/${w.id}/leave`);
      expect(leave.status).to.equal(400);
      expect(leave.body.message).to.equal('The creator cannot leave their own community');
    });

    it('joins and leaves with exact counts; refuses a second join and leaving when not a member; needs sign-in', async () => {
      const w = await world();
      expect((await w.anon.post(`/api/communities/${w.id}/join`)).status).to.equal(401);
      const j = await w.outsider.post(`/api/communities/${w.id}/join`);
      expect(j.body).to.include({ status: 'joined', message: 'Joined community successfully!', memberCount: 5, isMember: true });
      expect((await w.outsider.post(`/api/communities/${w.id}/join`)).status).to.equal(409);
      const l = await w.outsider.post(`/api/communities/${w.id}/leave`);
      expect(l.body).to.include({ status: 'left', message: 'Left community successfully!', memberCount: 4, isMember: false });
      expect((await w.outsider.post(`/api/communities/${w.id}/leave`)).status).to.equal(409);
      expect((await w.anon.post(`/api/communities/${w.id}/leave`)).status).to.equal(401);
    });

    it('keeps memberCount exact under concurrent joins and leaves', async () => {
      const w = await world();
      const users = await Promise.all(Array.from({ length: 12 }, () => app.user()));
      // every user joins twice at once: only one join each may count
      const results = await Promise.all(users.flatMap((u) => [u.post(`/api/communities/${w.id}/join`), u.post(`/api/communities/${w.id}/join`)]));
      expect(results.filter((r) => r.status === 200)).to.have.length(12);
      expect(results.filter((r) => r.status === 409)).to.have.length(12);
      let detail = (await w.creator.get(`/api/communities/${w.id}`)).body;
      let members = (await w.creator.get(`/api/communities/${w.id}/members`)).body;
      expect(detail.memberCount).to.equal(16);
      expect(members).to.have.length(16);
      await Promise.all(users.slice(0, 6).flatMap((u) => [u.post(`/api/communities/${w.id}/leave`), u.post(`/api/communities/${w.id}/leave`)]));
      detail = (await w.creator.get(`/api/communities/${w.id}`)).body;
      members = (await w.creator.get(`/api/communities/${w.id}/members`)).body;
      expect(detail.memberCount).to.equal(10);
      expect(members).to.have.length(10);
    });
  });

  describe('private communities and join requests', () => {
    it('turns a join into a request the creator or community admins accept or decline, and notifies the requester', async () => {
      const w = await world({ membershipType: 'private' });
      const j = await w.outsider.post(`/api/communities/${w.id}/join`, { message: 'I love museums' });
      expect(j.status).to.equal(200);
      expect(j.body).to.include({ status: 'requested', isMember: false, memberCount: 4 });
      expect((await w.outsider.get(`/api/communities/${w.id}`)).body).to.include({ isMember: false, joinRequestStatus: 'pending' });
      // a second ask is the same pending request
      expect((await w.outsider.post(`/api/communities/${w.id}/join`)).body.status).to.equal('requested');
      // private content stays private
      expect((await w.outsider.get(`/api/communities/${w.id}/posts`)).status).to.equal(403);
      expect((await w.outsider.get(`/api/communities/${w.id}/members`)).status).to.equal(403);
      // who may see and decide
      expect((await w.member.get(`/api/communities/${w.id}/join-requests`)).status).to.equal(403);
      expect((await w.moderator.get(`/api/communities/${w.id}/join-requests`)).status).to.equal(403);
      const reqs = await w.admin.get(`/api/communities/${w.id}/join-requests`);
      expect(reqs.status).to.equal(200);
      expect(reqs.body).to.have.length(1);
      expect(reqs.body[0]).to.include({ status: 'pending', message: 'I love museums' });
      expect(reqs.body[0].user.id).to.equal(w.outsider.me.id);
      expect((await w.creator.get(`/api/communities/${w.id}`)).body.pendingRequestsCount).to.equal(1);
      expect((await w.member.post(`/api/communities/${w.id}/join-requests/${reqs.body[0].id}/accept`)).status).to.equal(403);
      const acc = await w.admin.post(`/api/communities/${w.id}/join-requests/${reqs.body[0].id}/accept`);
      expect(acc.status).to.equal(200);
      expect((await w.admin.post(`/api/communities/${w.id}/join-requests/${reqs.body[0].id}/decline`)).status).to.equal(409);
      expect((await w.outsider.get(`/api/communities/${w.id}`)).body).to.include({ isMember: true, memberCount: 5, joinRequestStatus: null });
      expect((await w.outsider.get(`/api/communities/${w.id}/posts`)).status).to.equal(200);
      if (app.enabled.has('notifications')) {
        const n = await notifications(w.outsider);
        expect(n.map((x) => x.title)).to.include('Join request accepted');
      }

      const other = await app.user();
      await other.post(`/api/communities/${w.id}/join`);
      const r2 = (await w.creator.get(`/api/communities/${w.id}/join-requests`)).body.find((x: any) => x.user.id === other.me.id);
      expect((await w.creator.post(`/api/communities/${w.id}/join-requests/${r2.id}/decline`)).status).to.equal(200);
      expect((await other.get(`/api/communities/${w.id}`)).body).to.include({ isMember: false, joinRequestStatus: null });
      if (app.enabled.has('notifications')) expect((await notifications(other)).map((x) => x.title)).to.include('Join request declined');
    });

    it('lets a requester withdraw with leave', async () => {
      const w = await world({ membershipType: 'private' });
      await w.outsider.post(`/api/communities/${w.id}/join`);
      const l = await w.outsider.post(`/api/communities/${w.id}/leave`);
      expect(l.body.status).to.equal('cancelled');
      expect((await w.creator.get(`/api/communities/${w.id}/join-requests`)).body).to.have.length(0);
    });
  });

  describe('posts', () => {
    it('creates each post type with its fields', async () => {
      const w = await world();
      const text = await post(w.member, w.id, { content: '  Plain text  ' });
      expect(text.status).to.equal(201);
      expect(text.body).to.include({ type: 'text', content: 'Plain text', status: 'published', isPinned: false, likesCount: 0, commentsCount: 0, isLiked: false });
      const disc = await post(w.member, w.id, { type: 'discussion', title: 'A question', content: 'Which room?' });
      expect(disc.body).to.include({ type: 'discussion', title: 'A question' });
      const poll = await post(w.member, w.id, { type: 'poll', content: 'Best?', pollOptions: ['  Orsay ', '', '   ', 'Louvre', 'Orangerie  '] });
      expect(poll.status).to.equal(201);
      expect(poll.body.pollOptions).to.deep.equal(['Orsay', 'Louvre', 'Orangerie']);
      expect(poll.body.poll).to.deep.equal({ options: [{ index: 0, text: 'Orsay', votes: 0 }, { index: 1, text: 'Louvre', votes: 0 }, { index: 2, text: 'Orangerie', votes: 0 }], totalVotes: 0, userVote: null });
      const ev = await post(w.member, w.id, { type: 'event', content: 'Come along', eventTitle: 'Sketching', eventDateTime: '2030-05-01T10:00:00Z', eventLocation: 'Room 12', eventDescription: 'Bring pencils' });
      expect(ev.body).to.include({ type: 'event', eventTitle: 'Sketching', eventLocation: 'Room 12', eventDescription: 'Bring pencils' });
      expect(ev.body.eventDateTime).to.equal('2030-05-01T10:00:00.000Z');
      const vid = await post(w.member, w.id, { type: 'video', content: 'Watch', videoUrl: 'https://video.example/v.mp4' });
      expect(vid.body).to.include({ type: 'video', videoUrl: 'https://video.example/v.mp4' });
      const link = await post(w.member, w.id, { type: 'link', content: 'Read', linkUrl: 'https://example.org/a' });
      expect(link.body).to.include({ type: 'link', linkUrl: 'https://example.org/a' });
      const feed = await w.outsider.get(`/api/communities/${w.id}/posts`);
      expect(feed.status).to.equal(200);
      expect(feed.body.items.map((p: any) => p.id)).to.deep.equal([link.body.id, vid.body.id, ev.body.id, poll.body.id, disc.body.id, text.body.id]);
      expect(feed.body.nextCursor).to.equal(null);
    });

    it('refuses blank content, polls with fewer than 2 options, events without title or date, bad URLs', async () => {
      const w = await world();
      const blank = await post(w.member, w.id, { content: '   ' });
      expect(blank.status).to.equal(400);
      expect(blank.body.message).to.equal('Content cannot be blank');
      expect((await post(w.member, w.id, { content: undefined })).status).to.equal(400);
      const poll = await post(w.member, w.id, { type: 'poll', content: 'Q', pollOptions: ['only one', '  ', ''] });
      expect(poll.status).to.equal(400);
      expect(poll.body.message).to.equal('A poll needs at least 2 options');
      expect((await post(w.member, w.id, { type: 'event', content: 'x', eventDateTime: '2030-01-01T00:00:00Z' })).body.message).to.equal('Event title is required');
      expect((await post(w.member, w.id, { type: 'event', content: 'x', eventTitle: 'T' })).body.message).to.equal('Event date and time are required');
      expect((await post(w.member, w.id, { type: 'event', content: 'x', eventTitle: 'T', eventDateTime: 'soon' })).status).to.equal(400);
      expect((await post(w.member, w.id, { type: 'video', content: 'x', videoUrl: 'javascript:alert(1)' })).body.message).to.equal('A valid video URL is required');
      expect((await post(w.member, w.id, { type: 'link', content: 'x' })).body.message).to.equal('A valid link URL is required');
      expect((await post(w.member, w.id, { type: 'unknown' })).status).to.equal(400);
      // NUL characters never reach the database
      expect((await post(w.member, w.id, { content: '\u0000' })).status).to.equal(400);
      expect((await post(w.member, w.id, { content: 'a\u0000b' })).body.content).to.equal('ab');
      expect((await w.member.get('/api/search/communities?q=%00')).status).to.equal(200);
    });

    it('lets members post; not outsiders or signed-out visitors', async () => {
      const w = await world();
      expect((await post(w.anon, w.id)).status).to.equal(401);
      const out = await post(w.outsider, w.id);
      expect(out.status).to.equal(403);
      expect(out.body.message).to.equal('Only members of this community can post');
      expect((await w.anon.get(`/api/communities/${w.id}/posts`)).status).to.equal(401);
      for (const c of [w.member, w.moderator, w.admin, w.creator]) expect((await post(c, w.id)).status).to.equal(201);
    });

    it('pages the feed with a cursor, pinned posts first', async () => {
      const w = await world();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await post(w.member, w.id)).body.id);
      expect((await w.moderator.post(`/api/community-posts/${ids[1]}/pin`, { pin: true })).body).to.deep.equal({ isPinned: true });
      const p1 = await w.member.get(`/api/communities/${w.id}/posts?limit=2`);
      expect(p1.body.items.map((p: any) => p.id)).to.deep.equal([ids[1], ids[4]]);
      expect(p1.body.items[0].isPinned).to.equal(true);
      const p2 = await w.member.get(`/api/communities/${w.id}/posts?limit=2&cursor=${p1.body.nextCursor}`);
      expect(p2.body.items.map((p: any) => p.id)).to.deep.equal([ids[3], ids[2]]);
      const p3 = await w.member.get(`/api/communities/${w.id}/posts?limit=2&cursor=${p2.body.nextCursor}`);
      expect(p3.body.items.map((p: any) => p.id)).to.deep.equal([ids[0]]);
      expect(p3.body.nextCursor).to.equal(null);
      expect((await w.member.get(`/api/communities/${w.id}/posts?cursor=garbage`)).status).to.equal(400);
    });

    it('lets the author or a moderator delete a post, not another member', async () => {
      const w = await world();
      const a = (await post(w.member, w.id)).body.id;
      const b = (await post(w.member, w.id)).body.id;
      expect((await w.outsider.del(`/api/community-posts/${a}`)).status).to.equal(403);
      expect((await w.admin.del(`/api/community-posts/${a}`)).status).to.equal(200);
      expect((await w.member.del(`/api/community-posts/${b}`)).status).to.equal(200);
      expect((await w.member.del(`/api/community-posts/${b}`)).status).to.equal(404);
    });

    it('deletes one post or comment of a lower rank only: a moderator not the creator’s or an admin’s, an admin not the creator’s (issue 14 #6)', async () => {
      const w = await world();
      const by = async (u: SignedInClient) => (await post(u, w.id)).body.id as number;
      const comment = async (u: SignedInClient, postId: number) => (await u.post(`/api/community-posts/${postId}/comments`, { content: `c ${uniqueName()}` })).body.id as number;
      const host = await by(w.member);
      const refused = [
        [w.moderator, await by(w.creator), 'post'], [w.moderator, await by(w.admin), 'post'], [w.moderator, await comment(w.creator, host), 'comment'], [w.moderator, await comment(w.admin, host), 'comment'],
        [w.admin, await by(w.creator), 'post'], [w.admin, await comment(w.creator, host), 'comment'],
      ] as const;
      for (const [actor, id, kind] of refused) {
        const r = await actor.del(`/api/community-${kind}s/${id}`);
        expect(r.status, `${actor.me.username} deleting ${kind} ${id}: ${r.text}`).to.equal(403);
        expect(r.body.message).to.equal(`You can only delete ${kind}s of members with a lower role than yours`);
      }
      // what the viewer is told matches: no delete button on a higher rank's post or comment
      const feed = (await w.moderator.get(`/api/communities/${w.id}/posts`)).body.items as any[];
      expect(feed.filter((p) => p.user.id === w.creator.me.id || p.user.id === w.admin.me.id).map((p) => p.canDelete)).to.deep.equal([false, false, false]);
      expect(feed.find((p) => p.id === host).canDelete).to.equal(true);
      const thread = (await w.moderator.get(`/api/community-posts/${host}/comments`)).body as any[];
      expect(thread.map((c) => c.canDelete)).to.deep.equal([false, false, false]);
      // lower ranks: allowed
      expect((await w.moderator.del(`/api/community-comments/${await comment(w.member, host)}`)).status).to.equal(200);
      expect((await w.admin.del(`/api/community-posts/${await by(w.moderator)}`)).status).to.equal(200);
      expect((await w.creator.del(`/api/community-posts/${await by(w.admin)}`)).status).to.equal(200);
      expect((await w.creator.del(`/api/community-comments/${refused[3][1]}`)).status).to.equal(200);
      // a moderator cannot route around it through a report
      const target = await by(w.creator);
      expect((await w.moderator.post(`/api/community-posts/${target}/report`, { reason: 'spam' })).status).to.equal(201);
      const report = (await w.moderator.get(`/api/communities/${w.id}/reports`)).body.find((r: any) => r.postId === target);
      expect((await w.moderator.post(`/api/communities/${w.id}/reports/${report.id}/resolve`, { action: 'remove_content' })).status).to.equal(403);
      expect((await w.member.get(`/api/communities/${w.id}/posts`)).body.items.map((p: any) => p.id)).to.include(target);
    });
  });

  describe('polls, likes, pins, comments', () => {
    it('counts one vote per member and answers the results', async () => {
      const w = await world();
      const poll = (await post(w.creator, w.id, { type: 'poll', content: 'Pick', pollOptions: ['A', 'B'] })).body;
      const v1 = await w.member.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 1 });
      expect(v1.status).to.equal(200);
      expect(v1.body).to.deep.equal({ options: [{ index: 0, text: 'A', votes: 0 }, { index: 1, text: 'B', votes: 1 }], totalVotes: 1, userVote: 1 });
      const again = await w.member.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 0 });
      expect(again.status).to.equal(409);
      expect(again.body.message).to.equal('You have already voted in this poll');
      const both = await Promise.all([w.admin.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 0 }), w.admin.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 1 })]);
      expect(both.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect((await w.outsider.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 0 })).status).to.equal(403);
      expect((await w.anon.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 0 })).status).to.equal(401);
      expect((await w.moderator.post(`/api/community-posts/${poll.id}/vote`, { optionIndex: 2 })).body.message).to.equal('Unknown poll option');
      const text = (await post(w.creator, w.id)).body;
      expect((await w.moderator.post(`/api/community-posts/${text.id}/vote`, { optionIndex: 0 })).body.message).to.equal('This post is not a poll');
      const feed = await w.member.get(`/api/communities/${w.id}/posts`);
      const seen = feed.body.items.find((p: any) => p.id === poll.id);
      expect(seen.poll.totalVotes).to.equal(2);
      expect(seen.poll.userVote).to.equal(1);
    });

    it('toggles likes for members only', async () => {
      const w = await world();
      const p = (await post(w.creator, w.id)).body;
      expect((await w.member.post(`/api/community-posts/${p.id}/like`)).body).to.deep.equal({ liked: true, likesCount: 1 });
      expect((await w.admin.post(`/api/community-posts/${p.id}/like`)).body).to.deep.equal({ liked: true, likesCount: 2 });
      expect((await w.member.post(`/api/community-posts/${p.id}/like`)).body).to.deep.equal({ liked: false, likesCount: 1 });
      expect((await w.outsider.post(`/api/community-posts/${p.id}/like`)).status).to.equal(403);
      expect((await w.anon.post(`/api/community-posts/${p.id}/like`)).status).to.equal(401);
      const seen = (await w.admin.get(`/api/communities/${w.id}/posts`)).body.items[0];
      expect(seen).to.include({ likesCount: 1, isLiked: true });
    });

    it('lets admins, moderators and the creator pin; not members', async () => {
      const w = await world();
      const p = (await post(w.member, w.id)).body;
      const m = await w.member.post(`/api/community-posts/${p.id}/pin`, { pin: true });
      expect(m.status).to.equal(403);
      expect((await w.outsider.post(`/api/community-posts/${p.id}/pin`, { pin: true })).status).to.equal(403);
      expect((await w.anon.post(`/api/community-posts/${p.id}/pin`, { pin: true })).status).to.equal(401);
      expect((await w.moderator.post(`/api/community-posts/${p.id}/pin`, { pin: true })).body.isPinned).to.equal(true);
      expect((await w.admin.post(`/api/community-posts/${p.id}/pin`, { pin: false })).body.isPinned).to.equal(false);
      expect((await w.creator.post(`/api/community-posts/${p.id}/pin`)).body.isPinned).to.equal(true);
    });

    it('keeps comments with one level of replies and exact counts', async () => {
      const w = await world();
      const p = (await post(w.creator, w.id)).body;
      const c1 = await w.member.post(`/api/community-posts/${p.id}/comments`, { content: ' First ' });
      expect(c1.status).to.equal(201);
      expect(c1.body).to.include({ content: 'First', parentId: null });
      const r1 = await w.admin.post(`/api/community-posts/${p.id}/comments`, { content: 'Reply', parentId: c1.body.id });
      expect(r1.body.parentId).to.equal(c1.body.id);
      // a reply to a reply joins the same thread
      const r2 = await w.creator.post(`/api/community-posts/${p.id}/comments`, { content: 'Reply to reply', parentId: r1.body.id });
      expect(r2.body.parentId).to.equal(c1.body.id);
      expect((await w.member.post(`/api/community-posts/${p.id}/comments`, { content: '  ' })).status).to.equal(400);
      expect((await w.outsider.post(`/api/community-posts/${p.id}/comments`, { content: 'hi' })).status).to.equal(403);
      const list = await w.outsider.get(`/api/community-posts/${p.id}/comments`);
      expect(list.status).to.equal(200);
      expect(list.body).to.have.length(1);
      expect(list.body[0].replies.map((r: any) => r.content)).to.deep.equal(['Reply', 'Reply to reply']);
      expect((await w.member.get(`/api/communities/${w.id}/posts`)).body.items[0].commentsCount).to.equal(3);
      // another member may not delete it, a moderator may; replies go with it
      expect((await w.admin.del(`/api/community-comments/${r2.body.id}`)).status, 'the creator’s reply: above an admin').to.equal(403);
      expect((await w.creator.del(`/api/community-comments/${r2.body.id}`)).status).to.equal(200);
      expect((await w.outsider.del(`/api/community-comments/${c1.body.id}`)).status).to.equal(403);
      expect((await w.moderator.del(`/api/community-comments/${c1.body.id}`)).status).to.equal(200);
      expect((await w.member.get(`/api/communities/${w.id}/posts`)).body.items[0].commentsCount).to.equal(0);
      if (app.enabled.has('notifications')) expect((await notifications(w.creator)).map((n) => n.title)).to.include('New comment');
    });
  });

  describe('member management', () => {
    it('lets only the creator change roles, never their own', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      for (const c of [w.admin, w.moderator, w.member]) {
        const r = await c.patch(`/api/communities/${w.id}/members/${mid}/role`, { role: 'moderator' });
        expect(r.status).to.equal(403);
      }
      expect((await w.anon.patch(`/api/communities/${w.id}/members/${mid}/role`, { role: 'moderator' })).status).to.equal(401);
      const ok = await w.creator.patch(`/api/communities/${w.id}/members/${mid}/role`, { role: 'moderator' });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ id: mid, role: 'moderator' });
      expect((await w.creator.patch(`/api/communities/${w.id}/members/${mid}/role`, { role: 'owner' })).status).to.equal(400);
      const own = await w.memberId(w.creator);
      expect((await w.creator.patch(`/api/communities/${w.id}/members/${own}/role`, { role: 'member' })).status).to.equal(400);
      expect((await w.member.get(`/api/communities/${w.id}`)).body.role).to.equal('moderator');
    });

    it('shows restrictions and stats to moderators and up only', async () => {
      const w = await world();
      await post(w.member, w.id);
      const forMod = (await w.moderator.get(`/api/communities/${w.id}/members`)).body;
      const m = forMod.find((x: any) => x.userId === w.member.me.id);
      expect(m.restrictions).to.deep.equal({ canPost: true, canComment: true, isMuted: false, requiresApproval: false });
      expect(m.stats).to.include({ postsCount: 1, commentsCount: 0, warningsCount: 0 });
      expect(m.stats.lastActive).to.be.a('string');
      expect(forMod[0]).to.include({ userId: w.creator.me.id, isCreator: true, role: 'admin' });
      const forMember = (await w.member.get(`/api/communities/${w.id}/members`)).body;
      expect(forMember.find((x: any) => x.userId === w.admin.me.id)).to.not.have.property('stats');
      expect(forMember.find((x: any) => x.userId === w.member.me.id)).to.have.property('stats');
      expect((await w.anon.get(`/api/communities/${w.id}/members`)).status).to.equal(401);
    });

    it('removes members (creator and admins, over lower roles only) with exact counts', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      expect((await w.moderator.del(`/api/communities/${w.id}/members/${mid}`)).status).to.equal(403);
      expect((await w.member.del(`/api/communities/${w.id}/members/${await w.memberId(w.moderator)}`)).status).to.equal(403);
      const creatorMid = await w.memberId(w.creator);
      expect((await w.admin.del(`/api/communities/${w.id}/members/${creatorMid}`)).status).to.equal(403);
      const r = await w.admin.del(`/api/communities/${w.id}/members/${mid}`);
      expect(r.status).to.equal(200);
      expect(r.body.message).to.equal('Member removed successfully');
      expect((await w.creator.get(`/api/communities/${w.id}`)).body.memberCount).to.equal(3);
      expect((await w.member.get(`/api/communities/${w.id}`)).body.isMember).to.equal(false);
      // an admin cannot remove another admin; the creator can
      const adminMid = await w.memberId(w.admin);
      const second = await app.user();
      await second.post(`/api/communities/${w.id}/join`);
      const secondMid = await memberIdOf(w.creator, w.id, second.me.id);
      await w.creator.patch(`/api/communities/${w.id}/members/${secondMid}/role`, { role: 'admin' });
      expect((await second.del(`/api/communities/${w.id}/members/${adminMid}`)).status).to.equal(403);
      expect((await w.creator.del(`/api/communities/${w.id}/members/${adminMid}`)).status).to.equal(200);
    });

    it('deletes a member’s posts, or posts and comments', async () => {
      const w = await world();
      const other = (await post(w.creator, w.id)).body;
      await post(w.member, w.id);
      await post(w.member, w.id);
      await w.member.post(`/api/community-posts/${other.id}/comments`, { content: 'mine' });
      await w.admin.post(`/api/community-posts/${other.id}/comments`, { content: 'theirs' });
      const mid = await w.memberId(w.member);
      expect((await w.moderator.del(`/api/communities/${w.id}/members/${mid}/content?contentType=posts`)).status).to.equal(403);
      expect((await w.member.del(`/api/communities/${w.id}/members/${await w.memberId(w.admin)}/content?contentType=posts`)).status).to.equal(403);
      expect((await w.admin.del(`/api/communities/${w.id}/members/${mid}/content?contentType=everything`)).status).to.equal(400);
      expect((await w.admin.del(`/api/communities/${w.id}/members/${mid}/content`)).body.message).to.equal('Content type is required');
      const posts = await w.admin.del(`/api/communities/${w.id}/members/${mid}/content?contentType=posts`);
      expect(posts.body).to.include({ message: 'Content deleted successfully', deletedPosts: 2, deletedComments: 0 });
      expect((await w.creator.get(`/api/community-posts/${other.id}/comments`)).body).to.have.length(2);
      // the spec's form: contentType in the JSON body
      const all = await w.creator.del(`/api/communities/${w.id}/members/${mid}/content`, { contentType: 'all' });
      expect(all.body).to.include({ deletedPosts: 0, deletedComments: 1 });
      expect((await w.creator.get(`/api/community-posts/${other.id}/comments`)).body.map((c: any) => c.content)).to.deep.equal(['theirs']);
      expect((await w.creator.get(`/api/communities/${w.id}/posts`)).body.items.find((p: any) => p.id === other.id).commentsCount).to.equal(1);
    });

    it('takes exactly one permission at a time', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      const none = await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, {});
      expect(none.status).to.equal(400);
      expect(none.body.message).to.equal('Send exactly one of canPost, canComment, isMuted, requiresApproval');
      expect((await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canPost: false, canComment: false })).status).to.equal(400);
      expect((await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canFly: false })).status).to.equal(400);
      expect((await w.moderator.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canPost: false })).status).to.equal(403);
      expect((await w.member.patch(`/api/communities/${w.id}/members/${await w.memberId(w.moderator)}/permissions`, { canPost: false })).status).to.equal(403);
    });

    it('enforces cannot post, cannot comment and muted on the server', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      const target = (await post(w.creator, w.id)).body;
      const r = await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canPost: false });
      expect(r.status).to.equal(200);
      expect(r.body.restrictions).to.include({ canPost: false });
      const refused = await post(w.member, w.id);
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal('You are not allowed to post in this community');
      expect((await w.member.get(`/api/communities/${w.id}`)).body.permissions.canPost).to.equal(false);
      expect((await w.member.post(`/api/community-posts/${target.id}/comments`, { content: 'still can comment' })).status).to.equal(201);

      await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canPost: true });
      await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canComment: false });
      expect((await post(w.member, w.id)).status).to.equal(201);
      const noComment = await w.member.post(`/api/community-posts/${target.id}/comments`, { content: 'x' });
      expect(noComment.status).to.equal(403);
      expect(noComment.body.message).to.equal('You are not allowed to comment in this community');

      await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { canComment: true });
      await w.creator.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { isMuted: true });
      const muted = await post(w.member, w.id);
      expect(muted.status).to.equal(403);
      expect(muted.body.message).to.equal('You have been muted in this community');
      expect((await w.member.post(`/api/community-posts/${target.id}/comments`, { content: 'x' })).status).to.equal(403);
      await w.creator.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { isMuted: false });
      expect((await post(w.member, w.id)).status).to.equal(201);
    });

    it('holds posts of a member who requires approval in a review queue moderators see and decide', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      await w.admin.patch(`/api/communities/${w.id}/members/${mid}/permissions`, { requiresApproval: true });
      const p = await post(w.member, w.id, { content: 'Please approve me' });
      expect(p.status).to.equal(201);
      expect(p.body.status).to.equal('pending');
      const q = await post(w.member, w.id, { content: 'Reject me' });
      // invisible to others, visible to its author
      expect((await w.outsider.get(`/api/communities/${w.id}/posts`)).body.items.map((x: any) => x.id)).to.not.include(p.body.id);
      expect((await w.member.get(`/api/communities/${w.id}/posts`)).body.items.map((x: any) => x.id)).to.include(p.body.id);
      expect((await w.admin.post(`/api/community-posts/${p.body.id}/like`)).status).to.equal(400);
      // the queue
      expect((await w.member.get(`/api/communities/${w.id}/posts/pending`)).status).to.equal(403);
      const queue = await w.moderator.get(`/api/communities/${w.id}/posts/pending`);
      expect(queue.status).to.equal(200);
      expect(queue.body.map((x: any) => x.id)).to.deep.equal([p.body.id, q.body.id]);
      expect((await w.moderator.get(`/api/communities/${w.id}`)).body.pendingPostsCount).to.equal(2);
      expect((await w.member.post(`/api/community-posts/${p.body.id}/approve`)).status).to.equal(403);
      expect((await w.moderator.post(`/api/community-posts/${p.body.id}/approve`)).status).to.equal(200);
      expect((await w.moderator.post(`/api/community-posts/${p.body.id}/approve`)).status).to.equal(409);
      expect((await w.creator.post(`/api/community-posts/${q.body.id}/reject`)).status).to.equal(200);
      const seen = (await w.outsider.get(`/api/communities/${w.id}/posts`)).body.items.map((x: any) => x.id);
      expect(seen).to.include(p.body.id);
      expect(seen).to.not.include(q.body.id);
      if (app.enabled.has('notifications')) expect((await notifications(w.member)).map((n) => n.title)).to.include.members(['Post approved', 'Post not approved']);
    });

    it('warns a member: a notification and a count in their stats', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      expect((await w.moderator.post(`/api/communities/${w.id}/members/${mid}/warn`, { reason: 'Be kind' })).status).to.equal(403);
      expect((await w.admin.post(`/api/communities/${w.id}/members/${mid}/warn`, { reason: '  ' })).status).to.equal(400);
      const r = await w.admin.post(`/api/communities/${w.id}/members/${mid}/warn`, { reason: 'Please stay on topic' });
      expect(r.status).to.equal(200);
      const m = (await w.creator.get(`/api/communities/${w.id}/members`)).body.find((x: any) => x.id === mid);
      expect(m.stats.warningsCount).to.equal(1);
      if (app.enabled.has('notifications')) {
        const n = await notifications(w.member);
        expect(n.find((x) => x.message === 'Please stay on topic')).to.exist;
      }
    });

    it('bans a member: removed, cannot rejoin or ask to join until the ban is lifted', async () => {
      const w = await world();
      const mid = await w.memberId(w.member);
      expect((await w.moderator.post(`/api/communities/${w.id}/members/${mid}/ban`, { reason: 'spam' })).status).to.equal(403);
      const r = await w.admin.post(`/api/communities/${w.id}/members/${mid}/ban`, { reason: 'spam' });
      expect(r.status).to.equal(200);
      expect((await w.creator.get(`/api/communities/${w.id}`)).body.memberCount).to.equal(3);
      const again = await w.member.post(`/api/communities/${w.id}/join`);
      expect(again.status).to.equal(403);
      expect(again.body.message).to.equal('You have been banned from this community');
      expect((await w.member.get(`/api/communities/${w.id}`)).body.isBanned).to.equal(true);
      await w.creator.patch(`/api/communities/${w.id}`, { membershipType: 'private' });
      expect((await w.member.post(`/api/communities/${w.id}/join`)).status).to.equal(403);
      const bans = await w.admin.get(`/api/communities/${w.id}/bans`);
      expect(bans.body.map((b: any) => b.userId)).to.deep.equal([w.member.me.id]);
      expect((await w.moderator.get(`/api/communities/${w.id}/bans`)).status).to.equal(403);
      const unban = await w.admin.del(`/api/communities/${w.id}/bans/${w.member.me.id}`);
      expect(unban.status, unban.text).to.equal(200);
      expect((await w.member.post(`/api/communities/${w.id}/join`)).body.status).to.equal('requested');
    });

    it('applies bulk actions, skipping members the actor may not act on', async () => {
      const w = await world();
      const extra = await app.user();
      await extra.post(`/api/communities/${w.id}/join`);
      const ids = [await w.memberId(w.member), await memberIdOf(w.creator, w.id, extra.me.id), await w.memberId(w.creator), await w.memberId(w.admin)];
      expect((await w.moderator.post(`/api/communities/${w.id}/members/bulk`, { memberIds: ids, action: 'mute' })).status).to.equal(403);
      const r = await w.admin.post(`/api/communities/${w.id}/members/bulk`, { memberIds: ids, action: 'mute' });
      expect(r.status).to.equal(200);
      expect(r.body.processed).to.equal(2);
      expect(r.body.skipped.map((s: any) => s.memberId)).to.deep.equal([ids[2], ids[3]]);
      expect((await post(w.member, w.id)).status).to.equal(403);
      expect((await post(extra, w.id)).status).to.equal(403);
      expect((await w.admin.post(`/api/communities/${w.id}/members/bulk`, { memberIds: ids.slice(0, 2), action: 'warn' })).status).to.equal(400);
      const removed = await w.creator.post(`/api/communities/${w.id}/members/bulk`, { memberIds: ids.slice(0, 2), action: 'remove' });
      expect(removed.body.processed).to.equal(2);
      expect((await w.creator.get(`/api/communities/${w.id}`)).body.memberCount).to.equal(3);
      expect((await w.creator.post(`/api/communities/${w.id}/members/bulk`, { memberIds: [], action: 'remove' })).status).to.equal(400);
    });

    it("shows a member's posts to readers and their comments to moderators", async () => {
      const w = await world();
      const p1 = (await post(w.member, w.id)).body.id;
      const p2 = (await post(w.member, w.id)).body.id;
      await post(w.admin, w.id);
      await w.member.post(`/api/community-posts/${p1}/comments`, { content: 'own comment' });
      const mid = await w.memberId(w.member);
      const posts = await w.outsider.get(`/api/communities/${w.id}/members/${mid}/posts`);
      expect(posts.body.map((p: any) => p.id)).to.deep.equal([p2, p1]);
      expect((await w.member.get(`/api/communities/${w.id}/members/${mid}/comments`)).status).to.equal(403);
      const comments = await w.moderator.get(`/api/communities/${w.id}/members/${mid}/comments`);
      expect(comments.body.map((c: any) => c.content)).to.deep.equal(['own comment']);
      expect((await w.moderator.get(`/api/communities/${w.id}/members/2147483000/posts`)).status).to.equal(404);
    });
  });

  describe('reports', () => {
    it('lets any member report a post or a comment; moderators list and resolve them', async () => {
      const w = await world();
      const bad = (await post(w.admin, w.id, { content: 'Buy cheap tickets here!!!' })).body;
      const ok = (await post(w.creator, w.id)).body;
      const comment = (await w.admin.post(`/api/community-posts/${ok.id}/comments`, { content: 'rude words' })).body;
      expect((await w.outsider.post(`/api/community-posts/${bad.id}/report`, { reason: 'spam' })).status).to.equal(403);
      expect((await w.anon.post(`/api/community-posts/${bad.id}/report`, { reason: 'spam' })).status).to.equal(401);
      expect((await w.member.post(`/api/community-posts/${bad.id}/report`, { reason: '' })).status).to.equal(400);
      const rep = await w.member.post(`/api/community-posts/${bad.id}/report`, { reason: 'spam' });
      expect(rep.status).to.equal(201);
      expect((await w.member.post(`/api/community-posts/${bad.id}/report`, { reason: 'spam again' })).status).to.equal(409);
      expect((await w.moderator.post(`/api/community-posts/${bad.id}/report`, { reason: 'agreed' })).status).to.equal(201);
      expect((await w.admin.post(`/api/community-posts/${bad.id}/report`, { reason: 'mine' })).status).to.equal(400);
      expect((await w.member.post(`/api/community-comments/${comment.id}/report`, { reason: 'rude' })).status).to.equal(201);

      expect((await w.member.get(`/api/communities/${w.id}/reports`)).status).to.equal(403);
      const list = await w.moderator.get(`/api/communities/${w.id}/reports`);
      expect(list.status).to.equal(200);
      expect(list.body).to.have.length(3);
      const [r1, , r3] = list.body;
      expect(r1).to.include({ targetType: 'post', postId: bad.id, content: 'Buy cheap tickets here!!!', reason: 'spam', status: 'open', contentRemoved: false });
      expect(r1.reporter.id).to.equal(w.member.me.id);
      expect(r1.author.id).to.equal(w.admin.me.id);
      expect(r3).to.include({ targetType: 'comment', commentId: comment.id, postId: ok.id, content: 'rude words' });
      expect((await w.creator.get(`/api/communities/${w.id}`)).body.openReportsCount).to.equal(3);

      expect((await w.member.post(`/api/communities/${w.id}/reports/${r1.id}/resolve`, { action: 'dismiss' })).status).to.equal(403);
      // the reported post is a community admin's: a moderator may not remove it, the creator may
      expect((await w.moderator.post(`/api/communities/${w.id}/reports/${r1.id}/resolve`, { action: 'remove_content' })).status).to.equal(403);
      const removed = await w.creator.post(`/api/communities/${w.id}/reports/${r1.id}/resolve`, { action: 'remove_content' });
      expect(removed.status).to.equal(200);
      expect(removed.body).to.include({ status: 'resolved', resolution: 'content_removed', contentRemoved: true, content: 'Buy cheap tickets here!!!' });
      expect((await w.member.get(`/api/communities/${w.id}/posts`)).body.items.map((p: any) => p.id)).to.not.include(bad.id);
      const dismissed = await w.creator.post(`/api/communities/${w.id}/reports/${r3.id}/resolve`, { action: 'dismiss' });
      expect(dismissed.body).to.include({ resolution: 'dismissed', contentRemoved: false });
      expect((await w.creator.post(`/api/communities/${w.id}/reports/${r3.id}/resolve`, { action: 'dismiss' })).status).to.equal(409);
      // both reports of the removed post were resolved together
      expect((await w.moderator.get(`/api/communities/${w.id}/reports`)).body).to.have.length(0);
      expect((await w.moderator.get(`/api/communities/${w.id}/reports?status=resolved`)).body).to.have.length(3);
    });
  });

  describe('community settings and deletion', () => {
    it('lets only the creator edit info, privacy and rules; members see the rules', async () => {
      const w = await world();
      for (const c of [w.admin, w.moderator, w.member, w.outsider]) expect((await c.patch(`/api/communities/${w.id}`, { rules: 'x' })).status).to.equal(403);
      expect((await w.anon.patch(`/api/communities/${w.id}`, { rules: 'x' })).status).to.equal(401);
      const r = await w.creator.patch(`/api/communities/${w.id}`, { rules: '1. Be kind', description: 'New description', tags: 'a, b', location: 'Lyon', name: 'Renamed community' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ rules: '1. Be kind', description: 'New description', location: 'Lyon', name: 'Renamed community' });
      expect(r.body.tags).to.deep.equal(['a', 'b']);
      expect((await w.member.get(`/api/communities/${w.id}`)).body.rules).to.equal('1. Be kind');
      expect((await w.creator.patch(`/api/communities/${w.id}`, {})).status).to.equal(400);
      expect((await w.creator.patch(`/api/communities/${w.id}`, { name: ' ' })).status).to.equal(400);
    });

    it('uploads a community image (creator only), re-encoded', async () => {
      const w = await world();
      const sharp = (await import('sharp')).default;
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } }).png().toBuffer();
      expect((await w.admin.upload(`/api/communities/${w.id}/image`, [{ field: 'image', name: 'a.png', type: 'image/png', data: png }])).status).to.equal(403);
      const r = await w.creator.upload(`/api/communities/${w.id}/image`, [{ field: 'image', name: 'a.png', type: 'image/png', data: png }]);
      expect(r.status, r.text).to.equal(200);
      expect(r.body.imageUrl).to.match(/^\/uploads\/communities\/.+\.jpg$/);
      const img = await app.client().raw('GET', r.body.imageUrl);
      expect(img.status).to.equal(200);
      const bad = await w.creator.upload(`/api/communities/${w.id}/image`, [{ field: 'image', name: 'x.png', type: 'image/png', data: Buffer.from('not an image') }]);
      expect(bad.status).to.equal(400);
    });

    it('deletes a community with everything in it (creator only), announcing it first', async () => {
      const w = await world();
      const p = (await post(w.member, w.id, { type: 'poll', content: 'Q', pollOptions: ['a', 'b'] })).body;
      await w.admin.post(`/api/community-posts/${p.id}/vote`, { optionIndex: 0 });
      await w.admin.post(`/api/community-posts/${p.id}/comments`, { content: 'c' });
      await w.admin.post(`/api/community-posts/${p.id}/report`, { reason: 'r' });
      for (const c of [w.admin, w.moderator, w.member, w.outsider]) expect((await c.del(`/api/communities/${w.id}`)).status).to.equal(403);
      expect((await w.anon.del(`/api/communities/${w.id}`)).status).to.equal(401);
      const seen: number[] = [];
      let postsWhenAnnounced = -1;
      app.events.on('communities.community.deleting', async ({ communityId }) => {
        seen.push(communityId);
        if (communityId === w.id) postsWhenAnnounced = Number((await app.knex('community_posts').where({ community_id: w.id }).count({ n: '*' }))[0].n);
      });
      const r = await w.creator.del(`/api/communities/${w.id}`);
      expect(r.status).to.equal(200);
      expect(seen).to.include(w.id);
      expect(postsWhenAnnounced).to.equal(1);
      expect((await w.member.get(`/api/communities/${w.id}`)).status).to.equal(404);
      expect((await w.member.get(`/api/community-posts/${p.id}/comments`)).status).to.equal(404);
      for (const t of ['community_members', 'community_posts', 'community_comments', 'community_reports']) {
        const [{ n }] = await app.knex(t).where({ community_id: w.id }).count({ n: '*' });
        expect(Number(n), t).to.equal(0);
      }
      expect((await w.creator.get('/api/communities')).body.map((c: any) => c.id)).to.not.include(w.id);
      if (app.enabled.has('notifications')) expect((await notifications(w.member)).map((n) => n.title)).to.include('Community deleted');
    });
  });

  describe('member bios', () => {
    it("lists each member's bio (spec: Community member user has bio), within their profile privacy", async () => {
      const w = await world();
      expect((await w.member.put('/api/user/profile', { bio: 'Sunday sketcher at the Orsay.' })).status).to.equal(200);
      expect((await w.moderator.put('/api/user/profile', { bio: 'Only my followers read this.' })).status).to.equal(200);
      expect((await w.moderator.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
      const userOf = async (viewer: SignedInClient, u: SignedInClient) => {
        const r = await viewer.get(`/api/communities/${w.id}/members`);
        expect(r.status, r.text).to.equal(200);
        return r.body.find((m: any) => m.userId === u.me.id).user;
      };
      expect((await userOf(w.outsider, w.member)).bio).to.equal('Sunday sketcher at the Orsay.');
      expect((await userOf(w.outsider, w.creator)).bio).to.equal('');
      // a private profile's bio is for its followers (and itself) only
      expect((await userOf(w.outsider, w.moderator)).bio).to.equal(null);
      expect((await userOf(w.moderator, w.moderator)).bio).to.equal('Only my followers read this.');
      expect((await w.outsider.post(`/api/user/${w.moderator.me.id}/follow`)).body.requested).to.equal(true);
      const req = (await w.moderator.get('/api/follow-requests')).body.items.find((x: any) => x.user.id === w.outsider.me.id);
      expect((await w.moderator.post(`/api/follow-requests/${req.id}/authorize`)).status).to.equal(200);
      expect((await userOf(w.outsider, w.moderator)).bio).to.equal('Only my followers read this.');
    });
  });

  describe('service for other plugins', () => {
    it('answers roles, creators, memberships and summaries', async () => {
      const { CommunitiesService } = await import('../public.ts');
      const svc = app.services.get(CommunitiesService);
      const w = await world();
      expect(await svc.exists(w.id)).to.equal(true);
      expect(await svc.exists(2147483000)).to.equal(false);
      expect(await svc.roleOf(w.id, w.creator.me.id)).to.equal('creator');
      expect(await svc.roleOf(w.id, w.admin.me.id)).to.equal('admin');
      expect(await svc.roleOf(w.id, w.moderator.me.id)).to.equal('moderator');
      expect(await svc.roleOf(w.id, w.member.me.id)).to.equal('member');
      expect(await svc.roleOf(w.id, w.outsider.me.id)).to.equal(null);
      expect(await svc.creatorId(w.id)).to.equal(w.creator.me.id);
      expect(await svc.communityIdsOf(w.member.me.id)).to.include(w.id);
      expect((await svc.summaries([w.id])).get(w.id)).to.deep.equal({ id: w.id, name: (await w.creator.get(`/api/communities/${w.id}`)).body.name, isPrivate: false });
      // privacy is what other plugins (events) need to hide a private community's meetups
      const closed = await world({ membershipType: 'private' });
      const both = await svc.summaries([w.id, closed.id, 2147483000, -1, 1.5]);
      expect([...both.keys()].sort((a, b) => a - b)).to.deep.equal([w.id, closed.id].sort((a, b) => a - b));
      expect(both.get(closed.id)?.isPrivate).to.equal(true);
      await closed.creator.patch(`/api/communities/${closed.id}`, { membershipType: 'public' });
      expect((await svc.summaries([closed.id])).get(closed.id)?.isPrivate).to.equal(false);
      const named = await svc.findByName((await w.creator.get(`/api/communities/${w.id}`)).body.name);
      expect(named).to.deep.equal((await svc.summaries([w.id])).get(w.id));
      expect(await svc.findByName(uniqueName('No such community '))).to.equal(null);
    });
  });
  describe('accounts and seeds', () => {
    it('keeps counts exact when a member account is deleted, and hands a community to its admin when its creator goes', async () => {
      const { AccountsService } = await import('../../accounts/public.ts');
      const accounts = app.services.get(AccountsService);
      const w = await world();
      const p = (await post(w.admin, w.id)).body;
      await w.member.post(`/api/community-posts/${p.id}/like`);
      await w.member.post(`/api/community-posts/${p.id}/comments`, { content: 'bye' });
      expect(await accounts.deleteUser(w.member.me.id)).to.equal(true);
      let d = (await w.creator.get(`/api/communities/${w.id}`)).body;
      expect(d.memberCount).to.equal(3);
      const seen = (await w.creator.get(`/api/communities/${w.id}/posts`)).body.items[0];
      expect(seen).to.include({ likesCount: 0, commentsCount: 0 });
      expect(await accounts.deleteUser(w.creator.me.id)).to.equal(true);
      d = (await w.admin.get(`/api/communities/${w.id}`)).body;
      expect(d).to.include({ creatorId: w.admin.me.id, isCreator: true, memberCount: 2 });
      // a community whose last member goes is deleted
      const lonely = await app.user({ role: 'Ambassador' });
      const c = (await lonely.post('/api/communities', { name: uniqueName('Lonely ') })).body;
      await accounts.deleteUser(lonely.me.id);
      expect((await w.admin.get(`/api/communities/${c.id}`)).status).to.equal(404);
    });

    it('seeds sample communities with the sample members once (idempotent)', async () => {
      const progress = { start() {}, tick() {} };
      // accounts seeds first (plugin dependency order): the sample members the communities list
      await app.servers.get('accounts')!.seed!(app.contexts.get('accounts')!, progress);
      const server = app.servers.get('communities')!;
      const ctx = app.contexts.get('communities')!;
      const { ROOT } = await import('../../../core/config.ts');
      const data = JSON.parse((await import('node:fs')).readFileSync(`${ROOT}/seeds/communities/communities.json`, 'utf8'));
      const samples = new Set(JSON.parse((await import('node:fs')).readFileSync(`${ROOT}/seeds/accounts/users.json`, 'utf8')).users.map((u: any) => u.username));
      const names = ['Impressionism Enthusiasts', 'Natural History Nerds', 'Museum Photographers Collective'];
      const viewer = await app.user();
      expect(data.communities.map((c: any) => c.name)).to.deep.equal(names);
      await server.seed!(ctx, progress);
      const rows = await app.knex('communities').whereIn('name', names).select('*');
      expect(rows).to.have.length(3);
      for (const c of data.communities) {
        // every listed member is a sample member, and the creator an Ambassador (as the API requires)
        for (const u of c.members) expect(samples.has(u), u).to.equal(true);
        const row = rows.find((r: any) => r.name === c.name);
        if (c.membershipType === 'open') {
          const members = (await viewer.get(`/api/communities/${row.id}/members`)).body;
          expect(members.map((m: any) => m.user.username)).to.have.members(c.members);
          expect(members.find((m: any) => m.isCreator).user.username).to.equal(c.members[0]);
        }
        const creator = await app.knex('users').where({ id: row.creator_id }).first('username', 'role');
        expect(creator).to.deep.equal({ username: c.members[0], role: 'Ambassador' });
      }
      const counts = async () => ({
        c: Number((await app.knex('communities').count({ n: '*' }))[0].n),
        p: Number((await app.knex('community_posts').count({ n: '*' }))[0].n),
        m: Number((await app.knex('community_members').count({ n: '*' }))[0].n),
      });
      const before = await counts();
      await server.seed!(ctx, progress);
      expect(await counts()).to.deep.equal(before);
      for (const r of rows) {
        const [{ n }] = await app.knex('community_members').where({ community_id: r.id }).count({ n: '*' });
        expect(Number(n)).to.equal(r.member_count);
      }
      const seeded = rows.find((r: any) => r.name === 'Impressionism Enthusiasts');
      const feed = (await viewer.get(`/api/communities/${seeded.id}/posts`)).body.items;
      expect(feed[0]).to.include({ type: 'poll', isPinned: true });
      expect(feed[0].poll.totalVotes).to.be.greaterThan(0);
    });
  });
});
