/**
 * Event reminders (meetups and museum events): members attending get one the evening before
 * (18:00 in their own time zone, UTC when unknown) and one an hour before.
 *
 * A scan every 5 minutes (a repeating job, core/jobs.ts) derives what is due from the events and
 * RSVPs themselves, so nothing has to be rescheduled: a reminder is queued with a once-ever key
 * that includes the event's start time. A moved event gets fresh reminders at its new times (and
 * a reminder queued for the old time is dropped by the send job, which checks the start time
 * again); a cancelled (deleted) event, or a member no longer attending, gets none. The send job
 * stores an in-app notification (type event_reminder: the member's eventReminders setting; email
 * follows through the notification emails when the member has them on).
 *
 * Waitlist promotions are told at once by EventsStore.afterRsvp.
 */
import type { EventsStore } from './service.ts';
import { EmailVerification } from '../../accounts/public.ts';
import { DigestSections } from '../../notifications/public.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emailTranslator } from '../../../core/mail.ts';

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

export function registerReminders(store: EventsStore): void {
  const { ctx, knex } = store;

  // The weekly digest's "coming up" section: the member's meetups and events of the next 7 days.
  ctx.services.maybe(DigestSections)?.register(
    'events',
    async (userId, period, lang) => {
      const rows = await knex('events_attendees as a')
        .join('events_events as e', 'e.id', 'a.event_id')
        .where('a.user_id', userId)
        .whereIn('a.status', ['attending', 'interested', 'waitlisted'])
        .where('e.date_time', '>', period.until)
        .where('e.date_time', '<=', new Date(period.until.getTime() + 7 * 24 * HOUR))
        .orderBy('e.date_time')
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
    if (!rows.length) return { queued: 0 };
    const zones = (await ctx.services.maybe(EmailVerification)?.contactInfo(rows.map((r) => r.user_id))) ?? new Map();
    let queued = 0;
    for (const r of rows) {
      const tzRaw = zones.get(r.user_id)?.timeZone;
      const tz = tzRaw && isValidTimeZone(tzRaw) ? tzRaw : 'UTC';
      const start = new Date(r.date_time);
      for (const kind of dueReminders(start, tz, now)) {
        const key = `events.reminder:${kind}:${r.event_id}:${r.user_id}:${start.toISOString()}`;
        const job = await ctx.jobs.enqueueOnce(REMINDER_SEND_JOB, { eventId: r.event_id, userId: r.user_id, kind, start: start.toISOString() }, key, { maxAttempts: 5 });
        if (job) queued++;
      }
    }
    return { queued };
  });

  ctx.jobs.define(REMINDER_SEND_JOB, async (p: { eventId: number; userId: number; kind: ReminderKind; start: string }, h) => {
    const ev = await knex('events_events').where({ id: p.eventId }).first('id', 'kind', 'title', 'location', 'date_time', 'time_zone');
    // cancelled, moved since, or already begun: nothing to send
    if (!ev || new Date(ev.date_time).toISOString() !== p.start || new Date(ev.date_time).getTime() <= h.now.getTime()) return { sent: false, reason: 'event changed' };
    const seat = await knex('events_attendees').where({ event_id: p.eventId, user_id: p.userId, status: 'attending' }).first('user_id');
    if (!seat) return { sent: false, reason: 'not attending' };
    const when = `${formatDate(ev.date_time, ev.time_zone)}, ${formatTime(ev.date_time, ev.time_zone)}`;
    const what = ev.kind === 'meetup' ? 'meetup' : 'event';
    await store.deps.notify([p.userId], {
      type: 'event_reminder',
      priority: p.kind === 'hour' ? 'high' : 'normal',
      title: p.kind === 'hour' ? `Starting in an hour: ${ev.title}`.slice(0, 200) : `Tomorrow: ${ev.title}`.slice(0, 200),
      message: `Reminder: your ${what} "${ev.title}" takes place ${when} at ${ev.location}.`.slice(0, 2000),
      link: `/${ev.kind === 'meetup' ? 'meetups' : 'events'}/${ev.id}`,
      dedupeKey: `reminder:${p.kind}:${p.eventId}:${p.start}`,
    });
    return { sent: true };
  });
}
