/**
 * npm run test:scale: Curio as three app processes (core/bin/start.ts) on one PostgreSQL with
 * uploads in an S3-compatible bucket (s3rver), behind a real nginx with the configuration of
 * deploy/nginx.ts, all on loopback ports started here. Sign-up through the balancer, a photo
 * uploaded through one process and read through another, a job run exactly once; then a SIGTERM
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
import { nginxConfig } from './nginx.ts';

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
      DRAIN_DELAY_MS: '500',
      DRAIN_TIMEOUT_MS: '20000',
      LOG_LEVEL: 'error',
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

  it('SIGTERM to one process under a 50-connection load: no failed request', async () => {
    const victim = children[1];
    const exit = new Promise<number | null>((r) => victim.proc.once('exit', (code) => r(code)));
    const load = autocannon({ url: `${lb}/api/config`, connections: 50, duration: 8 });
    setTimeout(() => victim.proc.kill('SIGTERM'), 2000);
    const result = await load;
    expect(await exit, victim.output().slice(-2000)).to.equal(0);
    console.log(`      ${result.requests.total} requests, ${Math.round(result.requests.average)}/s; non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
    expect(result.requests.total).to.be.greaterThan(200);
    expect(result.errors, 'connection errors').to.equal(0);
    expect(result.timeouts, 'timeouts').to.equal(0);
    expect(result.non2xx, 'answers other than 2xx').to.equal(0);
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
