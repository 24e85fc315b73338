import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { Ajv } from 'ajv';
import { formatAjvErrors } from './shared/validation-messages.ts';

/** true when this runs as the compiled server (`npm run build:server` → dist/server), false under tsx */
export const COMPILED = import.meta.url.endsWith('.js');
/** where the server's modules and the files beside them (locales, templates) are: the project, or dist/server when compiled */
export const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** the project: config/, schemas/, seeds/, web/dist, data/ */
export const ROOT = COMPILED ? path.resolve(CODE_ROOT, '..', '..') : CODE_ROOT;
/** a module's file as it is on disk: x.ts under tsx, x.js in the compiled server */
export const moduleFile = (file: string) => (COMPILED ? file.replace(/\.tsx?$/, '.js') : file);

export interface CurioConfig {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** PostgreSQL pool: connections per process and statement_timeout (defaults in core/db.ts) */
  database?: { poolMax?: number; statementTimeoutMs?: number; /** named prepared statements for statements run repeatedly (core/plan-cache.ts); default on */ planCache?: boolean; /** PostgreSQL's JIT compilation for this app's connections; default off (core/db.ts) */ jit?: boolean };
  dataDir: string;
  sessionKeys: string[];
  googleMapsApiKey: string;
  publicOrigin: string | null;
  allowedOrigins: string[];
  /** Reverse proxies in front of the app whose X-Forwarded-* headers are trusted: a number of hops; true = 1, false = 0. */
  trustProxy: boolean | number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  seedOnStart: boolean;
  validateResponses: boolean;
  serveWeb: boolean;
  metricsToken: string | null;
  /** /metrics open to every client (development, test); otherwise only loopback or the metrics token */
  metricsPublic: boolean;
  /** live updates; defaults in core/stream.ts STREAM_DEFAULTS */
  stream?: Partial<import('./stream.ts').StreamConfig>;
  /** SMTP_URL; null: emails are written as .eml files under dataDir/mail */
  smtpUrl: string | null;
  mailFrom: string;
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  vapidSubject: string;
  /** false: repeating jobs (digests, reminders, email batches) run only when runDue() is called (tests) */
  scheduledJobs: boolean;
  /** SIGTERM: still accepting (health says draining) this long, then in-flight requests get up to drainTimeoutMs */
  drainDelayMs?: number;
  drainTimeoutMs?: number;
  /** deferred work waiting or running at which writes wait (high), and down to which (low): core/events.ts */
  deferredBacklog?: { high?: number; low?: number; maxWaitMs?: number };
  /** requests inside the app's work at once, the others waiting their turn (core/admission.ts); default 4 × database.poolMax */
  maxInFlight?: number;
  /** V8's old space grows to (1 + this/100) × what was alive after its last full collection; 0: V8's own policy (core/bin/start.ts) */
  heapGrowingPercent?: number;
  /** uploads on local disk (default) or in an S3-compatible bucket */
  storage?: {
    driver: 'local' | 's3';
    s3?: { endpoint?: string | null; bucket: string; region?: string; accessKeyId?: string | null; secretAccessKey?: string | null; forcePathStyle?: boolean };
    mediaPublicUrl?: string | null;
  };
  /** how long background work's records are kept, in days (core/app.ts purgeJobRecords; defaults in config/default.json) */
  retention?: { jobRowsDays?: number; jobKeysDays?: number; mailSentDays?: number };
  plugins: { disabled: string[]; config: Record<string, Record<string, unknown>> };
}

export class ConfigError extends Error {}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  }
  return out;
}

function readJson(file: string): Json {
  if (!fs.existsSync(file)) return {};
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`Config file ${path.relative(ROOT, file)} is not valid JSON: ${(e as Error).message}`);
  }
}

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** Environment variables that map onto config keys. */
function fromEnv(env: NodeJS.ProcessEnv): Json {
  const out: Json = {};
  const set = (keyPath: string, value: unknown) => {
    const keys = keyPath.split('.');
    let cur = out;
    for (const k of keys.slice(0, -1)) cur = (cur[k] = isObject(cur[k]) ? cur[k] : {}) as Json;
    cur[keys[keys.length - 1]] = value;
  };
  const num = (name: string, v: string) => {
    // Keep a non-number as a string so that validation names the key and the problem.
    const n = Number(v);
    return v.trim() !== '' && Number.isFinite(n) ? n : v;
  };
  const bool = (v: string) => (/^(1|true|yes|on)$/i.test(v) ? true : /^(0|false|no|off)$/i.test(v) ? false : v);
  if (env.PORT !== undefined) set('port', num('PORT', env.PORT));
  if (env.HOST) set('host', env.HOST);
  if (env.DATABASE_URL !== undefined) set('databaseUrl', env.DATABASE_URL === '' ? null : env.DATABASE_URL);
  if (env.DATA_DIR) set('dataDir', env.DATA_DIR);
  if (env.DB_POOL_MAX) set('database.poolMax', num('DB_POOL_MAX', env.DB_POOL_MAX));
  if (env.DB_PLAN_CACHE) set('database.planCache', bool(env.DB_PLAN_CACHE));
  if (env.DB_STATEMENT_TIMEOUT_MS) set('database.statementTimeoutMs', num('DB_STATEMENT_TIMEOUT_MS', env.DB_STATEMENT_TIMEOUT_MS));
  if (env.DB_JIT) set('database.jit', bool(env.DB_JIT));
  if (env.SESSION_KEYS) set('sessionKeys', list(env.SESSION_KEYS));
  if (env.GOOGLE_MAPS_API_KEY !== undefined) set('googleMapsApiKey', env.GOOGLE_MAPS_API_KEY);
  if (env.PUBLIC_ORIGIN) set('publicOrigin', env.PUBLIC_ORIGIN);
  if (env.ALLOWED_ORIGINS) set('allowedOrigins', list(env.ALLOWED_ORIGINS));
  // TRUST_PROXY: how many proxies (hops) are in front of the app (`1`, `2`…); `true` is one, `false` none
  if (env.TRUST_PROXY) set('trustProxy', /^\s*\d+\s*$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : bool(env.TRUST_PROXY));
  if (env.LOG_LEVEL) set('logLevel', env.LOG_LEVEL);
  if (env.METRICS_TOKEN) set('metricsToken', env.METRICS_TOKEN);
  if (env.METRICS_PUBLIC) set('metricsPublic', bool(env.METRICS_PUBLIC));
  if (env.SMTP_URL !== undefined) set('smtpUrl', env.SMTP_URL === '' ? null : env.SMTP_URL);
  if (env.MAIL_FROM) set('mailFrom', env.MAIL_FROM);
  if (env.VAPID_PUBLIC_KEY) set('vapidPublicKey', env.VAPID_PUBLIC_KEY);
  if (env.VAPID_PRIVATE_KEY) set('vapidPrivateKey', env.VAPID_PRIVATE_KEY);
  if (env.VAPID_SUBJECT) set('vapidSubject', env.VAPID_SUBJECT);
  if (env.SEED_ON_START) set('seedOnStart', bool(env.SEED_ON_START));
  if (env.DRAIN_DELAY_MS) set('drainDelayMs', num('DRAIN_DELAY_MS', env.DRAIN_DELAY_MS));
  if (env.DRAIN_TIMEOUT_MS) set('drainTimeoutMs', num('DRAIN_TIMEOUT_MS', env.DRAIN_TIMEOUT_MS));
  if (env.MAX_IN_FLIGHT) set('maxInFlight', num('MAX_IN_FLIGHT', env.MAX_IN_FLIGHT));
  if (env.HEAP_GROWING_PERCENT) set('heapGrowingPercent', num('HEAP_GROWING_PERCENT', env.HEAP_GROWING_PERCENT));
  // the same setting under the name the deployment notes used first (README: scaling out)
  if (env.DATABASE_POOL_MAX && !env.DB_POOL_MAX) set('database.poolMax', num('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX));
  if (env.STORAGE) set('storage.driver', env.STORAGE);
  if (env.S3_ENDPOINT) set('storage.s3.endpoint', env.S3_ENDPOINT);
  if (env.S3_BUCKET) set('storage.s3.bucket', env.S3_BUCKET);
  if (env.S3_REGION) set('storage.s3.region', env.S3_REGION);
  if (env.S3_ACCESS_KEY_ID) set('storage.s3.accessKeyId', env.S3_ACCESS_KEY_ID);
  if (env.S3_SECRET_ACCESS_KEY) set('storage.s3.secretAccessKey', env.S3_SECRET_ACCESS_KEY);
  if (env.S3_FORCE_PATH_STYLE) set('storage.s3.forcePathStyle', bool(env.S3_FORCE_PATH_STYLE));
  if (env.MEDIA_PUBLIC_URL !== undefined) set('storage.mediaPublicUrl', env.MEDIA_PUBLIC_URL === '' ? null : env.MEDIA_PUBLIC_URL);
  if (env.PLUGINS_DISABLED !== undefined) set('plugins.disabled', list(env.PLUGINS_DISABLED));
  // Any other key: CURIO__<path with __ between keys>=<JSON or text>, e.g.
  // CURIO__plugins__config__museums__wikidataEndpoint=http://127.0.0.1:9000/sparql
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('CURIO__') || v === undefined) continue;
    let value: unknown = v;
    try { value = JSON.parse(v); } catch { /* plain text */ }
    set(k.slice(7).split('__').join('.'), value);
  }
  return out;
}

/**
 * The number of trusted proxy hops: the client's address is the one the last of them saw, i.e.
 * X-Forwarded-For's entry that many places from the right (entries left of it are whatever the
 * client sent). 0: X-Forwarded-* headers are ignored.
 */
export function proxyHops(cfg: Pick<CurioConfig, 'trustProxy'>): number {
  if (cfg.trustProxy === true) return 1;
  return typeof cfg.trustProxy === 'number' ? cfg.trustProxy : 0;
}

const configSchema = JSON.parse(fs.readFileSync(path.join(ROOT, 'config/config.schema.json'), 'utf8'));

/**
 * default.json, then <NODE_ENV>.json, then environment variables, then explicit overrides (tests);
 * the result is validated against config/config.schema.json.
 */
export function loadConfig(overrides: Json = {}, env: NodeJS.ProcessEnv = process.env): CurioConfig {
  const nodeEnv = env.NODE_ENV || 'development';
  let merged = readJson(path.join(ROOT, 'config/default.json'));
  merged = deepMerge(merged, readJson(path.join(ROOT, `config/${nodeEnv}.json`)));
  merged = deepMerge(merged, fromEnv(env));
  merged = deepMerge(merged, overrides);
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(configSchema);
  if (!validate(merged)) {
    const problems = formatAjvErrors(validate.errors ?? [], configSchema)
      .map((e) => `  - ${e.path ? e.path.replace(/^\//, '').replace(/\//g, '.') : '(root)'}: ${e.message}`)
      .join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const cfg = merged as unknown as CurioConfig;
  cfg.dataDir = path.resolve(ROOT, cfg.dataDir);
  return cfg;
}

/**
 * The process's garbage-collection policy from the configuration (core/bin/start.ts, once at start):
 * V8 lets the old space grow to up to 4 times what is alive before collecting it again, which after
 * heavy load leaves a process at 400+ MB for 70-80 MB of live data; `heapGrowingPercent` makes that
 * factor 1 + n/100. No limit is set: the heap still grows as far as the live data needs.
 */
export function applyHeapPolicy(cfg: Pick<CurioConfig, 'heapGrowingPercent'>): void {
  const n = cfg.heapGrowingPercent ?? 0;
  if (n > 0) v8.setFlagsFromString(`--heap-growing-percent=${n}`);
}
