/**
 * Meetups and museum events checked against the museum's opening hours (issue 20): a warning, never a refusal (some
 * meetups are meant to be outside, e.g. a walk before the doors open). The rule is the museums
 * plugin's (MuseumsApi.visitHours: its zone, dated closures, public holidays, seasons). Every event
 * answer carries its warning (model.ts serializeEvents: the whole list's in the statement that reads
 * its museums); this file offers the form a live check.
 */
import { HttpError } from '../../../core/errors.ts';
import { museumTimeZone } from './deps.ts';
import type { EventsStore } from './service.ts';
import { toWarning } from './model.ts';
import { schedule, MESSAGES } from './input.ts';

interface CheckQuery {
  museumId: number;
  date: string;
  startTime: string;
  endTime?: string;
  timeZone?: string;
}

export function registerHoursCheckRoute(store: EventsStore): void {
  const { ctx, deps } = store;
  ctx.routes.add<unknown, CheckQuery>({
    method: 'GET',
    path: '/api/meetup-hours-check',
    operationId: 'checkMeetupHours',
    summary: "Whether a meetup or museum event at this museum, date and times would be outside the museum's opening hours (its zone, closures, public holidays): the meetup and museum event forms ask while the organiser picks. Reads only.",
    auth: 'required',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['museumId', 'date', 'startTime'],
        properties: {
          museumId: { $ref: 'shared/Id' },
          date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          startTime: { type: 'string', pattern: '^\\d{2}:\\d{2}$' },
          endTime: { type: 'string', pattern: '^(\\d{2}:\\d{2})?$' },
          timeZone: { type: 'string', maxLength: 64, description: "the zone the times are entered in; the museum's by default" },
        },
      },
      response: {
        type: 'object',
        additionalProperties: false,
        required: ['hoursWarning'],
        properties: { hoursWarning: { anyOf: [{ type: 'null' }, { $ref: 'events/HoursWarning' }] } },
      },
    },
    async handler(c) {
      const q = c.input.query;
      const museum = await deps.museums().getMuseum(q.museumId);
      if (!museum) throw new HttpError(404, MESSAGES.museum);
      const s = schedule({ date: q.date, startTime: q.startTime, endTime: q.endTime || null, timeZone: q.timeZone || null }, museumTimeZone(museum) ?? 'UTC');
      return { hoursWarning: toWarning(await deps.museums().visitHours(museum.id, s.date_time, s.end_date_time)) };
    },
  });
}
