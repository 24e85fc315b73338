import crypto from 'node:crypto';
import session from 'koa-session';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { LoginGuardSql } from '../public.ts';
import type { SessionCache } from './session-cache.ts';

export const REGULAR_MS = 7 * 24 * 3600 * 1000;
export const REMEMBER_MS = 30 * 24 * 3600 * 1000;
export const COOKIE_NAME = 'curio.sid';
/** How often activity extends a session (a write per request would be wasteful). */
export const TOUCH_EVERY_MS = 60 * 1000;

/** What the store read for this request's session (the row, not the cookie's copy). */
export interface LoadedSessionRow {
  id: string;
  lastActivity: Date;
  expiresAt: Date;
  rememberMe: boolean;
  /** The session's user, read in the same statement (null: the session has none or it is gone). */
  user: { id: number; username: string; role: string; slug: string } | null;
  /** The login guards' values read in the same statement (LoginGuardSql), in guard order; null when a guard has no SQL form. */
  guards: unknown[] | null;
}

const LOADED = Symbol('accounts.loadedSession');

/**
 * A new session id: 256 random bits from the CSPRNG. koa-session asks for one on every request
 * without a session cookie (most are never saved), so the bytes come from a buffer refilled 128 ids
 * at a time instead of one crypto call each (issue 18: 7 % of an anonymous request's CPU). Each
 * id's bytes are used once.
 */
const ID_BYTES = 32;
const idPool = Buffer.alloc(ID_BYTES * 128);
let idAt = idPool.length;
export function newSessionId(): string {
  if (idAt + ID_BYTES > idPool.length) {
    crypto.randomFillSync(idPool);
    idAt = 0;
  }
  const id = idPool.toString('base64url', idAt, idAt + ID_BYTES);
  idAt += ID_BYTES;
  return id;
}

export function loadedSession(ctx: Koa.Context): LoadedSessionRow | undefined {
  return (ctx.state as any)[LOADED];
}

/**
 * koa-session with its data in PostgreSQL (table user_sessions). The cookie carries only a signed
 * random id of 256 bits; expiry lives in the row and slides with activity. The cookie is httpOnly,
 * SameSite=Lax and Secure whenever the request came over TLS (directly or, with trustProxy, through
 * the proxy's X-Forwarded-Proto), which is what the cookies library does when `secure` is unset.
 */
/** What the session cache keeps of a session's statement (session-cache.ts). */
export interface CachedSession {
  data: Record<string, unknown>;
  loaded: LoadedSessionRow;
}

export function sessionMiddleware(
  app: Koa,
  knex: Knex,
  guardsSql: () => LoginGuardSql[] | null = () => null,
  cache: SessionCache<CachedSession> | null = null,
): Koa.Middleware {
  const full = session(
    {
      key: COOKIE_NAME,
      maxAge: REGULAR_MS,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      renew: false,
      genid: newSessionId,
      store: {
        async get(key: string, _maxAge: number, { ctx }: { ctx: Koa.Context }) {
          if (typeof key !== 'string' || key.length > 64) return null;
          // Seen in the last few seconds (and nothing since said it changed): no statement at all.
          const hit = cache?.get(key);
          if (hit && hit.loaded.expiresAt.getTime() > Date.now()) {
            const l = hit.loaded;
            (ctx.state as any)[LOADED] = { ...l, user: l.user && { ...l.user } } satisfies LoadedSessionRow;
            // koa-session copies the top-level values into its Session; they are all primitives
            // (userId, rememberMe, createdAt, expiry), and the cached copy is frozen
            return { ...hit.data };
          }
          const mark = cache?.mark() ?? 0;
          // The session, its user and the login guards' answers (bans) in one statement: every
          // signed-in request starts with it, and it is the only one in middleware (issue 18).
          const sqls = guardsSql();
          const q = knex('user_sessions as s')
            .leftJoin('users as u', 'u.id', 's.user_id')
            .where('s.id', key)
            .where('s.expires_at', '>', knex.fn.now())
            .first('s.data', 's.last_activity', 's.expires_at', 's.remember_me', { u_id: 'u.id', u_username: 'u.username', u_role: 'u.role', u_slug: 'u.slug' });
          if (sqls) sqls.forEach((g, i) => q.select(knex.raw(`(?) as ??`, [g.select(knex, 'u.id'), `guard_${i}`])));
          const row = await q;
          if (!row) return null;
          const loaded: LoadedSessionRow = {
            id: key,
            lastActivity: new Date(row.last_activity),
            expiresAt: new Date(row.expires_at),
            rememberMe: row.remember_me,
            user: row.u_id == null ? null : { id: row.u_id, username: row.u_username, role: row.u_role, slug: row.u_slug },
            guards: sqls ? sqls.map((_g, i) => row[`guard_${i}`]) : null,
          };
          (ctx.state as any)[LOADED] = loaded;
          const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
          if (cache && data && typeof data === 'object') {
            cache.put(key, loaded.user?.id ?? null, { data: Object.freeze(structuredClone(data)), loaded: { ...loaded, user: loaded.user && { ...loaded.user } } }, mark);
          }
          return data;
        },
        async set(key: string, data: any, maxAge: number, { ctx }: { ctx: Koa.Context }) {
          cache?.forgetKey(key);
          const ms = typeof maxAge === 'number' ? maxAge : REGULAR_MS;
          const expires = new Date(typeof data._expire === 'number' ? data._expire : Date.now() + ms);
          const fields = {
            user_id: data.userId ?? null,
            data: JSON.stringify(data),
            remember_me: Boolean(data.rememberMe),
            expires_at: expires,
            last_activity: new Date(),
            user_agent: (ctx.get('user-agent') || '').slice(0, 400) || null,
            ip: (ctx.ip || '').slice(0, 64) || null,
          };
          const loaded = loadedSession(ctx);
          if (loaded && loaded.id === key) {
            // An existing session: update only. If it was ended meanwhile (logout-all, password
            // change, deletion) it stays ended instead of being written back.
            await knex('user_sessions').where({ id: key }).update(fields);
            cache?.forgetKey(key);
            return;
          }
          await knex('user_sessions').insert({ id: key, ...fields }).onConflict('id').ignore();
          cache?.forgetKey(key);
        },
        async destroy(key: string) {
          cache?.forgetKey(key);
          await knex('user_sessions').where({ id: key }).del();
          // (the other processes forget it through the table's trigger)
          cache?.forgetKey(key);
        },
      },
    } as any,
    app,
  );
  return withoutCookieLazily(app, full);
}

const TOUCHED = Symbol('accounts.sessionTouched');
const COOKIE_SENT = Symbol('accounts.sessionCookieSent');
const COOKIE_PAIR = `${COOKIE_NAME}=`;

/**
 * koa-session, except on requests without the session cookie (every visitor who is not signed in,
 * and most API clients): there is nothing to read, so nothing is made until something asks for
 * `ctx.session` (issue 18: koa-session otherwise made its context, a Cookies reader, a new session
 * id and an empty session on every such request, and committed it at the end). What it does when
 * the session is asked for is koa-session's own: the same `ctx.session` (a new empty session the
 * first time it is read), the same commit at the end (a session given data is stored and its
 * cookie set; `ctx.session = null` clears the cookie).
 */
function withoutCookieLazily(app: Koa, full: Koa.Middleware): Koa.Middleware {
  const context = app.context as any;
  const own = Object.getOwnPropertyDescriptor(context, 'session');
  // koa-session's per-request state, behind a symbol of its own on the context prototype
  const contextSession = Object.getOwnPropertySymbols(context).find((s) => s.description === 'get contextSession');
  if (!own?.get || !own.set || !own.configurable || !contextSession) return full; // another koa-session: always the full path
  Object.defineProperty(context, 'session', {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      this[TOUCHED] = true;
      return own.get!.call(this);
    },
    set(value) {
      this[TOUCHED] = true;
      own.set!.call(this, value);
    },
  });
  return async function session(ctx, next) {
    const cookie = ctx.req.headers.cookie;
    if (cookie !== undefined && cookie.includes(COOKIE_PAIR)) {
      (ctx as any)[COOKIE_SENT] = true;
      return full(ctx, () => next().finally(() => leaveUnsavedAfterRawAnswer(ctx)));
    }
    try {
      await next();
    } finally {
      if ((ctx as any)[TOUCHED]) await (ctx as any)[contextSession].commit();
    }
  };
}

/**
 * A route that wrote its own answer (the live-updates stream: `ctx.respond = false`, headers sent
 * when it opened) leaves no room for the cookie koa-session sets when it saves at the end. A save
 * asked for only to slide the expiry (the once-a-minute touch in index.ts) is left to the member's
 * next ordinary request, which touches again since nothing was stored; without this, the commit
 * threw "Cannot set headers after they are sent" when the stream closed.
 */
function leaveUnsavedAfterRawAnswer(ctx: Koa.Context): void {
  if (ctx.respond !== false || !ctx.res.headersSent) return;
  const s = existingSession(ctx) as any;
  if (s && typeof s === 'object') s._requireSave = false;
}

/**
 * The request's session when there may be one (the request sent the session cookie, or something
 * already asked for it): reading `ctx.session` otherwise makes an empty one for nothing.
 */
export function existingSession(ctx: Koa.Context): Koa.Context['session'] | undefined {
  return (ctx as any)[COOKIE_SENT] || (ctx as any)[TOUCHED] ? ctx.session : undefined;
}

/** The current request's session id (the store key), if any. */
export function sessionId(ctx: Koa.Context): string | undefined {
  const s = ctx.session as any;
  return s?.externalKey ?? undefined;
}

/** A public handle for a session: never the id itself (the id is the bearer secret). */
export function sessionHandle(id: string): string {
  return crypto.createHash('sha256').update(id).digest('base64url').slice(0, 16);
}

/** Starts a signed-in session with a new id (no fixation). */
export async function startSession(ctx: Koa.Context, userId: number, rememberMe: boolean): Promise<void> {
  const s = ctx.session!;
  s.userId = userId;
  s.rememberMe = rememberMe;
  s.createdAt = Date.now();
  s.maxAge = rememberMe ? REMEMBER_MS : REGULAR_MS;
  await s.regenerate();
}
