import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';

describe('accounts: register, login, logout', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('registers, is signed in, signs out, signs in again', async () => {
    const c = app.client();
    const username = uniqueName();
    const reg = await c.post('/api/auth/register', { email: `${username}@x.test`, password: 'secret-pass', firstName: 'Ada', lastName: 'L', username });
    expect(reg.status).to.equal(201);
    expect(reg.body).to.include({ username, firstName: 'Ada', role: 'Traveler' });
    expect(reg.body).to.not.have.property('password_hash');
    expect((await c.get('/api/auth/user')).body.username).to.equal(username);
    expect((await c.post('/api/logout')).status).to.equal(200);
    expect((await c.get('/api/auth/user')).status).to.equal(401);
    const login = await c.post('/api/auth/login', { email: `${username.toUpperCase()}@X.TEST`, password: 'secret-pass' });
    expect(login.status).to.equal(200);
    expect((await c.get('/api/auth/user')).status).to.equal(200);
  });

  it('gives one message for an unknown email and a wrong password', async () => {
    const u = await app.user();
    const a = await app.client().post('/api/auth/login', { email: u.me.email, password: 'wrong-password' });
    const b = await app.client().post('/api/auth/login', { email: `nobody-${uniqueName()}@x.test`, password: 'wrong-password' });
    expect(a.status).to.equal(401);
    expect(b.status).to.equal(401);
    expect(a.body).to.deep.equal(b.body);
  });

  it('refuses a duplicate email or username with 409 naming the field', async () => {
    const u = await app.user();
    const dupEmail = await app.client().post('/api/auth/register', { email: u.me.email, password: 'secret-pass', firstName: 'A', lastName: 'B', username: uniqueName() });
    expect(dupEmail.status).to.equal(409);
    expect(dupEmail.body.message).to.match(/email/);
    const dupName = await app.client().post('/api/auth/register', { email: `${uniqueName()}@x.test`, password: 'secret-pass', firstName: 'A', lastName: 'B', username: u.me.username.toUpperCase() });
    expect(dupName.status).to.equal(409);
    expect(dupName.body.message).to.match(/username/);
  });

  it('rotates the session id at sign-in and a replayed cookie after logout gives 401', async () => {
    const u = await app.user();
    const before = u.cookieHeader();
    await u.post('/api/logout');
    const replay = app.client();
    for (const part of before.split('; ')) {
      const i = part.indexOf('=');
      replay.cookies.set(part.slice(0, i), part.slice(i + 1));
    }
    expect((await replay.get('/api/auth/user')).status).to.equal(401);
    await u.post('/api/auth/login', { email: u.me.email, password: u.me.password });
    expect(u.cookieHeader()).to.not.equal(before);
  });

  it('sets an httpOnly SameSite=Lax session cookie', async () => {
    const c = app.client();
    const username = uniqueName();
    const res = await c.raw('POST', '/api/auth/register', {
      body: JSON.stringify({ email: `${username}@x.test`, password: 'secret-pass', firstName: 'A', lastName: 'B', username }),
      headers: { 'content-type': 'application/json' },
    });
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith('curio.sid='))!;
    expect(cookie).to.match(/httponly/i).and.match(/samesite=lax/i);
  });
});
