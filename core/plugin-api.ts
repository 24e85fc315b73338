import type Koa from 'koa';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { CurioConfig } from './config.ts';
import type { EventBus, EventName, CurioEvents } from './events.ts';
import type { ServiceRegistry } from './services.ts';
import type { JSONSchema, SchemaRegistry } from './schemas.ts';
import type { Storage } from './storage.ts';
import type { Uploads } from './uploads.ts';
import type { Jobs } from './jobs.ts';
import type { LiveApi } from './stream.ts';
import type { Mailer } from './mail.ts';

/** The manifest in plugins/<id>/index.ts: pure data, imports nothing from server/ or web/. */
export interface PluginManifest {
  id: string;
  /** Plugins that must be enabled (and load first) for this one to work. */
  dependsOn?: string[];
  /** Plugins this one reacts to or enriches when they are enabled; only ordering. */
  optionalDependsOn?: string[];
  /** Permissions it defines: `<plugin>.<resource>.<action>` → description. */
  permissions?: Record<string, string>;
  /** JSON Schema of `plugins.config.<id>`, with defaults. */
  configSchema?: JSONSchema;
  /** One sentence for the docs and the admin. */
  description?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The signed-in user as every plugin sees it (filled by the accounts plugin). */
export interface AuthUser {
  id: number;
  username: string;
  role: string;
  slug?: string;
  /** active content restriction (admin moderation), if any */
  restricted?: boolean;
}

export interface ApiInput<P = any, Q = any, B = any> {
  params: P;
  query: Q;
  body: B;
}

export type ApiContext<P = any, Q = any, B = any> = Koa.ParameterizedContext<Koa.DefaultState & { user?: AuthUser; requestId: string }> & {
  input: ApiInput<P, Q, B>;
  user?: AuthUser;
  params: Record<string, string>;
};

export interface RouteSchema {
  params?: JSONSchema;
  query?: JSONSchema;
  body?: JSONSchema;
  /** status → schema; a bare schema means 200 (or the route's `status`) */
  response?: Record<number, JSONSchema> | JSONSchema;
}

export interface RouteDef<P = any, Q = any, B = any> {
  method: HttpMethod;
  /** Koa path, e.g. /api/museums/:id */
  path: string;
  /** Name of the generated client function, e.g. getMuseum. Unique across the app. */
  operationId: string;
  summary?: string;
  /** none: never looks at the session; optional (default): user if signed in; required: 401 otherwise */
  auth?: 'none' | 'optional' | 'required';
  /** Only these roles (after sign-in); 403 otherwise. */
  roles?: string[];
  /** Permission name checked with ctx.permissions before the handler (resource-less checks). */
  permission?: string;
  /** How the body arrives: json (default when schema.body), multipart (handler parses it), none. */
  bodyType?: 'json' | 'multipart' | 'none';
  schema?: RouteSchema;
  /** Success status, default 200. */
  status?: number;
  /**
   * A public GET (issue 18): its 200 answers carry an ETag (304 on revalidation with If-None-Match)
   * and, for visitors, `Cache-Control: public, max-age=<publicCache>` (signed-in members get
   * `private, no-cache`: they revalidate every time); `Vary: Cookie`.
   */
  publicCache?: number;
  /** The handler writes ctx.body itself (files, calendars); no response schema applies. */
  raw?: boolean;
  /** Content type of a raw answer, for the OpenAPI document. */
  rawContentType?: string;
  handler: (ctx: ApiContext<P, Q, B>) => unknown | Promise<unknown>;
}

export interface RegisteredRoute extends RouteDef {
  plugin: string;
}

export type PermissionCheck = (user: AuthUser | undefined, resource?: unknown) => boolean | Promise<boolean>;

export interface Permissions {
  define(name: string, check: PermissionCheck): void;
  check(name: string, user: AuthUser | undefined, resource?: unknown): Promise<boolean>;
  /** Throws 401/403 when the check fails. */
  assert(name: string, user: AuthUser | undefined, resource?: unknown, message?: string): Promise<void>;
  names(): string[];
}

export interface SeedProgress {
  /** total work units of this seed */
  start(total: number, label: string): void;
  tick(n?: number): void;
}

export interface PluginContext {
  id: string;
  config: Record<string, any>;
  appConfig: Readonly<CurioConfig>;
  db: Knex;
  log: Logger;
  routes: { add<P = any, Q = any, B = any>(def: RouteDef<P, Q, B>): void };
  schemas: { add(schema: JSONSchema): void; registry: SchemaRegistry };
  events: {
    /**
     * `afterAnswer`: run after the emitter's answer, in the background (notifications, others' counters: issue 18).
     * `lane`: deferred runs of this handler with the same lane (from the payload) keep their order;
     * other lanes run beside them (without it, the plugin's deferred work runs in one lane: core/events.ts).
     */
    on<K extends EventName>(name: K, fn: (payload: CurioEvents[K]) => unknown, opts?: { afterAnswer?: boolean; lane?: (payload: CurioEvents[K]) => string }): void;
    emit<K extends EventName>(name: K, payload: CurioEvents[K]): Promise<unknown[]>;
    /** Handlers run after the answer, in the background, in order for each plugin's lane (core/events.ts `defer`). */
    defer<K extends EventName>(name: K, payload: CurioEvents[K]): void;
    /** Any work after the answer, in the same ordered background queue (failures are logged). */
    after(fn: () => unknown): void;
  };
  permissions: Permissions;
  services: ServiceRegistry;
  /** Koa middleware for every request, in plugin order, before the routes. */
  middleware: { use(fn: Koa.Middleware): void };
  storage: Storage;
  uploads: Uploads;
  jobs: Jobs;
  /** live updates to members' open tabs (core/stream.ts): a hint to revalidate, never the data of record */
  live: LiveApi;
  /** queues emails (sent by a job, once per key) */
  mail: Mailer;
  app: Koa;
  enabled: ReadonlySet<string>;
  /**
   * Small public facts the web app needs before it asks anything else (e.g. whether this server
   * can process videos): they appear in GET /api/config as `pluginConfig[<plugin id>][key]`.
   * Never anything secret: every visitor reads them.
   */
  publicConfig: { set(key: string, value: string | number | boolean | null): void };
}

export interface PluginServer {
  register(ctx: PluginContext): void | Promise<void>;
  /** After every plugin registered (services of others are available). */
  bootstrap?(ctx: PluginContext): void | Promise<void>;
  /** Loads seeds/<id>/ idempotently. */
  seed?(ctx: PluginContext, progress: SeedProgress): Promise<void>;
  stop?(): void | Promise<void>;
}

export function definePlugin(m: PluginManifest): PluginManifest {
  return m;
}

export function definePluginServer(s: PluginServer): PluginServer {
  return s;
}
