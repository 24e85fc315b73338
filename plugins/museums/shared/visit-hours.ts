/**
 * Visits against a museum's opening hours: the one rule (issue 20). Both public answers are thin
 * adapters over visitFit below: MuseumsApi.visitHours (visitHoursAt here: meetups warn their
 * organiser) and checkVisit (shared/visit.ts: a plan's stops). Isomorphic and pure.
 *
 * visitFit answers "which opening spans does this museum have around this visit, and does the
 * visit [start, end] fit one, else why": the day's hours come from dayScheduleFor (dated exception
 * → public holiday → season → default week), the one rule of shared/opening-hours.ts. The spans
 * are those of the local dates from the day before the start (a late-night opening running past
 * midnight) to the end's date, each turned into instants with localToInstant on the museum's
 * clock in its IANA zone, and joined when they touch (a museum open around the clock). So a visit
 * is measured in real time across daylight-saving changes, whatever zone it was entered in.
 *
 * A visit fits when one span holds all of it, from start to end (without an end, its start). When
 * it does not: by_appointment when the start's date is by appointment, outside_hours when that
 * date has hours, else closed_day; `special` says why the date differs from the week (the
 * closure's note, the holiday's name). `span` is the span holding the visit, else the one it
 * overlaps most (a plan's "before opening" / "after closing", minutes open), else null.
 *
 * `holidays` must cover the local dates from the day before the start to the end's date (server:
 * publicHolidaysBetween over visitHolidayDates).
 */
import type { DayEntry, PublicHoliday } from './catalog.ts';
import { dayScheduleFor, isoDate, localDateTime, normalizeHours, timeToMinutes, type LocalDate, type SpecialDay } from './opening-hours.ts';

const MINUTE = 60_000;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- the museum's clock → instants

/** Minutes the zone is ahead of UTC at an instant. */
function offsetAt(ms: number, tz: string): number {
  const floor = Math.floor(ms / MINUTE) * MINUTE;
  const l = localDateTime(new Date(floor), tz);
  return Math.round((Date.UTC(l.year, l.month - 1, l.day, 0, l.minutes) - floor) / MINUTE);
}

const instants = new Map<string, number>();

/**
 * The instant of `minutes` after local midnight of a date in `tz` (may pass 1440: the next day).
 * A time inside a spring-forward gap is read with the offset before the change (02:30 becomes
 * 03:30), one that exists twice is the earlier (Temporal's "compatible").
 */
export function localToInstant(date: LocalDate, minutes: number, tz: string): Date {
  const key = `${tz}|${date.year}-${date.month}-${date.day}|${minutes}`;
  const hit = instants.get(key);
  if (hit !== undefined) return new Date(hit);
  if (instants.size > 5000) instants.clear();
  const at = computeInstant(date, minutes, tz);
  instants.set(key, at.getTime());
  return at;
}

function computeInstant(date: LocalDate, minutes: number, tz: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minutes);
  const before = offsetAt(wall - DAY_MS, tz);
  const after = offsetAt(wall + DAY_MS, tz);
  for (const c of [...new Set([wall - before * MINUTE, wall - after * MINUTE])].sort((a, b) => a - b)) {
    const l = localDateTime(new Date(c), tz);
    if (Date.UTC(l.year, l.month - 1, l.day, 0, l.minutes) === wall) return new Date(c);
  }
  return new Date(wall - before * MINUTE);
}

function dayNumber(d: LocalDate): number {
  return Math.round(Date.UTC(d.year, d.month - 1, d.day) / DAY_MS);
}

function fromDayNumber(n: number): LocalDate {
  const t = new Date(n * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** [open, close) of an open day entry in wall-clock minutes from the day's midnight (close may pass 1440), or null. */
function spanOf(e: DayEntry): [number, number] | null {
  if (!e.isOpen || e.isByAppointment) return null;
  const o = timeToMinutes(e.openTime);
  const c = timeToMinutes(e.closeTime);
  if (o === null || c === null) return null;
  return [o, c <= o ? c + 1440 : c];
}

const hhmm = (m: number) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

// ---------------------------------------------------------------- the rule

export type VisitHoursStatus = 'open' | 'closed_day' | 'outside_hours' | 'by_appointment';

/** One opening of the museum as instants (touching ones joined). */
export interface OpeningSpan {
  /** epoch milliseconds, [start, end) */
  start: number;
  end: number;
  /** the local date (YYYY-MM-DD) whose hours open it */
  date: string;
  /** its opening and (after joining, the last day's) closing on the museum's clock, HH:MM */
  opens: string;
  closes: string;
}

export interface VisitFit {
  status: VisitHoursStatus;
  /** the visit's start and end on the museum's clock (the end is the start when none was given) */
  start: LocalDate & { minutes: number };
  end: LocalDate & { minutes: number };
  /** the hours of the start's local date, and why it differs from the week */
  day: { entry: DayEntry; special?: SpecialDay };
  /** the openings from the day before the start to the end's date */
  spans: OpeningSpan[];
  /** the span holding the whole visit, else the one the visit overlaps most, else null */
  span: OpeningSpan | null;
  /** minutes of the visit inside `span` */
  overlapMinutes: number;
}

/** The local dates the holidays must cover for visitFit: the day before the start to the end's date. */
export function visitHolidayDates(start: Date, end: Date | null, timeZone: string): { from: LocalDate; to: LocalDate } {
  const s = localDateTime(start, timeZone);
  const e = localDateTime(end ?? start, timeZone);
  return { from: fromDayNumber(dayNumber(s) - 1), to: fromDayNumber(Math.max(dayNumber(s), dayNumber(e))) };
}

export function visitFit(hours: unknown, start: Date, end: Date | null, timeZone: string, holidays?: ReadonlyArray<PublicHoliday>): VisitFit {
  const h = normalizeHours(hours);
  const s = start.getTime();
  const e = Math.max(s, (end ?? start).getTime());
  const sl = localDateTime(start, timeZone);
  const el = localDateTime(new Date(e), timeZone);
  const given = end ? localDateTime(end, timeZone) : sl;
  const sDay = dayNumber(sl);

  const spans: OpeningSpan[] = [];
  let day: VisitFit['day'] | null = null;
  for (let n = sDay - 1; n <= Math.max(sDay, dayNumber(el)); n++) {
    const date = fromDayNumber(n);
    const sched = dayScheduleFor(h, date, holidays);
    if (n === sDay) day = { entry: sched.entry, ...(sched.special ? { special: sched.special } : {}) };
    const sp = spanOf(sched.entry);
    if (!sp) continue;
    const a = localToInstant(date, sp[0], timeZone).getTime();
    const b = localToInstant(date, sp[1], timeZone).getTime();
    const last = spans[spans.length - 1];
    if (last && a <= last.end) {
      if (b > last.end) Object.assign(last, { end: b, closes: hhmm(sp[1]) });
    } else spans.push({ start: a, end: b, date: isoDate(date), opens: hhmm(sp[0]), closes: hhmm(sp[1]) });
  }

  let span = spans.find((o) => o.start <= s && s < o.end && e <= o.end) ?? null;
  let overlap = span ? e - s : 0;
  const inside = !!span;
  if (!span) {
    for (const o of spans) {
      const ov = Math.min(e, o.end) - Math.max(s, o.start);
      if (ov > overlap) [span, overlap] = [o, ov];
    }
  }

  const today = day!;
  const status: VisitHoursStatus = inside ? 'open' : today.entry.isOpen && today.entry.isByAppointment ? 'by_appointment' : spanOf(today.entry) ? 'outside_hours' : 'closed_day';
  const local = (l: typeof sl) => ({ year: l.year, month: l.month, day: l.day, minutes: l.minutes });
  return { status, start: local(sl), end: local(given), day: today, spans, span, overlapMinutes: Math.round(overlap / MINUTE) };
}

// ---------------------------------------------------------------- MuseumsApi.visitHours

export interface VisitHours {
  /** open: the whole visit is inside the hours; closed_day: the museum is closed on the visit's (start) date; outside_hours: open that day, but not for the whole visit; by_appointment: that day only by appointment. */
  status: VisitHoursStatus;
  /** the museum's local date of the start (YYYY-MM-DD) */
  date: string;
  /** the visit's start and end on the museum's clock (HH:MM) */
  startTime: string;
  endTime: string | null;
  /** the hours of that date when open (HH:MM; closeTime may be on the next day) */
  openTime: string | null;
  closeTime: string | null;
  /** why the day differs from the week: a dated exception (with its note) or a public holiday (its name) */
  special: SpecialDay | null;
}

/** visitFit as MuseumsApi.visitHours answers it (a meetup's warning). */
export function visitHoursAt(hours: unknown, start: Date, end: Date | null, timeZone: string, holidays?: ReadonlyArray<PublicHoliday>): VisitHours {
  const f = visitFit(hours, start, end, timeZone, holidays);
  const open = !!spanOf(f.day.entry);
  return {
    status: f.status,
    date: isoDate(f.start),
    startTime: hhmm(f.start.minutes),
    endTime: end ? hhmm(f.end.minutes) : null,
    openTime: open ? f.day.entry.openTime ?? null : null,
    closeTime: open ? f.day.entry.closeTime ?? null : null,
    special: f.day.special ?? null,
  };
}
