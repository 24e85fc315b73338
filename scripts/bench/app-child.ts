/**
 * The bench's app process (`npm run bench:load`, scripts/bench/load.ts): `createApp()` exactly as
 * core/bin/start.ts builds it, plus an outermost middleware that counts each request's SQL
 * statements. Compiled with the server (`npm run build:server` → dist/server/scripts/bench/app-child.js)
 * so the bench measures the app as production runs it; `--tsx` runs this file from the sources.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** This process's CPU time so far (user + system, µs): per request, a figure a busy machine hardly moves. */
export function cpuNow(): { cpu: number } {
  const u = process.cpuUsage();
  return { cpu: u.user + u.system };
}

export interface RouteStats {
  count: number;
  ms: number[];
  statements: number[];
  handlerStatements: number[];
  statuses: Record<string, number>;
}

/** The app as core/bin/start.ts runs it, with SQL statements counted per request. */
export async function appChild() {
  const { createApp } = await import('../../core/app.ts');
  const app = await createApp();
  const { applyHeapPolicy } = await import('../../core/config.ts');
  applyHeapPolicy(app.config);
  if (process.env.BENCH_SEED === 'true') await app.seed({ onlyFirstTime: true });
  if (process.env.BENCH_PLAIN === 'true') {
    // the app as it runs in production, no statement counting (AsyncLocalStorage makes every
    // promise dearer): for the stack's own overhead; only its CPU time is answered
    app.koa.middleware.unshift(async (ctx: any, next: () => Promise<void>) => {
      if (ctx.path === '/__bench/cpu') ctx.body = cpuNow();
      else await next();
    });
    const url = await app.listen();
    process.on('SIGTERM', async () => {
      await app.close();
      process.exit(0);
    });
    process.stdout.write(`READY ${JSON.stringify({ url, heapGrowingPercent: app.config.heapGrowingPercent ?? 0 })}\n`);
    return;
  }
  const als = new AsyncLocalStorage<{ n: number; handler: number; inHandler: boolean; sql: string[] }>();
  // statement → [its request's list, index, start] to add the duration when the answer comes
  const started = new Map<string, [string[], number, bigint]>();
  app.knex.on('query', (q: { sql?: string; __knexQueryUid?: string }) => {
    const s = als.getStore();
    if (!s) return;
    s.n++;
    if (s.inHandler) s.handler++;
    if (s.sql.length < 60) {
      s.sql.push(`${s.inHandler ? 'route' : 'mw   '} ${String(q.sql ?? '').replace(/\s+/g, ' ').slice(0, 400)}`);
      if (q.__knexQueryUid) started.set(q.__knexQueryUid, [s.sql, s.sql.length - 1, process.hrtime.bigint()]);
    }
  });
  const done = (_r: unknown, q: { __knexQueryUid?: string }) => {
    const st = q?.__knexQueryUid ? started.get(q.__knexQueryUid) : undefined;
    if (!st) return;
    started.delete(q.__knexQueryUid!);
    const ms = Number(process.hrtime.bigint() - st[2]) / 1e6;
    st[0][st[1]] = st[0][st[1]].replace(/^(route|mw   ) /, (m) => `${m}${ms.toFixed(1).padStart(6)} ms  `);
  };
  app.knex.on('query-response', done);
  app.knex.on('query-error', (e: unknown, q: any) => done(e, q));
  // Statements issued by the matched route (validation, auth check, handler) apart from the
  // middleware before it (session, current user, plugins' middleware): a marker before the router.
  const routerAt = app.koa.middleware.findIndex((fn: any) => fn.router);
  if (routerAt < 0) throw new Error('the router middleware was not found');
  app.koa.middleware.splice(routerAt, 0, async (_ctx: any, next: () => Promise<void>) => {
    const s = als.getStore();
    if (s) s.inHandler = true;
    try {
      await next();
    } finally {
      if (s) s.inHandler = false;
    }
  });
  // the app's event-loop delay: whether a latency seen by the clients was spent in this process
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let stats = new Map<string, RouteStats>();
  const sqlById = new Map<string, string[]>();
  app.koa.middleware.unshift(async (ctx: any, next: () => Promise<void>) => {
    if (ctx.path === '/__bench/stats') {
      ctx.body = Object.fromEntries(stats);
      if (ctx.query.reset) stats = new Map();
      return;
    }
    if (ctx.path === '/__bench/loop') {
      ctx.body = { maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 };
      if (ctx.query.reset) loop.reset();
      return;
    }
    if (ctx.path === '/__bench/rss') {
      ctx.body = { rss: process.memoryUsage().rss };
      return;
    }
    if (ctx.path === '/__bench/live-heap') {
      // what is still alive: a full collection first (the process runs with --expose-gc), then V8's
      // heap in use and the memory held outside it (Buffers and native objects)
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      ctx.body = { heapUsed: m.heapUsed, external: m.external, rss: m.rss };
      return;
    }
    if (ctx.path === '/__bench/cpu') {
      ctx.body = cpuNow();
      return;
    }
    if (ctx.path.startsWith('/__bench/sql/')) {
      ctx.body = sqlById.get(ctx.path.slice('/__bench/sql/'.length)) ?? [];
      return;
    }
    const store = { n: 0, handler: 0, inHandler: false, sql: [] as string[] };
    const t0 = process.hrtime.bigint();
    await als.run(store, next);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    ctx.set('X-Bench-Statements', String(store.n));
    ctx.set('X-Bench-Route-Statements', String(store.handler));
    const key = `${ctx.method} ${ctx._matchedRoute ?? (ctx.path.startsWith('/api') ? ctx.path : 'web')}`;
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { count: 0, ms: [], statements: [], handlerStatements: [], statuses: {} }));
    s.count++;
    s.ms.push(ms);
    s.statements.push(store.n);
    s.handlerStatements.push(store.handler);
    s.statuses[ctx.status] = (s.statuses[ctx.status] ?? 0) + 1;
    if (ctx.get('x-bench-sql') && ctx.state.requestId) {
      sqlById.set(ctx.state.requestId, store.sql);
      if (sqlById.size > 500) sqlById.delete(sqlById.keys().next().value!);
    }
  });
  const url = await app.listen();
  let closing = false;
  process.on('SIGTERM', async () => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(0);
  });
  process.stdout.write(`READY ${JSON.stringify({ url, heapGrowingPercent: app.config.heapGrowingPercent ?? 0 })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  appChild().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
