import client from 'prom-client';
import type Koa from 'koa';
import type { Knex } from 'knex';

/**
 * Prometheus metrics per app (own registry, so several apps in one process stay apart):
 * request counts and latency per route, database pool, job queue.
 */
export function createMetrics(knex: Knex, opts: { token: string | null }) {
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
      if (opts.token && ctx.get('authorization') !== `Bearer ${opts.token}`) {
        ctx.status = 401;
        ctx.body = { message: 'Authentication required' };
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
