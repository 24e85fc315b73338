/**
 * The authorization matrix: one row per registered route (core/quality/authz/<plugin>.ts), each
 * with the expected answer for every role of the world (core/quality/fixtures/world.ts) and, for
 * routes that act on somebody's object, for the role's own object and another member's object.
 *
 * Expectation lookup for role R probing object O: `R:O`, then `R`, then the group key
 * (`signedOut` for anon and banned, `signedIn` for everyone else), then `default`.
 * A cell that resolves to nothing fails the test: every route × role has a written expectation.
 */
import crypto from 'node:crypto';
import type { TestClient } from '../../testing/index.ts';
import { ROLES, type Role, type World } from '../fixtures/world.ts';

/** a status, a status class, or 'n/a' where the probe makes no sense (a signed-out visitor's own post) */
export type Expect = number | '2xx' | '4xx' | 'n/a';
export type Obj = 'own' | 'other';
export type ExpectKey = Role | `${Role}:${Obj}` | 'signedOut' | 'signedIn' | 'default';

export interface ReqSpec {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** multipart upload instead of JSON */
  files?: Array<{ field: string; name: string; type: string; data: Buffer }>;
  fields?: Record<string, string>;
  /** send as this client instead of the role's client (a fresh account of the same role) */
  client?: TestClient;
}

export interface ProbeCtx {
  w: World;
  as: Role;
  obj: Obj | null;
  /** the client of the role */
  client: TestClient;
}

export interface AuthzRow {
  route: string;
  /** object variants probed for every role; absent: the route acts on no one's object */
  objects?: Obj[];
  /** the request of one probe; null where the probe is not applicable (expectation n/a) */
  req?: (p: ProbeCtx) => ReqSpec | null | Promise<ReqSpec | null>;
  expect: Partial<Record<ExpectKey, Expect>>;
  /** why the expectations are what they are, where not obvious */
  note?: string;
  /** cells (`role` or `role:obj`) that currently break their expectation because of a known bug (id in known-bugs.ts) */
  bugs?: Partial<Record<string, string>>;
}

export function expectationFor(row: AuthzRow, as: Role, obj: Obj | null): Expect | undefined {
  const e = row.expect;
  const group = as === 'anon' || as === 'banned' ? 'signedOut' : 'signedIn';
  return (obj ? e[`${as}:${obj}` as ExpectKey] : undefined) ?? e[as] ?? e[group] ?? e.default;
}

export function matches(expect: Expect, status: number): boolean {
  if (expect === 'n/a') return true;
  if (expect === '2xx') return status >= 200 && status < 300;
  if (expect === '4xx') return status >= 400 && status < 500;
  return status === expect;
}

export const isSuccess = (e: Expect) => e === '2xx' || (typeof e === 'number' && e < 300);

/** Fills `:name` path parameters and a query string. */
export function buildPath(route: string, req: ReqSpec): string {
  const path = route.replace(/^[A-Z]+ /, '').replace(/:([A-Za-z0-9_]+)/g, (_, k) => {
    const v = req.params?.[k];
    if (v === undefined) throw new Error(`${route}: no value for :${k}`);
    return encodeURIComponent(String(v));
  });
  const q = Object.entries(req.query ?? {});
  return q.length ? `${path}?${new URLSearchParams(q.map(([k, v]) => [k, String(v)])).toString()}` : path;
}

export { ROLES, type Role };

export const rnd = (p = 'q') => `${p}${crypto.randomBytes(4).toString('hex')}`;

// Shorthands used by the rows.
/** signed in: anyone; signed out (and banned, whose session ended): 401 */
export const member = (ok: Expect = 200): AuthzRow['expect'] => ({ signedOut: 401, signedIn: ok });
/** public: everyone, including signed-out visitors */
export const everyone = (ok: Expect = 200): AuthzRow['expect'] => ({ default: ok });
/** Admin only (route `roles: ['Admin']`) */
export const adminOnly = (ok: Expect = 200): AuthzRow['expect'] => ({ signedOut: 401, signedIn: 403, admin: ok });

/** The platform role behind a matrix role (community roles are relationships, not platform roles). */
export function platformRole(as: Role): string | null {
  switch (as) {
    case 'anon':
      return null;
    case 'ambassador':
    case 'creator':
      return 'Ambassador';
    case 'manager':
    case 'managerOther':
      return 'Museum Manager';
    case 'admin':
      return 'Admin';
    default:
      return 'Traveler';
  }
}

/**
 * A new account with the role's platform role, for routes that act on the caller's own account
 * (password, deletion, sessions): the world's accounts stay as they are. Signed-out roles keep
 * their (dead or absent) session.
 */
export async function freshClient(p: ProbeCtx): Promise<TestClient> {
  const role = platformRole(p.as);
  if (!role || p.as === 'banned') return p.client;
  return p.w.app.user({ role });
}

/**
 * The role's account in a second session of its own (signing in, out or up on the role's own jar
 * would end the world's session: a new sign-in regenerates the session id).
 */
export async function secondSession(p: ProbeCtx): Promise<TestClient> {
  if (p.as === 'anon') return p.w.app.client();
  if (p.as === 'banned') {
    const c = p.w.app.client();
    for (const [k, v] of p.client.cookies) c.cookies.set(k, v); // its session already ended
    return c;
  }
  const me = p.w.u[p.as];
  const c = p.w.app.client();
  const r = await c.post('/api/auth/login', { email: me.email, password: me.password });
  if (r.status !== 200) throw new Error(`second session for ${p.as}: ${r.status} ${r.text}`);
  return c;
}
