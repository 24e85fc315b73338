import crypto from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import type { ValidateFunction } from 'ajv';
import { HttpError } from './errors.ts';
import type { SchemaRegistry, JSONSchema } from './schemas.ts';
import type { RegisteredRoute, RouteDef, Permissions, ApiContext } from './plugin-api.ts';
import { compileSerializer, sameJson, type Serializer } from './serialize.ts';

export class RouteRegistry {
  readonly routes: RegisteredRoute[] = [];
  private ops = new Set<string>();

  add(plugin: string, def: RouteDef): void {
    if (!def.path.startsWith('/api/') && !def.path.startsWith('/')) throw new Error(`Route path must start with /: ${def.path}`);
    const key = `${def.method} ${def.path}`;
    if (this.routes.some((r) => `${r.method} ${r.path}` === key)) throw new Error(`Route ${key} is registered twice`);
    if (this.ops.has(def.operationId)) throw new Error(`operationId ${def.operationId} is used twice`);
    this.ops.add(def.operationId);
    this.routes.push({ ...def, plugin });
  }
}

/** Static segments sort before parameters, so /museums/featured wins over /museums/:id. */
export function compareSpecificity(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i];
    const y = bs[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xp = x.startsWith(':') || x.includes('*');
    const yp = y.startsWith(':') || y.includes('*');
    if (xp !== yp) return xp ? 1 : -1;
  }
  return 0;
}

export function responseSchemaFor(def: RouteDef, status: number): JSONSchema | undefined {
  const r = def.schema?.response;
  if (!r) return undefined;
  const isMap = Object.keys(r).every((k) => /^\d{3}$/.test(k));
  if (isMap) return (r as Record<number, JSONSchema>)[status];
  return status === (def.status ?? 200) ? (r as JSONSchema) : undefined;
}

interface Compiled {
  params?: ValidateFunction;
  query?: ValidateFunction;
  body?: ValidateFunction;
  responses: Map<number, Response>;
}

interface Response {
  validate: ValidateFunction;
  schema: JSONSchema;
  /** compiled from the schema (core/serialize.ts); null: the allow-list path only, for `reason` */
  serialize: Serializer | null;
  reason: string | null;
}

function compile(reg: SchemaRegistry, def: RouteDef): Compiled {
  const s = def.schema ?? {};
  const out: Compiled = { responses: new Map() };
  if (s.params) out.params = reg.compile('input', s.params);
  if (s.query) out.query = reg.compile('input', s.query);
  if (s.body) out.body = reg.compile('body', s.body);
  const r = s.response;
  if (r) {
    const isMap = Object.keys(r).every((k) => /^\d{3}$/.test(k));
    const entries: Array<[number, JSONSchema]> = isMap
      ? Object.entries(r).map(([k, v]) => [Number(k), v as JSONSchema])
      : [[def.status ?? 200, r as JSONSchema]];
    for (const [status, schema] of entries) out.responses.set(status, { validate: reg.compile('output', schema), schema, ...compileSerializer(reg, schema) });
  }
  return out;
}

function check(reg: SchemaRegistry, v: ValidateFunction | undefined, schema: JSONSchema | undefined, data: unknown, where: string) {
  if (!v || !schema) return;
  if (!v(data)) {
    const { message, errors } = reg.explain(v, schema);
    throw new HttpError(400, message, { errors: errors.map((e) => ({ ...e, path: `${where}${e.path}` })) });
  }
}

/** PostgreSQL text cannot hold NUL; refuse it in any input rather than fail in the database. */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 20 || v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => hasNul(x, depth + 1));
  return Object.entries(v as Record<string, unknown>).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
}

/**
 * Builds the router: for each route, auth and role checks, then params / query / body validation,
 * then the handler, then the response shaped by its schema (an allow-list).
 */
export function buildRouter(
  reg: SchemaRegistry,
  routes: RegisteredRoute[],
  opts: { enabled: ReadonlySet<string>; permissions: Permissions; validateResponses: boolean },
): RouteTable {
  // one router per first segment (after /api): a request is matched against its group's routes,
  // not all of them (issue 18: @koa/router's match was 3 % of a signed-in request's CPU)
  const groups = new Map<string, Router>();
  const sorted = [...routes].sort((a, b) => compareSpecificity(a.path, b.path));
  for (const def of sorted) {
    const c = compile(reg, def);
    const mw: Koa.Middleware = async (kctx) => {
      const ctx = kctx as unknown as ApiContext;
      if (!opts.enabled.has(def.plugin)) throw new HttpError(404, 'Not found');
      const user = ctx.state.user;
      ctx.user = user;
      if ((def.auth === 'required' || def.roles || def.permission) && !user && def.auth !== 'none') {
        throw new HttpError(401, 'Authentication required');
      }
      if (def.roles && user && !def.roles.includes(user.role)) throw new HttpError(403, 'Access denied');
      if (def.permission) await opts.permissions.assert(def.permission, user);

      if (hasNul(ctx.params) || hasNul(ctx.query) || (def.bodyType !== 'multipart' && hasNul((ctx.request as any).body))) {
        throw new HttpError(400, 'Input must not contain NUL characters');
      }
      const params = { ...(ctx.params ?? {}) };
      check(reg, c.params, def.schema?.params, params, '/params');
      const query: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(ctx.query)) query[k] = v;
      if (def.schema?.query) check(reg, c.query, def.schema.query, query, '/query');
      let body: unknown = undefined;
      if (def.bodyType !== 'multipart') {
        body = (ctx.request as any).body;
        if (def.schema?.body) {
          if (body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && !(ctx.request as any).rawBody)) {
            body = body ?? {};
          }
          check(reg, c.body, def.schema.body, body, '/body');
        }
      }
      ctx.input = { params, query, body };
      const result = await def.handler(ctx);
      if (def.raw) return;
      const status = def.status ?? 200;
      ctx.status = status;
      if (status === 204) {
        ctx.body = null;
        return;
      }
      const resp = c.responses.get(status);
      if (result === undefined || result === null || typeof result !== 'object') {
        // null, or a bare string or number: as Koa sends it (204 for null, text for a string)
        const payload = result === undefined ? null : JSON.parse(JSON.stringify(result));
        if (resp && !resp.validate(payload) && opts.validateResponses) {
          const { message, errors } = reg.explain(resp.validate, resp.schema);
          throw new Error(`Response of ${def.method} ${def.path} does not match its schema: ${message} ${JSON.stringify(errors)}`);
        }
        ctx.body = payload;
        return;
      }
      const text = answerText(reg, def, resp, result, opts.validateResponses);
      if (def.publicCache !== undefined && def.method === 'GET' && status === 200) {
        ctx.set('ETag', `W/"${crypto.createHash('sha1').update(text).digest('base64url')}"`);
        ctx.set('Cache-Control', user ? 'private, no-cache' : `public, max-age=${def.publicCache}`);
        ctx.vary('Cookie');
        if (ctx.fresh) {
          ctx.status = 304;
          return;
        }
      }
      ctx.type = 'application/json';
      ctx.body = text;
    };
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const key = groupOf(def.path.toLowerCase());
    let router = groups.get(key);
    if (!router) groups.set(key, (router = new Router()));
    router[method](def.path, mw);
  }
  return new RouteTable(groups);
}

/** '/api/posts/:id/like' → 'posts'; '/robots.txt' → '/robots.txt' */
export function groupOf(path: string): string {
  if (path.startsWith('/api/')) {
    const end = path.indexOf('/', 5);
    return end < 0 ? path.slice(5) : path.slice(5, end);
  }
  const end = path.indexOf('/', 1);
  return `/${end < 0 ? path.slice(1) : path.slice(1, end)}`;
}

/**
 * The routes, grouped by first segment, used like one @koa/router: `routes()` matches a request
 * against its group only (the order of the routes within a group is the same as in one router,
 * and a route's group is that of every path it matches: no route has a parameter in its first
 * segment, checked here), `allowedMethods()` answers 405/501/OPTIONS from what was matched.
 */
export class RouteTable {
  private readonly any: Router;
  constructor(private readonly groups: Map<string, Router>) {
    for (const key of groups.keys()) {
      if (key.includes(':') || key.includes('*') || key.includes('(')) throw new Error(`A route's first segment must be fixed: ${key}`);
    }
    this.any = groups.values().next().value ?? new Router();
  }

  routes(): Koa.Middleware & { router: Router } {
    const mws = new Map<string, Koa.Middleware>();
    for (const [k, r] of this.groups) mws.set(k, r.routes() as unknown as Koa.Middleware);
    const any = this.any;
    const fn = (ctx: Koa.Context, next: Koa.Next) => {
      const path = ctx.path;
      // routes match case-insensitively (@koa/router's default): so do their groups
      const mw = mws.get(groupOf(path)) ?? (/[A-Z]/.test(path) ? mws.get(groupOf(path.toLowerCase())) : undefined);
      if (mw) return mw(ctx, next);
      // what a router matching nothing leaves: an empty match (allowedMethods then answers 501 for methods no router implements)
      const c = ctx as any;
      if (!c.matched) c.matched = [];
      c.router = any;
      return next();
    };
    return Object.assign(fn, { router: any });
  }

  allowedMethods(options: Parameters<Router['allowedMethods']>[0] = {}): Koa.Middleware {
    // every group's router implements the same methods; this one reads ctx.matched, whichever group set it
    return this.any.allowedMethods(options) as unknown as Koa.Middleware;
  }
}

/**
 * The answer's JSON text: from the schema's compiled serializer, or (a schema it cannot honour
 * exactly, data it refuses) through the allow-list path: a JSON copy whose undeclared properties
 * ajv removes. With `validate` (tests, development) both run: the copy must match the schema and
 * the serializer must write the same value.
 */
export function answerText(reg: SchemaRegistry, def: Pick<RouteDef, 'method' | 'path'>, resp: Response | undefined, result: unknown, validate: boolean): string {
  if (resp?.serialize && !validate) {
    try {
      return resp.serialize(result);
    } catch {
      // data the schema does not describe (a required property missing, a wrong type): the allow-list path says so in tests
    }
  }
  const payload = result === undefined ? null : JSON.parse(JSON.stringify(result));
  if (resp) {
    const ok = resp.validate(payload);
    if (!ok && validate) {
      const { message, errors } = reg.explain(resp.validate, resp.schema);
      throw new Error(`Response of ${def.method} ${def.path} does not match its schema: ${message} ${JSON.stringify(errors)}`);
    }
    if (validate && resp.serialize && payload !== null) {
      let fast: string;
      try {
        fast = resp.serialize(result);
      } catch (e) {
        throw new Error(`Response of ${def.method} ${def.path}: its compiled serializer refused an answer its schema accepts: ${(e as Error).message}`);
      }
      if (!sameJson(JSON.parse(fast), payload)) {
        throw new Error(`Response of ${def.method} ${def.path}: its compiled serializer wrote ${fast.slice(0, 500)} where the allow-list path wrote ${JSON.stringify(payload).slice(0, 500)}`);
      }
    }
  }
  return JSON.stringify(payload);
}
