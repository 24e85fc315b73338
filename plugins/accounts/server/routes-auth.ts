import { HttpError } from '../../../core/errors.ts';
import { verifyPassword, dummyHash } from './passwords.ts';
import { createUser, DuplicateUserError, PasswordRejectedError } from './users.ts';
import { toOwnUser, ownUserColumns, iso } from './service.ts';
import { startSession, sessionId, sessionHandle } from './sessions.ts';
import { LoginThrottle } from './throttle.ts';
import { trustDevice, trustedUserIds, type RouteDeps } from './deps.ts';

export const INVALID_LOGIN = 'Invalid email or password';

export function addAuthRoutes({ ctx, knex, api, throttle, signups, userData, afterSignUp }: RouteDeps): void {
  ctx.routes.add({
    method: 'GET',
    path: '/api/auth/user',
    operationId: 'getAuthUser',
    summary: 'The signed-in user; 401 when signed out',
    auth: 'required',
    schema: { response: { $ref: 'accounts/User' } },
    async handler(c) {
      // with the avatar's made widths and placeholder (issue 23: the top bar's avatar), in this statement
      const row = await knex('users')
        .where({ id: c.user!.id })
        .first(...ownUserColumns(knex));
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
      const ip = c.ip || 'unknown';
      // A point on the per-address limits is taken before the attempt (429 when none is left) and
      // the outcome settles it: an account created, or a refusal (which tells whether an email
      // has an account, so refusals are limited too).
      const attempt = await signups.attempt(c, ip);
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
        if (e instanceof DuplicateUserError) {
          await attempt.refused();
          throw new HttpError(409, e.message, { errors: [{ path: `/${e.field}`, message: e.message }] });
        }
        if (e instanceof PasswordRejectedError) {
          await attempt.refused();
          throw new HttpError(400, e.message, { errors: [{ path: '/password', message: e.message }] });
        }
        await attempt.abandoned();
        throw e;
      }
      await attempt.created();
      await startSession(c, user.id, Boolean(b.rememberMe));
      trustDevice(c, user.id);
      await ctx.events.emit('accounts.user.registered', { userId: user.id });
      for (const then of afterSignUp) await then(c, { id: user.id, email: user.email });
      // a new account has no picture yet: nothing to read
      return toOwnUser({ ...user, profileImageInfo: null });
    },
  });

  ctx.routes.add<unknown, unknown, { email: string; password: string; rememberMe: boolean }>({
    method: 'POST',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with email and password (failures are throttled: 429 with Retry-After)',
    auth: 'optional',
    schema: { body: { $ref: 'accounts/LoginBody' }, response: { $ref: 'accounts/User' } },
    async handler(c) {
      const { password, rememberMe } = c.input.body;
      const email = c.input.body.email.trim();
      const key = LoginThrottle.accountKey(email);
      const ip = c.ip || 'unknown';
      // with the avatar's made widths and placeholder (the top bar right after sign-in), in this statement
      const row = await knex('users').where('email', email).first(...ownUserColumns(knex));
      const trusted = row ? trustedUserIds(c).includes(row.id) : false;
      // A point is taken on every limit before the password is checked (429 when one is used up),
      // so that however many attempts race, at most the limit's number of passwords are checked.
      const attempt = await throttle.attempt(c, key, ip, trusted);
      // The same work and the same answer for an unknown email and a wrong password.
      let ok = false;
      try {
        ok = row ? await verifyPassword(row.password_hash, password) : (await verifyPassword(await dummyHash(), password), false);
      } finally {
        if (!ok) await attempt.failed();
      }
      if (!row || !ok) throw new HttpError(401, INVALID_LOGIN);
      const refusal = await api.checkGuards(row);
      if (refusal) {
        await attempt.succeeded();
        throw new HttpError(403, refusal);
      }
      await attempt.succeeded({ resetRun: true });
      // Signing in during a deletion's grace period keeps the account.
      if (row.deletion_requested_at) await userData.cancelDeletion(row.id);
      // A new session id at sign-in (no fixation).
      await startSession(c, row.id, Boolean(rememberMe));
      trustDevice(c, row.id);
      await knex('users').where({ id: row.id }).update({ last_active_at: knex.fn.now() });
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

  ctx.routes.add({
    method: 'GET',
    path: '/api/auth/my-sessions',
    operationId: 'getMySessions',
    summary: "The signed-in user's active sessions, the current one first",
    auth: 'required',
    schema: { response: { $ref: 'accounts/SessionList' } },
    async handler(c) {
      const current = sessionId(c);
      const rows = await knex('user_sessions')
        .where({ user_id: c.user!.id })
        .where('expires_at', '>', knex.fn.now())
        .orderBy([{ column: 'last_activity', order: 'desc' }, { column: 'created_at', order: 'desc' }])
        .limit(200)
        .select('id', 'remember_me', 'created_at', 'last_activity', 'expires_at', 'user_agent', 'ip');
      const sessions = rows.map((r) => ({
        sessionId: sessionHandle(r.id),
        isCurrent: r.id === current,
        expiresAt: iso(r.expires_at),
        lastActivity: iso(r.last_activity),
        rememberMe: Boolean(r.remember_me),
        createdAt: iso(r.created_at),
        userAgent: r.user_agent ?? null,
        ip: r.ip ?? null,
      }));
      sessions.sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent));
      return { sessions };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/auth/logout-all-sessions',
    operationId: 'logoutAllSessions',
    summary: 'Ends every session of the signed-in user except this one',
    auth: 'required',
    schema: { response: { $ref: 'accounts/LogoutAllResult' } },
    async handler(c) {
      const deletedCount = await api.endSessions(c.user!.id, sessionId(c));
      return { deletedCount, message: `Successfully logged out from ${deletedCount} other sessions` };
    },
  });
}
