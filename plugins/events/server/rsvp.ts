/**
 * RSVPs with an exact capacity.
 *
 * Every change to an event's attendance runs in one transaction that first locks the event row
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
 */
export async function setRsvp(
  knex: Knex,
  eventId: number,
  kind: EventKind,
  userId: number,
  wanted: 'attending' | 'interested',
): Promise<RsvpChange[]> {
  return knex.transaction(async (trx) => {
    const ev = await lockEvent(trx, eventId, kind);
    if (new Date(ev.date_time).getTime() <= Date.now()) throw new HttpError(409, STARTED_MESSAGE);
    const cur = (await trx('events_attendees').where({ event_id: ev.id, user_id: userId }).first()) as { status: RsvpStatus } | undefined;
    const previous = cur?.status ?? null;
    if (previous === wanted || (wanted === 'attending' && previous === 'waitlisted')) return [];
    const changes: RsvpChange[] = [];
    const upsert = (status: RsvpStatus) =>
      trx.raw(
        `insert into events_attendees (event_id, user_id, status, waitlist_seq, joined_at) values (?, ?, ?, ${status === 'waitlisted' ? "nextval('events_waitlist_seq')" : 'null'}, now())
         on conflict (event_id, user_id) do update set status = excluded.status, waitlist_seq = excluded.waitlist_seq, joined_at = excluded.joined_at`,
        [ev.id, userId, status],
      );
    if (wanted === 'attending') {
      if (ev.max_attendees === null || ev.current_attendees < ev.max_attendees) {
        await upsert('attending');
        await trx('events_events').where({ id: ev.id }).increment('current_attendees', 1);
        changes.push({ eventId: ev.id, kind: ev.kind, title: ev.title, userId, status: 'attending', previousStatus: previous, reason: 'joined' });
      } else if (ev.enable_waitlist) {
        await upsert('waitlisted');
        changes.push({ eventId: ev.id, kind: ev.kind, title: ev.title, userId, status: 'waitlisted', previousStatus: previous, reason: 'joined' });
      } else {
        throw new HttpError(409, FULL_MESSAGE);
      }
    } else {
      await upsert('interested');
      changes.push({ eventId: ev.id, kind: ev.kind, title: ev.title, userId, status: 'interested', previousStatus: previous, reason: 'joined' });
      if (previous === 'attending') {
        await trx('events_events').where({ id: ev.id }).decrement('current_attendees', 1);
        ev.current_attendees -= 1;
        changes.push(...(await promoteWaitlist(trx, ev)));
      }
    }
    return changes;
  });
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
