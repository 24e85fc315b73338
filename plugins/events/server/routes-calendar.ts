/**
 * The member's private calendar feed (events they attend or are interested in) at a secret
 * address that calendar apps poll without a session, and event search.
 */
import crypto from 'node:crypto';
import { HttpError } from '../../../core/errors.ts';
import type { EventsStore } from './service.ts';
import { buildIcs } from './calendar.ts';
import { origin } from './routes-common.ts';
import { EVENT_LIST } from './routes-meetups.ts';
import type { EventRow } from './model.ts';

/** Feed window: events that started up to 90 days ago and everything to come. */
const FEED_PAST_DAYS = 90;
const FEED_MAX = 500;

const newToken = () => crypto.randomBytes(24).toString('base64url');

export function registerCalendarRoutes(store: EventsStore): void {
  const { ctx, knex } = store;

  const answer = (row: { token: string; created_at: Date }) => ({
    token: row.token,
    url: `/api/calendar/${row.token}.ics`,
    createdAt: new Date(row.created_at).toISOString(),
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/calendar/token',
    operationId: 'getCalendarFeed',
    summary: 'The secret address of my calendar feed, or nulls when I have none yet (POST makes one)',
    auth: 'required',
    schema: { response: { $ref: 'events/CalendarFeed' } },
    async handler(c) {
      // read only: a GET never creates the feed (crawlers, prefetches and link previews must not make one)
      const row = await knex('events_calendar_tokens').where({ user_id: c.user!.id }).first('token', 'created_at');
      return row ? answer(row) : { token: null, url: null, createdAt: null };
    },
  });

  ctx.routes.add({
    method: 'POST',
    path: '/api/calendar/token',
    operationId: 'rotateCalendarFeed',
    summary: 'Make my calendar feed, or give it a new secret address (the old one stops working)',
    auth: 'required',
    schema: { response: { $ref: 'events/CalendarToken' } },
    async handler(c) {
      const uid = c.user!.id;
      const [row] = await knex('events_calendar_tokens')
        .insert({ user_id: uid, token: newToken(), created_at: knex.fn.now() })
        .onConflict('user_id')
        .merge(['token', 'created_at'])
        .returning('*');
      return answer(row);
    },
  });

  ctx.routes.add<{ file: string }>({
    method: 'GET',
    path: '/api/calendar/:file',
    operationId: 'getCalendarFeedIcs',
    summary: 'A member\'s calendar feed by its secret address (/api/calendar/<token>.ics): events they attend (interested ones as tentative)',
    auth: 'none',
    raw: true,
    rawContentType: 'text/calendar',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['file'], properties: { file: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}\\.ics$' } } },
    },
    async handler(c) {
      const token = c.input.params.file.replace(/\.ics$/, '');
      const owner = await knex('events_calendar_tokens').where({ token }).first('user_id');
      if (!owner) throw new HttpError(404, 'Calendar not found');
      const all = (await knex('events_events as e')
        .join('events_attendees as a', 'a.event_id', 'e.id')
        .where('a.user_id', owner.user_id)
        .whereIn('a.status', ['attending', 'interested'])
        .where('e.date_time', '>', knex.raw(`now() - interval '${FEED_PAST_DAYS} days'`))
        .orderBy('e.date_time')
        .limit(FEED_MAX)
        .select('e.*', 'a.status as rsvp_status')) as Array<EventRow & { rsvp_status: string }>;
      // a meetup of a private community or group stays in the feed only while its owner may see it
      const owned = store.viewer({ id: owner.user_id, username: '', role: '' });
      const rows = (await store.visible(all, owned)) as typeof all;
      const statuses = new Map(rows.map((r) => [r.id, r.rsvp_status]));
      c.status = 200;
      c.set('Content-Type', 'text/calendar; charset=utf-8');
      c.set('Cache-Control', 'private, max-age=300');
      c.set('X-Robots-Tag', 'noindex');
      c.body = buildIcs(rows, { origin: origin(store, c), name: 'Curio events', statuses });
    },
  });

  ctx.routes.add<unknown, { q?: string; limit?: number }>({
    method: 'GET',
    path: '/api/search/events',
    operationId: 'searchEvents',
    summary: 'Upcoming events whose title, place, description or tags contain q (more than 2 characters); meetups of private communities and groups for their members only',
    auth: 'optional',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { q: { type: 'string', maxLength: 200, default: '' }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 } },
      },
      response: EVENT_LIST,
    },
    async handler(c) {
      const q = (c.input.query.q ?? '').trim();
      if (q.length <= 2) return [];
      const viewer = store.viewer(c.user);
      const rows = await store.list(null, viewer, { q, limit: c.input.query.limit ?? 20 });
      return store.cards(rows, viewer);
    },
  });
}
