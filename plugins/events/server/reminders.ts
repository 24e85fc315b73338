/**
 * Event reminders (meetups and museum events): members attending get one the evening before
 * (18:00 in their own time zone, UTC when unknown) and one an hour before.
 *
 * Each reminder is its own job (core/jobs.ts), queued to run at its time (runAt) with a once-ever
 * key that includes the event's start (and, for the evening one, its time in the member's zone):
 * when a member starts attending, when an event moves, and from a scan every 5 minutes over the
 * next 48 hours (members whose zone changed, anything missed). A moved event gets fresh reminders
 * at its new times; a reminder queued for the old time, for a zone the member left, for a deleted
 * event or for a member no longer attending is dropped by the send job, which checks it all again.
 * The send job stores the in-app notification (type event_reminder: the eventReminders setting;
 * push follows it at once) and sends the reminder email itself at that moment, when the member
 * has email notifications and event reminders on and a confirmed address (not the 15-minute
 * batch of notification emails, which leaves these notifications out).
 *
 * Waitlist promotions are told at once by EventsStore.afterRsvp.
 */
import type { EventsStore } from './service.ts';
import { AccountsService, EmailVerification } from '../../accounts/public.ts';
import { DigestSections, EMAILED_BY_SENDER } from '../../notifications/public.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emailLocale, emailTranslator, layoutEmail } from '../../../core/mail.ts';

const EMAIL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales', 'email');
import { formatDate, formatTime, isValidTimeZone, instantToZoned, zonedToInstant } from '../shared/time.ts';

export const REMINDER_SCAN_JOB = 'events.reminders.scan';
export const REMINDER_SEND_JOB = 'events.reminder.send';
const HOUR = 3600_000;
/** An evening reminder missed by more than this (the app was down) is not sent late at night. */
const EVENING_GRACE_MS = 6 * HOUR;

export type ReminderKind = 'evening' | 'hour';

/** When the evening-before reminder is due for an event starting at `start`, for a member in `tz`. */
export function eveningBefore(start: Date, tz: string): Date {
  const { date } = instantToZoned(start, tz);
  const [y, m, d] = date.split('-').map(Number);
  const prev = new Date(Date.UTC(y, m - 1, d) - 24 * HOUR).toISOString().slice(0, 10);
  return zonedToInstant(prev, '18:00', tz);
}

/** The reminders due at `now` for an attendance (none, one or both). */
export function dueReminders(start: Date, tz: string, now: Date): ReminderKind[] {
  const out: ReminderKind[] = [];
  if (start.getTime() <= now.getTime()) return out;
  const evening = eveningBefore(start, tz);
  // the evening one only when it comes before the hour-before one
  if (evening.getTime() <= now.getTime() && now.getTime() - evening.getTime() < EVENING_GRACE_MS && evening.getTime() < start.getTime() - HOUR) out.push('evening');
  if (start.getTime() - HOUR <= now.getTime()) out.push('hour');
  return out;
}

/** Every reminder of an attendance still to send as of `now` (due now or later), with its time. */
export function upcomingReminders(start: Date, tz: string, now: Date): Array<{ kind: ReminderKind; due: Date }> {
  const out: Array<{ kind: ReminderKind; due: Date }> = [];
  if (start.getTime() <= now.getTime()) return out;
  const evening = eveningBefore(start, tz);
  if (evening.getTime() < start.getTime() - HOUR && now.getTime() - evening.getTime() < EVENING_GRACE_MS) out.push({ kind: 'evening', due: evening });
  out.push({ kind: 'hour', due: new Date(start.getTime() - HOUR) });
  return out;
}

const zoneOf = (raw: string | null | undefined) => (raw && isValidTimeZone(raw) ? raw : 'UTC');

export function registerReminders(store: EventsStore): void {
  const { ctx, knex } = store;

  /** Queues the attendances' reminders at their times (each once ever). */
  async function schedule(rows: Array<{ user_id: number; event_id: number; date_time: Date }>, now: Date): Promise<number> {
    if (!rows.length) return 0;
    const zones = (await ctx.services.maybe(EmailVerification)?.contactInfo([...new Set(rows.map((r) => r.user_id))])) ?? new Map();
    let queued = 0;
    for (const r of rows) {
      const tz = zoneOf(zones.get(r.user_id)?.timeZone);
      const start = new Date(r.date_time);
      for (const { kind, due } of upcomingReminders(start, tz, now)) {
        const key = `events.reminder:${kind}:${r.event_id}:${r.user_id}:${start.toISOString()}${kind === 'evening' ? `:${due.toISOString()}` : ''}`;
        const payload = { eventId: r.event_id, userId: r.user_id, kind, start: start.toISOString(), due: due.toISOString() };
        const job = await ctx.jobs.enqueueOnce(REMINDER_SEND_JOB, payload, key, { maxAttempts: 5, runAt: due.getTime() > now.getTime() ? due : now });
        if (job) queued++;
      }
    }
    return queued;
  }

  /** An event's attendances (or some members' of it), for schedule(). */
  const attendances = (eventId: number, userIds?: number[]) => {
    const q = knex('events_attendees as a')
      .join('events_events as e', 'e.id', 'a.event_id')
      .where('a.event_id', eventId)
      .where('a.status', 'attending')
      .where('e.date_time', '>', ctx.jobs.now())
      .select('a.user_id', 'e.id as event_id', 'e.date_time');
    if (userIds) q.whereIn('a.user_id', userIds);
    return q as unknown as Promise<Array<{ user_id: number; event_id: number; date_time: Date }>>;
  };
  // at once when a member starts attending (waitlist promotions included) and when an event moves
  store.scheduleReminders = async (eventId, userIds) => {
    try {
      await schedule(await attendances(eventId, userIds), ctx.jobs.now());
    } catch (err) {
      ctx.log.warn({ err, eventId }, 'could not schedule event reminders (the next scan will)');
    }
  };

  // The weekly digest's "coming up" section: the next 7 days' meetups and events the member
  // RSVPed to, and the meetups of the communities they belong to (organizers they block or mute,
  // or who block them, left out in SQL: accounts' rule for content whose audience is decided elsewhere).
  ctx.services.maybe(DigestSections)?.register(
    'events',
    async (userId, period, lang) => {
      const communityIds = await store.deps.communities().communityIdsOf(userId);
      const viewer = await knex('users').where({ id: userId }).first('id', 'role');
      if (!viewer) return null;
      const organizerOk = store.deps.accounts().sql.notBlockedOrMuted({ id: viewer.id, role: viewer.role }, 'e.organizer_id').toSQL();
      const rows = await knex('events_events as e')
        .where('e.date_time', '>', period.until)
        .where('e.date_time', '<=', new Date(period.until.getTime() + 7 * 24 * HOUR))
        .where((w) => {
          w.whereExists(knex('events_attendees as a').whereRaw('a.event_id = e.id').where('a.user_id', userId).whereIn('a.status', ['attending', 'interested', 'waitlisted']));
          if (communityIds.length) w.orWhereIn('e.community_id', communityIds);
        })
        .where((w) => w.whereNull('e.organizer_id').orWhereRaw(organizerOk.sql, organizerOk.bindings as any[]))
        .orderBy([{ column: 'e.date_time' }, { column: 'e.id' }])
        .limit(10)
        .select('e.id', 'e.kind', 'e.title', 'e.date_time', 'e.time_zone', 'e.location');
      if (!rows.length) return null;
      const locale = lang === 'fr' ? 'fr-FR' : 'en-US';
      return {
        title: emailTranslator(EMAIL_DIR, lang)('digest.comingUp'),
        items: rows.map((r) => ({
          text: `${r.title} — ${formatDate(r.date_time, r.time_zone, locale)}, ${formatTime(r.date_time, r.time_zone, locale)} (${r.location})`,
          link: `/${r.kind === 'meetup' ? 'meetups' : 'events'}/${r.id}`,
        })),
      };
    },
    20,
  );

  ctx.jobs.repeat(REMINDER_SCAN_JOB, { next: (after) => new Date(Math.floor(after.getTime() / (5 * 60_000)) * 5 * 60_000 + 5 * 60_000), describe: 'every 5 minutes' }, async (_p, h) => {
    const now = h.now;
    // the evening before is at most ~31 h ahead (time zones included): 48 h covers it
    const rows = (await knex('events_attendees as a')
      .join('events_events as e', 'e.id', 'a.event_id')
      .where('a.status', 'attending')
      .where('e.date_time', '>', now)
      .where('e.date_time', '<=', new Date(now.getTime() + 48 * HOUR))
      .select('a.user_id', 'e.id as event_id', 'e.date_time')) as Array<{ user_id: number; event_id: number; date_time: Date }>;
    return { queued: await schedule(rows, now) };
  });

  ctx.jobs.define(REMINDER_SEND_JOB, async (p: { eventId: number; userId: number; kind: ReminderKind; start: string; due?: string }, h) => {
    const ev = await knex('events_events').where({ id: p.eventId }).first('id', 'kind', 'title', 'location', 'date_time', 'time_zone');
    // cancelled, moved since, or already begun: nothing to send
    if (!ev || new Date(ev.date_time).toISOString() !== p.start || new Date(ev.date_time).getTime() <= h.now.getTime()) return { sent: false, reason: 'event changed' };
    const seat = await knex('events_attendees').where({ event_id: p.eventId, user_id: p.userId, status: 'attending' }).first('user_id');
    if (!seat) return { sent: false, reason: 'not attending' };
    const who = (await ctx.services.maybe(EmailVerification)?.contactInfo([p.userId]))?.get(p.userId);
    // the member moved to another zone since: the reminder at the new time is queued by the scan
    if (p.kind === 'evening' && p.due && eveningBefore(new Date(p.start), zoneOf(who?.timeZone)).toISOString() !== p.due) return { sent: false, reason: 'time zone changed' };
    const when = `${formatDate(ev.date_time, ev.time_zone)}, ${formatTime(ev.date_time, ev.time_zone)}`;
    const what = ev.kind === 'meetup' ? 'meetup' : 'event';
    const link = `/${ev.kind === 'meetup' ? 'meetups' : 'events'}/${ev.id}`;
    await store.deps.notify([p.userId], {
      type: 'event_reminder',
      priority: p.kind === 'hour' ? 'high' : 'normal',
      title: p.kind === 'hour' ? `Starting in an hour: ${ev.title}`.slice(0, 200) : `Tomorrow: ${ev.title}`.slice(0, 200),
      message: `Reminder: your ${what} "${ev.title}" takes place ${when} at ${ev.location}.`.slice(0, 2000),
      link,
      // emailed here, at its time, not by the 15-minute batch
      dedupeKey: `${EMAILED_BY_SENDER}reminder:${p.kind}:${p.eventId}:${p.start}`,
    });
    // the email, now: email notifications and event reminders on, address confirmed
    const prefs = await ctx.services.maybe(AccountsService)?.getPreferences(p.userId);
    if (!who?.verified || !prefs?.emailNotifications || prefs.eventReminders === false) return { sent: true, email: false };
    const lang = emailLocale(who.locale);
    const t = emailTranslator(EMAIL_DIR, lang);
    const locale = lang === 'fr' ? 'fr-FR' : 'en-US';
    const vars = { title: ev.title, when: `${formatDate(ev.date_time, ev.time_zone, locale)}, ${formatTime(ev.date_time, ev.time_zone, locale)}`, location: ev.location };
    const unsub = ctx.services.get(EmailVerification).unsubscribe(p.userId, 'eventReminders');
    const body = layoutEmail({
      lang,
      subject: t(`reminder.subject_${p.kind}`, vars),
      paragraphs: [t('reminder.greeting', { name: who.firstName }).trim(), t(`reminder.body_${what}`, vars)],
      action: { label: t(`reminder.action_${what}`), url: ctx.mail.link(link) },
      footer: [t('reminder.why')],
      footerLink: { label: t('reminder.unsubscribe'), url: unsub.url },
    });
    await ctx.mail.send(`events.reminder:${p.kind}:${p.eventId}:${p.userId}:${p.start}`, { to: who.email, ...body, headers: unsub.headers });
    return { sent: true, email: true };
  });
}
