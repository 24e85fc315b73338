/**
 * npm run bench:feed — how GET /api/feed/personalized holds up as the posts table grows.
 *
 * Seeds a synthetic network into a PostgreSQL database of its own (created from DATABASE_URL):
 * users, museums, user follows (skewed: a few popular people), museum follows, then posts in bulk
 * (INSERT … SELECT generate_series, in chunks, with a progress bar). It starts the real app in a
 * child process and measures over real HTTP, signed in as sampled members:
 *   - at the first size (10k posts) and at the full size (1M posts):
 *     sequential requests → p50 / p95 / p99 (first pages and deeper pages via nextCursor),
 *     then autocannon with 50 connections → requests per second, errors.
 *
 * Sizes are configurable (flags or env), e.g. a quick run:
 *   npm run bench:feed -- --small
 *   npm run bench:feed -- --users 20000 --posts 200000 --follows 400000
 * Flags: --users --posts --first-posts --follows --museums --museum-follows --viewers --requests
 *        --connections --duration (s) --keep (leave the database for inspection) --small
 * Not a test: it prints figures and checks them against the issue's targets
 * (p95 at full size ≤ 1.5 × p95 at 10k, p95 < 50 ms, zero errors); exit code 1 only on errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import cliProgress from 'cli-progress';
import { createRequire } from 'node:module';

// autocannon ships no types; loaded through require
const autocannon: any = createRequire(import.meta.url)('autocannon');

/** Progress bars also print (every 5 s) when the output is a log file rather than a terminal. */
const BAR_OPTS = { hideCursor: true, noTTYOutput: !process.stdout.isTTY, notTTYSchedule: 5000 };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---------------------------------------------------------------- options

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) {
    const v = process.argv[i + 1];
    return v && !v.startsWith('--') ? v : 'true';
  }
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
}
const small = flag('small') === 'true';
const num = (name: string, full: number, quick: number) => {
  const v = flag(name);
  const n = v === undefined ? (small ? quick : full) : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number`);
  return Math.floor(n);
};
const opts = {
  users: num('users', 100_000, 5_000),
  posts: num('posts', 1_000_000, 50_000),
  firstPosts: num('first-posts', 10_000, 10_000),
  follows: num('follows', 2_000_000, 100_000),
  museums: num('museums', 2_000, 200),
  museumFollows: num('museum-follows', 200_000, 10_000),
  viewers: num('viewers', 50, 50),
  requests: num('requests', 1_000, 300),
  connections: num('connections', 50, 50),
  duration: num('duration', 15, 5),
  keep: flag('keep') === 'true',
};
const PASSWORD = 'bench-password-123';

// ---------------------------------------------------------------- helpers

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function chunked(label: string, total: number, chunk: number, fn: (from: number, to: number) => Promise<void>) {
  const bar = new cliProgress.SingleBar(
    { format: `  ${label.padEnd(16)} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`, ...BAR_OPTS },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(total, from + chunk);
    await fn(from, to);
    bar.update(to);
  }
  bar.stop();
}

// ---------------------------------------------------------------- the app in a child process

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'core', 'bin', 'start.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_ON_START: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d.toString()));
  child.stderr!.on('data', (d) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app did not start:\n${log.slice(-4000)}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - started > 120_000) throw new Error(`the app did not answer in 120 s:\n${log.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(t);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function login(url: string, email: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password: PASSWORD, rememberMe: true }),
  });
  if (!r.ok) throw new Error(`login of ${email} failed: ${r.status} ${await r.text()}`);
  return r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

// ---------------------------------------------------------------- seeding

async function seedNetwork(knex: Knex, url: string) {
  // one real account gives the password hash every synthetic member shares
  const probe = `bench${Date.now()}`;
  const reg = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: `${probe}@bench.test`, password: PASSWORD, firstName: 'Bench', lastName: 'Probe', username: probe, rememberMe: false }),
  });
  if (reg.status !== 201) throw new Error(`registration failed: ${reg.status} ${await reg.text()}`);
  const hash = (await knex('users').where({ username: probe }).first('password_hash')).password_hash;

  await chunked('users', opts.users, 20_000, (a, b) =>
    knex.raw(
      `insert into users (slug, username, email, password_hash, first_name, last_name)
       select 'bench-' || g, 'bench' || g, 'bench' || g || '@bench.test', ?, 'Bench', 'Member ' || g from generate_series(?::int, ?::int) g`,
      [hash, a + 1, b],
    ),
  );
  await chunked('museums', opts.museums, 5_000, (a, b) =>
    knex.raw(
      `insert into museums (slug, name, description, address, city, country, is_verified)
       select 'bench-museum-' || g, 'Bench Museum ' || g, 'A synthetic museum', g || ' Gallery Road', 'City ' || (g % 97), 'Country ' || (g % 23), g % 3 = 0
       from generate_series(?::int, ?::int) g`,
      [a + 1, b],
    ),
  );
  const u: any = await knex('users').where('username', 'like', 'bench%').whereNot({ username: probe }).min({ lo: 'id' }).max({ hi: 'id' }).first();
  const m: any = await knex('museums').where('slug', 'like', 'bench-museum-%').min({ lo: 'id' }).max({ hi: 'id' }).first();
  const users = { lo: Number(u.lo), n: Number(u.hi) - Number(u.lo) + 1 };
  const museums = { lo: Number(m.lo), n: Number(m.hi) - Number(m.lo) + 1 };

  // Each member follows about follows/users people; whom is skewed towards a popular few
  // (following id drawn as n·r², so low ids are followed most). Duplicates and self-follows skipped.
  await chunked('user follows', opts.follows, 100_000, (a, b) =>
    knex.raw(
      `insert into user_follows (follower_id, following_id)
       select f, t from (
         select ? + (g % ?) as f, ? + floor(? * power(random(), 2))::int as t from generate_series(?::int, ?::int) g
       ) x where f <> t on conflict do nothing`,
      [users.lo, users.n, users.lo, users.n, a, b - 1],
    ),
  );
  await chunked('museum follows', opts.museumFollows, 100_000, (a, b) =>
    knex.raw(
      `insert into museum_follows (user_id, museum_id)
       select ? + (g % ?), ? + floor(? * power(random(), 2))::int from generate_series(?::int, ?::int) g on conflict do nothing`,
      [users.lo, users.n, museums.lo, museums.n, a, b - 1],
    ),
  );
  await knex.raw('analyze users');
  await knex.raw('analyze user_follows');
  await knex.raw('analyze museum_follows');
  return { users, museums };
}

async function seedPosts(knex: Knex, from: number, to: number, net: { users: { lo: number; n: number }; museums: { lo: number; n: number } }) {
  await chunked(`posts → ${fmt(to)}`, to - from, 50_000, (a, b) =>
    knex.raw(
      `insert into insights_posts (user_id, type, content, tags, museum_id, created_at, likes_count, comments_count)
       select ? + floor(? * random())::int, 'text', 'Synthetic insight #' || g || ': a thought about a gallery, a painting and the light.',
              array['bench'], case when random() < 0.3 then ? + floor(? * random())::int end,
              date_trunc('milliseconds', now() - random() * interval '365 days'), floor(random() * 50)::int, floor(random() * 5)::int
       from generate_series(?::int, ?::int) g`,
      [net.users.lo, net.users.n, net.museums.lo, net.museums.n, from + a + 1, from + b],
    ),
  );
  await knex.raw('vacuum analyze insights_posts'); // visibility map for index-only scans, fresh statistics
}

// ---------------------------------------------------------------- measuring

/** The same signed-in round trip without the feed (session, guards, one user row): the floor under every figure. */
async function baseline(url: string, cookies: string[]): Promise<{ p50: number; p95: number }> {
  const lat: number[] = [];
  for (let i = 0; i < Math.min(300, opts.requests); i++) {
    const t0 = process.hrtime.bigint();
    const r = await fetch(`${url}/api/auth/user`, { headers: { cookie: cookies[i % cookies.length] } });
    await r.text();
    lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p95: percentile(lat, 95) };
}

interface Figures {
  posts: number;
  base: { p50: number; p95: number };
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  rps: number;
  errors: number;
  latencyRequests: number;
  avgItems: number;
}

async function measure(url: string, cookies: string[], posts: number): Promise<Figures> {
  const get = async (cookie: string, cursor: string | null) => {
    const t0 = process.hrtime.bigint();
    const r = await fetch(`${url}/api/feed/personalized?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { cookie } });
    const body = await r.text();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 200) return { ms, ok: false, next: null, items: 0 };
    const parsed = JSON.parse(body);
    return { ms, ok: true, next: parsed.nextCursor as string | null, items: parsed.items.length as number };
  };
  // warm-up: connections, plans, caches
  for (let i = 0; i < Math.min(100, cookies.length * 2); i++) await get(cookies[i % cookies.length], null);
  const base = await baseline(url, cookies);

  const lat: number[] = [];
  let errors = 0;
  let items = 0;
  const cursors = new Map<number, string | null>();
  const bar = new cliProgress.SingleBar({ format: `  latency @ ${fmt(posts).padEnd(9)} [{bar}] {value}/{total}`, ...BAR_OPTS }, cliProgress.Presets.shades_classic);
  bar.start(opts.requests, 0);
  for (let i = 0; i < opts.requests; i++) {
    const v = i % cookies.length;
    // two of three requests read the first page, one reads the next page of that viewer
    const cursor = i % 3 === 2 ? (cursors.get(v) ?? null) : null;
    const r = await get(cookies[v], cursor);
    lat.push(r.ms);
    items += r.items;
    if (!r.ok) errors++;
    cursors.set(v, r.next);
    bar.update(i + 1);
  }
  bar.stop();
  lat.sort((a, b) => a - b);

  // throughput with 50 connections, cookies rotating over the sampled members
  let k = 0;
  const result: any = await new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: `${url}/api/feed/personalized?limit=20`,
        connections: opts.connections,
        duration: opts.duration,
        requests: [
          {
            method: 'GET',
            setupRequest: (req: any) => {
              req.headers = { ...(req.headers ?? {}), cookie: cookies[k++ % cookies.length] };
              return req;
            },
          },
        ],
      },
      (err: unknown, res: unknown) => (err ? reject(err) : resolve(res)),
    );
    autocannon.track(inst, { renderProgressBar: Boolean(process.stdout.isTTY), renderResultsTable: false, renderLatencyTable: false });
  });
  const cannonErrors = (result.errors ?? 0) + (result.timeouts ?? 0) + (result.non2xx ?? 0);
  return {
    posts,
    base,
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    p99: percentile(lat, 99),
    mean: lat.reduce((a, b) => a + b, 0) / lat.length,
    rps: result.requests.average,
    errors: errors + cannonErrors,
    latencyRequests: lat.length,
    avgItems: items / lat.length,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base || !/^postgres(ql)?:/.test(base)) {
    console.error('bench:feed needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
    process.exit(2);
  }
  if (opts.firstPosts > opts.posts) opts.firstPosts = opts.posts;
  const name = `curio_bench_feed_${process.pid}`;
  console.log(`\nCurio feed benchmark — ${os.cpus().length} cores, Node ${process.version}`);
  console.log(
    `  network: ${fmt(opts.users)} users, ${fmt(opts.follows)} follows, ${fmt(opts.museums)} museums, ${fmt(opts.museumFollows)} museum follows; posts: ${fmt(opts.firstPosts)} then ${fmt(opts.posts)}`,
  );
  console.log(`  database: ${name}\n`);

  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  await admin.raw(`create database "${name}"`);
  await admin.destroy();
  const u = new URL(base);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const knex = knexFactory({ client: 'pg', connection: dbUrl, pool: { min: 0, max: 2 } });
  let server: Server | null = null;
  try {
    server = await startServer(dbUrl); // runs every plugin's migrations
    const net = await seedNetwork(knex, server.url);

    // viewers: sampled members who follow someone, signed in through the real route
    const viewerIds: number[] = (
      await knex.raw(`select follower_id from user_follows where follower_id >= ? group by follower_id order by random() limit ?`, [net.users.lo, opts.viewers])
    ).rows.map((r: any) => r.follower_id);
    const emails = (await knex('users').whereIn('id', viewerIds).pluck('email')) as string[];
    const cookies: string[] = [];
    for (const e of emails) cookies.push(await login(server.url, e));
    const fol = await knex.raw(`select avg(n)::float as a from (select count(*) n from user_follows where follower_id = any(?) group by follower_id) x`, [viewerIds]);
    console.log(`  ${cookies.length} viewers signed in, following ${Math.round(fol.rows[0].a)} people on average\n`);

    const figures: Figures[] = [];
    await seedPosts(knex, 0, opts.firstPosts, net);
    figures.push(await measure(server.url, cookies, opts.firstPosts));
    if (opts.posts > opts.firstPosts) {
      await seedPosts(knex, opts.firstPosts, opts.posts, net);
      await server.stop(); // a fresh process: no warm state carried over from the small table
      server = await startServer(dbUrl);
      const fresh: string[] = [];
      for (const e of emails) fresh.push(await login(server.url, e));
      figures.push(await measure(server.url, fresh, opts.posts));
    }

    console.log('\nGET /api/feed/personalized?limit=20 (real HTTP, signed in)\n');
    console.log('  posts        p50 ms   p95 ms   p99 ms   mean ms   items/page   req/s @' + opts.connections + '   errors');
    for (const f of figures) {
      console.log(
        `  ${fmt(f.posts).padEnd(11)} ${f.p50.toFixed(2).padStart(7)}  ${f.p95.toFixed(2).padStart(7)}  ${f.p99.toFixed(2).padStart(7)}  ${f.mean.toFixed(2).padStart(8)}   ${f.avgItems.toFixed(1).padStart(10)}   ${f.rps.toFixed(0).padStart(10)}   ${String(f.errors).padStart(6)}`,
      );
    }
    const [a, b] = [figures[0], figures[figures.length - 1]];
    const ratio = b.p95 / a.p95;
    const checks = [
      [`p95 at ${fmt(b.posts)} ≤ 1.5 × p95 at ${fmt(a.posts)}`, ratio <= 1.5, `${ratio.toFixed(2)}×`],
      ['p95 under 50 ms', figures.every((f) => f.p95 < 50), figures.map((f) => `${f.p95.toFixed(1)} ms`).join(', ')],
      ['zero errors', figures.every((f) => f.errors === 0), String(figures.reduce((n, f) => n + f.errors, 0))],
    ] as const;
    console.log('\n  baseline, signed-in GET /api/auth/user (no feed work):');
    for (const f of figures) console.log(`  ${fmt(f.posts).padEnd(11)} ${f.base.p50.toFixed(2).padStart(7)}  ${f.base.p95.toFixed(2).padStart(7)}`);
    console.log(`  load average during the run: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
    console.log('');
    for (const [label, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label} (${value})`);
    console.log('');
    if (figures.some((f) => f.errors > 0)) process.exitCode = 1;
  } finally {
    await server?.stop();
    await knex.destroy();
    if (!opts.keep) {
      const a = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
      await a.raw(`drop database if exists "${name}" with (force)`);
      await a.destroy();
    } else console.log(`  kept database ${name}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
