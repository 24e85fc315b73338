/**
 * From the meetup and museum-event forms to table columns: the rules JSON Schema cannot say
 * (time zones, real dates, end after start, costAmount only and required when paid, money as
 * cents, museum and museum-event references). Errors are 400 with the field's path, like schema
 * errors, so forms can show them beside the field.
 */
import { HttpError } from '../../../core/errors.ts';
import type { MuseumSummary } from '../../museums/public.ts';
import { museumTimeZone, type Deps } from './deps.ts';
import type { EventRow } from './model.ts';
import { isValidTimeZone, parseDate, parseTime, toCents, zonedToInstant } from '../shared/time.ts';

export const MESSAGES = {
  endAfterStart: 'End time must be after start time',
  costAmountRequired: 'Cost amount is required when cost is paid',
  costAmountOnlyPaid: 'Cost amount is only allowed when cost is paid',
  costAmountInvalid: 'Cost amount must be a positive amount with at most 2 decimals',
  priceInvalid: 'Price must be an amount of at least 0 with at most 2 decimals',
  timeZone: 'Unknown time zone',
  date: 'Date must be a date (YYYY-MM-DD)',
  future: 'The date and start time must be in the future',
  museum: 'Museum not found',
  museumEvent: 'Museum event not found',
  museumEventRequired: 'Choose the museum event to connect to',
  tag: 'Tags must be at most 40 characters each',
  tags: 'At most 20 tags',
} as const;

function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, message, { errors: [{ path: `/body/${field}`, message }] });
}

const text = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t ? t : null;
};

/** A list, or one comma-separated text: trimmed, blanks dropped, duplicates (any case) dropped. */
export function normalizeTags(input: unknown): string[] {
  const raw = Array.isArray(input) ? input.map(String) : typeof input === 'string' ? input.split(',') : [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of raw) {
    const tag = t.trim().replace(/\s+/g, ' ');
    if (!tag) continue;
    if (tag.length > 40) throw fieldError('tags', MESSAGES.tag);
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  if (out.length > 20) throw fieldError('tags', MESSAGES.tags);
  return out;
}

export interface Schedule {
  date_time: Date;
  end_date_time: Date | null;
  time_zone: string;
}

/** The form's local date, times and zone → instants (400 with the field's path when unreadable). */
export function schedule(body: { date: string; startTime: string; endTime?: string | null; timeZone?: string | null }, defaultZone: string): Schedule {
  const zone = text(body.timeZone) ?? defaultZone;
  if (!isValidTimeZone(zone)) throw fieldError('timeZone', MESSAGES.timeZone);
  if (!parseDate(body.date)) throw fieldError('date', MESSAGES.date);
  if (!parseTime(body.startTime)) throw fieldError('startTime', 'Start time is required');
  const start = zonedToInstant(body.date, body.startTime, zone);
  const endTime = text(body.endTime);
  let end: Date | null = null;
  if (endTime) {
    if (!parseTime(endTime) || endTime <= body.startTime) throw fieldError('endTime', MESSAGES.endAfterStart);
    end = zonedToInstant(body.date, endTime, zone);
    if (end.getTime() <= start.getTime()) throw fieldError('endTime', MESSAGES.endAfterStart);
  }
  return { date_time: start, end_date_time: end, time_zone: zone };
}

/** The start must be in the future when creating, and when an edit moves it. */
function checkFuture(s: Schedule, existing?: Pick<EventRow, 'date_time'>) {
  const moved = !existing || new Date(existing.date_time).getTime() !== s.date_time.getTime();
  if (moved && s.date_time.getTime() <= Date.now()) throw fieldError('date', MESSAGES.future);
}

export interface MeetupBody {
  title: string;
  description: string;
  museumId?: number | null;
  location: string;
  connectToMuseumEvent?: boolean;
  museumEventId?: number | null;
  date: string;
  startTime: string;
  endTime?: string | null;
  timeZone?: string | null;
  expectedGroupSize?: string | null;
  rsvpRequired?: boolean;
  cost?: 'free' | 'donation' | 'paid';
  costAmount?: number | string | null;
  ageRestrictions?: string | null;
  museumContact?: string | null;
  collaborationStatus?: 'discussion' | 'confirmed' | 'museum_host';
  canMuseumPromote?: boolean;
  tags?: string[] | string;
  allowPhotoSharing?: boolean;
  whoCanJoin?: 'members_only' | 'anyone';
  allowComments?: boolean;
  enableWaitlist?: boolean;
  accessibilityNotes?: string | null;
  rainPlan?: string | null;
  maxAttendees?: number | null;
  communityId?: number | null;
  groupId?: number | null;
  organizerId?: number | null;
}

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

export async function meetupColumns(deps: Deps, knex: import('knex').Knex, body: MeetupBody, existing?: EventRow): Promise<Partial<EventRow>> {
  const cost = body.cost ?? 'free';
  let costCents: number | null = null;
  if (cost === 'paid') {
    if (!present(body.costAmount)) throw fieldError('costAmount', MESSAGES.costAmountRequired);
    costCents = toCents(body.costAmount as number | string);
    if (costCents === null || costCents <= 0 || costCents > 10_000_000) throw fieldError('costAmount', MESSAGES.costAmountInvalid);
  } else if (present(body.costAmount)) {
    throw fieldError('costAmount', MESSAGES.costAmountOnlyPaid);
  }

  let museumId = body.museumId ?? null;
  let museumEventId: number | null = null;
  const connect = Boolean(body.connectToMuseumEvent);
  if (connect) {
    if (!body.museumEventId) throw fieldError('museumEventId', MESSAGES.museumEventRequired);
    const me = await knex('events_events').where({ id: body.museumEventId, kind: 'museum_event' }).first('id', 'museum_id');
    if (!me) throw fieldError('museumEventId', MESSAGES.museumEvent);
    if (museumId !== null && museumId !== me.museum_id) throw fieldError('museumEventId', 'The museum event belongs to another museum');
    museumId = me.museum_id;
    museumEventId = me.id;
  }
  let museum: MuseumSummary | null = null;
  if (museumId !== null) {
    museum = await deps.museums().getMuseum(museumId);
    if (!museum) throw fieldError('museumId', MESSAGES.museum);
  }
  const s = schedule(body, museumTimeZone(museum) ?? existing?.time_zone ?? 'UTC');
  checkFuture(s, existing);

  return {
    title: body.title.trim(),
    description: body.description.trim(),
    location: body.location.trim(),
    museum_id: museumId,
    connect_to_museum_event: connect,
    museum_event_id: museumEventId,
    ...s,
    expected_group_size: text(body.expectedGroupSize),
    rsvp_required: Boolean(body.rsvpRequired),
    cost,
    cost_amount_cents: costCents,
    age_restrictions: text(body.ageRestrictions),
    museum_contact: text(body.museumContact),
    collaboration_status: body.collaborationStatus ?? 'discussion',
    can_museum_promote: Boolean(body.canMuseumPromote),
    tags: normalizeTags(body.tags),
    allow_photo_sharing: body.allowPhotoSharing ?? true,
    who_can_join: body.whoCanJoin ?? 'members_only',
    allow_comments: body.allowComments ?? true,
    enable_waitlist: Boolean(body.enableWaitlist),
    accessibility_notes: text(body.accessibilityNotes),
    rain_plan: text(body.rainPlan),
    max_attendees: body.maxAttendees ?? null,
  };
}

export interface MuseumEventBody {
  museumId: number;
  title: string;
  description: string;
  location?: string | null;
  date: string;
  startTime: string;
  endTime?: string | null;
  timeZone?: string | null;
  maxAttendees?: number | null;
  enableWaitlist?: boolean;
  tags?: string[] | string;
  category?: string | null;
  price?: number | string | null;
  requirements?: string | null;
  ticketUrl?: string | null;
  imageUrl?: string | null;
  allowPhotoSharing?: boolean;
  allowComments?: boolean;
}

export async function museumEventColumns(deps: Deps, body: MuseumEventBody, museum: MuseumSummary, existing?: EventRow): Promise<Partial<EventRow>> {
  let priceCents = 0;
  if (present(body.price)) {
    const c = toCents(body.price as number | string);
    if (c === null || c > 10_000_000) throw fieldError('price', MESSAGES.priceInvalid);
    priceCents = c;
  }
  const s = schedule(body, museumTimeZone(museum) ?? existing?.time_zone ?? 'UTC');
  checkFuture(s, existing);
  const place = [museum.name, museum.city].filter(Boolean).join(', ');
  return {
    museum_id: museum.id,
    title: body.title.trim(),
    description: body.description.trim(),
    location: text(body.location) ?? place,
    ...s,
    max_attendees: body.maxAttendees ?? null,
    enable_waitlist: Boolean(body.enableWaitlist),
    tags: normalizeTags(body.tags),
    category: text(body.category),
    price_cents: priceCents,
    requirements: text(body.requirements),
    ticket_url: text(body.ticketUrl),
    image_url: text(body.imageUrl),
    allow_photo_sharing: body.allowPhotoSharing ?? true,
    allow_comments: body.allowComments ?? true,
  };
}
