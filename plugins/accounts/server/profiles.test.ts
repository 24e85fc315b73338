import { expect } from 'chai';
import { sharedApp, type TestApp } from '../../../core/testing/index.ts';

describe('accounts: profiles and follows', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('answers the own profile with counts at GET /api/user', async () => {
    const u = await app.user({ firstName: 'Ada', lastName: 'Lovelace' });
    const r = await u.get('/api/user');
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ id: u.me.id, username: u.me.username, email: u.me.email, firstName: 'Ada', lastName: 'Lovelace', isOwn: true, limited: false, followersCount: 0, followingCount: 0, profileVisibility: 'public' });
    expect(r.body.insightsCount).to.be.a('number');
    expect(r.body).to.not.have.any.keys('password', 'password_hash', 'passwordHash');
    expect((await app.client().get('/api/user')).status).to.equal(401);
  });

  it('finds a profile by id, slug or username; unknown gives 404 User not found', async () => {
    const u = await app.user();
    const viewer = await app.user();
    const byId = await viewer.get(`/api/user/${u.me.id}`);
    expect(byId.status).to.equal(200);
    expect(byId.body).to.include({ id: u.me.id, isOwn: false, isFollowing: false, limited: false });
    expect(byId.body).to.not.have.property('email'); // showEmail is off by default
    expect((await viewer.get(`/api/user/slug/${u.me.slug}`)).body.id).to.equal(u.me.id);
    expect((await viewer.get(`/api/user/slug/${u.me.username.toUpperCase()}`)).body.id).to.equal(u.me.id);
    const missing = await viewer.get('/api/user/2147483000');
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('User not found');
    expect((await viewer.get('/api/user/slug/nobody-here-at-all')).status).to.equal(404);
    expect((await viewer.get('/api/user/not-a-number')).status).to.equal(400);
    // Signed-out visitors see public profiles.
    expect((await app.client().get(`/api/user/${u.me.id}`)).body).to.include({ id: u.me.id, limited: false, isFollowing: false });
  });

  it('toggles a follow with exact counts and isFollowing for the viewer', async () => {
    const a = await app.user();
    const b = await app.user();
    const f1 = await a.post(`/api/user/${b.me.id}/follow`);
    expect(f1.status).to.equal(200);
    expect(f1.body).to.deep.equal({ following: true, requested: false, followersCount: 1 });
    expect((await a.get(`/api/user/${b.me.id}`)).body).to.include({ isFollowing: true, followersCount: 1, followingCount: 0 });
    expect((await b.get(`/api/user/${a.me.id}`)).body).to.include({ followsYou: true, followingCount: 1 });
    expect((await b.get('/api/user')).body.followersCount).to.equal(1);
    const f2 = await a.post(`/api/user/${b.me.id}/follow`);
    expect(f2.body).to.deep.equal({ following: false, requested: false, followersCount: 0 });
    expect((await a.get('/api/user')).body.followingCount).to.equal(0);
  });

  it('refuses self-follow, unknown users and signed-out follows', async () => {
    const a = await app.user();
    const self = await a.post(`/api/user/${a.me.id}/follow`);
    expect(self.status).to.equal(400);
    expect(self.body.message).to.equal('You cannot follow yourself');
    expect((await a.post('/api/user/2147483000/follow')).status).to.equal(404);
    expect((await app.client().post(`/api/user/${a.me.id}/follow`)).status).to.equal(401);
  });

  it('keeps counts exact under concurrent toggles', async () => {
    const target = await app.user();
    const fans = await Promise.all(Array.from({ length: 12 }, () => app.user()));
    // Each fan toggles 3 times at once (net: following) while all fans run concurrently.
    await Promise.all(fans.map((f) => Promise.all([1, 2, 3].map(() => f.post(`/api/user/${target.me.id}/follow`)))));
    const rows = await app.knex('user_follows').where({ following_id: target.me.id }).count<{ count: number }[]>('* as count');
    const real = Number(rows[0].count);
    expect(real).to.equal(12);
    const u = await app.knex('users').where({ id: target.me.id }).first('followers_count');
    expect(u.followers_count).to.equal(real);
    for (const f of fans) {
      const me = await app.knex('users').where({ id: f.me.id }).first('following_count');
      expect(me.following_count).to.equal(1);
    }
    // Crossing toggles A→B and B→A at once do not deadlock.
    const x = fans[0];
    const y = fans[1];
    const res = await Promise.all([x.post(`/api/user/${y.me.id}/follow`), y.post(`/api/user/${x.me.id}/follow`), x.post(`/api/user/${y.me.id}/follow`), y.post(`/api/user/${x.me.id}/follow`)]);
    expect(res.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
  });

  it('emits accounts.user.followed', async () => {
    const a = await app.user();
    const b = await app.user();
    const seen: any[] = [];
    app.events.on('accounts.user.followed', (p) => {
      if (p.followerId === a.me.id) seen.push(p);
    });
    await a.post(`/api/user/${b.me.id}/follow`);
    await a.post(`/api/user/${b.me.id}/follow`);
    expect(seen).to.deep.equal([
      { followerId: a.me.id, followingId: b.me.id, following: true },
      { followerId: a.me.id, followingId: b.me.id, following: false },
    ]);
  });

  it('lists followers and following, newest first, with isFollowing for the viewer', async () => {
    const star = await app.user();
    const f1 = await app.user();
    const f2 = await app.user();
    await f1.post(`/api/user/${star.me.id}/follow`);
    await f2.post(`/api/user/${star.me.id}/follow`);
    await star.post(`/api/user/${f1.me.id}/follow`);
    const followers = await f1.get(`/api/user/${star.me.id}/followers`);
    expect(followers.status).to.equal(200);
    expect(followers.body.map((u: any) => u.id)).to.deep.equal([f2.me.id, f1.me.id]);
    expect(followers.body[0]).to.have.all.keys('id', 'slug', 'username', 'firstName', 'lastName', 'profileImageUrl', 'profileImageInfo', 'role', 'isFollowing', 'followedAt');
    expect(followers.body.find((u: any) => u.id === f2.me.id).isFollowing).to.equal(false);
    const following = await f1.get(`/api/user/${star.me.id}/following`);
    expect(following.body.map((u: any) => u.id)).to.deep.equal([f1.me.id]);
    expect((await f1.get(`/api/user/${star.me.id}/followers?limit=1`)).body).to.have.length(1);
    expect((await f1.get(`/api/user/${star.me.id}/followers?limit=1&offset=1`)).body[0].id).to.equal(f1.me.id);
    expect((await f1.get('/api/user/2147483000/followers')).status).to.equal(404);
  });

  it('a private profile shows only name and avatar to non-followers', async () => {
    const owner = await app.user({ firstName: 'Priv', lastName: 'Ate' });
    expect((await owner.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    await owner.put('/api/user/profile', { bio: 'secret bio' });
    const stranger = await app.user();
    const seen = (await stranger.get(`/api/user/${owner.me.id}`)).body;
    expect(seen).to.include({ id: owner.me.id, firstName: 'Priv', lastName: 'Ate', limited: true });
    expect(seen).to.have.property('profileImageUrl');
    expect(seen).to.not.have.any.keys('bio', 'email', 'followersCount', 'followingCount', 'insightsCount', 'createdAt');
    expect((await app.client().get(`/api/user/${owner.me.id}`)).body.limited).to.equal(true);
    expect((await stranger.get(`/api/user/${owner.me.id}/followers`)).status).to.equal(403);
    expect((await stranger.get(`/api/user/${owner.me.id}/following`)).status).to.equal(403);
    // Asking to follow does not open it; the owner's approval does.
    expect((await stranger.post(`/api/user/${owner.me.id}/follow`)).body).to.deep.equal({ following: false, requested: true, followersCount: 0 });
    expect((await stranger.get(`/api/user/${owner.me.id}`)).body).to.include({ limited: true, requested: true, isFollowing: false });
    const req = (await owner.get('/api/follow-requests')).body.items[0];
    expect((await owner.post(`/api/follow-requests/${req.id}/authorize`)).status).to.equal(200);
    const follower = (await stranger.get(`/api/user/${owner.me.id}`)).body;
    expect(follower).to.include({ limited: false, bio: 'secret bio', isFollowing: true });
    expect((await stranger.get(`/api/user/${owner.me.id}/followers`)).status).to.equal(200);
    // The owner and an Admin always see everything.
    expect((await owner.get(`/api/user/${owner.me.id}`)).body).to.include({ limited: false, email: owner.me.email });
    const admin = await app.user({ role: 'Admin' });
    expect((await admin.get(`/api/user/${owner.me.id}`)).body).to.include({ limited: false, email: owner.me.email });
  });

  it('a friends-only profile is open to people the owner follows or who follow the owner', async () => {
    const owner = await app.user();
    await owner.put('/api/user/preferences', { profileVisibility: 'friends' });
    const followed = await app.user();
    const stranger = await app.user();
    await owner.post(`/api/user/${followed.me.id}/follow`);
    expect((await followed.get(`/api/user/${owner.me.id}`)).body.limited).to.equal(false);
    expect((await stranger.get(`/api/user/${owner.me.id}`)).body.limited).to.equal(true);
    expect((await app.client().get(`/api/user/${owner.me.id}`)).body.limited).to.equal(true);
  });

  it('showEmail, showFollowers and showFollowing hide those fields from others', async () => {
    const owner = await app.user();
    const viewer = await app.user();
    await owner.put('/api/user/preferences', { showEmail: true, showFollowers: false, showFollowing: false });
    const seen = (await viewer.get(`/api/user/${owner.me.id}`)).body;
    expect(seen.email).to.equal(owner.me.email);
    // to members only: a signed-out visitor (or a crawler of the public profile page) never gets it
    expect((await app.client().get(`/api/user/${owner.me.id}`)).body).to.not.have.property('email');
    expect(seen.followersCount).to.equal(null);
    expect(seen.followingCount).to.equal(null);
    const hidden = await viewer.get(`/api/user/${owner.me.id}/followers`);
    expect(hidden.status).to.equal(403);
    expect(hidden.body.message).to.equal("This member's followers are hidden");
    expect((await viewer.get(`/api/user/${owner.me.id}/following`)).status).to.equal(403);
    // The owner still sees their own.
    expect((await owner.get(`/api/user/${owner.me.id}/followers`)).status).to.equal(200);
    expect((await owner.get('/api/user')).body.followersCount).to.equal(0);
    await owner.put('/api/user/preferences', { showEmail: false });
    expect((await viewer.get(`/api/user/${owner.me.id}`)).body).to.not.have.property('email');
  });

  it('answers badges as a list (empty without a provider or without badges)', async () => {
    const u = await app.user();
    const r = await app.client().get(`/api/user/${u.me.id}/badges`);
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal([]);
    expect((await app.client().get('/api/user/2147483000/badges')).status).to.equal(404);
  });

  it('answers the member count for the landing page, to anyone', async () => {
    const before = (await app.client().get('/api/users/stats')).body.travelersCount;
    await app.user();
    const r = await app.client().get('/api/users/stats');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ travelersCount: before + 1 });
  });
});
