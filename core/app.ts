import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import http from 'node:http';
import net from 'node:net';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import Koa from 'koa';
import Keygrip from 'keygrip';
import { bodyParser } from '@koa/bodyparser';
import send from 'koa-send';
import helmet from 'koa-helmet';
import compress from 'koa-compress';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ROOT, loadConfig, proxyHops, type CurioConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { openDatabase, DEFAULT_POOL_MAX, type Database } from './db.ts';
import { Admission, admissionMiddleware } from './admission.ts';
import { discoverPlugins, resolvePlugins, loadServerModule, type LoadedPlugin } from './plugins.ts';
import { migrateAll } from './migrate.ts';
import { SchemaRegistry, makeAjv } from './schemas.ts';
import { RouteRegistry, buildRouter } from './routes.ts';
import { EventBus } from './events.ts';
import { ServiceRegistry } from './services.ts';
import { PermissionRegistry } from './permissions.ts';
import { createStorage, UPLOADS_PREFIX, type Storage } from './storage.ts';
import { Drain } from './drain.ts';
import { discardUnreadBody } from './discard-body.ts';
import { Uploads } from './uploads.ts';
import { Jobs, every } from './jobs.ts';

/** Finished background jobs are kept this long (debugging, the record of deletions), then purged (config retention.jobRowsDays). */
export const JOB_ROWS_KEPT_DAYS = 14;
/** Once-keys of jobs (core_job_keys) are kept this long after their job ended (config retention.jobKeysDays). */
export const JOB_KEYS_KEPT_DAYS = 30;
/** The record of an email sent (core_mail_sent: key, address) is kept this long (config retention.mailSentDays). */
export const MAIL_SENT_KEPT_DAYS = 14;
export const JOB_ROWS_PURGE_JOB = 'core.jobs.purge';
import { Mailer } from './mail.ts';
import { HttpError, isHttpError, pgErrorToHttp } from './errors.ts';
import { runSeeds, type SeedTarget } from './seed.ts';
import { buildOpenApi } from './openapi.ts';
import { formatAjvErrors, summarize } from './shared/validation-messages.ts';
import { createMetrics } from './metrics.ts';
import { createStreamHub, STREAM_DEFAULTS, type LiveApi, type StreamHub } from './stream.ts';
import { backfillVariants, deletingVariants, IMAGE_VARIANTS_JOB, IMAGE_VARIANT_JOB, variantsOfStored } from './images.ts';
import type { PluginContext, PluginServer, RegisteredRoute } from './plugin-api.ts';

export const APP_NAME = 'Curio';
export const WEB_DIST = path.join(ROOT, 'web', 'dist');
/** The periodic job deleting unreferenced stored files (core/uploads.ts sweepStorage). */
export const STORAGE_SWEEP_JOB = 'core.storage-sweep';
/** the live-updates stream's route */
const STREAM_PATH = '/api/stream';
/** the health check, under its API path and its usual probe path */
const HEALTH_PATHS = ['/api/health', '/healthz'];

/**
 * What a plugin may ask of the HTML answer of a web page (set on `ctx.state.webPage` by a plugin
 * middleware before the SPA fallback runs): its status (404 for an unknown museum), tags for the
 * `<head>` (title, description, canonical, OpenGraph, JSON-LD; they replace index.html's own
 * `<title>` and description), server-rendered markup for `#root` (what a visitor without
 * JavaScript and a crawler read), and how the answer may be cached.
 */
export interface WebPageRender {
  status?: number;
  head?: string;
  body?: string;
  /** the newest change of the data shown (Last-Modified) */
  lastModified?: Date | null;
  /** the answer depends on the session (a signed-in visitor): never stored by shared caches */
  personal?: boolean;
  /**
   * API answers (SWR key → answer) the page carries for the web app (`<script id="curio-primed">`):
   * it starts with them instead of fetching them, and the server's React render reads them too.
   */
  primed?: Record<string, unknown>;
  /**
   * Render the web app itself at this URL on the server (web/dist-server, React) into `#root`, in
   * place of `body`, for the browser to hydrate; `body` stays the answer when that render is not
   * built or fails. Needs `primed['/api/config']`.
   */
  ssr?: boolean;
  /** the page's language (`<html lang>`, the server render's language) */
  locale?: string;
}

/** The web app's server render (web/src/entry-server.tsx). */
type SsrRender = (url: string, opts: { primed: Record<string, unknown>; locale: string; timeoutMs?: number }) => Promise<string>;
const ssrModules = new Map<string, Promise<SsrRender | null>>();
/**
 * The render of the build beside `root` (web/dist → web/dist-server/entry-server.js), loaded once
 * per process (its lazy chunks import it by its plain URL: a second copy under another URL would
 * split React contexts), so a rebuild takes a restart, like the server code.
 */
function serverRender(root: string): Promise<SsrRender | null> {
  const file = path.join(path.dirname(root), 'dist-server', 'entry-server.js');
  let load = ssrModules.get(file);
  if (!load) {
    if (!fs.existsSync(file)) return Promise.resolve(null);
    load = import(pathToFileURL(file).href).then(
      (m) => (typeof m.render === 'function' ? (m.render as SsrRender) : null),
      () => null,
    );
    ssrModules.set(file, load);
  }
  return load;
}

/** JSON inside a <script> element: nothing in it can close the element. */
const scriptJson = (v: unknown): string =>
  JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const indexCache = new Map<string, { mtimeMs: number; html: string; css: string[] }>();
/** index.html, and the build's other stylesheets (the lazy pages' CSS) */
function readIndex(file: string): { html: string; css: string[] } {
  const st = fs.statSync(file);
  const hit = indexCache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs) return hit;
  const html = fs.readFileSync(file, 'utf8');
  let css: string[] = [];
  try {
    css = fs
      .readdirSync(path.join(path.dirname(file), 'assets'))
      .filter((f) => f.endsWith('.css'))
      .map((f) => `/assets/${f}`)
      .filter((href) => !html.includes(href))
      .sort();
  } catch {
    css = [];
  }
  const entry = { mtimeMs: st.mtimeMs, html, css };
  indexCache.set(file, entry);
  return entry;
}

/**
 * index.html with a plugin's page render put in: head tags, the primed answers, #root's markup
 * (`ssrHtml`: the web app's own server render, marked data-ssr for main.tsx to hydrate; its CSS
 * then loads as a stylesheet, not the boot screen's preload, so the markup shows styled).
 */
export function renderIndex(html: string, page: WebPageRender, ssrHtml?: string | null, pageCss: string[] = []): string {
  let out = html;
  if (page.locale && /^[a-z]{2}(-[A-Za-z]{2})?$/.test(page.locale)) out = out.replace(/<html lang="[^"]*"/, `<html lang="${page.locale}"`);
  if (page.primed) out = out.replace('</head>', `    <script type="application/json" id="curio-primed">${scriptJson(page.primed)}</script>\n  </head>`);
  if (page.head) {
    if (/<title>/i.test(page.head)) out = out.replace(/<title>[\s\S]*?<\/title>\s*/i, '');
    if (/<meta name="description"/i.test(page.head)) out = out.replace(/<meta name="description"[^>]*>\s*/i, '');
    out = out.replace('</head>', `${page.head}\n  </head>`);
  }
  const inner = ssrHtml ?? page.body;
  if (inner !== undefined) {
    const start = out.indexOf('<div id="root">');
    const end = out.indexOf('</div></div>', start);
    if (start >= 0 && end > start) out = `${out.slice(0, start)}<div id="root"${ssrHtml ? ' data-ssr=""' : ''}>${inner}</div>${out.slice(end + '</div></div>'.length)}`;
  }
  if (ssrHtml) {
    out = out.replace(/<link rel="preload" as="style"([^>]*) data-curio-style>/g, '<link rel="stylesheet"$1>');
    // the lazy pages' styles too: the markup is theirs, and must not move when their chunk loads
    if (pageCss.length) out = out.replace('</head>', `${pageCss.map((href) => `    <link rel="stylesheet" crossorigin href="${href}">`).join('\n')}\n  </head>`);
  }
  return out;
}

/**
 * Serves a production build of the web app (web/dist here; the web benchmark serves its own build
 * with it): its files, the hashed /assets cached for a year, each as the .br or .gz copy the build
 * wrote beside it when the browser accepts one (else koa-compress compresses it), and index.html
 * for every other GET, the web app's own routes. A page a plugin rendered (`ctx.state.webPage`)
 * is index.html with that render put in, with an ETag (304 on revalidation) and Last-Modified.
 */
export function serveWebBuild(root: string): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api') || ctx.path.startsWith('/uploads/') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (!fs.existsSync(path.join(root, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built yet: run `npm run build:web`.';
      return;
    }
    ctx.vary('Accept-Encoding');
    const rel = ctx.path.replace(/^\/+/, '');
    if (rel && !rel.includes('..') && fs.existsSync(path.join(root, rel)) && fs.statSync(path.join(root, rel)).isFile()) {
      const hashed = rel.startsWith('assets/');
      await send(ctx, rel, { root, maxage: hashed ? 31536000000 : 0, immutable: hashed, brotli: true, gzip: true });
      if (!hashed) ctx.set('Cache-Control', 'no-cache');
      return;
    }
    // the visitor's theme (web/src/lib/theme.ts: the curio-theme cookie) on <html>, so the first
    // paint is already light or dark; "system" (no cookie) leaves it to prefers-color-scheme
    const themeCookie = ctx.cookies.get('curio-theme');
    const theme = themeCookie === 'light' || themeCookie === 'dark' ? themeCookie : null;
    const page = ctx.state.webPage as WebPageRender | undefined;
    if (page) {
      let ssrHtml: string | null = null;
      if (page.ssr && page.primed?.['/api/config'] && ctx.method === 'GET') {
        const render = await serverRender(root);
        if (render) {
          try {
            ssrHtml = await render(ctx.url, { primed: page.primed, locale: page.locale ?? 'en', timeoutMs: 5000 });
          } catch (err) {
            // the page's own markup still answers; the browser renders the app
            (ctx as any).log?.warn?.({ err, url: ctx.url }, 'server render failed');
          }
        }
      }
      const index = readIndex(path.join(root, 'index.html'));
      const html = withTheme(renderIndex(index.html, page, ssrHtml, index.css), theme);
      ctx.status = page.status ?? 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.vary('Cookie');
      // HTML is revalidated at most a minute later (shared caches: only what no session shaped)
      ctx.set('Cache-Control', page.personal ? 'private, no-cache' : 'public, max-age=60, must-revalidate');
      ctx.set('ETag', `W/"${crypto.createHash('sha1').update(html).digest('base64url').slice(0, 27)}"`);
      if (page.lastModified) ctx.lastModified = page.lastModified;
      ctx.body = html;
      if (ctx.status === 200 && ctx.fresh) {
        ctx.status = 304;
        ctx.body = null;
      }
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Cookie');
    if (theme) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = withTheme(readIndex(path.join(root, 'index.html')).html, theme);
      return;
    }
    await send(ctx, 'index.html', { root, brotli: true, gzip: true });
  };
}

/** `<html … data-theme="dark">` for a visitor who chose a theme (none: the system's). */
export function withTheme(html: string, theme: 'light' | 'dark' | null): string {
  if (!theme) return html;
  return html.replace(/<html(\s[^>]*)?>/, (tag) => (/\sdata-theme=/.test(tag) ? tag.replace(/\sdata-theme="[^"]*"/, ` data-theme="${theme}"`) : tag.replace(/>$/, ` data-theme="${theme}">`)));
}

export interface CurioApp {
  config: CurioConfig;
  koa: Koa;
  server: http.Server | null;
  url: string;
  db: Database;
  knex: Knex;
  log: Logger;
  plugins: LoadedPlugin[];
  enabled: ReadonlySet<string>;
  routes: RegisteredRoute[];
  schemas: SchemaRegistry;
  events: EventBus;
  services: ServiceRegistry;
  permissions: PermissionRegistry;
  jobs: Jobs;
  /** live updates: publish to members' open streams (GET /api/stream) */
  live: LiveApi;
  stream: StreamHub;
  mail: Mailer;
  /** where uploads are stored (local disk or a bucket) */
  storage: Storage;
  /** graceful shutdown: `drain.onDrain(fn)` closes long-lived answers (SSE); `drain.draining` */
  drain: Drain;
  contexts: Map<string, PluginContext>;
  servers: Map<string, PluginServer>;
  seed(opts?: { onlyFirstTime?: boolean; bar?: boolean }): Promise<string[]>;
  listen(): Promise<string>;
  close(): Promise<void>;
  openapi(): unknown;
}

export interface CreateAppOptions {
  config?: CurioConfig;
  /** config overrides (tests) */
  overrides?: Record<string, unknown>;
  /** an already open database (tests, scripts) */
  db?: Database;
  /** embedded database in memory (tests) */
  memory?: boolean;
  /** registration only: no database work, no listening (code generation) */
  describeOnly?: boolean;
  logger?: Logger;
  startJobs?: boolean;
}

function sessionKeys(config: CurioConfig): string[] {
  if (config.sessionKeys.length) return config.sessionKeys;
  const file = path.join(config.dataDir, 'session.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
  return [fs.readFileSync(file, 'utf8').trim()];
}

/**
 * The signed-cookie keys, as a Keygrip that remembers the signatures it has verified (issue 18).
 * Every signed-in request checks its session cookie's signature, and cookies' Keygrip spends three
 * HMACs on it (its own, and tsscmp's two for a constant-time comparison): about 8 % of a feed
 * request's CPU in the profile. A (value, signature) pair already verified is verified again by a
 * lookup; only valid pairs are kept (junk cannot push them out), at most 10,000, forgotten all at
 * once when full. Indexable like the array of keys (`keys[0]`) for code that reads the first key.
 */
export function rememberingKeygrip(keys: string[]): Keygrip & Record<number, string> & { length: number } {
  const grip = new Keygrip(keys);
  const known = new Map<string, number>();
  const index = (data: string, digest: string): number => {
    const key = `${digest}\n${data}`;
    const seen = known.get(key);
    if (seen !== undefined) return seen;
    const i = grip.index(data, digest);
    if (i > -1) {
      if (known.size >= 10_000) known.clear();
      known.set(key, i);
    }
    return i;
  };
  const out: any = { sign: (data: string) => grip.sign(data), verify: (data: string, digest: string) => index(data, digest) > -1, index, length: keys.length };
  keys.forEach((k, i) => (out[i] = k));
  return out;
}

function pluginConfig(p: LoadedPlugin, config: CurioConfig): Record<string, any> {
  const raw = structuredClone(config.plugins.config[p.manifest.id] ?? {});
  const schema = p.manifest.configSchema;
  if (!schema) return raw;
  const ajv = makeAjv();
  const v = ajv.compile(structuredClone(schema));
  if (!v(raw)) {
    const errs = formatAjvErrors((v.errors ?? []) as any, schema);
    throw new Error(
      `Invalid configuration:\n${errs.map((e) => `  - plugins.config.${p.manifest.id}${e.path.replace(/\//g, '.')}: ${e.message}`).join('\n')}`,
    );
  }
  return raw;
}

/**
 * A body the parser could not read because of its Content-Encoding is the client's mistake: an encoding
 * nobody supports is 415, a body that is not what its Content-Encoding says (plain JSON labelled gzip,
 * br or deflate; a truncated stream) is 400. Everything else goes on to the error handler as before.
 */
function bodyError(err: any, ctx: Koa.Context): never {
  const encoding = String(ctx.get('content-encoding') || 'identity').slice(0, 40);
  if (err?.status === 415 && /content-encoding/i.test(err?.message ?? '')) {
    throw new HttpError(415, `Unsupported Content-Encoding "${encoding}": send the body as identity, gzip, deflate or br`);
  }
  // zlib's and brotli's stream errors: Z_DATA_ERROR, Z_BUF_ERROR, ERR__ERROR_FORMAT_…, ERR_BROTLI_…
  if (typeof err?.code === 'string' && /^(Z_|ERR__|ERR_BROTLI|ERR_ZLIB)/.test(err.code)) {
    throw new HttpError(400, `The request body is not valid ${encoding} data, as its Content-Encoding says`);
  }
  throw err;
}

/**
 * The headers a middleware sets whatever the request (helmet's), read once by running it on a
 * request that has nothing in it.
 */
export async function fixedHeaders(mw: Koa.Middleware): Promise<Array<[string, string | string[]]>> {
  const probe = new Koa();
  const req = new http.IncomingMessage(new net.Socket());
  req.method = 'GET';
  req.url = '/';
  const res = new http.ServerResponse(req);
  await mw(probe.createContext(req, res), async () => {});
  return Object.entries(res.getHeaders()).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]);
}

/** Whether an origin may make state-changing requests: the configured ones (a set built once), or the app's own. */
function originAllowed(configured: ReadonlySet<string>, ctx: Koa.Context, source: string): boolean {
  // Koa 3's ctx.origin echoes the Origin header; the app's own origin is protocol + Host.
  return configured.has(source) || source === `${ctx.protocol}://${ctx.host}`;
}

/** A state-changing request from another origin (by Origin, else Referer) is refused with 403. */
function refuseCrossOrigin(configured: ReadonlySet<string>, ctx: Koa.Context): void {
  const origin = ctx.get('origin');
  let source = origin && origin !== 'null' ? origin : '';
  if (!source && origin === 'null') throw new HttpError(403, 'Cross-origin request refused');
  if (!source) {
    const ref = ctx.get('referer');
    if (ref) {
      try {
        source = new URL(ref).origin;
      } catch {
        throw new HttpError(403, 'Cross-origin request refused');
      }
    }
  }
  if (source && !originAllowed(configured, ctx, source)) throw new HttpError(403, 'Cross-origin request refused');
}

/** An error thrown under the error handler as the answer: its status and JSON `message`; anything unknown is logged and a 500 with the request id. */
function answerError(ctx: Koa.Context, err: any): void {
  let e: HttpError | null = null;
  if (isHttpError(err)) e = err;
  else if (err?.type === 'entity.parse.failed' || (err?.status === 400 && /json/i.test(err?.message ?? ''))) e = new HttpError(400, 'Malformed JSON body');
  // co-body (through @hapi/bourne) refuses "__proto__" keys with a bare SyntaxError: a client error, not a 500.
  else if (err?.name === 'SyntaxError' && /forbidden prototype property/.test(err?.message ?? '')) e = new HttpError(400, 'Malformed JSON body');
  else if (err?.type === 'entity.too.large' || err?.status === 413) e = new HttpError(413, 'Request body too large');
  else if (err?.status === 415) e = new HttpError(415, 'Unsupported content type');
  else if (err?.code && typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) e = pgErrorToHttp(err);
  else if (err?.expose && err?.status >= 400 && err?.status < 500) e = new HttpError(err.status, err.message);
  if (e) {
    if (err !== e && e.status === 409) (ctx as any).log.warn({ err }, 'database constraint');
    ctx.status = e.status;
    for (const [k, v] of Object.entries(e.headers ?? {})) ctx.set(k, v);
    ctx.body = { message: e.message, ...(e.errors ? { errors: e.errors } : {}) };
  } else {
    (ctx as any).log.error({ err, method: ctx.method, url: ctx.url }, 'unhandled error');
    ctx.status = 500;
    ctx.body = { message: 'Internal server error occurred', requestId: ctx.state.requestId };
  }
}

export async function createApp(opts: CreateAppOptions = {}): Promise<CurioApp> {
  const config = opts.config ?? loadConfig(opts.overrides ?? {});
  const log = opts.logger ?? createLogger(config);
  const manifests = await discoverPlugins();
  const plugins = resolvePlugins(manifests, config.plugins.disabled);
  const enabled = new Set(plugins.filter((p) => p.enabled).map((p) => p.manifest.id));

  let db: Database;
  if (opts.db) db = opts.db;
  else if (opts.describeOnly) {
    const { default: knexFactory } = await import('knex');
    const k = knexFactory({ client: 'pg' });
    db = { knex: k, kind: 'postgres', close: () => k.destroy() };
  } else db = await openDatabase(config, { memory: opts.memory });
  const knex = db.knex;

  try {
    if (!opts.describeOnly) await migrateAll(knex, plugins, (m) => log.debug(m));
  } catch (e) {
    if (!opts.db) await db.close();
    throw e;
  }

  // Behind N trusted proxies, the client address is X-Forwarded-For's N-th entry from the right.
  const hops = proxyHops(config);
  const koa = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  koa.keys = rememberingKeygrip(sessionKeys(opts.describeOnly ? { ...config, sessionKeys: ['describe-only-key-000000'] } : config));
  koa.silent = true;
  const schemas = new SchemaRegistry();
  schemas.addDir(path.join(ROOT, 'schemas'), 'shared');
  const routeRegistry = new RouteRegistry();
  const events = new EventBus(log, config.deferredBacklog);
  const services = new ServiceRegistry();
  const permissions = new PermissionRegistry();
  // deleting a master image deletes its responsive variants with it, and its core_images row (core/images.ts)
  const storage = deletingVariants(await createStorage(config), opts.describeOnly ? undefined : knex);
  const uploads = new Uploads(config.dataDir, storage);
  const drain = new Drain();
  const jobs = new Jobs(knex, log, { pollMs: config.validateResponses ? 200 : 1000, schedules: config.scheduledJobs !== false });
  const mail = new Mailer(config, knex, jobs, log.child({ service: 'mail' }));
  if (!opts.describeOnly) {
    // What crashed or stopped processes left half-uploaded.
    const left = await uploads.sweepTemporary();
    if (left.length) log.info({ removed: left }, 'removed temporary upload folders of stopped processes');
  }
  // Hourly: stored files no plugin's rows reference (plugins declare theirs with ctx.uploads.ownFiles) and stale temporary folders.
  jobs.repeat(STORAGE_SWEEP_JOB, every(60 * 60 * 1000), async (_payload, h) => {
    const tmp = await uploads.sweepTemporary();
    const r = await uploads.sweepStorage();
    if (r.deleted.length) h.log.info({ deleted: r.deleted.length, checked: r.checked }, 'deleted unreferenced stored files');
    return { checked: r.checked, deleted: r.deleted.length, temporaryFolders: tmp.length };
  });
  // One-off (npm run images:variants): responsive variants of images stored before they existed.
  // Per upload: the variants of each image stored through Uploads (queued by processImage / queueVariants).
  jobs.define(IMAGE_VARIANT_JOB, async (payload: { key: string }) => variantsOfStored(storage, String(payload.key), knex));
  uploads.onImageStored = (key) => jobs.enqueue(IMAGE_VARIANT_JOB, { key }, { uniqueKey: `${IMAGE_VARIANT_JOB}:${key}`, maxAttempts: 2 });
  jobs.define(IMAGE_VARIANTS_JOB, async (_payload, h) => backfillVariants(uploads, storage, (done, total) => h.progress(done, total), h.log, knex));
  // Hourly: what the jobs and the mailer keep only for a while (PRIVACY.md), each window from config.retention.
  jobs.repeat(JOB_ROWS_PURGE_JOB, every(60 * 60 * 1000), async (_payload, h) => purgeJobRecords(knex, h.now, config.retention));
  const pluginMiddleware: Koa.Middleware[] = [];
  const publicPluginConfig: Record<string, Record<string, string | number | boolean | null>> = {};
  /** GET /api/config's answer, written at its first request */
  let configJson: string | null = null;
  const contexts = new Map<string, PluginContext>();
  const servers = new Map<string, PluginServer>();
  // four requests in the work per pooled connection: each spends part of its time in the app's own code
  const admission = new Admission(config.maxInFlight ?? 4 * ((knex.client as any).config?.pool?.max ?? DEFAULT_POOL_MAX));
  // the deferred lanes hold places at that door while they run (up to half): under load they get their turn
  events.useGate(admission);
  const metrics = createMetrics(knex, { admission, token: config.metricsToken, open: config.metricsPublic, deferredBacklog: () => events.backlog, deferredByPlugin: () => events.backlogByPlugin() });
  const stream = createStreamHub({
    knex,
    kind: db.kind,
    databaseUrl: config.databaseUrl,
    pglite: db.pglite,
    log: log.child({ module: 'stream' }),
    config: { ...STREAM_DEFAULTS, ...(config.stream ?? {}) },
    registry: metrics.registry,
  });
  routeRegistry.add('core', {
    method: 'GET',
    path: STREAM_PATH,
    operationId: 'openStream',
    summary:
      'Server-sent events for the signed-in member (one per tab): message.created, conversation.read, notification.created, post.commented, feed.new. ' +
      'A comment line every 25 s; Last-Event-ID (or ?lastEventId=) resumes the events of the last 5 minutes.',
    auth: 'required',
    raw: true,
    rawContentType: 'text/event-stream',
    schema: { query: { type: 'object', additionalProperties: false, properties: { lastEventId: { type: 'string', pattern: '^[0-9]{1,18}$' } } } },
    handler: (c) => stream.handle(c as any, c.user!.id),
  });

  for (const p of plugins) {
    const id = p.manifest.id;
    // Schemas are registered for every plugin so that $refs between plugins resolve; routes only for enabled ones.
    schemas.addDir(path.join(p.dir, 'schemas'), id);
  }

  for (const p of plugins) {
    if (!p.enabled) continue;
    const id = p.manifest.id;
    const server = await loadServerModule(p);
    const ctx: PluginContext = {
      id,
      config: pluginConfig(p, config),
      appConfig: config,
      db: knex,
      log: log.child({ plugin: id }),
      routes: { add: (def) => routeRegistry.add(id, def as any) },
      schemas: { add: (s) => schemas.add(s, id), registry: schemas },
      events: { on: (name, fn, o) => events.on(name, fn as any, id, o), emit: (name, payload) => events.emit(name, payload), defer: (name, payload) => events.defer(name, payload), after: (fn) => events.after(id, fn) },
      permissions,
      services,
      middleware: { use: (fn) => pluginMiddleware.push(fn) },
      storage,
      uploads,
      jobs,
      live: stream.api,
      mail,
      app: koa,
      enabled,
      publicConfig: {
        set: (key, value) => {
          (publicPluginConfig[id] ??= {})[key] = value;
          configJson = null;
        },
      },
    };
    contexts.set(id, ctx);
    if (server) {
      servers.set(id, server);
      await server.register(ctx);
    }
  }
  for (const [id, server] of servers) await server.bootstrap?.(contexts.get(id)!);

  const routes = routeRegistry.routes;
  const openapiDoc = () => buildOpenApi(schemas, routes, enabled);

  // ---- middleware ----
  // Behind N trusted proxies, X-Forwarded-Proto and X-Forwarded-Host are read like the client
  // address: the value the N-th proxy from us wrote (N-th from the right of a list), never the
  // left-most one a client may have sent (Koa reads the left-most). A proxy that overwrites the
  // header (deploy/nginx.ts) leaves one value, used as is.
  if (hops > 0) {
    koa.use(async (ctx, next) => {
      for (const name of ['x-forwarded-proto', 'x-forwarded-host']) {
        const raw = ctx.req.headers[name];
        const value = Array.isArray(raw) ? raw.join(',') : raw;
        if (!value || !value.includes(',')) continue;
        const list = value.split(',').map((v) => v.trim());
        ctx.req.headers[name] = list[Math.max(0, list.length - hops)];
      }
      await next();
    });
  }
  // the request's logger (ctx.log) is made when something logs (most requests log one line, below):
  // one getter on the app's context prototype, not a property defined on every request
  const REQ_LOG = Symbol('curio.reqLog');
  Object.defineProperty(koa.context, 'log', {
    configurable: true,
    get(this: Koa.Context & { [REQ_LOG]?: Logger }) {
      return (this[REQ_LOG] ??= log.child({ reqId: this.state.requestId }));
    },
  });
  const ID_HEADER = /[^\w-]/g;

  // gzip/brotli for compressible answers (JSON, JS, CSS, HTML) over 1 KB, error answers included;
  // media is left alone. Outermost: it only marks the answer (Vary) before, and wraps the final body after.
  koa.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));

  // helmet's headers depend on no request: computed once at start (the same headers, the same
  // values), then set with one loop per answer instead of helmet building them each time (issue 18).
  const securityHeaders = await fixedHeaders(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'none'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          scriptSrc: ["'self'", 'https://maps.googleapis.com', 'https://maps.gstatic.com'],
          styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
          fontSrc: ["'self'", 'data:', 'https://fonts.gstatic.com'],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:'],
          connectSrc: ["'self'", 'https://maps.googleapis.com'],
          workerSrc: ["'self'", 'blob:'],
          frameSrc: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: hops > 0 ? undefined : false,
    } as any),
  );
  const configuredOrigins: ReadonlySet<string> = new Set([...config.allowedOrigins, ...(config.publicOrigin ? [config.publicOrigin] : [])]);

  // What every request goes through, in this order, as one middleware (issue 18: six layers of
  // koa-compose were six promise chains and bound dispatchers per request, for a few lines each):
  //  1. the request id (X-Request-Id, given by a proxy or made here) and, at the end, the request's
  //     log line (every /api request and every 5xx) with it;
  //  2. draining behind a balancer that retries a 503 on another process (deploy/nginx.ts says so with
  //     `X-Balancer-Retries: 503`): GET and HEAD are refused at once, before any work, so nginx sends
  //     them to another process and marks this one down (max_fails) and stops sending here before the
  //     listener closes (connections still in its accept queue then would be reset, and nginx retries
  //     no POST it has sent). Other methods are served as usual, with `Connection: close`;
  //  3. the security headers, so that every answer carries them (/metrics and uploads included);
  //  4. GET /metrics, and for every other request its count and latency per route and final status
  //     (outside the error handler, so they see the status it chose);
  //  5. the error handler: every error leaves as JSON with `message`, never a bare 500;
  //  6. refusal of cross-origin state-changing requests (the client sends no CSRF token; Origin is the check),
  //     and their wait while the work deferred after answers is far behind (events.room);
  //  7. at the end, the rest of a body nobody read (an early answer) is read and dropped (discard-body.ts).
  koa.use(async function curioRequest(ctx, next) {
    const res = ctx.res;
    const given = ctx.req.headers['x-request-id'];
    const requestId = (typeof given === 'string' && given ? given.slice(0, 64).replace(ID_HEADER, '') : '') || crypto.randomUUID();
    ctx.state.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      const method = ctx.method;
      if (drain.draining && (method === 'GET' || method === 'HEAD') && ctx.get('x-balancer-retries') === '503') {
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.body = { status: 'draining', message: 'This server is restarting; try again' };
        return;
      }
      for (let i = 0; i < securityHeaders.length; i++) res.setHeader(securityHeaders[i][0], securityHeaders[i][1]);
      if (method === 'GET' && ctx.path === '/metrics') {
        await metrics.serve(ctx);
        return;
      }
      try {
        if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
          refuseCrossOrigin(configuredOrigins, ctx);
          // when the work deferred after answers has fallen far behind, a write waits for room before it
          // adds more (core/events.ts), for at most maxWaitMs: writes slow down to that work's pace
          // without being held past a client's patience
          if (events.backlogged) await events.room();
        }
        await next();
        if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
          ctx.status = 404;
          ctx.body = { message: `No route for ${ctx.method} ${ctx.path}` };
        }
      } catch (err: any) {
        answerError(ctx, err);
      } finally {
        metrics.record(ctx, started);
      }
    } finally {
      // a body answered before it was read to its end (a parser's error, an early refusal) is read and
      // dropped, so that the connection serves the client's next request
      if (!ctx.req.complete) discardUnreadBody(ctx.req, res);
      const level = ctx.status >= 500 ? 'error' : 'info';
      if ((ctx.status >= 500 || ctx.path.startsWith('/api/')) && log.isLevelEnabled(level)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const reqLog = (ctx as any)[REQ_LOG] as Logger | undefined;
        (reqLog ?? log)[level]({ ...(reqLog ? {} : { reqId: requestId }), method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(ms * 10) / 10, userId: ctx.state.user?.id }, 'request');
      }
    }
  });

  // stored files under /uploads/; every other path goes straight on (no layer of the store's own: issue 18)
  const serveUploads = storage.middleware();
  koa.use((ctx, next) => (ctx.path.startsWith(UPLOADS_PREFIX) ? serveUploads(ctx, next) : next()));
  // DELETE carries a JSON body on some routes (DELETE /api/admin/delete-user, member content): parse it too.
  // Other methods go straight on (no layer of the parser's own: issue 18).
  const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
  const parseBody = bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', encoding: 'utf-8', parsedMethods: BODY_METHODS, onError: bodyError } as any);
  // then admission: at most maxInFlight requests go further at once, the others wait their turn (core/admission.ts)
  // not the stream (open for hours) nor health checks (a balancer must see them answered while the app is busy)
  const admit = admissionMiddleware(admission, new Set([STREAM_PATH, ...HEALTH_PATHS]));
  koa.use((ctx, next) => (BODY_METHODS.includes(ctx.method) ? parseBody(ctx, () => admit(ctx, next)) : admit(ctx, next)));
  for (const fn of pluginMiddleware) koa.use(fn);

  const core = buildCoreRoutes();
  function buildCoreRoutes() {
    // not async: other requests go straight on (issue 18)
    return (ctx: Koa.Context, next: Koa.Next): Promise<unknown> => {
      if (ctx.method !== 'GET') return next();
      const at = ctx.path;
      if (at === '/api/config') {
        // the same for every request: its JSON is written once (again after a plugin's publicConfig.set)
        configJson ??= JSON.stringify({
          appName: APP_NAME,
          plugins: plugins.filter((p) => p.enabled).map((p) => p.manifest.id),
          googleMapsConfigured: Boolean(config.googleMapsApiKey),
          locales: ['en', 'fr'],
          pluginConfig: publicPluginConfig,
        });
        ctx.type = 'application/json';
        ctx.body = configJson;
        return Promise.resolve();
      }
      if (at === '/api/openapi.json') {
        ctx.body = openapiDoc();
        return Promise.resolve();
      }
      if (HEALTH_PATHS.includes(at)) return health(ctx);
      return next();
    };
  }
  async function health(ctx: Koa.Context) {
    if (drain.draining) {
      // shutting down: the balancer stops sending here
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
    try {
      await knex.raw('select 1');
      ctx.body = { status: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', message: 'Database unavailable' };
    }
  }
  koa.use(core);
  const router = buildRouter(schemas, routes, { enabled: new Set([...enabled, 'core']), permissions, validateResponses: config.validateResponses });
  koa.use(router.routes());
  koa.use(router.allowedMethods({ throw: false }));

  // The built web app, with the SPA fallback to index.html.
  if (config.serveWeb) koa.use(serveWebBuild(WEB_DIST));

  let server: http.Server | null = null;
  let url = '';
  const app: CurioApp = {
    config,
    koa,
    get server() {
      return server;
    },
    get url() {
      return url;
    },
    db,
    knex,
    log,
    plugins,
    enabled,
    routes,
    schemas,
    events,
    services,
    permissions,
    jobs,
    live: stream.api,
    stream,
    mail,
    storage,
    drain,
    contexts,
    servers,
    openapi: openapiDoc,
    async seed(o = {}) {
      const targets: SeedTarget[] = [];
      for (const [id, s] of servers) targets.push({ id, server: s, ctx: contexts.get(id)! });
      return runSeeds(knex, targets, { onlyFirstTime: o.onlyFirstTime ?? false, bar: o.bar ?? false, log: (m) => log.info(m) });
    },
    async listen() {
      server = http.createServer(koa.callback());
      drain.track(server);
      // Longer than clients' and load balancers' idle timeouts, so the server never closes a kept-alive
      // socket just as a client reuses it (a POST on such a socket fails with ECONNRESET).
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      const addr = server.address() as { port: number };
      const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      url = `http://${host}:${addr.port}`;
      mail.setListenOrigin(url);
      if (opts.startJobs !== false) jobs.start();
      await stream.start();
      // what start-up logged (warnings included) leaves now, not with the next batch (core/logger.ts)
      log.flush();
      return url;
    },
    async close() {
      // Stop claiming jobs at once; the listener closes after drainDelayMs; requests in flight
      // (uploads) and running jobs get drainTimeoutMs, then connections are cut and jobs released.
      const timeoutMs = config.drainTimeoutMs ?? 30_000;
      const jobsDone = jobs.stopAndRelease((config.drainDelayMs ?? 0) + timeoutMs).then((n) => {
        if (n) log.warn({ released: n }, 'running jobs released back to the queue');
      });
      await drain.run(server, { delayMs: config.drainDelayMs ?? 0, timeoutMs, onError: (err) => log.error({ err }, 'drain hook failed') });
      await jobsDone;
      // what answered requests left to do after their answer (notifications, badges)
      await events.settled();
      await stream.stop();
      for (const s of servers.values()) await s.stop?.();
      storage.close?.();
      mail.close();
      if (!opts.db) await db.close();
    },
  };
  return app;
}

export { summarize };

/**
 * The hourly purge (core.jobs.purge) of what background work keeps only for a while:
 * - once-keys (core_job_keys) older than jobKeysDays whose job is not pending (queued, running,
 *   or waiting for its retry) and did not end within those days. A key is what stops a job from
 *   being queued twice (enqueueOnce): a caller may ask again while its job waits (a reminder queued
 *   weeks ahead) and for a while after it ran (the reminder scan asks until the event starts,
 *   up to ~31 hours after the evening-before reminder; a digest for the hour it is due), never
 *   days later, so the window only needs to outlive that. Keys are purged before the job rows,
 *   whose end they are measured against; a key whose job row is gone (finished more than
 *   jobRowsDays ago, or never written) goes once it is old enough itself.
 * - records of emails sent (core_mail_sent) older than mailSentDays, unless their send job is
 *   still pending: the record is read only by that job (a retry after the message left must
 *   not send it again), and keeps an address, so it goes soon after.
 * - finished job rows (core_jobs) older than jobRowsDays (their payloads may name members).
 */
export async function purgeJobRecords(knex: Knex, now: Date, retention: CurioConfig['retention'] = {}): Promise<{ deleted: number; jobKeys: number; mailSent: number }> {
  const day = 86400_000;
  const keysBefore = new Date(now.getTime() - (retention?.jobKeysDays ?? JOB_KEYS_KEPT_DAYS) * day);
  const mailBefore = new Date(now.getTime() - (retention?.mailSentDays ?? MAIL_SENT_KEPT_DAYS) * day);
  const jobsBefore = new Date(now.getTime() - (retention?.jobRowsDays ?? JOB_ROWS_KEPT_DAYS) * day);
  const keys = await knex.raw(
    `delete from core_job_keys k
      where k.created_at < ?
        and not exists (select 1 from core_jobs j where j.id = k.job_id and (j.status in ('queued', 'running') or j.finished_at is null or j.finished_at >= ?))
      returning k.key`,
    [keysBefore, keysBefore],
  );
  const mail = await knex.raw(
    `delete from core_mail_sent m
      where m.sent_at < ?
        and not exists (select 1 from core_jobs j where j.unique_key = 'mail:' || m.key and j.status in ('queued', 'running'))
      returning m.key`,
    [mailBefore],
  );
  const gone = await knex('core_jobs').whereIn('status', ['done', 'failed']).where('finished_at', '<', jobsBefore).del().returning('id');
  return { deleted: gone.length, jobKeys: keys.rows?.length ?? 0, mailSent: mail.rows?.length ?? 0 };
}
