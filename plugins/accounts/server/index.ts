import type Koa from 'koa';
import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { AccountsService } from '../public.ts';
import { sessionMiddleware, REGULAR_MS, REMEMBER_MS, TOUCH_EVERY_MS } from './sessions.ts';
import { createAccountsApi, toOwnUser } from './service.ts';
import { hashPassword, verifyPassword, dummyHash } from './passwords.ts';
import { createUser, DuplicateUserError } from './users.ts';

const INVALID_LOGIN = 'Invalid email or password';

function startSession(ctx: Koa.Context, userId: number, rememberMe: boolean) {
  const s = ctx.session!;
  s.userId = userId;
  s.rememberMe = rememberMe;
  s.createdAt = Date.now();
  s.lastTouch = Date.now();
  s.maxAge = rememberMe ? REMEMBER_MS : REGULAR_MS;
}

export default definePluginServer({
  register(ctx: PluginContext) {
    const { db: knex } = ctx;
    const api = createAccountsApi(knex, async () => ({}));
    ctx.services.provide(AccountsService, api);

    ctx.middleware.use(sessionMiddleware(ctx.app, knex, { secure: ctx.appConfig.trustProxy }));
    // Who is signed in: the session's user, unless deleted or refused by a guard (bans).
    ctx.middleware.use(async (kctx, next) => {
      const s = kctx.session;
      const userId = s?.userId;
      if (userId) {
        const row = await knex('users').where({ id: userId }).first('id', 'username', 'role', 'slug');
        const refusal = row ? await api.checkGuards(row) : 'deleted';
        if (!row || refusal) {
          kctx.session = null;
        } else {
          kctx.state.user = { id: row.id, username: row.username, role: row.role, slug: row.slug };
          if (Date.now() - (s.lastTouch ?? 0) > TOUCH_EVERY_MS) s.lastTouch = Date.now(); // slides expiry
        }
      }
      await next();
    });

    ctx.routes.add({
      method: 'GET',
      path: '/api/auth/user',
      operationId: 'getAuthUser',
      summary: 'The signed-in user; 401 when signed out',
      auth: 'required',
      schema: { response: { $ref: 'accounts/User' } },
      async handler(c) {
        const row = await knex('users').where({ id: c.user!.id }).first();
        if (!row) throw new HttpError(401, 'Authentication required');
        return toOwnUser(row);
      },
    });

    ctx.routes.add<unknown, unknown, { email: string; password: string; firstName: string; lastName: string; username: string; rememberMe: boolean }>({
      method: 'POST',
      path: '/api/auth/register',
      operationId: 'register',
      summary: 'Create an account and sign in',
      auth: 'optional',
      status: 201,
      schema: { body: { $ref: 'accounts/RegisterBody' }, response: { 201: { $ref: 'accounts/User' } } },
      async handler(c) {
        const b = c.input.body;
        let user;
        try {
          user = await createUser(knex, {
            email: b.email.trim(),
            username: b.username.trim(),
            firstName: b.firstName.trim(),
            lastName: b.lastName.trim(),
            password: b.password,
          });
        } catch (e) {
          if (e instanceof DuplicateUserError) throw new HttpError(409, e.message);
          throw e;
        }
        await c.session!.regenerate();
        startSession(c, user.id, b.rememberMe);
        await ctx.events.emit('accounts.user.registered', { userId: user.id });
        return toOwnUser(user);
      },
    });

    ctx.routes.add<unknown, unknown, { email: string; password: string; rememberMe: boolean }>({
      method: 'POST',
      path: '/api/auth/login',
      operationId: 'login',
      summary: 'Sign in with email and password',
      auth: 'optional',
      schema: { body: { $ref: 'accounts/LoginBody' }, response: { $ref: 'accounts/User' } },
      async handler(c) {
        const { email, password, rememberMe } = c.input.body;
        const row = await knex('users').where('email', email.trim()).first();
        const ok = row ? await verifyPassword(row.password_hash, password) : (await verifyPassword(await dummyHash(), password), false);
        if (!row || !ok) throw new HttpError(401, INVALID_LOGIN);
        const refusal = await api.checkGuards(row);
        if (refusal) throw new HttpError(403, refusal);
        // A new session id at sign-in (no fixation).
        await c.session!.regenerate();
        startSession(c, row.id, rememberMe);
        return toOwnUser(row);
      },
    });

    ctx.routes.add({
      method: 'POST',
      path: '/api/logout',
      operationId: 'logout',
      summary: 'Sign out of this session',
      auth: 'optional',
      schema: { response: { $ref: 'shared/Ok' } },
      async handler(c) {
        c.session = null;
        return { success: true };
      },
    });
  },
});

export { hashPassword };
