import crypto from 'node:crypto';
import session from 'koa-session';
import type Koa from 'koa';
import type { Knex } from 'knex';

export const REGULAR_MS = 7 * 24 * 3600 * 1000;
export const REMEMBER_MS = 30 * 24 * 3600 * 1000;
export const COOKIE_NAME = 'curio.sid';
/** How often activity extends a session (a write per request would be wasteful). */
export const TOUCH_EVERY_MS = 60 * 1000;

/**
 * koa-session with its data in PostgreSQL (table user_sessions). The cookie carries only a signed
 * random id of 256 bits; expiry lives in the row and slides with activity.
 */
export function sessionMiddleware(app: Koa, knex: Knex, opts: { secure: boolean }): Koa.Middleware {
  return session(
    {
      key: COOKIE_NAME,
      maxAge: REGULAR_MS,
      httpOnly: true,
      sameSite: 'lax',
      signed: true,
      secure: opts.secure,
      rolling: false,
      renew: false,
      genid: () => crypto.randomBytes(32).toString('base64url'),
      store: {
        async get(key: string) {
          const row = await knex('user_sessions').where({ id: key }).where('expires_at', '>', knex.fn.now()).first('data');
          return row?.data ?? null;
        },
        async set(key: string, data: any, maxAge: number, { ctx }: { ctx: Koa.Context }) {
          const ms = typeof maxAge === 'number' ? maxAge : REGULAR_MS;
          const row = {
            id: key,
            user_id: data.userId ?? null,
            data: JSON.stringify(data),
            remember_me: Boolean(data.rememberMe),
            expires_at: new Date(Date.now() + ms),
            last_activity: new Date(),
            user_agent: (ctx.get('user-agent') || '').slice(0, 400) || null,
            ip: (ctx.ip || '').slice(0, 64) || null,
          };
          await knex('user_sessions')
            .insert(row)
            .onConflict('id')
            .merge(['user_id', 'data', 'remember_me', 'expires_at', 'last_activity', 'user_agent', 'ip']);
        },
        async destroy(key: string) {
          await knex('user_sessions').where({ id: key }).del();
        },
      },
    } as any,
    app,
  );
}

export function sessionId(ctx: Koa.Context): string | undefined {
  // koa-session keeps the external key on its context object
  return (ctx as any)[Symbol.for('context#contextSession')]?.externalKey ?? (ctx.session as any)?._sessCtx?.externalKey ?? ctx.cookies.get(COOKIE_NAME, { signed: true });
}
