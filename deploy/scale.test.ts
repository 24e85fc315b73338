/**
 * npm run test:scale: Curio as three app processes (core/bin/start.ts) on one PostgreSQL with
 * uploads in an S3-compatible bucket (s3rver), behind a real nginx with the configuration of
 * deploy/nginx.ts, all on loopback ports started here. Sign-up through the balancer, a photo
 * uploaded through one process and read through another, a job run exactly once, a live-update
 * message published on each process reaching a stream opened through nginx; then a SIGTERM
 * under a 50-connection load (no failed request) and a SIGKILL under writes (only requests in
 * flight fail; every acknowledged write is there).
 *
 * Needs PostgreSQL (DATABASE_URL) and nginx (/usr/sbin/nginx); says so and skips otherwise.
 */
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import sharp from 'sharp';
import { createRequire } from 'node:module';
import { RUN_ID, TestClient, waitFor } from '../core/testing/index.ts';
import { startTestS3, type TestS3 } from '../core/testing/s3.ts';
import { createRunDatabase, startChild, sameSessionOn, type Child } from '../core/quality/fixtures/child.ts';
import { openSse } from '../core/testing/sse.ts';
import { nginxConfig, UPSTREAM_KEEPALIVE_SECONDS } from './nginx.ts';

// autocannon ships no types; loaded through require
const autocannon: any = createRequire(import.meta.url)('autocannon');
const NGINX = '/usr/sbin/nginx';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

describe('scale: three processes behind nginx, one PostgreSQL, S3 storage', function () {
  this.timeout(600_000);
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  let s3: TestS3 | null = null;
  let nginx: ChildProcess | null = null;
  let nginxOut = '';
  const children: Child[] = [];
  const dir = path.join(os.tmpdir(), `curio-scale-${RUN_ID}-${process.pid}`);
  let lb = '';

  before(async function () {
    if (!process.env.DATABASE_URL) {
      console.log('    scale test skipped: it needs PostgreSQL (set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres)');
      this.skip();
    }
    if (!fs.existsSync(NGINX)) {
      console.log(`    scale test skipped: it needs nginx at ${NGINX} (apt-get install nginx-light)`);
      this.skip();
    }
    fs.mkdirSync(dir, { recursive: true });
    db = await createRunDatabase('scale');
    s3 = await startTestS3();
    const env = {
      ...s3.env(),
      SESSION_KEYS: `scale-${crypto.randomBytes(12).toString('hex')}`,
      TRUST_PROXY: '1',
      // longer than nginx's upstream keepalive_timeout: by the time the victim stops accepting and
      // closes its idle sockets, nginx holds none (see deploy/nginx.ts)
      DRAIN_DELAY_MS: String(UPSTREAM_KEEPALIVE_SECONDS * 1000 + 1000),
      DRAIN_TIMEOUT_MS: '20000',
      LOG_LEVEL: 'error',
      // PostgreSQL on a shared test machine allows 100 connections for every suite running: when
      // they are all taken it refuses new ones ("too many clients") and requests fail with 500,
      // as happened here twice. Three processes of 5 (+1 LISTEN each) leave room for the others.
      DB_POOL_MAX: '5',
    };
    // one after the other: the first applies the migrations
    children.push(await startChild({ databaseUrl: db.url, dataDir: path.join(dir, 'p0'), env }));
    children.push(...(await Promise.all([1, 2].map((i) => startChild({ databaseUrl: db!.url, dataDir: path.join(dir, `p${i}`), env })))));
    const port = await freePort();
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      nginxConfig({
        listen: `127.0.0.1:${port}`,
        upstreams: children.map((c) => new URL(c.url).host),
        cacheDir: path.join(dir, 'nginx-cache'),
        standalone: { prefix: dir, user: process.getuid?.() === 0 ? 'root' : undefined },
      }),
    );
    nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stdout!.on('data', (d) => (nginxOut += d));
    nginx.stderr!.on('data', (d) => (nginxOut += d));
    lb = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${lb}/api/health`).then((r) => r.ok).catch(() => false)) || (nginx!.exitCode !== null ? Promise.reject(new Error(`nginx exited: ${nginxOut}`)) : false), { timeout: 15_000, interval: 100 });
  });

  after(async () => {
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await new Promise((r) => nginx!.once('exit', r));
    }
    for (const c of children) await c.kill('SIGKILL');
    await s3?.close();
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('signs up through the balancer, uploads through one process, reads through another, runs a job once', async () => {
    const c = new TestClient(lb);
    const username = `scale${Math.random().toString(36).slice(2, 9)}`;
    const r = await c.post('/api/auth/register', { email: `${username}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'Scale', lastName: 'Test', username }, { 'x-forwarded-for': '203.0.113.9' });
    expect(r.status, r.text).to.equal(201);
    // the session works on every process (same SESSION_KEYS, sessions in PostgreSQL)
    for (const child of children) expect((await sameSessionOn(child, c).get('/api/auth/user')).status, child.url).to.equal(200);

    const photo = await sharp({ create: { width: 500, height: 400, channels: 3, background: { r: 90, g: 30, b: 160 } } }).jpeg().toBuffer();
    const up = await sameSessionOn(children[0], c).upload('/api/user/profile-image', [{ field: 'image', name: 'me.jpg', type: 'image/jpeg', data: photo }]);
    expect(up.status, up.text).to.equal(200);
    const url: string = up.body.profileImageUrl;
    const viaOther = await fetch(children[1].url + url);
    expect(viaOther.status).to.equal(200);
    expect(viaOther.headers.get('content-type')).to.equal('image/jpeg');
    const viaThird = Buffer.from(await (await fetch(children[2].url + url)).arrayBuffer());
    const viaLb = Buffer.from(await (await fetch(lb + url)).arrayBuffer());
    expect(viaThird.equals(viaLb)).to.equal(true);
    expect((await sharp(viaLb).metadata()).width).to.equal(400);

    // a queued job is claimed by exactly one of the three processes and runs once
    const [job] = await db!.knex('core_jobs').insert({ name: 'core.storage-sweep', payload: JSON.stringify({}), status: 'queued', run_at: db!.knex.fn.now() }).returning('*');
    const done = await waitFor(async () => {
      const row = await db!.knex('core_jobs').where({ id: job.id }).first();
      return row.status === 'done' ? row : null;
    }, { timeout: 30_000, interval: 200 });
    expect(done.attempts, 'claimed once').to.equal(1);
    expect(done.locked_by).to.be.a('string');
  });

  it('an SSE message crosses processes: a stream opened through nginx gets what every process publishes', async () => {
    const signUpLb = async (prefix: string) => {
      const c = new TestClient(lb);
      const username = `${prefix}${Math.random().toString(36).slice(2, 9)}`;
      const r = await c.post('/api/auth/register', { email: `${username}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'Live', lastName: prefix, username }, { 'x-forwarded-for': '203.0.113.20' });
      expect(r.status, `${r.text}\n${children.map((ch) => ch.output().slice(-3000)).join('\n----\n')}`).to.equal(201);
      return Object.assign(c, { id: r.body.id as number });
    };
    const bob = await signUpLb('ssebob');
    // the stream goes through the balancer, to whichever process nginx picks (not buffered)
    const s = await openSse(bob);
    try {
      expect(s.status).to.equal(200);
      // one message sent through each process directly: at least two of them are not the
      // process holding the stream, so they cross through LISTEN/NOTIFY
      for (const [i, child] of children.entries()) {
        const sender = await signUpLb(`ssesend${i}`);
        const r = await sameSessionOn(child, sender).post('/api/conversations', { participantIds: [bob.id], message: { text: `through process ${i}` } });
        expect(r.status, r.text).to.equal(201);
        const e = await s.next((x) => x.event === 'message.created' && x.data?.senderId === sender.id, 5000);
        expect(e.data.conversationId, `message through process ${i}`).to.equal(r.body.id);
      }
    } finally {
      s.close();
    }
  });

  it('SIGTERM to one process under a 50-connection load of reads and 10 of writes: no failed request', async () => {
    const victim = children[1];
    const exit = new Promise<number | null>((r) => victim.proc.once('exit', (code) => r(code)));
    // autocannon writes its next request on a connection even after an answer with
    // `Connection: close` (RFC 9112 9.6 says a client must not), so when nginx ends a client
    // connection after keepalive_requests the request it raced in is reset: the "2 errors in
    // ~65,000" seen before, when connections crossed nginx's default 1,000 requests. Browsers
    // honour the header; the load here reconnects by itself, well before that limit.
    const load = autocannon({ url: `${lb}/api/config`, connections: 50, duration: 12, reconnectRate: 500 });
    // and writes: a POST nginx has sent is never retried, so none may meet a closing socket
    const writer = new TestClient(lb);
    const wname = `drainw${Math.random().toString(36).slice(2, 9)}`;
    const reg = await writer.post('/api/auth/register', { email: `${wname}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'Drain', lastName: 'Writer', username: wname }, { 'x-forwarded-for': '203.0.113.30' });
    expect(reg.status, reg.text).to.equal(201);
    const writes = autocannon({
      url: `${lb}/api/notifications/read-all`,
      method: 'POST',
      headers: { cookie: writer.cookieHeader(), 'content-type': 'application/json' },
      body: '{}',
      connections: 10,
      duration: 12,
      reconnectRate: 500,
    });
    const errs: string[] = [];
    const started = Date.now();
    for (const [name, l] of [['GET', load], ['POST', writes]] as const) l.on('reqError', (e: any) => errs.push(`${name} ${Date.now() - started}ms ${e?.code ?? ''} ${e?.message ?? e}`));
    setTimeout(() => victim.proc.kill('SIGTERM'), 2000);
    const [result, posted] = await Promise.all([load, writes]);
    if (errs.length) console.log(`      errors (ms after start; SIGTERM at 2000):\n        ${errs.join('\n        ')}\n      nginx error.log:\n${fs.readFileSync(path.join(dir, 'error.log'), 'utf8').split('\n').filter((l) => !/upstream server temporarily disabled|client closed keepalive|keepalive connection closed|client \d+\.\d+\.\d+\.\d+ closed/.test(l)).join('\n').slice(-6000)}`);
    expect(await exit, victim.output().slice(-2000)).to.equal(0);
    console.log(`      GET ${result.requests.total} requests, ${Math.round(result.requests.average)}/s; non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
    console.log(`      POST ${posted.requests.total} requests, ${Math.round(posted.requests.average)}/s; non-2xx ${posted.non2xx}, errors ${posted.errors}, timeouts ${posted.timeouts}; statuses ${JSON.stringify(posted.statusCodeStats)}`);
    if (posted.non2xx) console.log(`      nginx access log, non-2xx POSTs:\n${fs.readFileSync(path.join(dir, 'access.log'), 'utf8').split('\n').filter((l) => /"POST [^"]*" (?!2)\d{3}/.test(l)).slice(0, 20).join('\n')}`);
    expect(result.requests.total).to.be.greaterThan(200);
    expect(posted.requests.total).to.be.greaterThan(20);
    // nginx never met a socket the victim closed under it (it would retry a GET, not a POST)
    const broken = fs.readFileSync(path.join(dir, 'error.log'), 'utf8').split('\n').filter((l) => /recv\(\) failed|prematurely closed|reset by peer|timed out/.test(l));
    expect(broken, 'upstream sockets closed under nginx').to.deep.equal([]);
    expect(result.errors, 'connection errors').to.equal(0);
    expect(result.timeouts, 'timeouts').to.equal(0);
    expect(result.non2xx, 'answers other than 2xx').to.equal(0);
    expect(posted.errors, 'POST: connection errors').to.equal(0);
    expect(posted.non2xx, 'POST: answers other than 2xx').to.equal(0);
    children.splice(1, 1);
  });

  it('SIGKILL to one process under writes: only requests in flight fail, every acknowledged write is there', async () => {
    const writers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const c = new TestClient(lb);
        const username = `kill${i}${Math.random().toString(36).slice(2, 8)}`;
        const r = await c.post('/api/auth/register', { email: `${username}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'K', lastName: 'W', username }, { 'x-forwarded-for': `198.51.100.${i + 1}` });
        expect(r.status, r.text).to.equal(201);
        return c;
      }),
    );
    const acked: { id: number; content: string }[] = [];
    let failed = 0;
    let stop = false;
    let seq = 0;
    const loops = writers.map(async (c, w) => {
      while (!stop) {
        const content = `scale-${w}-${seq++}-${Math.random().toString(36).slice(2, 8)}`;
        try {
          const r = await c.post('/api/posts', { type: 'text', content });
          if (r.status >= 200 && r.status < 300) acked.push({ id: r.body.id, content });
          else failed++;
        } catch {
          failed++;
        }
      }
    });
    await waitFor(async () => acked.length >= 60, { timeout: 30_000, interval: 20 });
    await children[1].kill('SIGKILL');
    const atKill = acked.length;
    await waitFor(async () => acked.length >= atKill + 60, { timeout: 30_000, interval: 20 });
    stop = true;
    await Promise.all(loops);
    console.log(`      ${acked.length} writes acknowledged, ${failed} failed (in flight on the killed process)`);
    expect(failed, 'at most the requests in flight (one per writer)').to.be.at.most(writers.length);
    const rows = await db!.knex('insights_posts').whereIn('id', acked.map((a) => a.id)).select('id', 'content');
    const byId = new Map(rows.map((r: any) => [r.id, r.content]));
    expect(acked.filter((a) => byId.get(a.id) !== a.content), 'acknowledged writes missing').to.deep.equal([]);
  });
});
