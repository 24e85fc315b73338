/**
 * npm run bench:load -- --processes 1,2,3 [--duration 10] [--connections 50]
 *
 * Throughput per added app process behind nginx (deploy/nginx.ts), on one PostgreSQL
 * (DATABASE_URL; a database of its own, dropped at the end) with S3 storage (s3rver): for each
 * count, that many `core/bin/start.ts` processes, nginx in front, then autocannon on two
 * workloads: GET /api/config (the middleware stack, no database) and a signed-in
 * GET /api/auth/user (session and user read from PostgreSQL). Prints requests/s, p99 and the
 * ratio to one process. On a machine with few cores the processes, nginx, PostgreSQL and the load
 * generator share them: the ratio then shows the overhead, not the scaling.
 */
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createRunDatabase, startChild, type Child } from '../../core/quality/fixtures/child.ts';
import { startTestS3 } from '../../core/testing/s3.ts';
import { TestClient } from '../../core/testing/index.ts';
import { nginxConfig } from '../../deploy/nginx.ts';

// autocannon ships no types; loaded through require
const autocannon: any = createRequire(import.meta.url)('autocannon');

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

export async function benchProcesses(counts: number[], opts: { duration: number; connections: number }): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('bench:load --processes needs PostgreSQL: set DATABASE_URL');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-bench-procs-'));
  const db = await createRunDatabase('benchprocs');
  const s3 = await startTestS3();
  const env = { ...s3.env(), SESSION_KEYS: 'bench-processes-session-key-0123456789', TRUST_PROXY: '1', LOG_LEVEL: 'error' };
  const rows: { n: number; config: number; configP99: number; user: number; userP99: number; errors: number }[] = [];
  let children: Child[] = [];
  let nginx: ChildProcess | null = null;
  try {
    for (const n of counts) {
      console.log(`\n${n} process(es): starting…`);
      children = [];
      // the first applies migrations (first round only), the others start next to it
      children.push(await startChild({ databaseUrl: db.url, dataDir: path.join(dir, 'p0'), env }));
      for (let i = 1; i < n; i++) children.push(await startChild({ databaseUrl: db.url, dataDir: path.join(dir, `p${i}`), env }));
      const port = await freePort();
      const prefix = path.join(dir, `nginx-${n}`);
      fs.mkdirSync(prefix, { recursive: true });
      fs.writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig({
        listen: `127.0.0.1:${port}`,
        upstreams: children.map((c) => new URL(c.url).host),
        cacheDir: path.join(prefix, 'cache'),
        standalone: { prefix, user: process.getuid?.() === 0 ? 'root' : undefined },
      }));
      nginx = spawn('/usr/sbin/nginx', ['-c', path.join(prefix, 'nginx.conf'), '-p', prefix, '-e', path.join(prefix, 'error.log')], { stdio: 'ignore' });
      const lb = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 100; i++) {
        if (await fetch(`${lb}/api/health`).then((r) => r.ok).catch(() => false)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const c = new TestClient(lb);
      const username = `bench${n}${Math.random().toString(36).slice(2, 8)}`;
      const reg = await c.post('/api/auth/register', { email: `${username}@example.test`, password: 'A-sturdy-passphrase-77', firstName: 'B', lastName: 'P', username });
      if (reg.status !== 201) throw new Error(`sign-up through nginx: ${reg.status} ${reg.text}`);
      const run = (url: string, headers: Record<string, string> = {}) => autocannon({ url, connections: opts.connections, duration: opts.duration, headers });
      const cfg = await run(`${lb}/api/config`);
      const user = await run(`${lb}/api/auth/user`, { cookie: c.cookieHeader() });
      const row = { n, config: cfg.requests.average, configP99: cfg.latency.p99, user: user.requests.average, userP99: user.latency.p99, errors: cfg.errors + cfg.non2xx + user.errors + user.non2xx };
      rows.push(row);
      // autocannon counts its 10 s timeouts among its errors: told apart here, with the answers' classes
      const what = (r: any) => `timeouts ${r.timeouts}, connection errors ${r.errors - r.timeouts}, 4xx ${r['4xx']}, 5xx ${r['5xx']}`;
      console.log(`  GET /api/config ${Math.round(row.config)} req/s (p99 ${row.configP99} ms); GET /api/auth/user ${Math.round(row.user)} req/s (p99 ${row.userP99} ms); errors ${row.errors}`);
      if (row.errors) console.log(`    /api/config: ${what(cfg)}; /api/auth/user: ${what(user)}`);
      nginx.kill('SIGQUIT');
      await new Promise((r) => nginx!.once('exit', r));
      nginx = null;
      for (const ch of children) await ch.kill('SIGTERM');
      children = [];
    }
    const base = rows[0];
    console.log(`\nThroughput behind nginx, ${opts.connections} connections × ${opts.duration} s, ${os.cpus().length} CPU core(s) shared by everything (load average now ${os.loadavg()[0].toFixed(1)}: on a busy machine the figures say little):`);
    console.log('processes  /api/config req/s  ratio   /api/auth/user req/s  ratio   errors');
    for (const r of rows) {
      console.log(`${String(r.n).padStart(9)}  ${String(Math.round(r.config)).padStart(17)}  ${(r.config / base.config).toFixed(2).padStart(5)}   ${String(Math.round(r.user)).padStart(20)}  ${(r.user / base.user).toFixed(2).padStart(5)}   ${r.errors}`);
    }
  } finally {
    if (nginx) nginx.kill('SIGKILL');
    for (const ch of children) await ch.kill('SIGKILL');
    await s3.close();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
