/**
 * Test helpers: a real app on a real database over real HTTP.
 * With DATABASE_URL set, every app gets a fresh PostgreSQL database of its own (dropped on close),
 * copied from the run's migrated template when there is one (global-fixtures.ts); otherwise an
 * in-memory PGlite.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Logger } from 'pino';
import { createApp, type CurioApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { startTestS3, type TestS3 } from './s3.ts';
import { openDatabase } from '../db.ts';

export const RUN_ID = (process.env.TEST_RUN_ID ??= crypto.randomBytes(3).toString('hex'));
let counter = 0;

/**
 * The run's template: every migration applied once, by the mocha global setup, before the workers
 * start. A test app's database is a copy of it (PostgreSQL copies a database of this size in a
 * fraction of what running the migrations takes), and the app's own migration step then finds
 * nothing to do. Without it (a script outside mocha), each database is migrated by its app.
 */
export const TEMPLATE_DB = `curio_test_${RUN_ID}_template`;

export interface TestApp extends CurioApp {
  url: string;
  /** a new anonymous client (own cookie jar) */
  client(): TestClient;
  /** a new signed-up, signed-in client with a role */
  user(opts?: SignUpOptions): Promise<SignedInClient>;
}

export interface SignedInClient extends TestClient {
  me: { id: number; username: string; email: string; role: string; slug: string; password: string };
}

export function adminUrl(): string | null {
  return process.env.DATABASE_URL || null;
}

/** `fn` with a one-connection client of DATABASE_URL's server: creating and dropping databases. */
export async function withAdmin<T>(fn: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = knexFactory({ client: 'pg', connection: adminUrl()!, pool: { min: 0, max: 1 } });
  try {
    return await fn(admin);
  } finally {
    await admin.destroy();
  }
}

/** DATABASE_URL with another database of its server. */
export function databaseUrl(name: string): string {
  const u = new URL(adminUrl()!);
  u.pathname = `/${name}`;
  return u.toString();
}

async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `curio_test_${RUN_ID}_${process.pid}_${++counter}`;
  await withAdmin(async (admin) => {
    try {
      await admin.raw(`create database "${name}" template "${TEMPLATE_DB}"`);
    } catch (e) {
      // 3D000: no template in this run (a script outside mocha): an empty database, migrated by its app
      if ((e as { code?: string }).code !== '3D000') throw e;
      await admin.raw(`create database "${name}"`);
    }
  });
  return {
    url: databaseUrl(name),
    drop: () => withAdmin(async (admin) => void (await admin.raw(`drop database if exists "${name}" with (force)`))),
  };
}

/** A test app on its own database; `opts.logger` takes its log (a test that reads what was logged). */
export async function startTestApp(overrides: Record<string, any> = {}, opts: { logger?: Logger } = {}): Promise<TestApp> {
  const dataDir = `/tmp/curio-test-${RUN_ID}-${process.pid}-${++counter}`;
  let drop: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = null;
  if (adminUrl()) {
    const d = await createDatabase();
    databaseUrl = d.url;
    drop = d.drop;
  }
  // TEST_STORAGE=s3: uploads in a bucket of an S3-compatible server started for this app
  let s3: TestS3 | null = null;
  if (process.env.TEST_STORAGE === 's3' && !overrides.storage) {
    s3 = await startTestS3();
    overrides = { ...overrides, storage: s3.storageConfig() };
  }
  const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, ...overrides }, { ...process.env, NODE_ENV: 'test', DATABASE_URL: undefined, PORT: undefined });
  const db = await openDatabase(config, { memory: !databaseUrl, poolMax: 20 });
  let app: CurioApp;
  try {
    app = await createApp({ config, db, logger: opts.logger });
  } catch (e) {
    await db.close();
    await drop?.();
    await s3?.close();
    throw e;
  }
  await app.listen();
  const close = app.close.bind(app);
  const t = app as TestApp;
  t.client = () => new TestClient(app.url);
  t.user = (opts = {}) => signUp(t, opts);
  t.close = async () => {
    await close();
    await db.close();
    await drop?.();
    await s3?.close();
  };
  return t;
}

let shared: Promise<TestApp> | null = null;
/** One app per test worker process, shared by its test files (each test makes its own users). */
export function sharedApp(): Promise<TestApp> {
  shared ??= startTestApp();
  return shared;
}

export async function closeSharedApp(): Promise<void> {
  if (!shared) return;
  const a = await shared;
  shared = null;
  await a.close();
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** An HTTP client with a cookie jar, sending the app's own Origin like the browser does. */
export class TestClient {
  cookies = new Map<string, string>();
  origin: string | null;
  constructor(readonly base: string) {
    this.origin = base;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async raw(method: string, path: string, init: { body?: BodyInit | null; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (this.origin && !('origin' in headers) && !('Origin' in headers)) headers.origin = this.origin;
    const res = await fetch(this.base + path, { method, headers, body: init.body ?? undefined, redirect: 'manual' });
    this.store(res);
    return res;
  }

  async req<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const h = { ...headers };
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await this.raw(method, path, { body: payload, headers: h });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.req<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.req<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown) {
    return this.req<T>('PUT', path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.req<T>('PATCH', path, body);
  }
  del<T = any>(path: string, body?: unknown) {
    return this.req<T>('DELETE', path, body);
  }

  /** multipart/form-data upload; files as { field, name, type, data } */
  async upload<T = any>(path: string, files: Array<{ field: string; name: string; type: string; data: Buffer | Uint8Array }>, fields: Record<string, string> = {}, method = 'POST'): Promise<TestResponse<T>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
    const res = await this.raw(method, path, { body: form });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }
}

export function uniqueName(prefix = 'u'): string {
  return `${prefix}${crypto.randomBytes(5).toString('hex')}`;
}

export interface SignUpOptions {
  role?: string;
  username?: string;
  password?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** false: leave the email address unconfirmed, as after a real sign-up (default: confirmed, so that the member may create communities and meetups) */
  verified?: boolean;
}

async function signUp(app: TestApp, opts: SignUpOptions): Promise<SignedInClient> {
  const c = app.client() as SignedInClient;
  const username = opts.username ?? uniqueName();
  const password = opts.password ?? 'correct-horse-42';
  const email = opts.email ?? `${username}@example.test`;
  const r = await c.post('/api/auth/register', { email, password, firstName: opts.firstName ?? 'Test', lastName: opts.lastName ?? 'User', username });
  if (r.status !== 201) throw new Error(`sign-up failed: ${r.status} ${r.text}`);
  if (opts.verified !== false) {
    // as if the member had opened the confirmation link (its job then finds nothing to send)
    await app.knex('users').where({ id: r.body.id }).update({ email_verified_at: app.knex.fn.now() });
  }
  let role = 'Traveler';
  if (opts.role && opts.role !== 'Traveler') {
    // Same effect as `npm run user:create -- --role …`: roles are not self-service.
    await app.knex('users').where({ id: r.body.id }).update({ role: opts.role });
    role = opts.role;
  }
  c.me = { id: r.body.id, username, email, role, slug: r.body.slug, password };
  return c;
}

/**
 * Puts a member in the grace period of a deletion (hidden from everyone but themselves and Admins,
 * as if absent), as their deletion request does when deletionGraceDays > 0 (the test configuration
 * erases at once); `false` ends it, as their signing in again does.
 */
export async function setDeletionPending(app: TestApp, userId: number, pending = true): Promise<void> {
  await app
    .knex('users')
    .where({ id: userId })
    .update(pending ? { deletion_requested_at: new Date(), deletion_scheduled_for: new Date(Date.now() + 14 * 86_400_000) } : { deletion_requested_at: null, deletion_scheduled_for: null });
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, { timeout = 5000, interval = 50 } = {}): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, interval));
  }
}
