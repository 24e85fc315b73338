/**
 * Attendance confirmed by check-in (issue 20). A member attending a meetup (RSVP "attending") whose
 * verified check-in (museums.museum.checkedIn, verified) at the meetup's museum falls in the
 * meetup's window — from `attendanceEarlyMinutes` (config, default 30) before its start to its end
 * (or DEFAULT_DURATION_MS after the start when it has none), both inclusive — is marked attended.
 *
 * The handler runs after the check-in's answer (afterAnswer: nothing is added to that request's
 * statements) and is one statement: an insert … select … on conflict do nothing on the primary key
 * (event, member), so marking is idempotent and exact however many check-ins arrive at once, in
 * any number of processes. Each new mark is told on the bus (events.attendance.confirmed: badges
 * count it as meetups_attended). A member who gives up their seat before the start (possible
 * inside the early margin) loses the mark (events.attendance.withdrawn).
 */
import type { EventsStore } from './service.ts';
import { DEFAULT_DURATION_MS } from './model.ts';

export const DEFAULT_EARLY_MINUTES = 30;

const rowsOf = (r: any): any[] => (Array.isArray(r) ? r : (r?.rows ?? []));

export function registerAttendance(store: EventsStore, earlyMinutes: number): void {
  const { ctx, knex } = store;

  ctx.events.on(
    'museums.museum.checkedIn',
    async (p) => {
      if (p.verified !== true) return;
      const at = p.at ? new Date(p.at) : new Date();
      if (Number.isNaN(at.getTime())) return;
      const marked = rowsOf(
        await knex.raw(
          `insert into events_attendance (event_id, user_id, check_in_id, attended_at)
           select e.id, a.user_id, ?::int, ?::timestamptz
             from events_events e
             join events_attendees a on a.event_id = e.id and a.user_id = ? and a.status = 'attending'
            where e.kind = 'meetup' and e.museum_id = ?
              and e.date_time between ?::timestamptz - interval '1 day' and ?::timestamptz + make_interval(mins => ?::int)
              and ?::timestamptz <= coalesce(e.end_date_time, e.date_time + make_interval(secs => ?::int))
           on conflict (event_id, user_id) do nothing
           returning event_id`,
          [p.checkInId, at.toISOString(), p.userId, p.museumId, at.toISOString(), at.toISOString(), earlyMinutes, at.toISOString(), DEFAULT_DURATION_MS / 1000],
        ),
      );
      for (const r of marked) {
        await ctx.events.emit('events.attendance.confirmed', { eventId: Number(r.event_id), userId: p.userId, museumId: p.museumId, checkInId: p.checkInId });
      }
    },
    { afterAnswer: true },
  );

  // A seat given up (before the start, inside the early margin) takes its attendance along; after
  // the answer too (the RSVP routes keep their statement counts), in the same queue as the marking.
  ctx.events.on(
    'events.rsvp.changed',
    async (p) => {
      if (p.kind !== 'meetup' || p.status === 'attending') return;
      const gone = await knex('events_attendance').where({ event_id: p.eventId, user_id: p.userId }).del().returning('event_id');
      if (gone.length) await ctx.events.emit('events.attendance.withdrawn', { eventId: p.eventId, userId: p.userId });
    },
    { afterAnswer: true },
  );
}
