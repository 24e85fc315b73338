/**
 * Account recovery and email confirmation: one-time links (password reset, 1 h; email
 * confirmation, 24 h), their emails, and the counters that throttle reset requests.
 *
 * A link carries 32 random bytes (base64url); only their sha256 is stored, so a database leak
 * gives no usable link. A token is used at most once (an atomic UPDATE … WHERE used_at IS NULL),
 * and asking for a new one ends the previous ones of the same kind.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { emailLocale, emailTranslator, layoutEmail } from '../../../core/mail.ts';

export const RESET_TTL_MS = 3600_000;
export const VERIFY_TTL_MS = 24 * 3600_000;
export const VERIFY_JOB = 'accounts.email.verify';
export const NOT_VERIFIED = 'Please confirm your email address first: open the link we sent you, or send a new one from the banner at the top of the page.';

const EMAIL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales', 'email');

export type TokenPurpose = 'reset' | 'verify';

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Creates a token (ending the user's other unused tokens of this purpose); answers the raw token. */
export async function createToken(trx: Knex, userId: number, purpose: TokenPurpose, email: string, ttlMs: number, now = new Date()): Promise<{ id: number; token: string }> {
  await trx('accounts_email_tokens').where({ user_id: userId, purpose }).whereNull('used_at').update({ used_at: now });
  const token = crypto.randomBytes(32).toString('base64url');
  const [row] = await trx('accounts_email_tokens')
    .insert({ user_id: userId, purpose, token_hash: hashToken(token), email, created_at: now, expires_at: new Date(now.getTime() + ttlMs) })
    .returning('id');
  return { id: Number(row.id ?? row), token };
}

/** The unused, unexpired token's row (not consumed), or null. */
export async function findToken(knex: Knex, token: string, purpose: TokenPurpose): Promise<{ id: number; user_id: number; email: string } | null> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
  const row = await knex('accounts_email_tokens')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', knex.fn.now())
    .first('id', 'user_id', 'email');
  return row ?? null;
}

/** Uses a token once: answers its row when this call consumed it, null otherwise (used, expired, unknown). */
export async function consumeToken(knex: Knex, token: string, purpose: TokenPurpose): Promise<{ id: number; user_id: number; email: string } | null> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
  const rows = await knex('accounts_email_tokens')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', knex.fn.now())
    .update({ used_at: knex.fn.now() })
    .returning(['id', 'user_id', 'email']);
  return rows[0] ?? null;
}

/**
 * An atomic fixed-window counter in PostgreSQL (one upsert, exact under concurrency and across
 * processes): answers the count including this hit and the seconds left in the window.
 */
export async function hit(knex: Knex, key: string, windowSec: number): Promise<{ count: number; retryAfterSec: number }> {
  const r: any = await knex.raw(
    `insert into accounts_recovery_limits as l (key, count, window_start) values (?, 1, now())
     on conflict (key) do update set
       count = case when l.window_start <= now() - make_interval(secs => ?) then 1 else l.count + 1 end,
       window_start = case when l.window_start <= now() - make_interval(secs => ?) then now() else l.window_start end
     returning count, ceil(extract(epoch from (window_start + make_interval(secs => ?) - now())))::int as retry_after`,
    [key.slice(0, 300), windowSec, windowSec, windowSec],
  );
  const row = r.rows[0];
  return { count: Number(row.count), retryAfterSec: Math.max(1, Number(row.retry_after)) };
}

export function minutesText(sec: number): string {
  const min = Math.max(1, Math.ceil(sec / 60));
  return `${min} minute${min === 1 ? '' : 's'}`;
}

/** The emails of this module, in the member's language. */
export class RecoveryMail {
  constructor(private ctx: PluginContext) {}

  private t(lang: string) {
    return emailTranslator(EMAIL_DIR, lang);
  }

  async sendReset(trx: Knex, user: { id: number; email: string; first_name?: string; locale?: string | null }, acceptLanguage: string | undefined): Promise<void> {
    const { id, token } = await createToken(trx, user.id, 'reset', user.email, RESET_TTL_MS);
    const lang = emailLocale(user.locale ?? acceptLanguage);
    const t = this.t(lang);
    const url = this.ctx.mail.link(`/auth/reset?token=${encodeURIComponent(token)}`);
    const body = layoutEmail({
      lang,
      subject: t('reset.subject'),
      paragraphs: [t('greeting', { name: user.first_name || '' }).trim(), t('reset.intro'), t('reset.expiry')],
      action: { label: t('reset.action'), url },
      footer: [t('reset.ignore')],
    });
    await this.ctx.mail.send(`accounts.reset:${id}`, { to: user.email, ...body }, { db: trx });
  }

  async sendVerify(trx: Knex, user: { id: number; email: string; first_name?: string; locale?: string | null }): Promise<void> {
    const { id, token } = await createToken(trx, user.id, 'verify', user.email, VERIFY_TTL_MS);
    const lang = emailLocale(user.locale);
    const t = this.t(lang);
    const url = this.ctx.mail.link(`/auth/verify?token=${encodeURIComponent(token)}`);
    const body = layoutEmail({
      lang,
      subject: t('verify.subject'),
      paragraphs: [t('greeting', { name: user.first_name || '' }).trim(), t('verify.intro', { email: user.email }), t('verify.expiry')],
      action: { label: t('verify.action'), url },
      footer: [t('verify.ignore')],
    });
    await this.ctx.mail.send(`accounts.verify:${id}`, { to: user.email, ...body }, { db: trx });
  }

  /** To the address a member left: it was changed (so that a hijack does not go unnoticed). */
  async sendEmailChanged(trx: Knex, user: { id: number; first_name?: string; locale?: string | null }, oldEmail: string, newEmail: string, changeId: string): Promise<void> {
    const lang = emailLocale(user.locale);
    const t = this.t(lang);
    const body = layoutEmail({
      lang,
      subject: t('emailChanged.subject'),
      paragraphs: [t('greeting', { name: user.first_name || '' }).trim(), t('emailChanged.intro', { email: maskEmail(newEmail) }), t('emailChanged.notYou')],
      action: { label: t('emailChanged.action'), url: this.ctx.mail.link('/auth/forgot') },
    });
    await this.ctx.mail.send(`accounts.emailChanged:${user.id}:${changeId}`, { to: oldEmail, ...body }, { db: trx });
  }
}

/** a***@example.org: enough for the owner to recognise, not a full address for whoever reads the old mailbox. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}***@${domain ?? ''}`;
}
