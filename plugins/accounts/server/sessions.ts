import crypto from 'node:crypto';
import session from 'koa-session';
import type Koa from 'koa';
import type { Knex } from 'knex';

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
}

const LOADED = Symbol('accounts.loadedSession');

export function loadedSession(ctx: Koa.Context): LoadedSessionRow | undefined {
  return (ctx.state as any)[LOADED];
}

/**
 * koa-session with its data in PostgreSQL (table user_sessions). The cookie carries only a signed
 * random id of 256 bits; expiry lives in the row and slides with activity. The cookie is httpOnly,
 * SameSite=Lax and Secure whenever the request came over TLS (directly or, with trustProxy, through
 * the proxy's X-Forwarded-Proto), which is what the cookies library does when `secure` is unset.
 */
export function sessionMiddleware(app: Koa, knex: Knex): Koa.Middleware {
  return session(
    {
      key: COOKIE_NAME,
      maxAge: REGULAR_MS,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      rolling: false,
      renew: false,
      genid: () => crypto.randomBytes(32).toString('base64url'),
      store: {
        async get(key: string, _maxAge: number, { ctx }: { ctx: Koa.Context }) {
          if (typeof key !== 'string' || key.length > 64) return null;
          // The session and its user in one statement: every signed-in request starts with it.
          const row = await knex('user_sessions as s')
            .leftJoin('users as u', 'u.id', 's.user_id')
            .where('s.id', key)
            .where('s.expires_at', '>', knex.fn.now())
            .first('s.data', 's.last_activity', 's.expires_at', 's.remember_me', { u_id: 'u.id', u_username: 'u.username', u_role: 'u.role', u_slug: 'u.slug' });
          if (!row) return null;
          (ctx.state as any)[LOADED] = {
            id: key,
            lastActivity: new Date(row.last_activity),
            expiresAt: new Date(row.expires_at),
            rememberMe: row.remember_me,
            user: row.u_id == null ? null : { id: row.u_id, username: row.u_username, role: row.u_role, slug: row.u_slug },
          } satisfies LoadedSessionRow;
          return typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
        },
        async set(key: string, data: any, maxAge: number, { ctx }: { ctx: Koa.Context }) {
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
            return;
          }
          await knex('user_sessions').insert({ id: key, ...fields }).onConflict('id').ignore();
        },
        async destroy(key: string) {
          await knex('user_sessions').where({ id: key }).del();
        },
      },
    } as any,
    app,
  );
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
