import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';

/** Groups API: every route needs sign-in; private groups are for members; posting, liking and commenting are for members. */
describe('groups API', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await sharedApp();
  });

  async function group(creator: SignedInClient, body: Record<string, unknown> = {}) {
    const r = await creator.post('/api/groups', { name: uniqueName('Group '), ...body });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  it('needs sign-in on every route', async () => {
    const owner = await app.user();
    const g = await group(owner);
    const p = (await owner.post(`/api/groups/${g.id}/posts`, { content: 'x' })).body;
    const anon = app.client();
    const calls: Array<[string, string]> = [
      ['GET', '/api/groups'],
      ['POST', '/api/groups'],
      ['GET', `/api/groups/${g.id}`],
      ['GET', `/api/groups/${g.id}/members`],
      ['POST', `/api/groups/${g.id}/join`],
      ['DELETE', `/api/groups/${g.id}/leave`],
      ['GET', `/api/groups/${g.id}/posts`],
      ['POST', `/api/groups/${g.id}/posts`],
      ['POST', `/api/group-posts/${p.id}/like`],
      ['GET', `/api/group-posts/${p.id}/comments`],
      ['POST', `/api/group-posts/${p.id}/comments`],
      ['GET', '/api/user/groups'],
      ['DELETE', `/api/groups/${g.id}`],
    ];
    for (const [m, path] of calls) expect((await anon.req(m, path, m === 'GET' || m === 'DELETE' ? undefined : { content: 'x', name: 'x' })).status, `${m} ${path}`).to.equal(401);
  });

  it('creates a group with its creator as admin member; shows detail with members', async () => {
    const owner = await app.user();
    const g = await group(owner, { description: 'Weekend visits', location: 'NYC', tags: ' met , moma,, MET ' });
    expect(g).to.include({ isPrivate: false, memberCount: 1, isMember: true, isCreator: true, role: 'admin', location: 'NYC', postsCount: 0 });
    expect(g.tags).to.deep.equal(['met', 'moma']);
    expect(g.creator.id).to.equal(owner.me.id);
    expect(g.members).to.have.length(1);
    expect(g.members[0]).to.include({ userId: owner.me.id, role: 'admin' });
    expect((await owner.post('/api/groups', { name: '  ' })).body.message).to.equal('Group name is required');
    const other = await app.user();
    const seen = await other.get(`/api/groups/${g.id}`);
    expect(seen.body).to.include({ isMember: false, isCreator: false, role: null });
    const missing = await other.get('/api/groups/2147483000');
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('Group not found');
  });

  it('joins and leaves with exact counts; the creator cannot join or leave', async () => {
    const owner = await app.user();
    const g = await group(owner);
    const users = await Promise.all(Array.from({ length: 8 }, () => app.user()));
    const res = await Promise.all(users.flatMap((u) => [u.post(`/api/groups/${g.id}/join`), u.post(`/api/groups/${g.id}/join`)]));
    expect(res.filter((r) => r.status === 200)).to.have.length(8);
    expect(res.filter((r) => r.status === 409)).to.have.length(8);
    expect(res.find((r) => r.status === 200)!.body.message).to.equal('Joined group successfully!');
    expect((await owner.get(`/api/groups/${g.id}`)).body.memberCount).to.equal(9);
    expect((await owner.get(`/api/groups/${g.id}/members`)).body).to.have.length(9);
    const left = await users[0].del(`/api/groups/${g.id}/leave`);
    expect(left.body).to.include({ message: 'Left group successfully!', memberCount: 8 });
    expect((await users[0].del(`/api/groups/${g.id}/leave`)).status).to.equal(409);
    expect((await owner.post(`/api/groups/${g.id}/join`)).status).to.equal(400);
    const ownerLeave = await owner.del(`/api/groups/${g.id}/leave`);
    expect(ownerLeave.status).to.equal(400);
    expect(ownerLeave.body.message).to.equal('The creator cannot leave their own group');
    const mine = await users[1].get('/api/user/groups');
    expect(mine.body.map((x: any) => x.id)).to.include(g.id);
    expect((await users[0].get('/api/user/groups')).body.map((x: any) => x.id)).to.not.include(g.id);
  });

  it('keeps private groups to their members; admins add members', async () => {
    const owner = await app.user();
    const g = await group(owner, { isPrivate: true });
    const outsider = await app.user();
    const friend = await app.user();
    const r = await outsider.get(`/api/groups/${g.id}`);
    expect(r.status).to.equal(403);
    expect((await outsider.post(`/api/groups/${g.id}/join`)).status).to.equal(403);
    expect((await outsider.get(`/api/groups/${g.id}/posts`)).status).to.equal(403);
    expect((await outsider.get(`/api/groups/${g.id}/members`)).status).to.equal(403);
    expect((await outsider.get('/api/groups')).body.map((x: any) => x.id)).to.not.include(g.id);
    expect((await owner.get('/api/groups')).body.map((x: any) => x.id)).to.include(g.id);
    expect((await outsider.post(`/api/groups/${g.id}/members`, { username: friend.me.username })).status).to.equal(403);
    const add = await owner.post(`/api/groups/${g.id}/members`, { username: friend.me.username });
    expect(add.status).to.equal(201);
    expect(add.body).to.include({ userId: friend.me.id, role: 'member' });
    expect((await owner.post(`/api/groups/${g.id}/members`, { username: friend.me.username })).status).to.equal(409);
    expect((await owner.post(`/api/groups/${g.id}/members`, { username: 'no-such-user-' + uniqueName() })).status).to.equal(404);
    expect((await friend.get(`/api/groups/${g.id}`)).body).to.include({ isMember: true, memberCount: 2 });
    expect((await friend.get('/api/groups')).body.map((x: any) => x.id)).to.include(g.id);
    // removal: a member may not, the admin may; never the creator
    expect((await friend.del(`/api/groups/${g.id}/members/${owner.me.id}`)).status).to.equal(403);
    expect((await owner.del(`/api/groups/${g.id}/members/${friend.me.id}`)).status).to.equal(200);
    expect((await friend.get(`/api/groups/${g.id}`)).status).to.equal(403);
  });

  it('lets members post, like and comment (with replies); not non-members', async () => {
    const owner = await app.user();
    const g = await group(owner);
    const member = await app.user();
    const outsider = await app.user();
    await member.post(`/api/groups/${g.id}/join`);
    const refused = await outsider.post(`/api/groups/${g.id}/posts`, { content: 'hi' });
    expect(refused.status).to.equal(403);
    expect(refused.body.message).to.equal('Join this group to participate in discussions.');
    expect((await outsider.get(`/api/groups/${g.id}/posts`)).status).to.equal(403);
    expect((await member.post(`/api/groups/${g.id}/posts`, { content: '   ' })).status).to.equal(400);
    expect((await member.post(`/api/groups/${g.id}/posts`, { content: 'x', type: 'poll' })).status).to.equal(400);
    expect((await member.post(`/api/groups/${g.id}/posts`, { content: '\u0000 ' })).status).to.equal(400);
    expect((await member.get('/api/groups?q=%00')).status).to.equal(200);
    const p = await member.post(`/api/groups/${g.id}/posts`, { content: ' Hello group ', type: 'text' });
    expect(p.status).to.equal(201);
    expect(p.body).to.include({ content: 'Hello group', type: 'text', likesCount: 0, commentsCount: 0, isLiked: false, canDelete: true });
    const p2 = (await owner.post(`/api/groups/${g.id}/posts`, { content: 'Second' })).body;
    const feed = await member.get(`/api/groups/${g.id}/posts?limit=1`);
    expect(feed.body.items.map((x: any) => x.id)).to.deep.equal([p2.id]);
    const next = await member.get(`/api/groups/${g.id}/posts?limit=1&cursor=${feed.body.nextCursor}`);
    expect(next.body.items.map((x: any) => x.id)).to.deep.equal([p.body.id]);
    expect(next.body.nextCursor).to.equal(null);

    expect((await owner.post(`/api/group-posts/${p.body.id}/like`)).body).to.deep.equal({ liked: true, likesCount: 1 });
    expect((await outsider.post(`/api/group-posts/${p.body.id}/like`)).status).to.equal(403);
    expect((await owner.post(`/api/group-posts/${p.body.id}/like`)).body).to.deep.equal({ liked: false, likesCount: 0 });

    const c1 = await owner.post(`/api/group-posts/${p.body.id}/comments`, { content: 'Welcome!' });
    expect(c1.status).to.equal(201);
    const r1 = await member.post(`/api/group-posts/${p.body.id}/comments`, { content: 'Thanks', parentId: c1.body.id });
    expect(r1.body.parentId).to.equal(c1.body.id);
    const r2 = await owner.post(`/api/group-posts/${p.body.id}/comments`, { content: 'Reply again', parentId: r1.body.id });
    expect(r2.body.parentId).to.equal(c1.body.id);
    expect((await outsider.post(`/api/group-posts/${p.body.id}/comments`, { content: 'x' })).status).to.equal(403);
    expect((await outsider.get(`/api/group-posts/${p.body.id}/comments`)).status).to.equal(403);
    expect((await member.post(`/api/group-posts/${p.body.id}/comments`, { content: '' })).status).to.equal(400);
    const list = await member.get(`/api/group-posts/${p.body.id}/comments`);
    expect(list.body).to.have.length(1);
    expect(list.body[0].replies.map((x: any) => x.content)).to.deep.equal(['Thanks', 'Reply again']);
    expect((await member.get(`/api/groups/${g.id}/posts`)).body.items.find((x: any) => x.id === p.body.id).commentsCount).to.equal(3);
    // the group admin may delete a comment thread; counts follow
    expect((await member.del(`/api/group-comments/${c1.body.id}`)).status).to.equal(403);
    expect((await owner.del(`/api/group-comments/${c1.body.id}`)).status).to.equal(200);
    expect((await member.get(`/api/groups/${g.id}/posts`)).body.items.find((x: any) => x.id === p.body.id).commentsCount).to.equal(0);
    // posts: their author or a group admin
    expect((await member.del(`/api/group-posts/${p2.id}`)).status).to.equal(403);
    expect((await owner.del(`/api/group-posts/${p.body.id}`)).status).to.equal(200);
    // after leaving, no more participation
    await member.del(`/api/groups/${g.id}/leave`);
    expect((await member.post(`/api/groups/${g.id}/posts`, { content: 'x' })).status).to.equal(403);
  });

  it('lists the groups a viewer may see, with search', async () => {
    const owner = await app.user();
    const tag = uniqueName('tag');
    const pub = await group(owner, { tags: [tag] });
    const viewer = await app.user();
    const all = await viewer.get(`/api/groups?q=${tag}`);
    expect(all.body.map((x: any) => x.id)).to.deep.equal([pub.id]);
    expect(all.body[0]).to.include({ isMember: false, memberCount: 1 });
  });

  it('lets only the creator delete a group', async () => {
    const owner = await app.user();
    const g = await group(owner);
    const member = await app.user();
    await member.post(`/api/groups/${g.id}/join`);
    await member.post(`/api/groups/${g.id}/posts`, { content: 'x' });
    expect((await member.del(`/api/groups/${g.id}`)).status).to.equal(403);
    expect((await owner.del(`/api/groups/${g.id}`)).status).to.equal(200);
    expect((await member.get(`/api/groups/${g.id}`)).status).to.equal(404);
    const [{ n }] = await app.knex('group_posts').where({ group_id: g.id }).count({ n: '*' });
    expect(Number(n)).to.equal(0);
  });

  it('offers membership facts to other plugins', async () => {
    const { GroupsService } = await import('../public.ts');
    const svc = app.services.get(GroupsService);
    const owner = await app.user();
    const g = await group(owner);
    const m = await app.user();
    await m.post(`/api/groups/${g.id}/join`);
    expect(await svc.exists(g.id)).to.equal(true);
    expect(await svc.isMember(g.id, m.me.id)).to.equal(true);
    expect(await svc.isMember(g.id, (await app.user()).me.id)).to.equal(false);
    expect(await svc.creatorId(g.id)).to.equal(owner.me.id);
    expect(await svc.groupIdsOf(m.me.id)).to.include(g.id);
    expect((await svc.summaries([g.id])).get(g.id)).to.deep.equal({ id: g.id, name: g.name, isPrivate: false });
    // privacy is what other plugins (events) need to hide a private group's meetups
    const hidden = await group(owner, { isPrivate: true });
    const both = await svc.summaries([g.id, hidden.id, 2147483000, -1]);
    expect(both.size).to.equal(2);
    expect(both.get(hidden.id)).to.deep.equal({ id: hidden.id, name: hidden.name, isPrivate: true });
  });
  it('keeps counts exact when accounts are deleted; the group passes to the next member', async () => {
    const { AccountsService } = await import('../../accounts/public.ts');
    const accounts = app.services.get(AccountsService);
    const owner = await app.user();
    const g = await group(owner);
    const a = await app.user();
    const b = await app.user();
    await a.post(`/api/groups/${g.id}/join`);
    await b.post(`/api/groups/${g.id}/join`);
    const p = (await a.post(`/api/groups/${g.id}/posts`, { content: 'x' })).body;
    await b.post(`/api/group-posts/${p.id}/like`);
    await b.post(`/api/group-posts/${p.id}/comments`, { content: 'c' });
    await accounts.deleteUser(b.me.id);
    expect((await a.get(`/api/groups/${g.id}/posts`)).body.items[0]).to.include({ likesCount: 0, commentsCount: 0 });
    await accounts.deleteUser(owner.me.id);
    expect((await a.get(`/api/groups/${g.id}`)).body).to.include({ memberCount: 1, isCreator: true, role: 'admin' });
  });

  it('keeps a deleted member\'s comment that others answered as "Deleted member", and the answers under it (issue 24)', async () => {
    const { AccountsService } = await import('../../accounts/public.ts');
    const accounts = app.services.get(AccountsService);
    const owner = await app.user();
    const g = await group(owner);
    const leaving = await app.user();
    await leaving.post(`/api/groups/${g.id}/join`);
    const p = (await owner.post(`/api/groups/${g.id}/posts`, { content: 'a post' })).body;
    const answered = (await leaving.post(`/api/group-posts/${p.id}/comments`, { content: 'words of the leaving member' })).body;
    const lone = (await leaving.post(`/api/group-posts/${p.id}/comments`, { content: 'nobody answered this' })).body;
    const answer = (await owner.post(`/api/group-posts/${p.id}/comments`, { content: 'an answer that stays', parentId: answered.id })).body;
    await accounts.deleteUser(leaving.me.id);
    const thread = (await owner.get(`/api/group-posts/${p.id}/comments`)).body;
    expect(thread.map((c: any) => [c.id, c.user, c.content, c.mentions, c.replies.map((r: any) => [r.id, r.user?.id, r.content])])).to.deep.equal([
      [answered.id, null, '', [], [[answer.id, owner.me.id, 'an answer that stays']]],
    ]);
    expect(await app.knex('group_comments').where({ id: lone.id })).to.deep.equal([]);
    expect((await owner.get(`/api/groups/${g.id}/posts`)).body.items[0]).to.include({ commentsCount: 2 });
    // the last answer goes: the emptied comment goes with it
    expect((await owner.del(`/api/group-comments/${answer.id}`)).status).to.equal(200);
    expect(await app.knex('group_comments').where({ post_id: p.id })).to.deep.equal([]);
    expect((await owner.get(`/api/groups/${g.id}/posts`)).body.items[0]).to.include({ commentsCount: 0 });
  });

  it('seeds sample groups with the sample members once (idempotent)', async () => {
    const progress = { start() {}, tick() {} };
    // accounts seeds first (plugin dependency order): the sample members the groups list
    await app.servers.get('accounts')!.seed!(app.contexts.get('accounts')!, progress);
    const server = app.servers.get('groups')!;
    const ctx = app.contexts.get('groups')!;
    const fs = await import('node:fs');
    const { ROOT } = await import('../../../core/config.ts');
    const data = JSON.parse(fs.readFileSync(`${ROOT}/seeds/groups/groups.json`, 'utf8'));
    const samples = new Set(JSON.parse(fs.readFileSync(`${ROOT}/seeds/accounts/users.json`, 'utf8')).users.map((u: any) => u.username));
    await server.seed!(ctx, progress);
    const names = ['Weekend Museum Hoppers', 'Museum Educators Circle', "Curators' Back Room"];
    expect(data.groups.map((g: any) => g.name)).to.deep.equal(names);
    const rows = await app.knex('groups').whereIn('name', names).select('*');
    expect(rows).to.have.length(3);
    const viewer = await app.user();
    for (const g of data.groups) {
      for (const u of g.members) expect(samples.has(u), u).to.equal(true);
      const row = rows.find((r: any) => r.name === g.name);
      expect((await app.knex('users').where({ id: row.creator_id }).first('username')).username).to.equal(g.members[0]);
      if (!g.isPrivate) {
        const members = (await viewer.get(`/api/groups/${row.id}/members`)).body;
        expect(members.map((m: any) => m.user.username)).to.have.members(g.members);
      }
    }
    const total = async () => Number((await app.knex('group_posts').count({ n: '*' }))[0].n) + Number((await app.knex('groups').count({ n: '*' }))[0].n);
    const before = await total();
    await server.seed!(ctx, progress);
    expect(await total()).to.equal(before);
    for (const r of rows) {
      const [{ n }] = await app.knex('group_members').where({ group_id: r.id }).count({ n: '*' });
      expect(Number(n)).to.equal(r.member_count);
    }
  });
});
