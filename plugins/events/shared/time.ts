/**
 * Wall-clock times in IANA time zones, with nothing beyond Intl (server and browser).
 *
 * An event is entered as a local date (YYYY-MM-DD), a start time and an optional end time
 * (HH:MM, 24-hour) in a time zone; it is stored as instants (timestamptz). Rules at daylight-saving
 * changes follow Temporal's "compatible" disambiguation: a time that does not exist (spring
 * forward gap) is read with the offset before the change (02:30 becomes 03:30), a time that exists
 * twice (fall back) is the earlier of the two.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || !tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    });
    formatters.set(tz, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall clock in `tz` at an instant. */
export function wallClock(instant: Date | number, tz: string): WallClock {
  const p: Record<string, string> = {};
  for (const part of partsFormatter(tz).formatToParts(new Date(instant))) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
    weekday: WEEKDAYS[p.weekday] ?? 0,
  };
}

/** Offset of `tz` from UTC at an instant, in minutes (Paris in winter: 60). */
export function offsetMinutes(instant: Date | number, tz: string): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  const w = wallClock(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / MINUTE);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function isoDate(w: Pick<WallClock, 'year' | 'month' | 'day'>): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

export function hhmm(w: Pick<WallClock, 'hour' | 'minute'>): string {
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** Parses YYYY-MM-DD strictly (a real calendar date); null otherwise. */
export function parseDate(s: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** Parses HH:MM (00:00–23:59); null otherwise. */
export function parseTime(s: string): { hour: number; minute: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(s);
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : null;
}

/** The instant of a local date and time in `tz` (see the daylight-saving rules above). */
export function zonedToInstant(date: string, time: string, tz: string): Date {
  const d = parseDate(date);
  const t = parseTime(time);
  if (!d || !t) throw new Error(`Invalid local date/time ${date} ${time}`);
  const wall = Date.UTC(d.year, d.month - 1, d.day, t.hour, t.minute);
  const before = offsetMinutes(wall - DAY, tz);
  const after = offsetMinutes(wall + DAY, tz);
  const candidates = [...new Set([wall - before * MINUTE, wall - after * MINUTE])].sort((a, b) => a - b);
  for (const c of candidates) {
    const w = wallClock(c, tz);
    if (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) === wall) return new Date(c);
  }
  // A time inside a spring-forward gap: read with the offset in force before the change.
  return new Date(wall - before * MINUTE);
}

/** Local date (YYYY-MM-DD) and time (HH:MM) of an instant in `tz`. */
export function instantToZoned(instant: Date | number, tz: string): { date: string; time: string } {
  const w = wallClock(instant, tz);
  return { date: isoDate(w), time: hhmm(w) };
}

/** The viewer's IANA zone (browser), or UTC. */
export function viewerTimeZone(): string {
  try {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return isValidTimeZone(tz) ? tz : 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * "This weekend" in `tz`: from Saturday 00:00 to Monday 00:00 local time, the current weekend on
 * Saturday and Sunday, otherwise the coming one.
 */
export function weekendRange(now: Date | number, tz: string): { start: Date; end: Date } {
  const w = wallClock(now, tz);
  // days from today to Saturday: Saturday 0, Sunday -1, Monday 5 …
  const toSaturday = w.weekday === 0 ? -1 : 6 - w.weekday;
  const sat = new Date(Date.UTC(w.year, w.month - 1, w.day + toSaturday));
  const mon = new Date(Date.UTC(w.year, w.month - 1, w.day + toSaturday + 2));
  const day = (d: Date) => isoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
  return { start: zonedToInstant(day(sat), '00:00', tz), end: zonedToInstant(day(mon), '00:00', tz) };
}

/**
 * Whether an event starting at `start` takes place "this weekend" where it happens: from Saturday
 * 00:00 to Monday 00:00 on the clock of its own zone (weekendRange in `tz`), so the same whoever
 * asks, and matching the date its card shows (cards show an event's date in its own zone). The
 * events page's "This weekend" tab (GET /api/meetups?weekend=true): the same list on the server
 * that renders the page and in the browser that hydrates it.
 */
export function isThisWeekend(start: Date | number, tz: string, now: Date | number = Date.now()): boolean {
  const w = weekendRange(now, tz);
  const t = new Date(start).getTime();
  return t >= w.start.getTime() && t < w.end.getTime();
}

/** The time of day in the locale's own clock: 7:30 PM in en-US, 19:30 in fr-FR (issue 21: never a forced 12-hour clock). */
export function formatTime(instant: Date | number | string, tz: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { timeZone: tz, hour: 'numeric', minute: '2-digit' }).format(new Date(instant));
}

/** 'MMM d, yyyy' (Jan 5, 2026) in the locale's words. */
export function formatDate(instant: Date | number | string, tz: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { timeZone: tz, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(instant));
}

/** Short zone name (CET, EST, GMT+2) at an instant, for showing an event's zone. */
export function zoneAbbreviation(instant: Date | number | string, tz: string, locale = 'en-US'): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'short' }).formatToParts(new Date(instant));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? tz;
}

/** Money: integer cents in the database, decimal numbers (12.5) in the API. */
export function toCents(amount: number | string): number | null {
  const s = typeof amount === 'number' ? String(amount) : amount.trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(s) && !(typeof amount === 'number' && Number.isFinite(amount))) return null;
  const n = typeof amount === 'number' ? amount : Number(s);
  if (!Number.isFinite(n) || n < 0) return null;
  const cents = Math.round(n * 100);
  if (Math.abs(n * 100 - cents) > 1e-6) return null; // more than 2 decimals
  return cents;
}

export function fromCents(cents: number | null | undefined): number | null {
  return cents === null || cents === undefined ? null : cents / 100;
}
