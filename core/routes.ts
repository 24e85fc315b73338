import Router from '@koa/router';
import type Koa from 'koa';
import type { ValidateFunction } from 'ajv';
import { HttpError } from './errors.ts';
import type { SchemaRegistry, JSONSchema } from './schemas.ts';
import type { RegisteredRoute, RouteDef, Permissions, ApiContext } from './plugin-api.ts';

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
  responses: Map<number, { validate: ValidateFunction; schema: JSONSchema }>;
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
    for (const [status, schema] of entries) out.responses.set(status, { validate: reg.compile('output', schema), schema });
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
): Router {
  const router = new Router();
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
      let payload = result === undefined ? null : JSON.parse(JSON.stringify(result));
      if (resp) {
        const ok = resp.validate(payload);
        if (!ok && opts.validateResponses) {
          const { message, errors } = reg.explain(resp.validate, resp.schema);
          const e = new Error(`Response of ${def.method} ${def.path} does not match its schema: ${message} ${JSON.stringify(errors)}`);
          throw e;
        }
      }
      ctx.body = payload;
    };
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](def.path, mw);
  }
  return router;
}
