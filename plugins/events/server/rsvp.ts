/**
 * RSVPs with an exact capacity.
 *
 * Joining (setRsvpAndCount) is one call of the database function events_set_rsvp(), which does
 * the same as the transactions below, lock first. Every change to an event's attendance runs in one transaction that first locks the event row
 * (select … for update). Concurrent joins to the same event therefore queue on that lock, each
 * sees the committed count, and current_attendees never passes max_attendees (a check constraint
 * in the database backs this up). Seats freed by a cancellation go to the waitlist in the order
 * people joined it (a database sequence), in the same transaction.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { EventKind, RsvpStatus } from '../public.ts';
import { NOT_FOUND, type EventRow } from './model.ts';

export interface RsvpChange {
  eventId: number;
  kind: EventKind;
  title: string;
  userId: number;
  status: RsvpStatus | null;
  previousStatus: RsvpStatus | null;
  reason: 'joined' | 'left' | 'promoted' | 'removed';
}

export const FULL_MESSAGE = 'Full';
export const STARTED_MESSAGE = 'This event has already started';

async function lockEvent(trx: Knex.Transaction, id: number, kind?: EventKind): Promise<EventRow> {
  const row = (await trx('events_events').where({ id }).forUpdate().first()) as EventRow | undefined;
  if (!row || (kind && row.kind !== kind)) throw new HttpError(404, NOT_FOUND[kind ?? 'meetup']);
  return row;
}

/** Fills free seats from the waitlist, first come first served. The event row must be locked. */
export async function promoteWaitlist(trx: Knex.Transaction, ev: EventRow): Promise<RsvpChange[]> {
  const changes: RsvpChange[] = [];
  let current = ev.current_attendees;
  const free = ev.max_attendees === null ? Number.MAX_SAFE_INTEGER : ev.max_attendees - current;
  if (free <= 0) return changes;
  const next = (await trx('events_attendees')
    .where({ event_id: ev.id, status: 'waitlisted' })
    .orderBy('waitlist_seq')
    .limit(Math.min(free, 10_000))
    .select('user_id')) as Array<{ user_id: number }>;
  if (!next.length) return changes;
  const userIds = next.map((n) => n.user_id);
  await trx('events_attendees')
    .where({ event_id: ev.id, status: 'waitlisted' })
    .whereIn('user_id', userIds)
    .update({ status: 'attending', waitlist_seq: null, joined_at: trx.fn.now() });
  current += userIds.length;
  await trx('events_events').where({ id: ev.id }).update({ current_attendees: current });
  ev.current_attendees = current;
  for (const u of userIds) {
    changes.push({ eventId: ev.id, kind: ev.kind, title: ev.title, userId: u, status: 'attending', previousStatus: 'waitlisted', reason: 'promoted' });
  }
  return changes;
}

/**
 * Sets the member's RSVP to `wanted`. The same status again (or attending while on the waitlist)
 * changes nothing. A full event answers 409 Full, or a waitlist place when it has a waitlist.
 *
 * One statement (issue 18): events_set_rsvp() (migration 20261124230000) runs what was this
 * transaction inside the database: lock the event row, read the member's RSVP with a fresh
 * snapshot, write, count, promote from the waitlist. `current` is the event's current_attendees
 * after the change, so the answer needs no second read of the event.
 */
export async function setRsvpAndCount(
  knex: Knex,
  eventId: number,
  kind: EventKind,
  userId: number,
  wanted: 'attending' | 'interested',
): Promise<{ changes: RsvpChange[]; current: number }> {
  const rows = (
    await knex.raw('select * from events_set_rsvp(?::int, ?::text, ?::int, ?::text, ?::timestamptz)', [eventId, kind, userId, wanted, new Date(Date.now()).toISOString()])
  ).rows as Array<{ o_user: number | null; o_status: RsvpStatus | null; o_previous: RsvpStatus | null; o_reason: string; o_current: number | null; o_title: string | null }>;
  const first = rows[0];
  if (!first || first.o_reason === 'missing') throw new HttpError(404, NOT_FOUND[kind]);
  if (first.o_reason === 'started') throw new HttpError(409, STARTED_MESSAGE);
  if (first.o_reason === 'full') throw new HttpError(409, FULL_MESSAGE);
  const current = Number(first.o_current);
  if (first.o_reason === 'unchanged') return { changes: [], current };
  const changes = rows.map((r) => ({
    eventId,
    kind,
    title: String(r.o_title),
    userId: Number(r.o_user),
    status: r.o_status,
    previousStatus: r.o_previous ?? null,
    reason: r.o_reason as 'joined' | 'promoted',
  }));
  return { changes, current };
}

/** setRsvpAndCount's changes (seeds and callers that read the event again anyway). */
export async function setRsvp(knex: Knex, eventId: number, kind: EventKind, userId: number, wanted: 'attending' | 'interested'): Promise<RsvpChange[]> {
  return (await setRsvpAndCount(knex, eventId, kind, userId, wanted)).changes;
}

/**
 * Removes the member's RSVP (seat, interest or waitlist place); a freed seat goes to the
 * waitlist. `reason: 'removed'` is for clean-ups (account deletion, leaving the community), which
 * also work on past events.
 */
export async function removeRsvp(
  knex: Knex,
  eventId: number,
  kind: EventKind | undefined,
  userId: number,
  opts: { reason?: 'left' | 'removed' } = {},
): Promise<RsvpChange[]> {
  const reason = opts.reason ?? 'left';
  return knex.transaction(async (trx) => {
    const ev = await lockEvent(trx, eventId, kind);
    const gone = (await trx('events_attendees').where({ event_id: ev.id, user_id: userId }).del().returning('status')) as Array<{ status: RsvpStatus }>;
    if (!gone.length) return [];
    if (reason === 'left' && new Date(ev.date_time).getTime() <= Date.now()) throw new HttpError(409, STARTED_MESSAGE); // rolls back
    const previous = gone[0].status;
    const changes: RsvpChange[] = [{ eventId: ev.id, kind: ev.kind, title: ev.title, userId, status: null, previousStatus: previous, reason }];
    if (previous === 'attending') {
      await trx('events_events').where({ id: ev.id }).decrement('current_attendees', 1);
      ev.current_attendees -= 1;
      // Past events keep their history: nobody is promoted into an event that has begun.
      if (new Date(ev.date_time).getTime() > Date.now()) changes.push(...(await promoteWaitlist(trx, ev)));
    }
    return changes;
  });
}
