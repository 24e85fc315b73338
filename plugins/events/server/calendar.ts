/**
 * iCalendar (RFC 5545) answers with ical-generator: one event, or a member's feed.
 *
 * Each event is written in its own zone (DTSTART;TZID=Europe/Paris:20260701T193000) with a
 * VTIMEZONE for that zone, built here from Intl: the zone's offset changes in the years the
 * calendar covers, each as an observance (DAYLIGHT when the offset is above the zone's lowest
 * in that span, STANDARD otherwise). Calendar apps then show the right time in every zone.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { offsetMinutes, wallClock } from '../shared/time.ts';
import type { EventRow } from './model.ts';
import { DEFAULT_DURATION_MS } from './model.ts';

const HOUR = 3_600_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function fmtOffset(min: number): string {
  const sign = min < 0 ? '-' : '+';
  const a = Math.abs(min);
  return `${sign}${pad(Math.floor(a / 60))}${pad(a % 60)}`;
}

/** Local wall time of an instant at a given offset, as an iCalendar DATE-TIME without zone. */
function localStamp(ms: number, offsetMin: number): string {
  const d = new Date(ms + offsetMin * 60_000);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** The instants (to the minute) where the zone's offset changes between two instants. */
export function transitions(tz: string, fromMs: number, toMs: number): Array<{ at: number; from: number; to: number }> {
  const out: Array<{ at: number; from: number; to: number }> = [];
  const step = 7 * 24 * HOUR;
  let t = fromMs;
  let off = offsetMinutes(t, tz);
  while (t < toMs) {
    const next = Math.min(t + step, toMs);
    const nextOff = offsetMinutes(next, tz);
    if (nextOff !== off) {
      // binary search to the minute
      let lo = t;
      let hi = next;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (mid <= lo) break;
        if (offsetMinutes(mid, tz) === off) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: off, to: offsetMinutes(hi, tz) });
      off = offsetMinutes(hi, tz);
      t = hi;
      continue;
    }
    t = next;
    off = nextOff;
  }
  return out;
}

/** A VTIMEZONE for `tz` valid from the start of `fromYear` to the end of `toYear`. */
export function vtimezone(tz: string, fromYear: number, toYear: number): string {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1);
  const changes = transitions(tz, start, end);
  const initial = offsetMinutes(start, tz);
  const lowest = Math.min(initial, ...changes.map((c) => c.to));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tz}`];
  const observance = (at: number, from: number, to: number) => {
    const kind = to > lowest ? 'DAYLIGHT' : 'STANDARD';
    lines.push(`BEGIN:${kind}`, `DTSTART:${localStamp(at, from)}`, `TZOFFSETFROM:${fmtOffset(from)}`, `TZOFFSETTO:${fmtOffset(to)}`, `END:${kind}`);
  };
  observance(start, initial, initial);
  for (const c of changes) observance(c.at, c.from, c.to);
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/** A Temporal.ZonedDateTime look-alike, the form ical-generator writes as local time with TZID. */
function zoned(instant: Date, tz: string): any {
  const ms = instant.getTime();
  const w = wallClock(ms, tz);
  const plain = {
    year: w.year,
    month: w.month,
    day: w.day,
    hour: w.hour,
    minute: w.minute,
    second: w.second,
    toZonedDateTime: () => zoned(instant, tz),
    toPlainDate: () => ({ year: w.year, month: w.month, day: w.day }),
    toString: () => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`,
  };
  return {
    timeZoneId: tz,
    year: w.year,
    month: w.month,
    day: w.day,
    hour: w.hour,
    minute: w.minute,
    second: w.second,
    epochMilliseconds: ms,
    toPlainDateTime: () => plain,
    withTimeZone: (other: string) => zoned(instant, other),
    toInstant: () => ({ epochMilliseconds: ms, toString: () => instant.toISOString() }),
    toString: () => `${plain.toString()}[${tz}]`,
    toJSON: () => instant.toISOString(),
  };
}

export interface IcsOptions {
  /** absolute origin for links, e.g. https://curio.example */
  origin: string;
  name: string;
  /** statuses of the member per event id (feed): interested events are TENTATIVE */
  statuses?: Map<number, string>;
}

export function eventUrl(origin: string, row: Pick<EventRow, 'id' | 'kind'>): string {
  return `${origin}/${row.kind === 'meetup' ? 'meetups' : 'events'}/${row.id}`;
}

export function buildIcs(rows: EventRow[], opts: IcsOptions): string {
  const years = rows.flatMap((r) => [new Date(r.date_time).getUTCFullYear(), new Date(r.end_date_time ?? r.date_time).getUTCFullYear()]);
  const fromYear = years.length ? Math.min(...years) - 1 : new Date().getUTCFullYear();
  const toYear = years.length ? Math.max(...years) + 1 : fromYear;
  const host = (() => {
    try {
      return new URL(opts.origin).hostname || 'curio';
    } catch {
      return 'curio';
    }
  })();
  const cal = ical({
    name: opts.name,
    prodId: { company: 'Curio', product: 'Curio Events', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: null, generator: (tz: string) => vtimezone(tz, fromYear, toYear) },
  });
  for (const r of rows) {
    const start = new Date(r.date_time);
    const end = r.end_date_time ? new Date(r.end_date_time) : new Date(start.getTime() + DEFAULT_DURATION_MS);
    const url = eventUrl(opts.origin, r);
    const status = opts.statuses?.get(r.id);
    cal.createEvent({
      id: `${r.kind}-${r.id}@${host}`,
      start: zoned(start, r.time_zone),
      end: zoned(end, r.time_zone),
      timezone: r.time_zone,
      stamp: new Date(r.updated_at),
      lastModified: new Date(r.updated_at),
      created: new Date(r.created_at),
      summary: r.title,
      description: `${r.description}\n\n${url}`,
      location: r.location,
      url,
      categories: (r.tags ?? []).map((name) => ({ name })),
      status: status === 'interested' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
