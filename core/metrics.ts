import crypto from 'node:crypto';
import client from 'prom-client';
import type Koa from 'koa';
import type { Knex } from 'knex';

/** A loopback address (IPv4, IPv6 or IPv4-mapped IPv6). */
export function isLoopback(ip: string): boolean {
  return /^127\./.test(ip) || ip === '::1' || /^::ffff:127\./i.test(ip);
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * Who may read /metrics (they show routes, statuses such as sign-in failures, pool and queue sizes):
 * with `open` (development, test) everyone unless a token is configured; otherwise only a client
 * on loopback (the client's address, `ctx.ip`: behind TRUST_PROXY hops the X-Forwarded-For entry that
 * many places from the right, which a client cannot forge) or one that sends `Authorization: Bearer <token>`.
 */
function metricsRefusal(ctx: Koa.Context, opts: { token: string | null; open: boolean }): { status: number; message: string } | null {
  const auth = ctx.get('authorization');
  if (opts.token && auth.startsWith('Bearer ') && sameSecret(auth.slice(7), opts.token)) return null;
  if (isLoopback(ctx.ip)) return null;
  if (opts.open && !opts.token) return null;
  return opts.token
    ? { status: 401, message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' }
    : { status: 403, message: 'Metrics are served to loopback only; set METRICS_TOKEN to read them from elsewhere' };
}

/**
 * Prometheus metrics per app (own registry, so several apps in one process stay apart):
 * request counts and latency per route, database pool, deferred work, job queue.
 */
export function createMetrics(knex: Knex, opts: { admission?: { running: number; waiting: number; background: number }; token: string | null; open: boolean; deferredBacklog?: () => number; deferredByPlugin?: () => Map<string, number> }) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'curio_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'curio_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new client.Gauge({
    name: 'curio_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = (knex.client as any).pool;
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed?.() ?? 0);
      this.set({ state: 'free' }, pool.numFree?.() ?? 0);
      this.set({ state: 'pending' }, pool.numPendingAcquires?.() ?? 0);
    },
  });
  new client.Gauge({
    name: 'curio_requests_admitted',
    help: "Requests inside the app's work (running), waiting their turn before it (waiting), and places held by the work deferred after answers (deferred): core/admission.ts",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'running' }, opts.admission?.running ?? 0);
      this.set({ state: 'waiting' }, opts.admission?.waiting ?? 0);
      this.set({ state: 'deferred' }, opts.admission?.background ?? 0);
    },
  });
  new client.Gauge({
    name: 'curio_deferred_backlog',
    help: 'Work deferred after answers (event handlers, after-answer work) waiting or running in this process',
    registers: [registry],
    collect() {
      this.set(opts.deferredBacklog?.() ?? 0);
    },
  });
  // a plugin seen once stays in the output at 0 when its lanes are idle (its series does not vanish)
  const deferredPlugins = new Set<string>();
  new client.Gauge({
    name: 'curio_deferred_backlog_by_plugin',
    help: "The deferred work by the plugin whose handlers it runs: which plugin's work falls behind",
    labelNames: ['plugin'] as const,
    registers: [registry],
    collect() {
      const now = opts.deferredByPlugin?.() ?? new Map<string, number>();
      for (const p of now.keys()) deferredPlugins.add(p);
      for (const p of deferredPlugins) this.set({ plugin: p }, now.get(p) ?? 0);
    },
  });
  new client.Gauge({
    name: 'curio_jobs',
    help: 'Background jobs by status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await knex('core_jobs').select('status').count({ n: '*' }).groupBy('status');
        for (const s of ['queued', 'running', 'done', 'failed']) this.set({ status: s }, 0);
        for (const r of rows as any[]) this.set({ status: r.status }, Number(r.n));
      } catch {
        /* table missing during start-up */
      }
    },
  });

  /** GET /metrics (true: answered here, the request goes no further). */
  async function serve(ctx: Koa.Context): Promise<boolean> {
    if (ctx.method !== 'GET' || ctx.path !== '/metrics') return false;
    const refusal = metricsRefusal(ctx, opts);
    if (refusal) {
      ctx.status = refusal.status;
      if (refusal.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { message: refusal.message };
      return true;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
    return true;
  }
  /** Counts an answered request and its latency (from `startedNs`, process.hrtime.bigint()) under its route and final status. */
  function record(ctx: Koa.Context, startedNs: bigint): void {
    const route = (ctx as any)._matchedRoute ?? (ctx.path.startsWith('/api') ? 'unmatched' : ctx.path.startsWith('/uploads/') ? '/uploads' : 'web');
    series(ctx.method, String(route), ctx.status).observe(Number(process.hrtime.bigint() - startedNs) / 1e9);
  }
  /** serve + record as one middleware (core/app.ts calls them from its own outer middleware) */
  const middleware: Koa.Middleware = async (ctx, next) => {
    if (await serve(ctx)) return;
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      record(ctx, started);
    }
  };

  // The labelled series of each method, route and status, made once (prom-client hashes its label
  // object on every inc/observe otherwise). Routes are the router's patterns: a bounded set.
  const seriesOf = new Map<string, { observe(seconds: number): void }>();
  function series(method: string, route: string, status: number) {
    const key = `${method} ${status} ${route}`;
    let s = seriesOf.get(key);
    if (!s) {
      const count = requests.labels(method, route, String(status));
      const timing = duration.labels(method, route);
      s = {
        observe(seconds: number) {
          timing.observe(seconds);
          count.inc();
        },
      };
      if (seriesOf.size < 10_000) seriesOf.set(key, s);
    }
    return s;
  }
  return { registry, middleware, serve, record };
}
