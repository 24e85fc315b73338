/**
 * npm run bench:profile — where a signed-in request's CPU goes: the app in a child process, profiled
 * (V8's sampling profiler through node:inspector) during a small member workload (session check, museum page, like/unlike, search, new
 * insight, comment) from autocannon in this process, then the top self-time functions of the app
 * process (the profile is kept in --out, default /tmp/curio-profile).
 *
 * Flags: --duration 20 --connections 20 --out DIR --keep --top 10; --only /api/config: every
 * request is that GET (signed in; with --anonymous without a session), to see one route's cost. Needs DATABASE_URL (PostgreSQL): a
 * database of its own, dropped at the end.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import knexFactory from 'knex';

// autocannon ships no types; loaded through require
const autocannon: any = createRequire(import.meta.url)('autocannon');

const flag = (name: string, d: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] && !process.argv[i + 1].startsWith('--') ? process.argv[i + 1] : d;
};
const PASSWORD = 'bench-password-42';

async function serve() {
  const { createApp } = await import('../../core/app.ts');
  const app = await createApp();
  await app.seed({ onlyFirstTime: true });
  const url = await app.listen();
  // the profile covers the workload only (not start-up, migrations and seeds)
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  process.on('message', async (m: any) => {
    if (m === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      process.send?.('started');
    } else if (m?.stop) {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(m.stop, JSON.stringify(profile));
      process.send?.('stopped');
    }
  });
  process.send?.({ url });
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function signUp(url: string, username: string): Promise<{ cookie: string; id: number }> {
  const r = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: `${username}@bench.test`, password: PASSWORD, firstName: 'Bench', lastName: 'Profile', username }),
  });
  if (r.status !== 201) throw new Error(`sign-up: ${r.status} ${await r.text()}`);
  const cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { cookie, id: (await r.json()).id };
}

/** Self time per function from a .cpuprofile (samples × their time deltas). */
export function topSelfTime(file: string, n = 10): string[] {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map<number, any>(prof.nodes.map((x: any) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of prof.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  // the profiler's own stop (node:inspector's post, one long sample) is not the app's work
  const profiler = new Map<number, boolean>();
  const underProfiler = (id: number): boolean => {
    const known = profiler.get(id);
    if (known !== undefined) return known;
    const p = parent.get(id);
    const v = byId.get(id)?.callFrame.url === 'node:inspector' || (p !== undefined && underProfiler(p));
    profiler.set(id, v);
    return v;
  };
  const self = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id: number, i: number) => {
    const dt = prof.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    const f = node.callFrame;
    if (f.functionName === '(idle)' || underProfiler(id)) return;
    const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(/^.*?\/(node_modules\/|core\/|plugins\/|node:)/, '$1')}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us], i) => `${String(i + 1).padStart(2)}. ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL (PostgreSQL) is needed');
  const duration = Number(flag('duration', '20'));
  const connections = Number(flag('connections', '20'));
  const out = flag('out', '/tmp/curio-profile');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const name = `curio_bench_profile_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  await admin.raw(`create database "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const here = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', here, '--serve'], {
    env: { ...process.env, DATABASE_URL: u.toString(), NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(out, 'data'), LOG_LEVEL: 'warn', SESSION_KEYS: 'bench-profile-session-key-0000000' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const url: string = await new Promise((resolve, reject) => {
      child.once('message', (m: any) => resolve(m.url));
      child.once('exit', (c) => reject(new Error(`the app exited (${c})`)));
    });
    const members: Array<{ cookie: string; id: number }> = [];
    for (let i = 0; i < 20; i++) members.push(await signUp(url, `prof${process.pid}x${i}`));
    const posts: number[] = [];
    for (const m of members.slice(0, 10)) {
      const r = await fetch(`${url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, cookie: m.cookie }, body: JSON.stringify({ type: 'text', content: 'The light in the modern gallery', tags: ['light'] }) });
      posts.push((await r.json()).id);
    }
    const museums = (await (await fetch(`${url}/api/museums?pageSize=20`)).json()).items ?? [];
    const slugs: string[] = museums.map((m: any) => m.slug);
    let k = 0;
    const only = flag('only', '');
    const anonymous = process.argv.includes('--anonymous');
    type Req = { method?: string; path: string; body?: string };
    const all: Array<() => Req> = [
      () => ({ path: '/api/auth/user' }),
      () => ({ path: `/api/museums/slug/${slugs[k % slugs.length]}` }),
      () => ({ method: 'POST', path: `/api/posts/${posts[k % posts.length]}/like` }),
      () => ({ path: `/api/search?q=${['light', 'modern', 'museum'][k % 3]}` }),
      () => ({ method: 'POST', path: '/api/posts', body: JSON.stringify({ type: 'text', content: 'A profiled afternoon among the sculptures', tags: ['profile'] }) }),
      () => ({ method: 'POST', path: `/api/posts/${posts[k % posts.length]}/comments`, body: JSON.stringify({ content: 'Profiled comment' }) }),
    ];
    const mix: Array<() => Req> = only ? [() => ({ path: only })] : all;
    const ask = (m: unknown, answer: string) =>
      new Promise<void>((resolve) => {
        const on = (x: unknown) => x === answer && (child.off('message', on), resolve());
        child.on('message', on);
        child.send(m as any);
      });
    // warm-up (JIT, plans, pool), then the profiled run
    await new Promise((resolve) => autocannon({ url: `${url}/api/auth/user`, connections: 5, duration: 3, headers: { cookie: members[0].cookie } }, resolve));
    await ask('start', 'started');
    const result: any = await new Promise((resolve, reject) =>
      autocannon(
        {
          url,
          connections,
          duration,
          requests: [
            {
              setupRequest: (req: any) => {
                const r = mix[k % mix.length]();
                const m = members[k++ % members.length];
                return { ...req, method: r.method ?? 'GET', path: r.path, body: r.body, headers: { ...(r.body ? { 'content-type': 'application/json' } : {}), ...(anonymous ? {} : { cookie: m.cookie }), origin: url } };
              },
            },
          ],
        },
        (err: unknown, res: unknown) => (err ? reject(err) : resolve(res)),
      ),
    );
    await ask({ stop: path.join(out, 'app.cpuprofile') }, 'stopped');
    console.log(`${result.requests.total} requests, ${result.requests.average} req/s, non-2xx ${result.non2xx}, errors ${result.errors}`);
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
    await admin.raw(`drop database if exists "${name}" with (force)`);
    await admin.destroy();
  }
  const file = fs.readdirSync(out).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(out, f))[0];
  if (!file) throw new Error('no profile was written');
  const top = Number(flag('top', '10'));
  console.log(`\nTop ${top} self time of the app process (${file}):`);
  for (const line of topSelfTime(file, top)) console.log(`  ${line}`);
}

(process.argv.includes('--serve') ? serve() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
