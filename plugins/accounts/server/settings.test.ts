import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', w = 800, h = 500) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 80, b: 40 } } })[format]().toBuffer();

describe('accounts: settings', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  describe('profile', () => {
    it('updates names, username, bio and email and answers the own record', async () => {
      const u = await app.user();
      const username = uniqueName('new');
      const email = `${username}@example.test`;
      const r = await u.put('/api/user/profile', { firstName: ' Grace ', lastName: 'Hopper', username, bio: 'Navy', email });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ firstName: 'Grace', lastName: 'Hopper', username, bio: 'Navy', email, slug: username });
      expect((await u.get('/api/auth/user')).body.username).to.equal(username);
      // The new email signs in.
      expect((await app.client().post('/api/auth/login', { email, password: u.me.password })).status).to.equal(200);
      // The profile is found by its new slug.
      expect((await u.get(`/api/user/slug/${username}`)).body.id).to.equal(u.me.id);
    });

    it('gives the spec texts: blank username, bio over 200', async () => {
      const u = await app.user();
      for (const username of ['', '   ']) {
        const r = await u.put('/api/user/profile', { username });
        expect(r.status).to.equal(400);
        expect(r.body.message).to.equal('Please enter a username.');
      }
      const long = await u.put('/api/user/profile', { bio: 'x'.repeat(201) });
      expect(long.status).to.equal(400);
      expect(long.body.message).to.equal('Bio must be at most 200 characters.');
      expect((await u.put('/api/user/profile', { bio: 'x'.repeat(200) })).status).to.equal(200);
      const badEmail = await u.put('/api/user/profile', { email: 'not-an-email' });
      expect(badEmail.status).to.equal(400);
      expect(badEmail.body.message).to.equal('Please enter a valid email address');
    });

    it('refuses a username or email already taken, in any case, with 409 naming the field', async () => {
      const u = await app.user();
      const other = await app.user();
      const name = await u.put('/api/user/profile', { username: other.me.username.toUpperCase() });
      expect(name.status).to.equal(409);
      expect(name.body.message).to.equal('This username is already taken');
      const mail = await u.put('/api/user/profile', { email: other.me.email.toUpperCase() });
      expect(mail.status).to.equal(409);
      expect(mail.body.message).to.equal('An account with this email already exists');
      // Keeping one's own values is fine.
      expect((await u.put('/api/user/profile', { username: u.me.username, email: u.me.email })).status).to.equal(200);
    });

    it('refuses role and id (no mass assignment)', async () => {
      const u = await app.user();
      for (const extra of [{ role: 'Admin' }, { id: 1 }, { password_hash: 'x' }]) {
        const r = await u.put('/api/user/profile', { firstName: 'Eve', ...extra });
        expect(r.status).to.equal(400);
      }
      const row = await app.knex('users').where({ id: u.me.id }).first();
      expect(row.role).to.equal('Traveler');
      expect(row.first_name).to.equal('Test');
    });

    it('needs sign-in for every settings route', async () => {
      const anon = app.client();
      expect((await anon.put('/api/user/profile', { bio: 'x' })).status).to.equal(401);
      expect((await anon.put('/api/user/password', { currentPassword: 'a', newPassword: 'bbbbbbbb' })).status).to.equal(401);
      expect((await anon.del('/api/user/account')).status).to.equal(401);
      expect((await anon.get('/api/user/preferences')).status).to.equal(401);
      expect((await anon.put('/api/user/preferences', { showEmail: true })).status).to.equal(401);
      expect((await anon.upload('/api/user/profile-image', [{ field: 'image', name: 'a.png', type: 'image/png', data: await image('png') }])).status).to.equal(401);
    });

    it('refuses state-changing requests from another origin', async () => {
      const u = await app.user();
      const r = await u.put('/api/user/profile', { bio: 'ok' });
      expect(r.status).to.equal(200);
      u.origin = 'https://evil.example';
      const evil = await u.put('/api/user/profile', { bio: 'pwned' });
      expect(evil.status).to.equal(403);
      expect((await app.knex('users').where({ id: u.me.id }).first('bio')).bio).to.equal('ok');
    });
  });

  describe('password', () => {
    it('needs the current password, checks the new one, ends the other sessions', async () => {
      const u = await app.user();
      const other = app.client();
      await other.post('/api/auth/login', { email: u.me.email, password: u.me.password });
      const wrong = await u.put('/api/user/password', { currentPassword: 'not-my-password', newPassword: 'a-brand-new-pass' });
      expect(wrong.status).to.equal(400);
      expect(wrong.body.message).to.equal('Current password is incorrect.');
      const missing = await u.put('/api/user/password', { newPassword: 'a-brand-new-pass' });
      expect(missing.status).to.equal(400);
      expect(missing.body.message).to.equal('Please enter your current password.');
      const short = await u.put('/api/user/password', { currentPassword: u.me.password, newPassword: '12345' });
      expect(short.status).to.equal(400);
      expect(short.body.message).to.equal('Password must be at least 6 characters long.');
      const common = await u.put('/api/user/password', { currentPassword: u.me.password, newPassword: 'Password123' });
      expect(common.status).to.equal(400);
      expect(common.body.message).to.match(/too common/);
      const before = u.cookieHeader();
      const ok = await u.put('/api/user/password', { currentPassword: u.me.password, newPassword: 'a-brand-new-pass' });
      expect(ok.status, ok.text).to.equal(200);
      expect(u.cookieHeader(), 'the session id is rotated').to.not.equal(before);
      expect((await u.get('/api/auth/user')).status).to.equal(200);
      expect((await other.get('/api/auth/user')).status).to.equal(401);
      expect((await u.get('/api/auth/my-sessions')).body.sessions).to.have.length(1);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(401);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: 'a-brand-new-pass' })).status).to.equal(200);
    });
  });

  describe('common passwords', () => {
    it('refuses the most common passwords at sign-up, in any case', async () => {
      for (const password of ['123456', 'password', 'qwerty123', 'iloveyou', 'PASSWORD1', 'football', 'letmein']) {
        const username = uniqueName();
        const r = await app.client().post('/api/auth/register', { email: `${username}@x.test`, password, firstName: 'A', lastName: 'B', username });
        expect(r.status, password).to.equal(400);
        if (password.length >= 6) expect(r.body.message).to.equal('This password is too common. Please choose a less common password.');
      }
    });

    it('refuses a password equal to the username', async () => {
      const username = uniqueName();
      const r = await app.client().post('/api/auth/register', { email: `${username}@x.test`, password: username, firstName: 'A', lastName: 'B', username });
      expect(r.status).to.equal(400);
    });

    it('ships at least a thousand entries', () => {
      const list = fs
        .readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('#'));
      expect(new Set(list).size).to.be.at.least(1000);
    });
  });

  describe('preferences', () => {
    it('answers the defaults, saves any subset, and validates', async () => {
      const u = await app.user();
      const d = await u.get('/api/user/preferences');
      expect(d.status).to.equal(200);
      expect(d.body).to.deep.equal({
        profileVisibility: 'public',
        showEmail: false,
        showFollowers: true,
        showFollowing: true,
        allowMessages: true,
        allowTagging: true,
        emailNotifications: true,
        pushNotifications: true,
        followNotifications: true,
        likeNotifications: true,
        commentNotifications: true,
        museumUpdates: true,
        eventReminders: true,
        weeklyDigest: false,
        theme: 'system',
      });
      const r = await u.put('/api/user/preferences', { profileVisibility: 'friends', likeNotifications: false, weeklyDigest: true, theme: 'dark' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ profileVisibility: 'friends', likeNotifications: false, weeklyDigest: true, showFollowers: true, theme: 'dark' });
      expect((await u.put('/api/user/preferences', { theme: 'sepia' })).status).to.equal(400);
      const again = await u.put('/api/user/preferences', { showEmail: true });
      expect(again.body).to.include({ profileVisibility: 'friends', showEmail: true, likeNotifications: false });
      expect((await u.get('/api/user/preferences')).body).to.deep.equal(again.body);
      expect((await u.put('/api/user/preferences', { profileVisibility: 'secret' })).status).to.equal(400);
      expect((await u.put('/api/user/preferences', { showEmail: 'yes' })).status).to.equal(400);
      expect((await u.put('/api/user/preferences', { role: 'Admin' })).status).to.equal(400);
      // Another user's preferences are untouched.
      const other = await app.user();
      expect((await other.get('/api/user/preferences')).body.profileVisibility).to.equal('public');
    });
  });

  describe('profile photo', () => {
    it('accepts JPG, PNG and GIF, re-encodes to a 400x400 JPEG without metadata, and deletes the old file', async () => {
      const u = await app.user();
      const withExif = await sharp(await image('jpeg', 1200, 900))
        .withExif({ IFD0: { Copyright: 'secret-owner', ImageDescription: 'GPS here' } })
        .jpeg()
        .toBuffer();
      expect((await sharp(withExif).metadata()).exif).to.not.equal(undefined);
      const r = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: withExif }]);
      expect(r.status, r.text).to.equal(200);
      const url: string = r.body.profileImageUrl;
      expect(url).to.match(/^\/uploads\/avatars\/[a-f0-9]+\.jpg$/);
      const served = await app.client().raw('GET', url);
      expect(served.status).to.equal(200);
      expect(served.headers.get('content-type')).to.equal('image/jpeg');
      const buf = Buffer.from(await served.arrayBuffer());
      const meta = await sharp(buf).metadata();
      expect(meta).to.include({ format: 'jpeg', width: 400, height: 400 });
      expect(meta.exif).to.equal(undefined);
      expect(buf.includes(Buffer.from('secret-owner'))).to.equal(false);
      expect((await u.get('/api/auth/user')).body.profileImageUrl).to.equal(url);

      for (const [format, name] of [['png', 'me.png'], ['gif', 'me.gif']] as const) {
        const prev = (await u.get('/api/auth/user')).body.profileImageUrl;
        const next = await u.upload('/api/user/profile-image', [{ field: 'image', name, type: `image/${format}`, data: await image(format, 300, 600) }]);
        expect(next.status, format).to.equal(200);
        expect(next.body.profileImageUrl).to.not.equal(prev);
        expect((await app.client().raw('GET', prev)).status, 'old file deleted').to.equal(404);
        expect((await app.client().raw('GET', next.body.profileImageUrl)).status).to.equal(200);
      }
    });

    it('refuses a fake image (text renamed .png), other formats, and nothing at all with 400', async () => {
      const u = await app.user();
      const fake = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'photo.png', type: 'image/png', data: Buffer.from('this is not an image at all, just text\n'.repeat(50)) }]);
      expect(fake.status).to.equal(400);
      expect(fake.body.message).to.equal('Please upload a JPG, PNG or GIF image.');
      const webp = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'photo.png', type: 'image/png', data: await image('webp') }]);
      expect(webp.status).to.equal(400);
      const none = await u.upload('/api/user/profile-image', [], { note: 'no file' });
      expect(none.status).to.equal(400);
      const json = await u.post('/api/user/profile-image', { image: 'x' });
      expect(json.status).to.equal(400);
      expect((await u.get('/api/auth/user')).body.profileImageUrl).to.equal(null);
    });

    it('refuses a file over 5 MB with 413', async () => {
      const u = await app.user();
      const big = Buffer.alloc(5 * 1024 * 1024 + 10, 7);
      const r = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'big.png', type: 'image/png', data: big }]);
      expect(r.status).to.equal(413);
      expect(r.body.message).to.equal('File too large: the profile photo must be at most 5MB.');
    });
  });

  describe('account deletion', () => {
    it('removes the user, their sessions, follows (fixing the counts), preferences and photo', async () => {
      const u = await app.user();
      const fan = await app.user();
      const idol = await app.user();
      const second = app.client();
      await second.post('/api/auth/login', { email: u.me.email, password: u.me.password });
      await fan.post(`/api/user/${u.me.id}/follow`);
      await u.post(`/api/user/${idol.me.id}/follow`);
      await u.put('/api/user/preferences', { showEmail: true });
      const photo = await u.upload('/api/user/profile-image', [{ field: 'image', name: 'a.png', type: 'image/png', data: await image('png') }]);
      const order: string[] = [];
      app.events.on('accounts.user.deleting', async ({ userId }) => {
        if (userId !== u.me.id) return;
        const still = await app.knex('users').where({ id: userId }).first('id');
        order.push(still ? 'deleting:present' : 'deleting:gone');
      });
      app.events.on('accounts.user.deleted', async ({ userId }) => {
        if (userId === u.me.id) order.push('deleted');
      });

      const r = await u.del('/api/user/account');
      expect(r.status).to.equal(200);
      expect(order).to.deep.equal(['deleting:present', 'deleted']);
      expect((await u.get('/api/auth/user')).status).to.equal(401);
      expect((await second.get('/api/auth/user')).status).to.equal(401);
      expect(await app.knex('users').where({ id: u.me.id }).first()).to.equal(undefined);
      expect(await app.knex('user_sessions').where({ user_id: u.me.id })).to.have.length(0);
      expect(await app.knex('user_preferences').where({ user_id: u.me.id })).to.have.length(0);
      expect((await fan.get('/api/user')).body.followingCount).to.equal(0);
      expect((await idol.get('/api/user')).body.followersCount).to.equal(0);
      expect((await app.client().raw('GET', photo.body.profileImageUrl)).status).to.equal(404);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(401);
      // The email and username are free again.
      const again = await app.client().post('/api/auth/register', { email: u.me.email, password: 'correct-horse-42', firstName: 'A', lastName: 'B', username: u.me.username });
      expect(again.status).to.equal(201);
    });
  });
});
