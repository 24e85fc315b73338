/**
 * npm run bench:web — the production web app's budget: initial JavaScript, lazy heavy libraries,
 * Lighthouse scores.
 *
 *  1. Builds the production web app (vite, the project's config) and its server render (Vite SSR,
 *     web/src/entry-server.tsx) into a directory of its own (dist/ and dist-server/ side by side),
 *     so that browser tests running at the same time keep their web/dist (`--dist web/dist`
 *     measures an existing build, and web/dist-server beside it, instead of building).
 *  2. Starts the app in a child process (this file with CURIO_BENCH_CHILD=web): createApp() on a
 *     fresh PostgreSQL database when DATABASE_URL is set (dropped at the end), else embedded PGlite
 *     in memory; every plugin's seeds; the build served by core/app.ts's serveWebBuild, as web/dist
 *     is (precompressed .br/.gz copies, immutable /assets, index.html fallback, after the security
 *     headers and compression).
 *  3. Initial JavaScript: each page is loaded in Debian's Chromium (fresh browser context, cold
 *     cache) and the JavaScript fetched until the network is idle is summed, raw and gzip
 *     (zlib level 9 of each file, as a server or CDN would send it): landing (signed out) and home
 *     (signed in) must be ≤ 170 kB gzip (kB = 1000 bytes); discover and a museum page are shown too;
 *     the public pages a visitor lands on (landing and a server-rendered museum page, signed out)
 *     must be ≤ 130 kB gzip (issue 19; --public-budget).
 *  4. Lazy loading: the chunks holding the maps library (Google Maps loader) and video recording
 *     (MediaRecorder) must not be among the landing and home pages' initial JavaScript.
 *  5. Lighthouse (npm package, driving the same Chromium; its default mobile profile with simulated
 *     throttling): performance, accessibility and SEO scores and the main timings for landing,
 *     museum and discover (signed out: the server-rendered pages), home and museum (signed in; a
 *     member's pages are noindex, so their SEO score is not the public one); failing
 *     accessibility audits listed as warnings.
 *  6. Layout shift: every page above, and the signed-in feed with a photo insight, loaded on a
 *     phone-sized viewport with a PerformanceObserver on layout-shift entries (from the first paint
 *     until idle): CLS ≤ 0.1 each, with the elements that moved printed.
 *  7. Images: a photo insight (2400 × 1600) tagged to the museum, then every image the museum page
 *     fetches at 390 px (DPR 2), scrolled to the end: the photo must come as a responsive variant and
 *     the largest image must be ≤ 100 kB.
 *
 * Flags: --dist DIR (no build), --budget 170 (kB gzip), --skip-lighthouse, --desktop (Lighthouse's
 * desktop profile instead of mobile), --keep-dist, --verbose (every file loaded).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import type { Browser, Page } from 'puppeteer';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SELF = fileURLToPath(import.meta.url);
const PASSWORD = 'bench-password-123';

// ============================================================================ child: the app serving a build

async function webChild() {
  const dist = process.env.BENCH_DIST!;
  const { createApp, serveWebBuild } = await import('../../core/app.ts');
  const databaseUrl = process.env.DATABASE_URL || null;
  const app = await createApp({
    overrides: { serveWeb: false, port: 0, host: '127.0.0.1', dataDir: process.env.DATA_DIR!, databaseUrl, seedOnStart: false, logLevel: 'warn' },
    memory: !databaseUrl,
  });
  await app.seed({ onlyFirstTime: true });
  // Served exactly as core/app.ts serves web/dist, but from this build's directory.
  app.koa.use(serveWebBuild(dist));
  const url = await app.listen();
  process.on('SIGTERM', async () => {
    await app.close();
    process.exit(0);
  });
  process.stdout.write(`READY ${JSON.stringify({ url })}\n`);
}

// ============================================================================ options and helpers

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) {
    const v = process.argv[i + 1];
    return v && !v.startsWith('--') ? v : 'true';
  }
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
}
const opts = {
  dist: flag('dist') ? path.resolve(flag('dist')!) : null,
  budget: Number(flag('budget') ?? 170),
  /** issue 19: landing and museum pages of a signed-out visitor */
  publicBudget: Number(flag('public-budget') ?? 130),
  skipLighthouse: flag('skip-lighthouse') === 'true',
  desktop: flag('desktop') === 'true',
  keepDist: flag('keep-dist') === 'true',
};
const verbose = flag('verbose') === 'true';

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const results: Array<{ ok: boolean; label: string }> = [];
function check(ok: boolean, label: string, value = '') {
  results.push({ ok, label });
  console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}${value ? ` (${value})` : ''}`);
}
const section = (t: string) => console.log(`\n== ${t}\n`);

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

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => resolve({ code, out }));
  });
}

async function startChild(env: Record<string, string>): Promise<{ url: string; proc: ChildProcess; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', SELF], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', CURIO_BENCH_CHILD: 'web', SESSION_KEYS: 'bench-web-session-key-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  const t0 = Date.now();
  for (;;) {
    const m = /READY (\{.*\})/.exec(log);
    if (m) {
      const { url } = JSON.parse(m[1]);
      return {
        url,
        proc,
        async stop() {
          if (proc.exitCode !== null) return;
          const done = new Promise((r) => proc.once('exit', r));
          proc.kill('SIGTERM');
          const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
          await done;
          clearTimeout(t);
        },
      };
    }
    if (proc.exitCode !== null) throw new Error(`the app did not start:\n${log.slice(-4000)}`);
    if (Date.now() - t0 > 180_000) throw new Error(`the app did not answer in 180 s:\n${log.slice(-4000)}`);
    await sleep(200);
  }
}

async function api(url: string, method: string, p: string, body?: unknown, cookie = ''): Promise<{ status: number; body: any; cookie: string }> {
  const r = await fetch(url + p, {
    method,
    headers: { origin: url, ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text */
  }
  const set = r.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { status: r.status, body: parsed, cookie: set.length ? set.join('; ') : cookie };
}

// ============================================================================ measuring

interface Loaded {
  js: Array<{ file: string; raw: number; gzip: number }>;
  css: Array<{ file: string; raw: number; gzip: number }>;
}

/** Loads a page in a fresh browser context and sums the JavaScript fetched until the network is idle. */
/**
 * A photo insight of one 2400 × 1600 noisy photo (a camera's worth of detail) tagged to the museum;
 * waits until its variants are made (the job runs in the app's process).
 */
async function postPhotoInsight(url: string, cookie: string, museumId: number): Promise<number> {
  const sharp = (await import('sharp')).default;
  const w = 2400;
  const h = 1600;
  const raw = Buffer.alloc(w * h * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = ((i * 2654435761) >>> 24) & 0xff;
  const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).blur(1.2).jpeg({ quality: 90 }).toBuffer();
  const form = new FormData();
  form.append('photo', new Blob([jpeg], { type: 'image/jpeg' }), 'visit.jpg');
  const up = await fetch(`${url}/api/posts/photos`, { method: 'POST', headers: { origin: url, cookie }, body: form });
  if (up.status !== 201) throw new Error(`photo upload failed: ${up.status} ${await up.text()}`);
  const photo = await up.json();
  const post = await api(url, 'POST', '/api/posts', { type: 'photo', content: 'The great hall', museumId, photos: [{ id: photo.id, alt: 'The great hall under its glass roof' }] }, cookie);
  if (post.status !== 201) throw new Error(`photo insight failed: ${post.status} ${JSON.stringify(post.body)}`);
  for (let i = 0; i < 300; i++) {
    if ((await api(url, 'GET', `/api/posts/${post.body.id}`, undefined, cookie)).body.photos?.[0]?.widths?.length) return post.body.id;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the variants of the photo were not made within a minute');
}

/** Every image a page fetches at 390 px wide (DPR 2), scrolled to the end so lazy images load. */
async function imagesOf(browser: Browser, url: string, cookie: string, waitFor: string): Promise<Array<{ path: string; type: string; bytes: number }>> {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const host = new URL(url).hostname;
  await page.setCookie(...cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/', httpOnly: true })));
  const out: Array<{ path: string; type: string; bytes: number }> = [];
  const pending: Array<Promise<void>> = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'image' || res.status() !== 200) return;
    const u = new URL(res.url());
    if (u.protocol === 'data:') return;
    pending.push(
      res
        .buffer()
        .then((b) => void out.push({ path: u.pathname, type: res.headers()['content-type'] ?? '', bytes: b.length }))
        .catch(() => {}),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 });
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 30_000 }, waitFor).catch(() => {});
  for (let y = 0; y < 20; y++) {
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    await new Promise((r) => setTimeout(r, 150));
  }
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 15_000 }).catch(() => {});
  await Promise.all(pending);
  await ctx.close();
  return out.sort((a, b) => b.bytes - a.bytes);
}

/**
 * Cumulative layout shift of a page as a visitor sees it on a phone (412 × 823, DPR 1.75, 4× CPU
 * slowdown, 1.6 Mbit/s with 150 ms latency, as Lighthouse's mobile profile): a PerformanceObserver on `layout-shift` entries (buffered, so from
 * the first paint; shifts right after an input excluded, as the metric does) from navigation until
 * the network is idle and a second more, then the page scrolled to the end and back (lazy images
 * entering). Returns the sum of every shift (the page is short-lived: one session window) and the
 * elements that moved most, for finding the cause.
 */
async function layoutShiftOf(browser: Browser, url: string, cookie: string | null, waitFor: string): Promise<{ cls: number; sources: string[] }> {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  // a phone on a mobile network (Lighthouse's mobile figures, applied for real): late answers and
  // late chunks arrive after the first paint, where they would move what is on screen
  await page.emulateNetworkConditions({ download: (1.6 * 1024 * 1024) / 8, upload: (750 * 1024) / 8, latency: 150 });
  await page.emulateCPUThrottling(4);
  if (cookie) {
    const host = new URL(url).hostname;
    await page.setCookie(...cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/', httpOnly: true })));
  }
  await page.evaluateOnNewDocument(() => {
    const w = window as unknown as { __cls: { value: number; sources: Array<{ value: number; node: string }> } };
    w.__cls = { value: 0, sources: [] };
    const describe = (n: Node | null): string => {
      if (!n) return '(gone)';
      if (!(n instanceof Element)) return n.nodeName.toLowerCase();
      const cls = typeof n.className === 'string' && n.className.trim() ? `.${n.className.trim().split(/\s+/).slice(0, 3).join('.')}` : '';
      return `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${cls}`;
    };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) {
        if (e.hadRecentInput) continue;
        w.__cls.value += e.value;
        for (const src of e.sources ?? []) w.__cls.sources.push({ value: e.value, node: describe(src.node) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load', timeout: 90_000 });
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 60_000 }, waitFor).catch(() => {});
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 30_000 }).catch(() => {});
  await sleep(1000);
  for (let y = 0; y < 10; y++) {
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    await sleep(150);
  }
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 30_000 }).catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(300);
  const result = await page.evaluate(() => (window as any).__cls as { value: number; sources: Array<{ value: number; node: string }> });
  await ctx.close();
  const byNode = new Map<string, number>();
  for (const src of result.sources) byNode.set(src.node, Math.max(byNode.get(src.node) ?? 0, src.value));
  const sources = [...byNode].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, v]) => `${n} (${v.toFixed(3)})`);
  return { cls: result.value, sources };
}

async function initialLoad(browser: Browser, url: string, cookie: string | null, waitFor: string): Promise<Loaded> {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  if (cookie) {
    const host = new URL(url).hostname;
    await page.setCookie(...cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/', httpOnly: true })));
  }
  const pending: Array<Promise<void>> = [];
  const out: Loaded = { js: [], css: [] };
  let recording = true;
  page.on('response', (res) => {
    if (!recording) return;
    const u = new URL(res.url());
    const type = res.headers()['content-type'] ?? '';
    const kind = /javascript/.test(type) || u.pathname.endsWith('.js') ? 'js' : /text\/css/.test(type) || u.pathname.endsWith('.css') ? 'css' : null;
    if (!kind || res.status() !== 200) return;
    pending.push(
      res
        .buffer()
        .then((buf) => {
          out[kind].push({ file: u.pathname.replace(/^\/assets\//, ''), raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length });
        })
        .catch(() => {}),
    );
  });
  const inflight = new Set<string>();
  page.on('request', (r) => inflight.add(r.url()));
  page.on('requestfinished', (r) => inflight.delete(r.url()));
  page.on('requestfailed', (r) => inflight.delete(r.url()));
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: 30_000 }, waitFor).catch(() => {
    console.log(`  warning: "${waitFor}" did not appear on ${url}`);
  });
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 20_000 }).catch(() => {
    console.log(`  warning: the network did not go idle on ${url}; still pending: ${[...inflight].join(', ')}`);
  });
  recording = false;
  await Promise.all(pending);
  await ctx.close();
  return out;
}

function printLoad(name: string, l: Loaded, chunksOf: Map<string, string[]>) {
  const sum = (a: Loaded['js'], k: 'raw' | 'gzip') => a.reduce((x, y) => x + y[k], 0);
  console.log(`  ${name}: ${l.js.length} JS files, ${kB(sum(l.js, 'raw'))} raw, ${kB(sum(l.js, 'gzip'))} gzip; CSS ${kB(sum(l.css, 'gzip'))} gzip`);
  const top = [...l.js].sort((a, b) => b.gzip - a.gzip).slice(0, verbose ? 1000 : 8);
  for (const f of top) {
    const tags = chunksOf.get(f.file) ?? [];
    console.log(`      ${f.file.padEnd(44)} ${kB(f.gzip).padStart(9)} gzip${tags.length ? `  [${tags.join(', ')}]` : ''}`);
  }
  if (l.js.length > top.length) console.log(`      … and ${l.js.length - top.length} smaller files, ${kB(sum(l.js.filter((f) => !top.includes(f)), 'gzip'))} gzip together`);
  return sum(l.js, 'gzip');
}

async function lighthouseRun(browser: Browser, url: string) {
  const { default: lighthouse } = await import('lighthouse');
  const port = Number(new URL(browser.wsEndpoint()).port);
  const config = opts.desktop ? (await import('lighthouse/core/config/desktop-config.js')).default : undefined;
  const r = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'seo'], disableStorageReset: true }, config as any);
  if (!r) throw new Error('Lighthouse gave no result');
  const lhr: any = r.lhr;
  const a = lhr.audits;
  const failedA11y = (lhr.categories.accessibility.auditRefs as any[])
    .filter((ref) => ref.weight > 0 && a[ref.id]?.score !== null && a[ref.id]?.score < 1)
    .map((ref) => `${ref.id}: ${a[ref.id].title}${a[ref.id].details?.items?.length ? ` (${a[ref.id].details.items.length}×)` : ''}`);
  // what Lighthouse says would save the most (audits with estimated savings on LCP/FCP/TBT)
  const opportunities = Object.values(a as Record<string, any>)
    .filter((x) => x.score !== null && x.score < 0.9 && x.metricSavings && Object.values(x.metricSavings as Record<string, number>).some((v) => v >= 150))
    .map((x) => `${x.title} (${Object.entries(x.metricSavings as Record<string, number>).filter(([, v]) => v > 0).map(([k, v]) => `${k} −${Math.round(v)}${k === 'CLS' ? '' : ' ms'}`).join(', ')})`);
  // what moved (Lighthouse's layout-shifts audit: the elements of the largest shifts)
  const shifted = ((a['layout-shifts']?.details?.items ?? []) as any[])
    .slice(0, 3)
    .map((i) => `${i.node?.selector ?? i.node?.nodeLabel ?? '?'} (${Number(i.score ?? 0).toFixed(3)})`);
  const errors = [lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null, ...['first-contentful-paint', 'largest-contentful-paint'].map((id) => (a[id]?.errorMessage ? `${id}: ${a[id].errorMessage}` : null))].filter(Boolean) as string[];
  return {
    performance: lhr.categories.performance.score === null ? 'error' : Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    seo: lhr.categories.seo?.score == null ? '–' : Math.round(lhr.categories.seo.score * 100),
    fcp: a['first-contentful-paint']?.displayValue ?? '–',
    lcp: a['largest-contentful-paint']?.displayValue ?? '–',
    tbt: a['total-blocking-time']?.displayValue ?? '–',
    cls: a['cumulative-layout-shift']?.displayValue ?? '–',
    si: a['speed-index']?.displayValue ?? '–',
    failedA11y,
    opportunities,
    shifted,
    runWarnings: [...errors, ...((lhr.runWarnings ?? []) as string[])],
  };
}

// ============================================================================ main

async function main() {
  console.log(`\nCurio web budget — ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}, Node ${process.version}`);
  let dist = opts.dist;
  let builtHere = false;
  if (!dist) {
    section('Production build (vite, web/vite.config.ts)');
    // dist/ and dist-server/ side by side, as in web/ (serveWebBuild finds the server render beside the build)
    // inside the project: the server render (dist-server/entry-server.js) imports react & co. from
    // node_modules, which Node finds only from a directory below the project's
    const top = fs.mkdtempSync(path.join(ROOT, 'web', '.bench-build-'));
    dist = path.join(top, 'dist');
    builtHere = true;
    const t0 = Date.now();
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    let b = await run(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--outDir', dist, '--emptyOutDir']);
    if (b.code === 0) b = await run(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--ssr', 'src/entry-server.tsx', '--outDir', path.join(top, 'dist-server'), '--emptyOutDir']);
    if (b.code !== 0) {
      console.log(b.out.replace(/\x1b\[[0-9;]*m/g, '').slice(-3000));
      console.log('  FAIL  the production build failed (above): nothing to measure');
      fs.rmSync(top, { recursive: true, force: true });
      process.exit(1);
    }
    const files = fs.readdirSync(path.join(dist, 'assets'));
    console.log(`  built in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${files.filter((f) => f.endsWith('.js')).length} JS and ${files.filter((f) => f.endsWith('.css')).length} CSS files in ${dist}`);
  } else console.log(`  measuring the existing build in ${dist}`);
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing`);

  // Which chunks hold the heavy libraries (by their code, whatever the chunk names).
  const chunksOf = new Map<string, string[]>();
  const heavy: Record<string, RegExp> = { 'maps (Google Maps loader)': /maps\.googleapis\.com|maps\.gstatic\.com|google\.maps\./, 'video recording (MediaRecorder)': /MediaRecorder/ };
  for (const f of fs.readdirSync(path.join(dist, 'assets')).filter((x) => x.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(dist, 'assets', f), 'utf8');
    for (const [label, re] of Object.entries(heavy)) if (re.test(text)) chunksOf.set(f, [...(chunksOf.get(f) ?? []), label]);
  }

  // The app and its data.
  const base = process.env.DATABASE_URL && /^postgres(ql)?:/.test(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
  const dbName = `curio_bench_web_${process.pid}`;
  let dbUrl = '';
  if (base) {
    const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await admin.raw(`create database "${dbName}"`);
    await admin.destroy();
    const u = new URL(base);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-bench-web-'));
  let app: Awaited<ReturnType<typeof startChild>> | null = null;
  let browser: Browser | null = null;
  try {
    app = await startChild({ BENCH_DIST: dist, DATABASE_URL: dbUrl, DATA_DIR: dataDir, PORT: String(await freePort()) });
    const url = app.url;
    console.log(`\n  app at ${url} on ${base ? `PostgreSQL (${dbName})` : 'embedded PGlite in memory'}, with every plugin's seeds`);
    // A member with a little activity so that home is not empty.
    const reg = await api(url, 'POST', '/api/auth/register', { email: `benchweb${process.pid}@bench.test`, password: PASSWORD, firstName: 'Bench', lastName: 'Member', username: `benchweb${process.pid}` });
    if (reg.status !== 201) throw new Error(`registration failed: ${reg.status} ${JSON.stringify(reg.body)}`);
    const cookie = reg.cookie;
    const museums = (await api(url, 'GET', '/api/museums?pageSize=5&sort=popular')).body;
    const list: any[] = Array.isArray(museums) ? museums : (museums?.items ?? museums?.museums ?? []);
    const museum = list[0];
    if (!museum) throw new Error('no museum in the seeds');
    await api(url, 'POST', `/api/museums/${museum.id}/follow`, undefined, cookie);
    for (let i = 0; i < 3; i++) await api(url, 'POST', '/api/posts', { type: 'text', content: `A quiet morning in the galleries, note ${i + 1}`, tags: ['bench'], museumId: museum.id }, cookie);
    const photoPostId = await postPhotoInsight(url, cookie, museum.id);

    const { launchBrowser } = await import('../../core/testing/browser.ts');
    browser = await launchBrowser();

    section(`Initial JavaScript (fetched until network idle, cold cache; budget ≤ ${opts.budget} kB gzip)`);
    const pages = [
      { name: 'landing (signed out) /', path: '/', cookie: null, wait: 'Curio', budget: true, publicBudget: true },
      { name: 'home (signed in) /', path: '/', cookie, wait: 'quiet morning', budget: true, publicBudget: false },
      { name: 'discover (signed in) /discover', path: '/discover', cookie, wait: museum.name, budget: false, publicBudget: false },
      { name: `museum page (signed in) /museum/${museum.slug}`, path: `/museum/${museum.slug}`, cookie, wait: museum.name, budget: false, publicBudget: false },
      { name: `museum page (signed out, server-rendered) /museum/${museum.slug}`, path: `/museum/${museum.slug}`, cookie: null, wait: museum.name, budget: false, publicBudget: true },
    ];
    const loads = new Map<string, Loaded>();
    const totals = new Map<string, number>();
    for (const p of pages) {
      const l = await initialLoad(browser, url + p.path, p.cookie, p.wait);
      loads.set(p.name, l);
      totals.set(p.name, printLoad(p.name, l, chunksOf));
      console.log('');
    }
    for (const p of pages.filter((x) => x.budget)) check(totals.get(p.name)! <= opts.budget * 1000, `${p.name.split(' (')[0]}: initial JavaScript ≤ ${opts.budget} kB gzip`, kB(totals.get(p.name)!));
    // issue 19: the public pages a visitor lands on
    for (const p of pages.filter((x) => x.publicBudget)) check(totals.get(p.name)! <= opts.publicBudget * 1000, `${p.name.split(' /')[0]}: initial JavaScript ≤ ${opts.publicBudget} kB gzip`, kB(totals.get(p.name)!));

    section('Layout shift (CLS from the first paint until idle, 412 px phone; budget ≤ 0.1)');
    const shiftPages = [
      ...pages,
      { name: 'feed with a photo insight (signed in) /', path: '/', cookie, wait: 'The great hall', budget: false, publicBudget: false },
    ];
    for (const p of shiftPages) {
      const { cls, sources } = await layoutShiftOf(browser, url + p.path, p.cookie, p.wait);
      check(cls <= 0.1, `${p.name.split(' /')[0]}: CLS ≤ 0.1`, `${cls.toFixed(3)}${sources.length ? `; moved: ${sources.join(', ')}` : ''}`);
    }

    section('Heavy libraries load lazily');
    for (const label of Object.keys(heavy)) {
      const files = [...chunksOf].filter(([, tags]) => tags.includes(label)).map(([f]) => f);
      if (!files.length) {
        console.log(`  ${label}: no chunk contains it (feature absent?)`);
        continue;
      }
      const size = files.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist!, 'assets', f)), { level: 9 }).length, 0);
      const where = pages.filter((p) => loads.get(p.name)!.js.some((j) => files.includes(j.file))).map((p) => p.name.split(' (')[0]);
      console.log(`  ${label}: ${files.join(', ')} (${kB(size)} gzip); fetched at first paint by: ${where.length ? where.join(', ') : 'none of the measured pages'}`);
      check(!where.includes('landing') && !where.includes('home'), `${label} not in the landing and home pages' initial JavaScript`);
    }

    section('Images on the museum page at 390 px (device pixel ratio 2; the largest must be ≤ 100 kB)');
    const imgs = await imagesOf(browser, `${url}/museum/${museum.slug}`, cookie, museum.name);
    for (const i of imgs) console.log(`  ${kB(i.bytes).padStart(9)}  ${i.type.padEnd(11)} ${i.path}`);
    const largest = imgs.reduce((m, i) => Math.max(m, i.bytes), 0);
    console.log(`  ${imgs.length} images, ${kB(imgs.reduce((n, i) => n + i.bytes, 0))} in all (photo insight ${photoPostId} tagged to the museum)`);
    check(imgs.some((i) => /_w\d+\.(avif|webp|jpg)$/.test(i.path)), 'the photo insight is served as a responsive variant');
    check(largest <= 100_000, 'largest image on the museum page at 390 px ≤ 100 kB', kB(largest));

    if (!opts.skipLighthouse) {
      section(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} (${opts.desktop ? 'desktop' : 'mobile, simulated throttling'}; Debian's Chromium)`);
      const runs = [
        { name: 'landing', path: '/', signedIn: false },
        { name: 'museum', path: `/museum/${museum.slug}`, signedIn: false },
        { name: 'discover', path: '/discover', signedIn: false },
        { name: 'home', path: '/', signedIn: true },
        { name: 'museum (in)', path: `/museum/${museum.slug}`, signedIn: true },
      ];
      console.log('  page        performance  accessibility  SEO    FCP       LCP       TBT       CLS      Speed Index');
      const warnings: string[] = [];
      for (const r of runs) {
        if (r.signedIn) {
          const p = await browser.newPage();
          const host = new URL(url).hostname;
          await p.setCookie(...cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/', httpOnly: true })));
          await p.close();
        }
        // Lighthouse's storage reset would also drop the session cookie: clear only the cache, so
        // that every page is measured cold (warm it on the server first).
        const w = await browser.newPage();
        await w.goto(url + r.path, { waitUntil: 'load' }).catch(() => {});
        const cdp = await w.createCDPSession();
        await cdp.send('Network.clearBrowserCache');
        await w.close();
        try {
          const s = await lighthouseRun(browser, url + r.path);
          console.log(
            `  ${r.name.padEnd(11)} ${String(s.performance).padStart(11)}  ${String(s.accessibility).padStart(13)}  ${String(s.seo).padStart(3)}   ${String(s.fcp).padStart(8)}  ${String(s.lcp).padStart(8)}  ${String(s.tbt).padStart(8)}  ${String(s.cls).padStart(8)}  ${String(s.si).padStart(8)}`,
          );
          for (const f of s.failedA11y) warnings.push(`${r.name}: accessibility audit ${f}`);
          for (const o of s.opportunities) warnings.push(`${r.name}: opportunity — ${o}`);
          if (s.shifted.length) warnings.push(`${r.name}: layout shifts — ${s.shifted.join(', ')}`);
          for (const w of s.runWarnings) warnings.push(`${r.name}: Lighthouse warning — ${w}`);
        } catch (e) {
          console.log(`  ${r.name.padEnd(11)} Lighthouse failed: ${(e as Error).message}`);
          warnings.push(`${r.name}: Lighthouse failed`);
        }
      }
      if (warnings.length) {
        console.log('\n  warnings:');
        for (const w of [...new Set(warnings)]) console.log(`   - ${w}`);
      }
    }
  } finally {
    await browser?.close();
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (builtHere && !opts.keepDist) fs.rmSync(path.dirname(dist!), { recursive: true, force: true });
    if (base) {
      const a = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
      await a.raw(`drop database if exists "${dbName}" with (force)`);
      await a.destroy();
    }
  }
  section('Summary');
  for (const r of results) console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.label}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\n  ${results.length - failed} passed, ${failed} failed\n`);
  if (failed) process.exitCode = 1;
}

(process.env.CURIO_BENCH_CHILD === 'web' ? webChild() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
