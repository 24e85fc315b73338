/**
 * Start-up smoke test on the embedded database, as a user runs it: `npm start` runs the compiled
 * server (`npm run build:server`, then `node dist/server/core/bin/start.js`) with DATABASE_URL
 * unset; seeds load on first start; a second process on the same DATA_DIR stops with a clear
 * message instead of opening (and corrupting) the database; the sources (`npm run dev`, tsx) then
 * open the database the compiled server made, with the same migrations.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { expect } from 'chai';
import { ROOT } from './config.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>, from: 'compiled' | 'sources' = 'compiled'): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const entry = from === 'compiled' ? [path.join(ROOT, 'dist/server/core/bin/start.js')] : ['--import', 'tsx', path.join(ROOT, 'core/bin/start.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function waitHealthy(url: string, server: ReturnType<typeof start>, ms = 150_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (server.child.exitCode !== null) throw new Error(`the server exited (${server.child.exitCode}):\n${server.output().slice(-3000)}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy');
}

describe('start-up on the embedded database', function () {
  this.timeout(200_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-startup-'));
  let first: ReturnType<typeof start> | null = null;

  before(function () {
    this.timeout(120_000);
    execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build-server.ts')], { cwd: ROOT, stdio: 'pipe' });
  });

  after(async () => {
    if (first && first.child.exitCode === null) {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, migrates, seeds on first start and serves the API (here without ffmpeg: one clear warning)', async () => {
    const port = await freePort();
    first = start({ PORT: String(port), DATA_DIR: dataDir, FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' });
    await waitHealthy(`http://127.0.0.1:${port}`, first);
    const cfg = await (await fetch(`http://127.0.0.1:${port}/api/config`)).json();
    expect(cfg.appName).to.equal('Curio');
    expect(cfg.plugins).to.include('accounts');
    // a machine without ffmpeg: one warning at start saying what to install, and the web app is told
    expect(cfg.pluginConfig?.insights?.videoEnabled).to.equal(false);
    const warnings = first.output().split('\n').filter((l) => l.includes('Video insights are disabled'));
    expect(warnings, first.output().slice(-2000)).to.have.length(1);
    expect(warnings[0]).to.include('apt-get install -y ffmpeg');
    const meta = fs.existsSync(path.join(dataDir, 'db'));
    expect(meta).to.equal(true);
  });

  it('refuses a second process on the same data directory with a clear message', async () => {
    const port = await freePort();
    const second = start({ PORT: String(port), DATA_DIR: dataDir });
    const code = await second.exited;
    expect(code).to.equal(1);
    expect(second.output()).to.match(/in use by another process/);
  });

  it('shuts down gracefully on SIGTERM', async () => {
    first!.child.kill('SIGTERM');
    expect(await first!.exited).to.equal(0);
  });

  it('the sources (tsx) open the database the compiled server made: its migrations are theirs', async () => {
    const port = await freePort();
    first = start({ PORT: String(port), DATA_DIR: dataDir }, 'sources');
    await waitHealthy(`http://127.0.0.1:${port}`, first);
    const museums = await (await fetch(`http://127.0.0.1:${port}/api/museums`)).json();
    expect(museums.items.length).to.be.greaterThan(0);
    // knex stops at start on a migration it does not know ("migration directory is corrupt")
    expect(first.output()).not.to.match(/corrupt|missing/i);
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
  });
});
