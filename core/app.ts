import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import send from 'koa-send';
import helmet from 'koa-helmet';
import compress from 'koa-compress';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ROOT, loadConfig, proxyHops, type CurioConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { openDatabase, type Database } from './db.ts';
import { discoverPlugins, resolvePlugins, loadServerModule, type LoadedPlugin } from './plugins.ts';
import { migrateAll } from './migrate.ts';
import { SchemaRegistry, makeAjv } from './schemas.ts';
import { RouteRegistry, buildRouter } from './routes.ts';
import { EventBus } from './events.ts';
import { ServiceRegistry } from './services.ts';
import { PermissionRegistry } from './permissions.ts';
import { createStorage, type Storage } from './storage.ts';
import { Drain } from './drain.ts';
import { Uploads } from './uploads.ts';
import { Jobs, every } from './jobs.ts';
import { Mailer } from './mail.ts';
import { HttpError, isHttpError, pgErrorToHttp } from './errors.ts';
import { runSeeds, type SeedTarget } from './seed.ts';
import { buildOpenApi } from './openapi.ts';
import { formatAjvErrors, summarize } from './shared/validation-messages.ts';
import { createMetrics } from './metrics.ts';
import { createStreamHub, STREAM_DEFAULTS, type LiveApi, type StreamHub } from './stream.ts';
import type { PluginContext, PluginServer, RegisteredRoute } from './plugin-api.ts';

export const APP_NAME = 'Curio';
export const WEB_DIST = path.join(ROOT, 'web', 'dist');
/** The periodic job deleting unreferenced stored files (core/uploads.ts sweepStorage). */
export const STORAGE_SWEEP_JOB = 'core.storage-sweep';

/**
 * Serves a production build of the web app (web/dist here; the web benchmark serves its own build
 * with it): its files, the hashed /assets cached for a year, each as the .br or .gz copy the build
 * wrote beside it when the browser accepts one (else koa-compress compresses it), and index.html
 * for every other GET, the web app's own routes.
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
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root, brotli: true, gzip: true });
  };
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

/** The origins allowed to make state-changing requests. */
function allowedOrigins(config: CurioConfig, ctx: Koa.Context): Set<string> {
  const set = new Set<string>(config.allowedOrigins);
  if (config.publicOrigin) set.add(config.publicOrigin);
  // Koa 3's ctx.origin echoes the Origin header; the app's own origin is protocol + Host.
  set.add(`${ctx.protocol}://${ctx.host}`);
  return set;
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
  koa.keys = sessionKeys(opts.describeOnly ? { ...config, sessionKeys: ['describe-only-key-000000'] } : config);
  koa.silent = true;
  const schemas = new SchemaRegistry();
  schemas.addDir(path.join(ROOT, 'schemas'), 'shared');
  const routeRegistry = new RouteRegistry();
  const events = new EventBus(log);
  const services = new ServiceRegistry();
  const permissions = new PermissionRegistry();
  const storage = await createStorage(config);
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
  const pluginMiddleware: Koa.Middleware[] = [];
  const publicPluginConfig: Record<string, Record<string, string | number | boolean | null>> = {};
  const contexts = new Map<string, PluginContext>();
  const servers = new Map<string, PluginServer>();
  const metrics = createMetrics(knex, { token: config.metricsToken, open: config.metricsPublic });
  const stream = createStreamHub({
    knex,
    kind: db.kind,
    databaseUrl: config.databaseUrl,
    log: log.child({ module: 'stream' }),
    config: { ...STREAM_DEFAULTS, ...(config.stream ?? {}) },
    registry: metrics.registry,
  });
  routeRegistry.add('core', {
    method: 'GET',
    path: '/api/stream',
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
      events: { on: (name, fn) => events.on(name, fn as any, id), emit: (name, payload) => events.emit(name, payload) },
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
  koa.use(async (ctx, next) => {
    const requestId = (ctx.get('x-request-id') || '').slice(0, 64).replace(/[^\w-]/g, '') || crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    (ctx as any).log = log.child({ reqId: requestId });
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = ctx.status >= 500 ? 'error' : 'info';
      if (ctx.path.startsWith('/api/') || ctx.status >= 500) {
        (ctx as any).log[level]({ method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(ms * 10) / 10, userId: ctx.state.user?.id }, 'request');
      }
    }
  });

  // Security headers first, so that every answer carries them (/metrics and uploads included).
  // gzip/brotli for compressible answers (JSON, JS, CSS, HTML) over 1 KB; media is left alone.
  koa.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));

  koa.use(
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

  // Metrics sit outside the error handler so they see the final status.
  koa.use(metrics.middleware);
  koa.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
        ctx.status = 404;
        ctx.body = { message: `No route for ${ctx.method} ${ctx.path}` };
      }
    } catch (err: any) {
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
  });

  // Refuse cross-origin state-changing requests (the client sends no CSRF token; Origin is the check).
  koa.use(async (ctx, next) => {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(ctx.method)) {
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
      if (source && !allowedOrigins(config, ctx).has(source)) throw new HttpError(403, 'Cross-origin request refused');
    }
    await next();
  });

  koa.use(storage.middleware());
  // DELETE carries a JSON body on some routes (DELETE /api/admin/delete-user, member content): parse it too.
  koa.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', encoding: 'utf-8', parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'], onError: bodyError } as any));
  for (const fn of pluginMiddleware) koa.use(fn);

  const core = buildCoreRoutes();
  function buildCoreRoutes() {
    return async (ctx: Koa.Context, next: Koa.Next) => {
      if (ctx.method === 'GET' && ctx.path === '/api/config') {
        ctx.body = {
          appName: APP_NAME,
          plugins: plugins.filter((p) => p.enabled).map((p) => p.manifest.id),
          googleMapsConfigured: Boolean(config.googleMapsApiKey),
          locales: ['en', 'fr'],
          pluginConfig: publicPluginConfig,
        };
        return;
      }
      if (ctx.method === 'GET' && ctx.path === '/api/openapi.json') {
        ctx.body = openapiDoc();
        return;
      }
      if (ctx.method === 'GET' && (ctx.path === '/api/health' || ctx.path === '/healthz')) {
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
        return;
      }
      await next();
    };
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
