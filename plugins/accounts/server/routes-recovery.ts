/**
 * Password reset and email confirmation routes (see recovery.ts for the tokens and emails).
 *
 *  POST /api/auth/password-reset           { email } → the same answer whatever the address
 *  POST /api/auth/password-reset/confirm   { token, newPassword } → new password, every session ends, signed in
 *  POST /api/auth/verify-email             { token } → the address is confirmed
 *  POST /api/user/email/verification       send a new confirmation link (signed in)
 *  PUT  /api/user/email                    { email, currentPassword } → new address, to confirm; the old one is told
 */
import type Koa from 'koa';
import { HttpError } from '../../../core/errors.ts';
import { emailLocale } from '../../../core/mail.ts';
import { EmailVerification, type EmailVerificationApi } from '../public.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { ownUserColumns, toOwnUser } from './service.ts';
import { startSession } from './sessions.ts';
import { LoginThrottle } from './throttle.ts';
import { trustDevice, type RouteDeps } from './deps.ts';
import { addUnsubscribeRoutes, unsubscribeSigner } from './routes-unsubscribe.ts';
import { NOT_VERIFIED, RecoveryMail, VERIFY_JOB, consumeToken, findToken, hit, minutesText } from './recovery.ts';

export const RESET_REQUESTED = 'If an account exists for this address, we have sent it a link to choose a new password. It works for one hour.';
export const INVALID_RESET = 'This password reset link is invalid or has expired. Please ask for a new one.';
export const INVALID_VERIFY = 'This confirmation link is invalid or has expired. Please ask for a new one.';

export interface RecoveryLimits {
  /** reset requests per IP address per hour */
  resetPerIpPerHour: number;
  /** reset requests per email address per hour (whether or not it has an account) */
  resetPerAddressPerHour: number;
  /** confirmation emails a member may ask for per hour */
  verifyPerUserPerHour: number;
}

export const RECOVERY_LIMIT_DEFAULTS: RecoveryLimits = { resetPerIpPerHour: 30, resetPerAddressPerHour: 5, verifyPerUserPerHour: 5 };

function throttled(c: Koa.Context, retryAfterSec: number, what: string): HttpError {
  c.set('Retry-After', String(retryAfterSec));
  return new HttpError(429, `Too many ${what}. Please try again in ${minutesText(retryAfterSec)}.`, { headers: { 'Retry-After': String(retryAfterSec) } });
}

export function addRecoveryRoutes(deps: RouteDeps, limits: RecoveryLimits = RECOVERY_LIMIT_DEFAULTS): void {
  const { ctx, knex, api, throttle } = deps;
  const mails = new RecoveryMail(ctx);
  const signer = unsubscribeSigner(String((ctx.app.keys as string[] | undefined)?.[0] ?? 'curio'));
  addUnsubscribeRoutes(deps, signer);

  const verification: EmailVerificationApi = {
    async isVerified(userId) {
      const row = await knex('users').where({ id: userId }).first('email_verified_at');
      return Boolean(row?.email_verified_at);
    },
    async requireVerified(userId) {
      if (!(await verification.isVerified(userId))) throw new HttpError(403, NOT_VERIFIED);
    },
    async contactInfo(userIds) {
      const ids = [...new Set(userIds)].filter((n) => Number.isInteger(n));
      if (!ids.length) return new Map();
      const rows = await knex('users').whereIn('id', ids).select('id', 'email', 'first_name', 'locale', 'time_zone', 'email_verified_at');
      return new Map(rows.map((r) => [r.id, { email: r.email, firstName: r.first_name, locale: r.locale, timeZone: r.time_zone, verified: Boolean(r.email_verified_at) }]));
    },
    unsubscribe(userId, category) {
      const url = ctx.mail.link(`/api/unsubscribe?token=${encodeURIComponent(signer.sign(userId, category))}`);
      return { url, headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
    },
    async weeklyDigestRecipients(afterId, limit) {
      const rows = await knex('user_preferences as p')
        .join('users as u', 'u.id', 'p.user_id')
        .where('p.weekly_digest', true)
        .where('p.user_id', '>', afterId)
        .orderBy('p.user_id')
        .limit(Math.min(Math.max(1, limit), 10_000))
        .select('u.id', 'u.time_zone');
      return rows.map((r) => ({ id: r.id, timeZone: r.time_zone }));
    },
  };
  ctx.services.provide(EmailVerification, verification);

  // A confirmation link, written by a job (not in the request) and only while still unconfirmed:
  // test helpers and admins may confirm an address before it runs.
  ctx.jobs.define(VERIFY_JOB, async (payload: { userId: number; email: string }) => {
    await knex.transaction(async (trx) => {
      const user = await trx('users').where({ id: payload.userId }).first('id', 'email', 'first_name', 'locale', 'email_verified_at');
      if (!user || user.email_verified_at || String(user.email).toLowerCase() !== String(payload.email).toLowerCase()) return;
      await mails.sendVerify(trx, user);
    });
  });
  const queueVerification = (userId: number, email: string, db = knex) =>
    ctx.jobs.enqueue(VERIFY_JOB, { userId, email }, { uniqueKey: `${VERIFY_JOB}:${userId}:${email.toLowerCase()}`, maxAttempts: 5, db });

  // An address changed through PUT /api/user/profile: confirm the new one, tell the old one.
  ctx.events.on('accounts.user.updated', async ({ userId, previousEmail }) => {
    if (!previousEmail) return;
    await knex.transaction(async (trx) => {
      const user = await trx('users').where({ id: userId }).first('id', 'email', 'first_name', 'locale');
      if (!user) return;
      await trx('accounts_email_tokens').where({ user_id: userId }).whereNull('used_at').update({ used_at: trx.fn.now() });
      await mails.sendEmailChanged(trx, user, previousEmail, user.email, `${Date.now()}`);
      await queueVerification(userId, user.email, trx);
    });
  });

  // A sign-up (POST /api/auth/register) remembers the browser's language for emails and queues
  // the confirmation link, before it answers.
  deps.afterSignUp.push(async (c, signedUp) => {
    const lang = emailLocale(c.get('accept-language'));
    await knex('users').where({ id: signedUp.id }).update({ locale: lang });
    await queueVerification(signedUp.id, signedUp.email);
  });

  ctx.routes.add<unknown, unknown, { email: string }>({
    method: 'POST',
    path: '/api/auth/password-reset',
    operationId: 'requestPasswordReset',
    summary: 'Email a password reset link (valid 1 h) to this address if it has an account; the same answer either way; throttled per IP and per address',
    auth: 'optional',
    schema: { body: { $ref: 'accounts/PasswordResetRequestBody' }, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const email = c.input.body.email.trim();
      const ip = c.ip || 'unknown';
      // Both counters move on every request (known address or not), so the limits reveal nothing.
      const [byIp, byAddress] = await Promise.all([
        hit(knex, `reset:ip:${ip}`, 3600),
        hit(knex, `reset:addr:${LoginThrottle.accountKey(email)}`, 3600),
      ]);
      if (byIp.count > limits.resetPerIpPerHour) throw throttled(c, byIp.retryAfterSec, 'password reset requests from your network');
      if (byAddress.count > limits.resetPerAddressPerHour) throw throttled(c, byAddress.retryAfterSec, 'password reset requests for this address');
      const user = await knex('users').where('email', email).first('id', 'email', 'first_name', 'locale', 'role', 'password_hash');
      // Sample members nobody may sign in to have no password to reset; nor do refused (banned) members.
      if (user && !String(user.password_hash).startsWith('!') && !(await api.checkGuards({ id: user.id, role: user.role }))) {
        // the token and its email together (PGlite: every statement of the transaction through trx)
        await knex.transaction((trx) => mails.sendReset(trx, user, c.get('accept-language')));
      }
      return { success: true, message: RESET_REQUESTED };
    },
  });

  ctx.routes.add<unknown, unknown, { token: string; newPassword: string }>({
    method: 'POST',
    path: '/api/auth/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    summary: 'Set a new password with a reset link (once; sign-up password rules); ends every session and signs in',
    auth: 'optional',
    schema: { body: { $ref: 'accounts/PasswordResetConfirmBody' }, response: { $ref: 'accounts/User' } },
    async handler(c) {
      const { token, newPassword } = c.input.body;
      const found = await findToken(knex, token, 'reset');
      if (!found) throw new HttpError(400, INVALID_RESET, { errors: [{ path: '/token', message: INVALID_RESET }] });
      const user = await knex('users').where({ id: found.user_id }).first();
      if (!user) throw new HttpError(400, INVALID_RESET);
      const problem = passwordProblem(newPassword, { username: user.username, email: user.email });
      if (problem) throw new HttpError(400, problem, { errors: [{ path: '/newPassword', message: problem }] });
      const refusal = await api.checkGuards(user);
      if (refusal) throw new HttpError(403, refusal);
      const password_hash = await hashPassword(newPassword);
      const row = await knex.transaction(async (trx) => {
        // consumed here, once: a concurrent second use finds it used
        const used = await consumeToken(trx, token, 'reset');
        if (!used || used.user_id !== user.id) return null;
        const [updated] = await trx('users')
          .where({ id: user.id })
          .update({
            password_hash,
            updated_at: trx.fn.now(),
            // the link reached this mailbox: the address is confirmed if it still is the account's
            email_verified_at: String(used.email).toLowerCase() === String(user.email).toLowerCase() ? trx.raw('coalesce(email_verified_at, now())') : trx.ref('email_verified_at'),
          })
          // with the avatar's info (profileImageInfo): the reset signs the member in
          .returning(ownUserColumns(trx));
        await trx('accounts_email_tokens').where({ user_id: user.id, purpose: 'reset' }).whereNull('used_at').update({ used_at: trx.fn.now() });
        await trx('user_sessions').where({ user_id: user.id }).del();
        return updated;
      });
      if (!row) throw new HttpError(400, INVALID_RESET, { errors: [{ path: '/token', message: INVALID_RESET }] });
      await startSession(c, row.id, false);
      trustDevice(c, row.id);
      await ctx.events.emit('accounts.password.reset', { userId: row.id });
      return toOwnUser(row);
    },
  });

  ctx.routes.add<unknown, unknown, { token: string }>({
    method: 'POST',
    path: '/api/auth/verify-email',
    operationId: 'verifyEmail',
    summary: 'Confirm the email address with the link sent to it (24 h, once); works signed in or out',
    auth: 'optional',
    schema: { body: { $ref: 'accounts/EmailTokenBody' }, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const ok = await knex.transaction(async (trx) => {
        const used = await consumeToken(trx, c.input.body.token, 'verify');
        if (!used) return null;
        // only the address the link was sent to, if it still is the account's
        const rows = await trx('users').where({ id: used.user_id }).where('email', used.email).update({ email_verified_at: trx.raw('coalesce(email_verified_at, now())') }).returning('id');
        return rows.length ? used.user_id : null;
      });
      if (!ok) throw new HttpError(400, INVALID_VERIFY, { errors: [{ path: '/token', message: INVALID_VERIFY }] });
      await ctx.events.emit('accounts.email.verified', { userId: ok });
      return { success: true, message: 'Your email address is confirmed.' };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/user/email/verification',
    operationId: 'resendEmailVerification',
    summary: 'Send a new confirmation link to the signed-in member’s address (earlier links stop working)',
    auth: 'required',
    schema: { response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const me = c.user!.id;
      const user = await knex('users').where({ id: me }).first('id', 'email', 'email_verified_at');
      if (!user) throw new HttpError(401, 'Authentication required');
      if (user.email_verified_at) return { success: true, message: 'Your email address is already confirmed.' };
      const n = await hit(knex, `verify:user:${me}`, 3600);
      if (n.count > limits.verifyPerUserPerHour) throw throttled(c, n.retryAfterSec, 'confirmation emails');
      await queueVerification(me, user.email);
      return { success: true, message: `We sent a new confirmation link to ${user.email}.` };
    },
  });

  ctx.routes.add<unknown, unknown, { timeZone?: string; locale?: 'en' | 'fr' }>({
    method: 'PUT',
    path: '/api/user/contact-settings',
    operationId: 'updateContactSettings',
    summary: 'The member’s time zone (reminders, weekly digest) and email language, from their browser',
    auth: 'required',
    schema: { body: { $ref: 'accounts/ContactSettingsBody' }, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const { timeZone, locale } = c.input.body;
      const changes: Record<string, string> = {};
      if (timeZone !== undefined) {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone });
        } catch {
          throw new HttpError(400, 'Unknown time zone', { errors: [{ path: '/timeZone', message: 'Unknown time zone' }] });
        }
        changes.time_zone = timeZone;
      }
      if (locale !== undefined) changes.locale = locale;
      if (Object.keys(changes).length) await knex('users').where({ id: c.user!.id }).update(changes);
      return { success: true };
    },
  });

  ctx.routes.add<unknown, unknown, { email: string; currentPassword: string }>({
    method: 'PUT',
    path: '/api/user/email',
    operationId: 'changeEmail',
    summary: 'Change the email address (current password required); the new one must be confirmed, the old one is told',
    auth: 'required',
    schema: { body: { $ref: 'accounts/EmailChangeBody' }, response: { $ref: 'accounts/User' } },
    async handler(c) {
      const me = c.user!.id;
      const email = c.input.body.email.trim();
      const current = await knex('users').where({ id: me }).first(...ownUserColumns(knex));
      if (!current) throw new HttpError(401, 'Authentication required');
      const key = LoginThrottle.accountKey(current.email);
      const ip = c.ip || 'unknown';
      // a point is taken before the password is checked and given back when it is right (throttle.ts)
      const attempt = await throttle.attempt(c, key, ip, true);
      let ok = false;
      try {
        ok = await verifyPassword(current.password_hash, c.input.body.currentPassword);
      } finally {
        await (ok ? attempt.succeeded() : attempt.failed());
      }
      if (!ok) {
        throw new HttpError(400, 'Current password is incorrect.', { errors: [{ path: '/currentPassword', message: 'Current password is incorrect.' }] });
      }
      if (email.toLowerCase() === String(current.email).toLowerCase()) return toOwnUser(current);
      const taken = 'An account with this email already exists';
      const row = await knex
        .transaction(async (trx) => {
          const [updated] = await trx('users').where({ id: me }).update({ email, email_verified_at: null, updated_at: trx.fn.now() }).returning(ownUserColumns(trx));
          await trx('accounts_email_tokens').where({ user_id: me }).whereNull('used_at').update({ used_at: trx.fn.now() });
          await mails.sendEmailChanged(trx, current, current.email, email, `${Date.now()}`);
          await queueVerification(me, email, trx);
          return updated;
        })
        .catch((e: any) => {
          if (e?.code === '23505') throw new HttpError(409, taken, { errors: [{ path: '/email', message: taken }] });
          throw e;
        });
      await ctx.events.emit('accounts.user.updated', { userId: me, fields: ['email'] });
      return toOwnUser(row);
    },
  });
}
