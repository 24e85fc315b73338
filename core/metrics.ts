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
 * request counts and latency per route, database pool, job queue.
 */
export function createMetrics(knex: Knex, opts: { token: string | null; open: boolean }) {
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

  const middleware: Koa.Middleware = async (ctx, next) => {
    if (ctx.path === '/metrics' && ctx.method === 'GET') {
      const refusal = metricsRefusal(ctx, opts);
      if (refusal) {
        ctx.status = refusal.status;
        if (refusal.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        ctx.body = { message: refusal.message };
        return;
      }
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
      return;
    }
    const end = duration.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as any)._matchedRoute ?? (ctx.path.startsWith('/api') ? 'unmatched' : ctx.path.startsWith('/uploads/') ? '/uploads' : 'web');
      end({ method: ctx.method, route: String(route) });
      requests.inc({ method: ctx.method, route: String(route), status: String(ctx.status) });
    }
  };
  return { registry, middleware };
}
