/**
 * The session cache across processes (issue 18): each app process keeps the sessions it read in the
 * last few seconds (plugins/accounts/server/session-cache.ts; here for a minute, so that nothing
 * but the signal can end them in time), and a logout, a ban, a role change, a password change or
 * a deletion made through one process — or written in the database by a script — is seen by the
 * other at its very next request. Two real app processes (core/bin/start.ts) on one PostgreSQL
 * database, as in multiprocess.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createRunDatabase, sameSessionOn, signUp, startChild, type Child } from './fixtures/child.ts';

const SIGNAL_WAIT_MS = 2000;
const delays: number[] = [];

/** B's answer once it reflects the change: polled until `ok`, at most SIGNAL_WAIT_MS. */
async function seen<T extends { status: number; body: any }>(ask: () => Promise<T>, ok: (r: T) => boolean): Promise<T> {
  const start = Date.now();
  for (;;) {
    const r = await ask();
    if (ok(r) || Date.now() - start > SIGNAL_WAIT_MS) {
      delays.push(Date.now() - start);
      return r;
    }
  }
}

describe('quality: the session cache, two app processes on one PostgreSQL', function () {
  this.timeout(300_000);
  let a: Child | null = null;
  let b: Child | null = null;
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  let knex: Knex;
  const dirs: string[] = [];
  let admin: Awaited<ReturnType<typeof signUp>>;

  before(async function () {
    if (!process.env.DATABASE_URL) {
      this.skip();
      return;
    }
    db = await createRunDatabase('sesscache');
    knex = db.knex;
    const env = { CURIO__plugins__config__accounts__sessionCache__ttlMs: '60000' };
    const dir = () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-sesscache-'));
      dirs.push(d);
      return d;
    };
    a = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
    b = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
    admin = await signUp(a, 'scadm');
    await knex('users').where({ id: admin.me.id }).update({ role: 'Admin' }); // as `npm run user:create --role Admin`
  });

  after(async () => {
    if (delays.length) console.log(`      the other process answered the change after ${delays.map((d) => `${d} ms`).join(', ')}`);
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** a member signed in on A, the same session read (and so cached) on B */
  async function memberOnBoth(prefix: string) {
    const onA = await signUp(a!, prefix);
    const onB = sameSessionOn(b!, onA);
    for (let i = 0; i < 2; i++) expect((await onB.get('/api/auth/user')).status).to.equal(200);
    return { onA, onB };
  }

  it('B keeps a session it read: without the signal (triggers silenced) a session deleted in the database still answers there', async () => {
    const { onA, onB } = await memberOnBoth('scsil');
    // a deletion that tells nobody: what the cache would keep serving without the signals
    await knex.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx('user_sessions').where({ user_id: (onA as any).me.id }).del();
    });
    expect((await onB.get('/api/auth/user')).status, 'served from B’s cache').to.equal(200);
    // any change the triggers see tells B: here the member's slug
    await knex('users').where({ id: (onA as any).me.id }).update({ slug: `${(onA as any).me.username}-x`.toLowerCase() });
    expect((await seen(() => onB.get('/api/auth/user'), (r) => r.status === 401)).status, 'told by the users trigger').to.equal(401);
  });

  it('a logout on A ends the session on B as soon as the signal arrives', async () => {
    const { onA, onB } = await memberOnBoth('sclog');
    expect((await onA.post('/api/logout')).status).to.be.oneOf([200, 204]);
    expect((await seen(() => onB.get('/api/auth/user'), (r) => r.status === 401)).status).to.equal(401);
  });

  it('a role change by an admin on A is seen on B as soon as the signal arrives', async () => {
    const { onA, onB } = await memberOnBoth('scrole');
    expect((await onB.get('/api/auth/user')).body.role).to.equal('Traveler');
    const r = await admin.post('/api/admin/change-user-role', { userId: (onA as any).me.id, role: 'Ambassador' });
    expect(r.status, r.text).to.equal(200);
    expect((await seen(() => onB.get('/api/auth/user'), (r) => r.body?.role === 'Ambassador')).body.role).to.equal('Ambassador');
  });

  it('a role written in the database by a script is seen on both as soon as the signal arrives', async () => {
    const { onA, onB } = await memberOnBoth('scsql');
    expect((await onA.get('/api/auth/user')).body.role).to.equal('Traveler');
    await knex('users').where({ id: (onA as any).me.id }).update({ role: 'Museum Manager' });
    expect((await seen(() => onB.get('/api/auth/user'), (r) => r.body?.role === 'Museum Manager')).body.role).to.equal('Museum Manager');
    expect((await seen(() => onA.get('/api/auth/user'), (r) => r.body?.role === 'Museum Manager')).body.role).to.equal('Museum Manager');
  });

  it('a ban given on A ends the session on B as soon as the signal arrives, and so does a restriction', async () => {
    const banned = await memberOnBoth('scban');
    const r = await admin.post('/api/admin/moderate-user', { userId: (banned.onA as any).me.id, type: 'permanent_ban', reason: 'cache test' });
    expect(r.status, r.text).to.equal(201);
    expect((await seen(() => banned.onB.get('/api/auth/user'), (r) => r.status === 401)).status).to.equal(401);

    const restricted = await memberOnBoth('scres');
    expect((await restricted.onB.post('/api/posts', { type: 'text', content: 'before the restriction' })).status).to.equal(201);
    const m = await admin.post('/api/admin/moderate-user', { userId: (restricted.onA as any).me.id, type: 'content_restriction', reason: 'cache test' });
    expect(m.status, m.text).to.equal(201);
    expect((await seen(() => restricted.onB.post('/api/posts', { type: 'text', content: 'after the restriction' }), (r) => r.status === 403)).status).to.equal(403);
  });

  it('a password change on A ends the member’s other sessions on B as soon as the signal arrives', async () => {
    const { onA } = await memberOnBoth('scpwd');
    const other = b!.client();
    expect((await other.post('/api/auth/login', { email: (onA as any).me.email, password: (onA as any).me.password })).status).to.equal(200);
    for (let i = 0; i < 2; i++) expect((await other.get('/api/auth/user')).status).to.equal(200);
    const r = await onA.put('/api/user/password', { currentPassword: (onA as any).me.password, newPassword: 'Another-sturdy-passphrase-88' });
    expect(r.status, r.text).to.equal(200);
    expect((await seen(() => other.get('/api/auth/user'), (r) => r.status === 401)).status).to.equal(401);
    expect((await onA.get('/api/auth/user')).status).to.equal(200);
  });

  it('a member deleted by an admin on A is signed out on B as soon as the signal arrives', async () => {
    const { onA, onB } = await memberOnBoth('scdel');
    const r = await admin.del('/api/admin/delete-user', { userId: (onA as any).me.id, reason: 'cache test' });
    expect(r.status, r.text).to.equal(200);
    expect((await seen(() => onB.get('/api/auth/user'), (x) => x.status === 401)).status).to.equal(401);
  });
});
