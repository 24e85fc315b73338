import http from 'node:http';
import Koa from 'koa';
import { expect } from 'chai';
import pino from 'pino';
import { sharedApp, startTestApp, uniqueName, waitFor, type TestApp, type TestClient } from '../../../core/testing/index.ts';
import { openSse } from '../../../core/testing/sse.ts';
import { AccountsService } from '../public.ts';
import { sessionMiddleware } from './sessions.ts';

const DAY = 24 * 3600 * 1000;

async function signIn(app: TestApp, email: string, password: string, rememberMe = false, userAgent = 'test-agent'): Promise<TestClient> {
  const c = app.client();
  const r = await c.post('/api/auth/login', { email, password, rememberMe }, { 'user-agent': userAgent });
  expect(r.status, r.text).to.equal(200);
  return c;
}

async function sessionRows(app: TestApp, userId: number) {
  return app.knex('user_sessions').where({ user_id: userId }).orderBy('created_at');
}

describe('accounts: sessions', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('lasts 7 days, or 30 days with Remember me, and lists them with isCurrent', async () => {
    const u = await app.user();
    const remembered = await signIn(app, u.me.email, u.me.password, true, 'Browser-Remember');
    const list = await remembered.get('/api/auth/my-sessions');
    expect(list.status).to.equal(200);
    expect(list.body.sessions).to.have.length(2);
    const [current, other] = list.body.sessions;
    expect(current).to.include({ isCurrent: true, rememberMe: true, userAgent: 'Browser-Remember' });
    expect(current).to.have.all.keys('sessionId', 'isCurrent', 'expiresAt', 'lastActivity', 'rememberMe', 'createdAt', 'userAgent', 'ip');
    expect(other).to.include({ isCurrent: false, rememberMe: false });
    const left = (s: any) => new Date(s.expiresAt).getTime() - Date.now();
    expect(left(current)).to.be.within(30 * DAY - 60_000, 30 * DAY + 60_000);
    expect(left(other)).to.be.within(7 * DAY - 60_000, 7 * DAY + 60_000);
    // The handle is not the secret id stored in the cookie.
    const rows = await sessionRows(app, u.me.id);
    for (const r of rows) expect(list.body.sessions.map((s: any) => s.sessionId)).to.not.include(r.id);
    // The cookie lives as long as the session.
    const c = app.client();
    const raw = await c.raw('POST', '/api/auth/login', { body: JSON.stringify({ email: u.me.email, password: u.me.password, rememberMe: true }), headers: { 'content-type': 'application/json' } });
    const cookie = raw.headers.getSetCookie().find((s) => s.startsWith('curio.sid='))!;
    const expires = new Date(/expires=([^;]+)/i.exec(cookie)![1]).getTime();
    expect(expires - Date.now()).to.be.within(30 * DAY - 120_000, 30 * DAY + 60_000);
  });

  it('needs sign-in for the session routes', async () => {
    const anon = app.client();
    expect((await anon.get('/api/auth/my-sessions')).status).to.equal(401);
    expect((await anon.post('/api/auth/logout-all-sessions')).status).to.equal(401);
  });

  it('slides the expiry with activity', async () => {
    const u = await app.user();
    const [row] = await sessionRows(app, u.me.id);
    // An hour left, last seen two hours ago.
    await app.knex('user_sessions').where({ id: row.id }).update({ expires_at: new Date(Date.now() + 3600_000), last_activity: new Date(Date.now() - 2 * 3600_000) });
    expect((await u.get('/api/auth/user')).status).to.equal(200);
    const after = await app.knex('user_sessions').where({ id: row.id }).first();
    expect(new Date(after.expires_at).getTime() - Date.now()).to.be.within(7 * DAY - 60_000, 7 * DAY + 60_000);
    expect(Date.now() - new Date(after.last_activity).getTime()).to.be.below(60_000);
    const me = await u.get('/api/auth/my-sessions');
    expect(new Date(me.body.sessions[0].lastActivity).getTime()).to.be.closeTo(Date.now(), 60_000);
  });

  it('keeps a remembered session at 30 days when it slides', async () => {
    const u = await app.user();
    const c = await signIn(app, u.me.email, u.me.password, true);
    const rows = await sessionRows(app, u.me.id);
    const remembered = rows.find((r) => r.remember_me)!;
    await app.knex('user_sessions').where({ id: remembered.id }).update({ expires_at: new Date(Date.now() + 3600_000), last_activity: new Date(Date.now() - 2 * 3600_000) });
    expect((await c.get('/api/auth/user')).status).to.equal(200);
    const after = await app.knex('user_sessions').where({ id: remembered.id }).first();
    expect(new Date(after.expires_at).getTime() - Date.now()).to.be.within(30 * DAY - 60_000, 30 * DAY + 60_000);
  });

  it('does not write on every request (activity is recorded at most once a minute)', async () => {
    const u = await app.user();
    const [row] = await sessionRows(app, u.me.id);
    const stamp = new Date(Date.now() - 10_000);
    await app.knex('user_sessions').where({ id: row.id }).update({ last_activity: stamp });
    await u.get('/api/auth/user');
    const after = await app.knex('user_sessions').where({ id: row.id }).first();
    expect(new Date(after.last_activity).getTime()).to.equal(stamp.getTime());
  });

  it('ends an expired session', async () => {
    const u = await app.user();
    const [row] = await sessionRows(app, u.me.id);
    await app.knex('user_sessions').where({ id: row.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await u.get('/api/auth/user')).status).to.equal(401);
    expect((await u.get('/api/user')).status).to.equal(401);
  });

  it('logs out all other sessions and answers how many', async () => {
    const u = await app.user();
    const b = await signIn(app, u.me.email, u.me.password);
    const c = await signIn(app, u.me.email, u.me.password, true);
    const other = await app.user();
    const r = await u.post('/api/auth/logout-all-sessions');
    expect(r.status).to.equal(200);
    expect(r.body.deletedCount).to.equal(2);
    expect((await u.get('/api/auth/user')).status).to.equal(200);
    expect((await b.get('/api/auth/user')).status).to.equal(401);
    expect((await c.get('/api/auth/user')).status).to.equal(401);
    expect((await other.get('/api/auth/user')).status, 'another user is untouched').to.equal(200);
    const list = await u.get('/api/auth/my-sessions');
    expect(list.body.sessions).to.have.length(1);
    expect((await u.post('/api/auth/logout-all-sessions')).body.deletedCount).to.equal(0);
  });

  it('does not bring back a session ended while one of its requests was running', async () => {
    // The store on its own, in a small Koa app on the same database: a request whose session is
    // ended (logout-all, password change) while it runs must not write it back when it finishes.
    const u = await app.user();
    const koa = new Koa();
    koa.keys = ['race-test-key-0123456789'];
    koa.use(sessionMiddleware(koa, app.knex));
    koa.use(async (ctx) => {
      if (ctx.path === '/start') {
        ctx.session!.userId = u.me.id;
        ctx.body = 'ok';
        return;
      }
      ctx.session!.seen = Date.now(); // a change: the session is saved at the end of this request
      await app.knex('user_sessions').where({ user_id: u.me.id }).del(); // ended meanwhile
      ctx.body = 'ok';
    });
    const server = http.createServer(koa.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as any).port}`;
      const start = await fetch(`${base}/start`);
      const cookie = start.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      expect(await sessionRows(app, u.me.id)).to.have.length(2);
      await fetch(`${base}/touch`, { headers: { cookie } });
      expect(await sessionRows(app, u.me.id)).to.have.length(0);
    } finally {
      server.close();
    }
  });

  it('makes nothing for a request without the session cookie until the session is used (issue 18)', async () => {
    // koa-session's own behaviour, reached lazily: untouched or read-only sessions set no cookie and
    // write no row; a session given data is stored and its cookie set; clearing it clears the cookie.
    const u = await app.user();
    const koa = new Koa();
    koa.keys = ['lazy-test-key-0123456789'];
    koa.silent = true;
    koa.use(sessionMiddleware(koa, app.knex));
    koa.use(async (ctx) => {
      if (ctx.path === '/read') ctx.body = { userId: ctx.session?.userId ?? null, isNew: ctx.session?.isNew ?? null };
      else if (ctx.path === '/start') {
        ctx.session!.userId = u.me.id;
        ctx.body = 'ok';
      } else if (ctx.path === '/end') {
        ctx.session = null;
        ctx.body = 'ok';
      } else if (ctx.path === '/fail') {
        ctx.session!.userId = u.me.id;
        throw new Error('after the session was given data');
      } else ctx.body = 'ok';
    });
    const server = http.createServer(koa.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as any).port}`;
      const untouched = await fetch(`${base}/nothing`);
      expect(untouched.headers.getSetCookie()).to.deep.equal([]);
      const read = await fetch(`${base}/read`, { headers: { cookie: 'other=1' } });
      expect(await read.json()).to.deep.equal({ userId: null, isNew: true });
      expect(read.headers.getSetCookie()).to.deep.equal([]);
      // an error after the session got data: committed all the same, as koa-session does
      expect((await fetch(`${base}/fail`)).status).to.equal(500);
      expect(await sessionRows(app, u.me.id)).to.have.length(2);
      const start = await fetch(`${base}/start`);
      const cookie = start.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      expect(cookie).to.match(/curio\.sid=[^;]+; curio\.sid\.sig=/);
      expect(await sessionRows(app, u.me.id)).to.have.length(3);
      const again = await fetch(`${base}/read`, { headers: { cookie } });
      expect(await again.json()).to.deep.equal({ userId: u.me.id, isNew: false });
      const end = await fetch(`${base}/end`);
      expect(end.headers.getSetCookie().some((c) => /^curio\.sid=;/.test(c))).to.equal(true);
    } finally {
      server.close();
    }
  });

  it("ends a deleted user's session at once", async () => {
    const u = await app.user();
    await app.knex('users').where({ id: u.me.id }).del();
    expect((await u.get('/api/auth/user')).status).to.equal(401);
  });

  it('ends the session of a user refused by a login guard (ban) and refuses sign-in', async () => {
    const u = await app.user();
    const accounts = app.services.get(AccountsService);
    const banned = u.me.id;
    accounts.addLoginGuard(async (user) => (user.id === banned ? 'Your account is suspended' : null));
    expect((await u.get('/api/auth/user')).status).to.equal(401);
    const again = await app.client().post('/api/auth/login', { email: u.me.email, password: u.me.password });
    expect(again.status).to.equal(403);
    expect(again.body.message).to.equal('Your account is suspended');
  });

  it('records the user agent and IP of each session', async () => {
    const u = await app.user();
    await signIn(app, u.me.email, u.me.password, false, `Agent-${uniqueName()}`);
    const rows = await sessionRows(app, u.me.id);
    expect(rows[1].user_agent).to.match(/^Agent-/);
    expect(rows[1].ip).to.match(/127\.0\.0\.1/);
  });
});

describe('accounts: the session on a route that writes its own answer', () => {
  let app: TestApp;
  const logged: any[] = [];
  before(async () => {
    // this app's log is read back: an error logged while the stream opened is the defect
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    app = await startTestApp({}, { logger });
  });
  after(async () => {
    await app?.close();
  });

  it('a live-updates stream opened when the session is due its once-a-minute touch: no error, and the next request slides it', async () => {
    const u = await app.user();
    const [row] = await sessionRows(app, u.me.id);
    const lastSeen = new Date(Date.now() - 2 * 3600_000);
    await app.knex('user_sessions').where({ id: row.id }).update({ expires_at: new Date(Date.now() + 3600_000), last_activity: lastSeen });
    const s = await openSse(u);
    try {
      expect(s.status).to.equal(200);
      await waitFor(async () => s.comments.includes('connected'));
      // the request's own log line comes after koa-session's commit
      await waitFor(async () => logged.some((l) => l.msg === 'request' && l.url === '/api/stream'));
      expect(
        logged.filter((l) => l.level >= 50).map((l) => l.err?.message ?? l.msg),
        'errors logged',
      ).to.deep.equal([]);
      // the stream still carries events
      await app.live.publishTo([u.me.id], 'probe.after-touch', { n: 1 });
      await s.next((e) => e.event === 'probe.after-touch');
    } finally {
      s.close();
    }
    // the touch the stream could not send a cookie for is made by the next ordinary request
    expect((await u.get('/api/auth/user')).status).to.equal(200);
    const after = await app.knex('user_sessions').where({ id: row.id }).first();
    expect(Date.now() - new Date(after.last_activity).getTime()).to.be.below(60_000);
    expect(new Date(after.expires_at).getTime() - Date.now()).to.be.within(7 * DAY - 60_000, 7 * DAY + 60_000);
  });
});
