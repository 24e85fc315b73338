/**
 * Graceful rollouts: SIGTERM to a real app process (core/bin/start.ts) during a slow upload: the
 * health check answers 503 draining, the upload completes with 2xx, new connections are then
 * refused and the process exits 0. Jobs still running when the drain time is up go back to the
 * queue; event streams are ended with a retry hint.
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { RUN_ID, startTestApp, waitFor } from '../testing/index.ts';
import { Drain } from '../drain.ts';
import { createRunDatabase, signUp, startChild, type Child } from './fixtures/child.ts';

/** A multipart avatar upload sent in `pieces` over about `ms` milliseconds, on its own connection. */
function slowUpload(child: Child, cookie: string, data: Buffer, opts: { pieces: number; ms: number; onFirstPiece: () => void }): Promise<{ status: number; text: string }> {
  const boundary = `----slow${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, data, tail]);
  const u = new URL(child.url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: '/api/user/profile-image', method: 'POST', agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, cookie, origin: child.url },
    }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    const size = Math.ceil(body.length / opts.pieces);
    let i = 0;
    const next = () => {
      const piece = body.subarray(i * size, (i + 1) * size);
      i++;
      if (i >= opts.pieces || piece.length === 0) {
        req.end(piece);
        return;
      }
      req.write(piece);
      if (i === 1) opts.onFirstPiece();
      setTimeout(next, opts.ms / opts.pieces);
    };
    next();
  });
}

/** GET on a fresh connection: the status, or the connection error code. */
function freshGet(url: string): Promise<{ status: number; body: any } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: any = text;
        try { body = JSON.parse(text); } catch { /* text */ }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (e: any) => resolve({ error: e.code ?? String(e) }));
  });
}

describe('graceful shutdown (SIGTERM)', function () {
  this.timeout(180_000);
  let child: Child | null = null;
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  const dataDir = path.join(os.tmpdir(), `curio-drain-${RUN_ID}-${process.pid}`);

  after(async () => {
    await child?.kill('SIGKILL');
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes an upload in progress with 2xx, reports draining, then refuses new connections and exits 0', async () => {
    if (process.env.DATABASE_URL) db = await createRunDatabase('drain');
    child = await startChild({ databaseUrl: db?.url ?? null, dataDir, env: { DRAIN_DELAY_MS: '1500', DRAIN_TIMEOUT_MS: '20000' } });
    const c = await signUp(child, 'drain');
    const image = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
    const exit = new Promise<number | null>((r) => child!.proc.once('exit', (code) => r(code)));
    let termAt = 0;
    const upload = slowUpload(child, c.cookieHeader(), image, {
      pieces: 20,
      ms: 4000,
      onFirstPiece: () => {
        termAt = Date.now();
        child!.proc.kill('SIGTERM');
      },
    });
    // while the listener is still open (DRAIN_DELAY_MS), the health check tells the balancer to stop sending
    const health = await waitFor(async () => {
      const r = await freshGet(`${child!.url}/api/health`);
      return 'status' in r && r.status === 503 ? r : null;
    }, { timeout: 1400, interval: 50 });
    expect(health.body).to.deep.equal({ status: 'draining' });
    // after the delay, new connections are refused while the upload still streams in
    const refused = await waitFor(async () => {
      const r = await freshGet(`${child!.url}/api/health`);
      return 'error' in r ? r : null;
    }, { timeout: 5000, interval: 100 });
    expect(refused.error).to.equal('ECONNREFUSED');
    const r = await upload;
    expect(Date.now() - termAt, 'the upload was still being sent well after SIGTERM').to.be.greaterThan(2500);
    expect(r.status, r.text).to.equal(200);
    expect(JSON.parse(r.text).profileImageUrl).to.match(/^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/);
    expect(await exit, child.output().slice(-2000)).to.equal(0);
    child = null;
  });
});

describe('graceful shutdown: jobs and event streams', function () {
  this.timeout(60_000);

  it('a job still running when the drain time is up goes back to the queue, unfinished, for another process', async () => {
    const app = await startTestApp({ drainTimeoutMs: 300 });
    let started = false;
    app.jobs.define('test.drain-slow', async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 3000));
      return { finished: true };
    });
    const job = await app.jobs.enqueue('test.drain-slow', {});
    app.jobs.start();
    await waitFor(async () => started, { timeout: 10_000 });
    const running = await app.jobs.get(job.id);
    expect(running?.status).to.equal('running');
    const t0 = Date.now();
    const knex = app.knex;
    await app.jobs.stopAndRelease(300);
    expect(Date.now() - t0).to.be.lessThan(2500);
    const released = await knex('core_jobs').where({ id: job.id }).first();
    expect(released.status).to.equal('queued');
    expect(released.locked_by).to.equal(null);
    expect(released.attempts).to.equal(0);
    // the handler finishing later in this process does not mark the released job done
    await new Promise((r) => setTimeout(r, 3200));
    expect((await knex('core_jobs').where({ id: job.id }).first()).status).to.equal('queued');
    await knex('core_jobs').where({ id: job.id }).delete();
    await app.close();
  });

  it('a long job given back to the queue stops at its next step (its signal aborts, progress throws), so the process can exit', async () => {
    const app = await startTestApp({ drainTimeoutMs: 300 });
    let steps = 0;
    let stoppedBy: string | null = null;
    let signalled = false;
    app.jobs.define('test.drain-long', async (_payload, h) => {
      h.signal.addEventListener('abort', () => (signalled = true));
      try {
        for (; steps < 10_000; steps++) {
          await new Promise((r) => setTimeout(r, 20));
          await h.progress(steps, 10_000);
        }
      } catch (e) {
        stoppedBy = (e as Error).name;
        throw e;
      }
      return { finished: true };
    });
    const job = await app.jobs.enqueue('test.drain-long', {});
    app.jobs.start();
    await waitFor(async () => steps > 3, { timeout: 10_000 });
    const knex = app.knex;
    await app.jobs.stopAndRelease(300);
    const at = steps;
    // the handler stops within a step or two (not 10,000 × 20 ms later) and is not marked failed
    await waitFor(async () => stoppedBy !== null, { timeout: 5000 });
    expect(stoppedBy).to.equal('JobReleasedError');
    expect(signalled).to.equal(true);
    expect(steps - at).to.be.at.most(2);
    const row = await knex('core_jobs').where({ id: job.id }).first();
    expect(row.status).to.equal('queued');
    expect(row.locked_by).to.equal(null);
    expect(row.error).to.equal(null);
    expect(row.attempts).to.equal(0);
    await knex('core_jobs').where({ id: job.id }).delete();
    await app.close();
  });

  it('app.close() runs onDrain hooks while health already says draining', async () => {
    const app = await startTestApp();
    let healthDuringHook: unknown = null;
    app.drain.onDrain(async () => {
      healthDuringHook = (await app.client().get('/api/health')).body;
    });
    await app.close();
    expect(healthDuringHook).to.deep.equal({ status: 'draining' });
  });

  it('ends open text/event-stream answers with a retry hint, so that browsers reconnect elsewhere', async () => {
    const drain = new Drain();
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: hello\n\n');
    });
    drain.track(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const res = await fetch(`http://127.0.0.1:${(server.address() as any).port}/`);
    const reader = res.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString();
      }
    })();
    await waitFor(async () => text.includes('hello'), { timeout: 5000 });
    const t0 = Date.now();
    await drain.run(server, { delayMs: 0, timeoutMs: 10_000 });
    await read;
    expect(text).to.equal('data: hello\n\nretry: 1000\n\n');
    expect(Date.now() - t0, 'the stream did not hold the shutdown').to.be.lessThan(3000);
  });
});
