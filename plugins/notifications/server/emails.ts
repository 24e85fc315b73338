/**
 * Notifications by email (the member's `emailNotifications` setting) and the weekly digest
 * (`weeklyDigest`), both from scheduled jobs (core/jobs.ts), each email once (core/mail.ts keys).
 *
 * Batches: every minute a scan finds members with unread notifications newer than their last
 * email, whose last email is at least 15 minutes old, and queues one email each covering
 * everything up to the newest such notification. The send job checks the settings again (the
 * email setting and each type's own), emails only what is still unread (not seen in the app) and
 * moves the member's mark in the same transaction as it queues the email.
 *
 * Digest: every hour a scan picks the members with the digest on for whom it is Monday 08:xx in
 * their time zone and queues one digest per member and week (once-ever key); sections come from
 * the plugins that registered a DigestProvider; an empty digest is not sent.
 *
 * Both carry List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) from accounts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { every, hourlyAt } from '../../../core/jobs.ts';
import { emailLocale, emailTranslator, layoutEmail } from '../../../core/mail.ts';
import { fillTemplate, localeFile, textAt } from '../../../core/texts.ts';
import { AccountsService, EmailVerification } from '../../accounts/public.ts';
import { EMAILED_BY_SENDER, PREFERENCE_OF_TYPE, type DigestProvider, type DigestSection, type DigestSectionsApi } from '../public.ts';
import { actorVisible } from './service.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PLUGINS = path.join(HERE, '..', '..');
const EMAIL_DIR = path.join(HERE, '..', 'locales', 'email');

export const BATCH_SCAN_JOB = 'notifications.email.scan';
export const BATCH_SEND_JOB = 'notifications.email.send';
export const DIGEST_SCAN_JOB = 'notifications.digest.scan';
export const DIGEST_SEND_JOB = 'notifications.digest.send';
export const BATCH_INTERVAL_MS = 15 * 60_000;

/** A plugin's locale file (`plugins/<ns>/locales/<lang>.json`), null when there is none. */
function pluginLocale(ns: string, lang: string): Record<string, unknown> | null {
  if (!/^[a-z][a-z0-9-]*$/.test(ns)) return null;
  return localeFile(path.join(PLUGINS, ns, 'locales', `${lang}.json`));
}

/** A stored notification in the member's language (its template when the language has it). */
export function localizedNotification(row: { title: string; message: string; template?: string | null; params?: any }, lang: string): { title: string; message: string } {
  const [ns, key] = String(row.template ?? '').split(':');
  if (ns && key && lang !== 'en') {
    const node = textAt(pluginLocale(ns, lang), key) as any;
    if (node && typeof node.title === 'string' && typeof node.message === 'string') {
      const params = typeof row.params === 'string' ? JSON.parse(row.params) : (row.params ?? {});
      return { title: fillTemplate(node.title, params), message: fillTemplate(node.message, params) };
    }
  }
  return { title: row.title, message: row.message };
}

/** Weekday (0 = Sunday), hour and date (YYYY-MM-DD) of `at` in `timeZone` (UTC when unknown). */
export function localParts(at: Date, timeZone: string | null): { weekday: number; hour: number; date: string } {
  let tz = timeZone || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    tz = 'UTC';
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', hour: 'numeric', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
  return { weekday, hour: Number(parts.hour), date: `${parts.year}-${parts.month}-${parts.day}` };
}

export function registerNotificationEmails(ctx: PluginContext): DigestSectionsApi {
  const knex = ctx.db;
  const accounts = () => ctx.services.maybe(AccountsService);
  const contact = () => ctx.services.maybe(EmailVerification);
  const providers: Array<{ id: string; order: number; fn: DigestProvider }> = [];
  const absolute = (link: string | null | undefined) => (!link ? null : /^https?:\/\//.test(link) ? link : ctx.mail.link(link));

  // ---- batched notification emails ----
  ctx.jobs.repeat(BATCH_SCAN_JOB, every(60_000), async (_p, h) => {
    const cutoff = new Date(h.now.getTime() - BATCH_INTERVAL_MS);
    const sql = accounts()?.sql;
    const rows = await knex('notifications as n')
      .leftJoin('notification_email_state as s', 's.user_id', 'n.user_id')
      .where('n.read', false)
      .where('n.created_at', '<=', h.now)
      .whereRaw('n.id > coalesce(s.last_notification_id, 0)')
      .where((q) => q.whereNull('s.last_email_at').orWhere('s.last_email_at', '<=', cutoff))
      .groupBy('n.user_id')
      .limit(5000)
      .select('n.user_id', knex.raw('max(n.id) as up_to'))
      // who may be emailed at all (a confirmed address, notification emails on), in this statement
      .select(sql ? knex.raw('? as may_email', [sql.mayEmail('emailNotifications', 'n.user_id')]) : knex.raw('true as may_email'));
    // the others are only marked as covered, all in one statement, as their send job did one by one
    // (issue 18: every member told of a like got a job of eight statements a minute later, most of
    // them to write that no email goes)
    const quiet = rows.filter((r) => !r.may_email);
    if (quiet.length) {
      await knex.raw(
        `insert into notification_email_state (user_id, last_notification_id)
           select t.user_id, t.up_to from unnest(?::int[], ?::bigint[]) as t(user_id, up_to)
           -- a member deleted since the scan has no notifications left (cascade): skipped, not a failure
           where exists (select 1 from notifications x where x.user_id = t.user_id)
         on conflict (user_id) do update set last_notification_id = greatest(notification_email_state.last_notification_id, excluded.last_notification_id)`,
        [quiet.map((r) => Number(r.user_id)), quiet.map((r) => Number(r.up_to))],
      );
    }
    const emailed = rows.filter((r) => r.may_email);
    for (const r of emailed) {
      await ctx.jobs.enqueueOnce(BATCH_SEND_JOB, { userId: r.user_id, upTo: Number(r.up_to) }, `notif-email:${r.user_id}:${r.up_to}`, { maxAttempts: 5 });
    }
    return { queued: emailed.length, covered: quiet.length };
  });

  ctx.jobs.define(BATCH_SEND_JOB, async (p: { userId: number; upTo: number }, h) => {
    const userId = Number(p.userId);
    const upTo = Number(p.upTo);
    const state = await knex('notification_email_state').where({ user_id: userId }).first();
    const after = Number(state?.last_notification_id ?? 0);
    if (upTo <= after) return { sent: false, reason: 'covered' };
    const prefs = await accounts()?.getPreferences(userId);
    const who = (await contact()?.contactInfo([userId]))?.get(userId);
    let rows: any[] = [];
    if (prefs?.emailNotifications && who?.verified) {
      rows = (
        await knex('notifications')
          .where({ user_id: userId, read: false })
          // emailed by their sender at their time (event reminders)
          .where((q) => q.whereNull('dedupe_key').orWhereRaw("left(dedupe_key, ?) <> ?", [EMAILED_BY_SENDER.length, EMAILED_BY_SENDER]))
          .where('id', '>', after)
          .where('id', '<=', upTo)
          // what the inbox hides is not emailed either (actorVisible)
          .modify((q) => {
            const sql = accounts()?.sql;
            if (sql) actorVisible(q, sql, userId);
          })
          .orderBy('id')
          .limit(50)
          .select('id', 'type', 'title', 'message', 'link', 'template', 'params')
      ).filter((r: any) => {
        const pref = PREFERENCE_OF_TYPE[r.type as keyof typeof PREFERENCE_OF_TYPE];
        return !pref || (prefs as any)[pref] !== false;
      });
    }
    return knex.transaction(async (trx) => {
      const mark = { last_notification_id: upTo, ...(rows.length ? { last_email_at: h.now } : {}) };
      await trx('notification_email_state').insert({ user_id: userId, ...mark }).onConflict('user_id').merge(mark);
      if (!rows.length || !who) return { sent: false };
      const lang = emailLocale(who.locale);
      const t = emailTranslator(EMAIL_DIR, lang);
      const unsub = contact()!.unsubscribe(userId, 'emailNotifications');
      const body = layoutEmail({
        lang,
        subject: rows.length === 1 ? t('batch.subject_one') : t('batch.subject_other', { count: rows.length }),
        paragraphs: [t('greeting', { name: who.firstName }).trim(), t('batch.intro')],
        items: rows.map((r) => {
          const l = localizedNotification(r, lang);
          return { text: `${l.title}: ${l.message}`, url: absolute(r.link) ?? undefined };
        }),
        action: { label: t('batch.action'), url: ctx.mail.link('/notifications') },
        footer: [t('batch.why')],
        footerLink: { label: t('batch.unsubscribe'), url: unsub.url },
      });
      await ctx.mail.send(`notifications.batch:${userId}:${upTo}`, { to: who.email, ...body, headers: unsub.headers }, { db: trx });
      return { sent: true, count: rows.length };
    });
  });

  // ---- weekly digest ----
  const digest: DigestSectionsApi = {
    register(id, fn, order = 100) {
      providers.push({ id, order, fn });
      providers.sort((a, b) => a.order - b.order);
    },
  };

  // built in: badges earned this week (from the badge notifications)
  digest.register(
    'badges',
    async (userId, period, lang) => {
      const rows = await knex('notifications')
        .where({ user_id: userId, type: 'badge' })
        .where('created_at', '>', period.since)
        .where('created_at', '<=', period.until)
        .orderBy('id')
        .limit(20)
        .select('title', 'message', 'template', 'params', 'link');
      if (!rows.length) return null;
      const t = emailTranslator(EMAIL_DIR, lang);
      return { title: t('digest.badges'), items: rows.map((r) => ({ text: localizedNotification(r, lang).message, link: r.link })) };
    },
    90,
  );

  ctx.jobs.repeat(DIGEST_SCAN_JOB, hourlyAt(0), async (_p, h) => {
    const c = contact();
    if (!c) return { queued: 0 };
    let after = 0;
    let queued = 0;
    for (;;) {
      const batch = await c.weeklyDigestRecipients(after, 1000);
      if (!batch.length) break;
      after = batch[batch.length - 1].id;
      for (const r of batch) {
        const local = localParts(h.now, r.timeZone);
        if (local.weekday !== 1 || local.hour !== 8) continue;
        const job = await ctx.jobs.enqueueOnce(DIGEST_SEND_JOB, { userId: r.id, week: local.date, at: h.now.toISOString() }, `digest:${r.id}:${local.date}`, { maxAttempts: 5 });
        if (job) queued++;
      }
    }
    return { queued };
  });

  ctx.jobs.define(DIGEST_SEND_JOB, async (p: { userId: number; week: string; at: string }) => {
    const userId = Number(p.userId);
    const prefs = await accounts()?.getPreferences(userId);
    const who = (await contact()?.contactInfo([userId]))?.get(userId);
    if (!prefs?.weeklyDigest || !who?.verified) return { sent: false, reason: 'off' };
    const until = new Date(p.at);
    const period = { since: new Date(until.getTime() - 7 * 24 * 3600_000), until };
    const lang = emailLocale(who.locale);
    const sections: DigestSection[] = [];
    for (const prov of providers) {
      const s = await prov.fn(userId, period, lang).catch((err) => {
        ctx.log.warn({ err, provider: prov.id }, 'digest section failed');
        return null;
      });
      if (s && s.items.length) sections.push(s);
    }
    if (!sections.length) return { sent: false, reason: 'empty' };
    const t = emailTranslator(EMAIL_DIR, lang);
    const unsub = contact()!.unsubscribe(userId, 'weeklyDigest');
    const paragraphs = [t('greeting', { name: who.firstName }).trim(), t('digest.intro')];
    const items = sections.flatMap((s) => [{ text: `${s.title}` }, ...s.items.map((i) => ({ text: `· ${i.text}`, url: absolute(i.link) ?? undefined }))]);
    const body = layoutEmail({
      lang,
      subject: t('digest.subject'),
      paragraphs,
      items,
      action: { label: t('digest.action'), url: ctx.mail.link('/') },
      footer: [t('digest.why')],
      footerLink: { label: t('digest.unsubscribe'), url: unsub.url },
    });
    await ctx.mail.send(`notifications.digest:${userId}:${p.week}`, { to: who.email, ...body, headers: unsub.headers });
    return { sent: true, sections: sections.length };
  });

  return digest;
}

