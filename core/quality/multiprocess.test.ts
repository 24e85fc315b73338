/**
 * More than one process (issue 10): two app processes (core/bin/start.ts) on different ports
 * against one PostgreSQL database, started at the same time (so their migrations race too):
 * a session made on one works on the other, logout-all on one ends sessions on both, login
 * throttling counts failures made on both, concurrent attempts spread over both check at most the
 * limits' number of passwords (sign-in) and create or refuse at most the limits' number of
 * sign-ups, report throttling and the one-open-report rule hold across both, and background jobs
 * enqueued once run exactly once with both workers polling.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createRunDatabase, sameSessionOn, signUp, startChild, type Child } from './fixtures/child.ts';

// accounts' defaults: 10 failures per account and address, 50 per account; sign-up limits per address
const FAILURES_PER_ACCOUNT_AND_IP = 10;
const FAILURES_PER_ACCOUNT = 50;
const SIGNUPS_PER_IP = 30;
const REFUSALS_PER_IP = 20;

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

let ipCounter = 0;
const nextIp = () => {
  ipCounter++;
  return `10.${(process.pid + Math.floor(ipCounter / 250)) % 250}.${ipCounter % 250}.${(Date.now() % 200) + 1}`;
};

describe('quality: two app processes on one PostgreSQL', function () {
  this.timeout(600_000);
  let a: Child | null = null;
  let b: Child | null = null;
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  let knex: Knex;
  const dirs: string[] = [];
  const startFailures: string[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) {
      this.skip(); // reported by the test below
      return;
    }
    db = await createRunDatabase('multi');
    knex = db.knex;
    const env = {
      // every send to everyone goes through the job queue, in small batches (long enough to overlap)
      CURIO__plugins__config__notifications__syncLimit: '0',
      CURIO__plugins__config__notifications__batchSize: '2',
      // clients choose their address through X-Forwarded-For (one trusted hop) for the throttle
      // cases; the limits on sign-ups are the defaults' (the test configuration lifts them)
      TRUST_PROXY: '1',
      CURIO__plugins__config__accounts__signupThrottle__perIpPerHour: String(SIGNUPS_PER_IP),
      CURIO__plugins__config__accounts__signupThrottle__failuresPerIpPerHour: String(REFUSALS_PER_IP),
      CURIO__plugins__config__reports__perWindow: '4',
    };
    const dir = () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-multi-'));
      dirs.push(d);
      return d;
    };
    // both at once: the second must wait for the first one's migrations, not fail
    const dirA = dir();
    const dirB = dir();
    const [ra, rb] = await Promise.allSettled([startChild({ databaseUrl: db.url, dataDir: dirA, env }), startChild({ databaseUrl: db.url, dataDir: dirB, env })]);
    for (const r of [ra, rb]) if (r.status === 'rejected') startFailures.push(String(r.reason?.message ?? r.reason).split('\n').slice(0, 2).join(' '));
    // if one failed, start it again so that the other cases still run (the failure is reported below)
    a = ra.status === 'fulfilled' ? ra.value : await startChild({ databaseUrl: db.url, dataDir: dirA, env });
    b = rb.status === 'fulfilled' ? rb.value : await startChild({ databaseUrl: db.url, dataDir: dirB, env });
    expect(a.url).to.not.equal(b.url);
  });

  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs only with PostgreSQL', function () {
    if (!process.env.DATABASE_URL) {
      this.test!.title += ' — skipped: DATABASE_URL is not set (two processes cannot share the embedded database)';
      this.skip();
    }
  });

  it('two processes started at the same time on a fresh database both come up (migrations wait for each other)', () => {
    expect(startFailures).to.deep.equal([]);
  });

  it('a session made on one process works on the other', async () => {
    const onA = await signUp(a!, 'mpa');
    const onB = sameSessionOn(b!, onA);
    const r = await onB.get('/api/auth/user');
    expect(r.status, r.text).to.equal(200);
    expect(r.body.id).to.equal(onA.me.id);
    // and writes through B are the same user's
    const p = await onB.post('/api/posts', { type: 'text', content: 'written through B' });
    expect(p.status).to.equal(201);
    expect(p.body.user.id).to.equal(onA.me.id);
    expect((await onA.get(`/api/posts/${p.body.id}`)).status).to.equal(200);
  });

  it('logout-all on one process ends the other sessions on both', async () => {
    const u = await signUp(a!, 'mpl');
    const s2 = b!.client();
    expect((await s2.post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(200);
    const s3 = a!.client();
    expect((await s3.post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(200);
    const s2onA = sameSessionOn(a!, s2);
    expect((await s2onA.get('/api/auth/user')).status).to.equal(200);
    const r = await u.post('/api/auth/logout-all-sessions');
    expect(r.status).to.equal(200);
    expect(r.body.deletedCount).to.equal(2);
    for (const [label, c] of [['B', s2], ['A', s3], ['B session on A', s2onA], ['A session on B', sameSessionOn(b!, s3)]] as const) {
      expect((await c.get('/api/auth/user')).status, label).to.equal(401);
    }
    expect((await u.get('/api/auth/user')).status).to.equal(200);
    expect((await sameSessionOn(b!, u).get('/api/auth/user')).status).to.equal(200);
  });

  it('login throttling counts the failures made on both processes', async () => {
    const u = await signUp(a!, 'mpt');
    // 10 failures for one account from one address block it (accounts' default); alternate processes
    for (let i = 0; i < 10; i++) {
      const target = i % 2 === 0 ? a! : b!;
      const r = await target.client().post('/api/auth/login', { email: u.me.email, password: `wrong-password-${i}` });
      expect(r.status, `attempt ${i + 1} on ${i % 2 === 0 ? 'A' : 'B'}`).to.equal(401);
    }
    for (const [label, target] of [['A', a!], ['B', b!]] as const) {
      const r = await target.client().post('/api/auth/login', { email: u.me.email, password: u.me.password });
      expect(r.status, `the right password on ${label} after 10 failures on both`).to.equal(429);
      expect(Number(r.headers.get('retry-after'))).to.be.above(0);
    }
  });

  it('120 concurrent wrong passwords for one account from one address, on both processes: at most the limit are checked, the rest 429, then the right password is refused on both', async () => {
    const u = await signUp(a!, 'mpc');
    const addr = nextIp();
    const login = (target: Child, password: string) => target.client().post('/api/auth/login', { email: u.me.email, password }, { 'x-forwarded-for': addr });
    const rs = await Promise.all(Array.from({ length: 120 }, (_, i) => login(i % 2 ? b! : a!, `wrong-password-${i}`)));
    const t = tally(rs.map((r) => r.status));
    expect((t[401] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(120);
    expect(t[401] ?? 0, `passwords checked (${JSON.stringify(t)})`).to.be.within(1, FAILURES_PER_ACCOUNT_AND_IP);
    for (const [label, target] of [['A', a!], ['B', b!]] as const) {
      const r = await login(target, u.me.password);
      expect(r.status, `the right password on ${label} after the limit`).to.equal(429);
    }
  });

  it('200 concurrent wrong passwords for one account from 200 addresses, on both processes: at most the per-account limit are checked', async () => {
    const u = await signUp(b!, 'mpd');
    const login = (target: Child, password: string, addr = nextIp()) => target.client().post('/api/auth/login', { email: u.me.email, password }, { 'x-forwarded-for': addr });
    const rs = await Promise.all(Array.from({ length: 200 }, (_, i) => login(i % 2 ? b! : a!, `wrong-password-${i}`)));
    const t = tally(rs.map((r) => r.status));
    expect((t[401] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(200);
    expect(t[401] ?? 0, `passwords checked (${JSON.stringify(t)})`).to.be.within(1, FAILURES_PER_ACCOUNT);
    for (const [label, target] of [['A', a!], ['B', b!]] as const) {
      expect((await login(target, u.me.password)).status, `the right password from a new device on ${label} after the limit`).to.equal(429);
    }
  });

  it('100 concurrent sign-ups from one address, on both processes: at most the hourly limit of accounts', async () => {
    const addr = nextIp();
    const prefix = `mpf${Math.random().toString(36).slice(2, 8)}`;
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? b! : a!).client().post('/api/auth/register', { email: `${prefix}x${i}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'S', lastName: 'F', username: `${prefix}x${i}` }, { 'x-forwarded-for': addr }),
      ),
    );
    const t = tally(rs.map((r) => r.status));
    expect((t[201] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(100);
    expect(t[201] ?? 0, `accounts created (${JSON.stringify(t)})`).to.be.within(1, SIGNUPS_PER_IP);
    const [{ c }] = await knex('users').where('username', 'like', `${prefix}x%`).count({ c: '*' });
    expect(Number(c), 'accounts in the database').to.equal(t[201]);
  });

  it('40 concurrent sign-ups with a taken email from one address, on both processes: at most the refusals limit are told', async () => {
    const u = await signUp(a!, 'mpe');
    const addr = nextIp();
    const rs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? b! : a!).client().post('/api/auth/register', { email: u.me.email, password: 'A-sturdy-passphrase-77', firstName: 'E', lastName: 'N', username: `mpe${Math.random().toString(36).slice(2, 10)}${i}` }, { 'x-forwarded-for': addr }),
      ),
    );
    const t = tally(rs.map((r) => r.status));
    expect((t[409] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(40);
    expect(t[409] ?? 0, `refusals told (${JSON.stringify(t)})`).to.be.within(1, REFUSALS_PER_IP);
  });

  it('reports: the per-member throttle and the one-open-report rule count requests made on both processes', async () => {
    const onA = await signUp(a!, 'mprep');
    const onB = sameSessionOn(b!, onA);
    const targets = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => signUp(i % 2 ? a! : b!, 'mptgt')));
    const sent = await Promise.all(targets.map((t, i) => (i % 2 ? onA : onB).post('/api/reports', { targetType: 'user', targetId: t.me.id, category: 'spam' })));
    expect(sent.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 201, 429, 429]);
    const other = await signUp(b!, 'mprep2');
    const otherOnA = sameSessionOn(a!, other);
    const twice = await Promise.all([other, otherOnA, other, otherOnA].map((c) => c.post('/api/reports', { targetType: 'user', targetId: targets[0].me.id, category: 'other' })));
    expect(twice.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409]);
  });

  it('background jobs enqueued once run exactly once, with both workers polling', async () => {
    const admin = await signUp(a!, 'mpadm');
    await knex('users').where({ id: admin.me.id }).update({ role: 'Admin' }); // as `npm run user:create --role Admin`
    const members = await Promise.all(Array.from({ length: 5 }, (_, i) => signUp(i % 2 ? a! : b!, `mpm${i}`)));
    expect(members.length).to.equal(5);
    const recipients = Number((await knex('users').count({ n: '*' }))[0].n);
    const sends = 8;
    const adminOnB = sameSessionOn(b!, admin);
    const started = new Date();
    for (let i = 0; i < sends; i++) {
      const r = await (i % 2 ? adminOnB : admin).post('/api/admin/send-notification', { title: `Job test ${i}`, message: 'Once each' });
      expect(r.status, r.text).to.equal(200);
    }
    const jobs = () => knex('core_jobs').where('name', 'notifications.fanout').where('created_at', '>=', started).select('id', 'status', 'attempts', 'locked_by', 'payload');
    const end = Date.now() + 60_000;
    let rows = await jobs();
    while (rows.some((j: any) => j.status !== 'done') && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await jobs();
    }
    expect(rows.length, 'one job per send').to.equal(sends);
    for (const j of rows) {
      expect(j.status, `job ${j.id}`).to.equal('done');
      expect(j.attempts, `job ${j.id} ran once`).to.equal(1);
    }
    const workers = new Set(rows.map((j: any) => j.locked_by));
    console.log(`      ${sends} jobs ran on ${workers.size} worker(s): ${[...workers].join(', ')}`);
    // each send reached each member exactly once (a second run would duplicate or double-count)
    const sendIds = rows.map((j: any) => Number((typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload).sendId));
    for (const id of sendIds) {
      const [{ n, d }] = await knex('notifications').where({ send_id: id }).select(knex.raw('count(*)::int as n'), knex.raw('count(distinct user_id)::int as d'));
      expect(n, `send ${id}: notifications`).to.equal(d);
      expect(n, `send ${id}: every member once`).to.equal(recipients);
    }
  });
});
