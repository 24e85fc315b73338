/**
 * Counts the SQL statements each HTTP request issues on a test app (knex 'query' events tied to the
 * request through AsyncLocalStorage), split into middleware (session, current user, plugins'
 * middleware) and route (validation, auth check, handler). Deterministic, unlike timings: the API
 * tests pin the statement budgets of the hot routes with it (issue 18).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CurioApp } from '../app.ts';
import type { TestResponse } from './index.ts';

export interface StatementLog {
  /** every statement of the request, in order */
  all: string[];
  middleware: string[];
  route: string[];
}

interface Store extends StatementLog {
  inRoute: boolean;
}

export interface StatementCounter {
  /** sends one request, tagged with an id of its own: its answer and its statements */
  request(client: RequestingClient, method: string, path: string, body?: unknown): Promise<{ res: TestResponse; log: StatementLog }>;
}

/** A test client (core/testing's `client()`, `SignedInClient`). */
export interface RequestingClient {
  req(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<TestResponse>;
}

const installed = new WeakMap<object, StatementCounter>();

export function countStatements(app: CurioApp): StatementCounter {
  const already = installed.get(app);
  if (already) return already;
  const als = new AsyncLocalStorage<Store>();
  const logs = new Map<string, StatementLog>();
  app.knex.on('query', (q: { sql?: string }) => {
    const s = als.getStore();
    if (!s) return;
    const sql = String(q.sql ?? '').replace(/\s+/g, ' ').slice(0, 300);
    s.all.push(sql);
    (s.inRoute ? s.route : s.middleware).push(sql);
  });
  const routerAt = app.koa.middleware.findIndex((fn: any) => fn.router);
  if (routerAt < 0) throw new Error('the router middleware was not found');
  app.koa.middleware.splice(routerAt, 0, async (_ctx: any, next: () => Promise<void>) => {
    const s = als.getStore();
    if (s) s.inRoute = true;
    try {
      await next();
    } finally {
      if (s) s.inRoute = false;
    }
  });
  app.koa.middleware.unshift(async (ctx: any, next: () => Promise<void>) => {
    const id = ctx.get('x-count-statements');
    if (!id) return next();
    const store: Store = { all: [], middleware: [], route: [], inRoute: false };
    try {
      await als.run(store, next);
    } finally {
      // statements issued after the answer (background work the request started) are not its cost
      logs.set(id, { all: [...store.all], middleware: [...store.middleware], route: [...store.route] });
      if (logs.size > 1000) logs.delete(logs.keys().next().value!);
    }
  });
  // the server composed koa's middleware when it started listening: compose it again
  if (app.server) {
    app.server.removeAllListeners('request');
    app.server.on('request', app.koa.callback());
  }
  let sent = 0;
  const counter: StatementCounter = {
    async request(client, method, path, body) {
      // the request's statements are kept under this id (the middleware above reads the header)
      const id = `request-${++sent}`;
      const res = await client.req(method, path, body, { 'x-count-statements': id });
      return { res, log: logs.get(id)! };
    },
  };
  installed.set(app, counter);
  return counter;
}
