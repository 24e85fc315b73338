/**
 * Opening hours: "open now" in the museum's time zone, merged day ranges for the Hours section,
 * 12-hour time labels and the editor's time choices. Isomorphic (server and browser), no
 * dependencies beyond Intl.
 *
 * Both forms of part 2 §3 are accepted everywhere (see normalizeHours):
 *  - the per-day text map: { monday: "10:00-17:00", tuesday: "Closed", wednesday: "By appointment", … }
 *  - the structured form: { defaultHours: {monday: DayEntry, …}, seasonalHours: [{name, startDate, endDate, hours}] }
 *
 * Rules:
 *  - A day entry is closed (isOpen false), by appointment (isOpen and isByAppointment), or open
 *    from openTime to closeTime. A closeTime earlier than or equal to openTime ends on the next
 *    day (18:00–01:00 is open until 1 AM the next morning; closeTime 00:00 is midnight; equal
 *    times mean 24 hours).
 *  - Seasons apply on the local dates from startDate to endDate, both inclusive. MM-DD dates recur
 *    every year and may cross the new year (11-15 → 03-15); YYYY-MM-DD dates are a one-off
 *    period. One-off periods win over recurring seasons, then the first in the list wins.
 *    Seasons with unreadable dates (e.g. the editor's empty "New Season") never apply.
 *  - Dated exceptions (closed, or special hours, with a note) win over everything on their local
 *    dates (first match in the list); then public holidays when the museum has a holiday rule
 *    (closed, or holiday hours; "normal" keeps the usual hours); then seasons; then the default
 *    week. Which dates are public holidays is not decided here (no holiday data in the browser
 *    bundle): the server computes them with date-holidays (server/holidays.ts) and sends them
 *    with the museum; every function takes them as `holidays`.
 *  - "Now" is read in the museum's IANA time zone with Intl.DateTimeFormat, so it is right on
 *    daylight-saving change days. An empty or unknown zone falls back to UTC (validate zones on
 *    write with isValidTimeZone).
 */
import {
  DAY_KEYS,
  DAY_LABELS,
  type DayEntry,
  type DayKey,
  type HolidayPolicy,
  type HoursException,
  type PublicHoliday,
  type Season,
  type StructuredHours,
  type WeeklyHours,
} from './catalog.ts';

export type OpenStatusKind = 'open' | 'closed' | 'by_appointment';

export interface OpenStatus {
  status: OpenStatusKind;
  /** status === 'open' */
  isOpen: boolean;
  /** Local weekday, date (YYYY-MM-DD) and time (HH:MM) at the museum for the instant. */
  day: DayKey;
  date: string;
  time: string;
  /**
   * The day entry the status was decided from: today's, or yesterday's while yesterday's
   * after-midnight closing is still running (then entryDay is yesterday's weekday).
   */
  today: DayEntry;
  entryDay: DayKey;
  /** Name of the seasonal schedule that entry comes from (absent: default hours). */
  season?: string;
  /** The entry comes from a dated exception (with its note) or the public-holiday rule. */
  special?: SpecialDay;
  /** When open: the closing time (HH:MM, may be on the next day). */
  closesAt?: string;
  /** When closed: the next opening within a week (HH:MM) and its weekday (may be today). */
  opensAt?: string;
  opensOn?: DayKey;
  /** The local date of that opening (it may be more than a week away after a long closure). */
  opensDate?: string;
}

export interface DayRange {
  /** First and last weekday of the run (equal for a single day). */
  from: DayKey;
  to: DayKey;
  days: DayKey[];
  /** English label: "Monday – Friday" or "Saturday". */
  label: string;
  kind: OpenStatusKind;
  openTime?: string;
  closeTime?: string;
  /** English text: "10:00 AM – 5:00 PM", "Closed", "By appointment", "Open 24 hours". */
  text: string;
}

/** Why a day's hours differ from the weekly schedule. */
export interface SpecialDay {
  reason: 'exception' | 'holiday';
  /** The exception's note. */
  note?: string;
  /** The public holiday's name. */
  holiday?: string;
}

/** One dated day of the museum's calendar, as the week view shows it. */
export interface CalendarDay {
  date: string;
  day: DayKey;
  entry: DayEntry;
  kind: OpenStatusKind;
  special?: SpecialDay;
  season?: string;
}

/** A date on the museum's calendar. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

// ---------------------------------------------------------------- times

/** The editor's choices: every 30 minutes from 00:00 to 23:30 (48 entries). */
export const TIME_CHOICES: readonly string[] = Array.from({ length: 48 }, (_, i) => `${pad(Math.floor(i / 2))}:${i % 2 ? '30' : '00'}`);

const HHMM = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** 'HH:MM' → minutes since midnight, or null. */
export function timeToMinutes(t: unknown): number | null {
  if (typeof t !== 'string') return null;
  const m = HHMM.exec(t.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

function minutesToTime(min: number): string {
  const m = ((min % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** '13:30' → '1:30 PM', '00:00' → '12:00 AM', '12:00' → '12:00 PM'. Unreadable input is returned as is. */
export function formatTime12(time: string): string {
  const min = timeToMinutes(time);
  if (min === null) return time;
  const h = Math.floor(min / 60);
  const suffix = h < 12 ? 'AM' : 'PM';
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(min % 60)} ${suffix}`;
}

// ---------------------------------------------------------------- text form

const closedEntry = (): DayEntry => ({ isOpen: false, isByAppointment: false });

/** All seven days closed (a new season in the editor starts like this). */
export function closedWeek(): WeeklyHours {
  return Object.fromEntries(DAY_KEYS.map((d) => [d, closedEntry()])) as WeeklyHours;
}

/** A new season as the editor adds it: named New Season, empty dates, all days closed. */
export function newSeason(): Season {
  return { name: 'New Season', startDate: '', endDate: '', hours: closedWeek() };
}

interface ParsedTime {
  minutes: number;
  meridiem: 'am' | 'pm' | null;
}

/** One clock time of free text: "10", "10:30", "9.30", "10h30", "10am", "6 p.m.", "noon", "midnight", "24:00". */
function parseClock(raw: string): ParsedTime | null {
  const s = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (s === 'noon' || s === 'midday' || s === '12 noon') return { minutes: 720, meridiem: 'pm' };
  if (s === 'midnight' || s === '12 midnight') return { minutes: 0, meridiem: 'am' };
  const m = /^(\d{1,2})(?:[:.h](\d{2})|h)?\s*(a\.?\s?m\.?|p\.?\s?m\.?)?$/.exec(s);
  if (!m) return null;
  let h = Number(m[1]);
  const min = m[2] ? Number(m[2]) : 0;
  if (min > 59) return null;
  const meridiem = m[3] ? (m[3].startsWith('a') ? 'am' : 'pm') : null;
  if (meridiem) {
    if (h < 1 || h > 12) return null;
    if (h === 12) h = 0;
    if (meridiem === 'pm') h += 12;
  } else if (h > 24 || (h === 24 && min > 0)) return null;
  return { minutes: (h * 60 + min) % 1440, meridiem };
}

/**
 * One day of the text form → a day entry: "Closed" → closed; anything containing "appointment" →
 * by appointment; "open 24 hours" → 00:00–00:00; otherwise an open and close time split at the dash
 * ("10:00-17:00", "9:00 AM - 5:00 PM", "10am-6pm", "9–5"). With several ranges ("10-13, 14-18")
 * the first opening and the last closing are kept. Anything unreadable counts as closed.
 */
export function parseDayText(text: unknown): DayEntry {
  if (typeof text !== 'string') return closedEntry();
  const s = text.trim().toLowerCase();
  if (!s) return closedEntry();
  if (s.includes('appointment')) return { isOpen: true, isByAppointment: true };
  if (s.includes('closed')) return closedEntry();
  if (/24\s*(hours|hrs|h)\b|24\/7/.test(s)) return { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
  const body = s.replace(/^open\s*:?\s*/, '');
  const ranges = body
    .split(/\s*(?:,|;|&|\band\b|\/)\s*/)
    .map((r) => r.split(/\s*(?:[-–—]|\bto\b|\buntil\b)\s*/).filter(Boolean))
    .filter((parts) => parts.length === 2);
  if (!ranges.length) return closedEntry();
  const open = parseClock(ranges[0][0]);
  const close = parseClock(ranges[ranges.length - 1][1]);
  if (!open || !close) return closedEntry();
  let o = open.minutes;
  let c = close.minutes;
  if (!open.meridiem && close.meridiem === 'pm' && o < 720 && o + 720 < c) o += 720; // "1-5pm"
  // "9:00-5:00", "10-6": a 12-hour close written without AM/PM (a leading zero, as in 02:00, reads as 24-hour)
  if (!open.meridiem && !close.meridiem && c < o && o < 720 && c + 720 > o && !/^0/.test(ranges[ranges.length - 1][1].trim())) c += 720;
  return { isOpen: true, isByAppointment: false, openTime: minutesToTime(o), closeTime: minutesToTime(c) };
}

// ---------------------------------------------------------------- normalization

function normalizeEntry(v: unknown): DayEntry {
  if (typeof v === 'string') return parseDayText(v);
  if (!v || typeof v !== 'object') return closedEntry();
  const e = v as Record<string, unknown>;
  const isOpen = e.isOpen === true;
  const isByAppointment = isOpen && e.isByAppointment === true;
  const out: DayEntry = { isOpen, isByAppointment };
  const o = timeToMinutes(e.openTime);
  const c = timeToMinutes(e.closeTime);
  if (o !== null) out.openTime = minutesToTime(o);
  if (c !== null) out.closeTime = minutesToTime(c);
  // An open day without both times cannot be placed on the clock: closed.
  if (isOpen && !isByAppointment && (o === null || c === null)) out.isOpen = false;
  return out;
}

function normalizeWeek(v: unknown): WeeklyHours {
  const src = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const lower: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(src)) lower[k.toLowerCase()] = val;
  return Object.fromEntries(DAY_KEYS.map((d) => [d, normalizeEntry(lower[d])])) as WeeklyHours;
}

function hasDayKeys(o: Record<string, unknown>): boolean {
  return Object.keys(o).some((k) => (DAY_KEYS as readonly string[]).includes(k.toLowerCase()));
}

/**
 * Any stored or submitted opening hours → the structured form, every day present.
 * Accepts the structured form, the text form (converted day by day with parseDayText), a bare
 * week of day entries, a JSON string of either, or nothing (all closed).
 */
export function normalizeHours(input: unknown): StructuredHours {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      v = null;
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { defaultHours: closedWeek(), seasonalHours: [], exceptions: [], publicHolidays: null };
  const o = v as Record<string, unknown>;
  if (!('defaultHours' in o) && !('seasonalHours' in o) && hasDayKeys(o)) return { defaultHours: normalizeWeek(o), seasonalHours: [], exceptions: [], publicHolidays: null };
  const seasons = Array.isArray(o.seasonalHours) ? o.seasonalHours : [];
  return {
    exceptions: normalizeExceptions(o.exceptions),
    publicHolidays: normalizePolicy(o.publicHolidays),
    defaultHours: normalizeWeek(o.defaultHours),
    seasonalHours: seasons
      .filter((s): s is Record<string, unknown> => !!s && typeof s === 'object')
      .map((s) => ({
        name: typeof s.name === 'string' ? s.name : '',
        startDate: typeof s.startDate === 'string' ? s.startDate : '',
        endDate: typeof s.endDate === 'string' ? s.endDate : '',
        hours: normalizeWeek(s.hours),
      })),
  };
}

const ISO_DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Exceptions with readable dates kept (endDate ≥ startDate, defaulting to it); times normalized. */
export function normalizeExceptions(v: unknown): HoursException[] {
  if (!Array.isArray(v)) return [];
  const out: HoursException[] = [];
  for (const raw of v) {
    if (!raw || typeof raw !== 'object') continue;
    const e = raw as Record<string, unknown>;
    const start = typeof e.startDate === 'string' ? e.startDate.trim() : '';
    if (!ISO_DATE.test(start)) continue;
    let end = typeof e.endDate === 'string' && ISO_DATE.test(e.endDate.trim()) ? e.endDate.trim() : start;
    if (end < start) end = start;
    const o = timeToMinutes(e.openTime);
    const c = timeToMinutes(e.closeTime);
    const closed = e.closed !== false || o === null || c === null;
    const x: HoursException = { startDate: start, endDate: end, closed };
    if (!closed) {
      x.openTime = minutesToTime(o!);
      x.closeTime = minutesToTime(c!);
    }
    const note = typeof e.note === 'string' ? e.note.trim().slice(0, 200) : '';
    if (note) x.note = note;
    out.push(x);
  }
  return out;
}

/**
 * A holiday rule with a two-letter country, or without one (country '': the server guesses it
 * from the museum's address, server/holidays.ts effectivePolicy), or null.
 */
export function normalizePolicy(v: unknown): HolidayPolicy | null {
  if (!v || typeof v !== 'object') return null;
  const p = v as Record<string, unknown>;
  const country = typeof p.country === 'string' ? p.country.trim().toUpperCase() : '';
  if (country && !/^[A-Z]{2}$/.test(country)) return null;
  const region = typeof p.region === 'string' ? p.region.trim().toUpperCase() : '';
  const o = timeToMinutes(p.openTime);
  const c = timeToMinutes(p.closeTime);
  let mode: HolidayPolicy['mode'] = p.mode === 'closed' || p.mode === 'hours' ? p.mode : 'normal';
  if (mode === 'hours' && (o === null || c === null)) mode = 'closed';
  const out: HolidayPolicy = { country, mode };
  if (region) out.region = region;
  if (mode === 'hours') {
    out.openTime = minutesToTime(o!);
    out.closeTime = minutesToTime(c!);
  }
  return out;
}

// ---------------------------------------------------------------- calendar

interface SeasonDate {
  year?: number;
  month: number;
  day: number;
}

/** "MM-DD" (recurring) or "YYYY-MM-DD" (one-off; a longer ISO string is cut to its date). */
function parseSeasonDate(s: string): SeasonDate | null {
  const t = s.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) return valid({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  m = /^(\d{2})-(\d{2})$/.exec(t);
  if (m) return valid({ month: Number(m[1]), day: Number(m[2]) });
  return null;
  function valid(d: SeasonDate): SeasonDate | null {
    return d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 ? d : null;
  }
}

/** Whether a local date falls inside a season's range (both ends inclusive). */
export function seasonApplies(season: Pick<Season, 'startDate' | 'endDate'>, date: LocalDate): boolean {
  const start = parseSeasonDate(season.startDate ?? '');
  const end = parseSeasonDate(season.endDate ?? '');
  if (!start || !end) return false;
  if (start.year !== undefined && end.year !== undefined) {
    const key = date.year * 10000 + date.month * 100 + date.day;
    return start.year * 10000 + start.month * 100 + start.day <= key && key <= end.year * 10000 + end.month * 100 + end.day;
  }
  const md = date.month * 100 + date.day;
  const s = start.month * 100 + start.day;
  const e = end.month * 100 + end.day;
  return s <= e ? s <= md && md <= e : md >= s || md <= e; // s > e crosses the new year
}

function isOneOff(s: Season): boolean {
  return /^\d{4}-/.test(s.startDate ?? '') && /^\d{4}-/.test(s.endDate ?? '');
}

/** The weekly schedule in force on a local date: the applicable season's hours, else the default hours. */
export function scheduleFor(hours: unknown, date: LocalDate | string): { hours: WeeklyHours; season?: Season } {
  return scheduleOf(normalizeHours(hours), date);
}

// The functions below take hours normalized once by their caller: a museum's answer (its open status,
// its week and the next opening, up to two weeks ahead) asks for dozens of days, and normalizing the
// whole week for each of them was most of the answer's CPU time (issue 18).
function scheduleOf(h: StructuredHours, date: LocalDate | string): { hours: WeeklyHours; season?: Season } {
  const d = typeof date === 'string' ? parseLocalDate(date) : date;
  if (d) {
    const seasons = h.seasonalHours ?? [];
    const match = seasons.find((s) => isOneOff(s) && seasonApplies(s, d)) ?? seasons.find((s) => !isOneOff(s) && seasonApplies(s, d));
    if (match) return { hours: match.hours, season: match };
  }
  return { hours: h.defaultHours };
}

type HolidayList = ReadonlyArray<PublicHoliday> | undefined;

/**
 * The hours of one local date: a dated exception, else the public-holiday rule (when the date is
 * one of `holidays`), else the season in force, else the default week.
 */
export function dayScheduleFor(hours: unknown, date: LocalDate, holidays?: HolidayList): { entry: DayEntry; special?: SpecialDay; season?: Season } {
  return dayScheduleOf(normalizeHours(hours), date, holidays);
}

function dayScheduleOf(h: StructuredHours, date: LocalDate, holidays?: HolidayList): { entry: DayEntry; special?: SpecialDay; season?: Season } {
  const key = isoDate(date);
  const ex = (h.exceptions ?? []).find((e) => e.startDate <= key && key <= (e.endDate || e.startDate));
  if (ex) {
    const entry: DayEntry = ex.closed ? closedEntry() : { isOpen: true, isByAppointment: false, openTime: ex.openTime, closeTime: ex.closeTime };
    return { entry, special: { reason: 'exception', ...(ex.note ? { note: ex.note } : {}) } };
  }
  const policy = h.publicHolidays;
  const holiday = policy && policy.mode !== 'normal' ? holidays?.find((x) => x.date === key) : undefined;
  if (policy && holiday) {
    const entry: DayEntry = policy.mode === 'closed' ? closedEntry() : { isOpen: true, isByAppointment: false, openTime: policy.openTime, closeTime: policy.closeTime };
    return { entry, special: { reason: 'holiday', holiday: holiday.name } };
  }
  const sched = scheduleOf(h, date);
  return { entry: sched.hours[weekdayOf(date)], ...(sched.season ? { season: sched.season } : {}) };
}

/** The next `count` local days from the instant's date at the museum (today first), dated. */
export function calendarDays(hours: unknown, instant: Date, timeZone: string, holidays?: HolidayList, count = 7): CalendarDay[] {
  const h = normalizeHours(hours);
  const now = localDateTime(instant, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const out: CalendarDay[] = [];
  for (let i = 0; i < count; i++) {
    const d = addDays(today, i);
    const s = dayScheduleOf(h, d, holidays);
    out.push({ date: isoDate(d), day: weekdayOf(d), entry: s.entry, kind: entryKind(s.entry), ...(s.special ? { special: s.special } : {}), ...(s.season ? { season: s.season.name } : {}) });
  }
  return out;
}

/** "YYYY-MM-DD" → LocalDate; "MM-DD" → that day in 2001 (a non-leap reference year); else null. */
function parseLocalDate(s: string): LocalDate | null {
  const d = parseSeasonDate(s);
  return d ? { year: d.year ?? 2001, month: d.month, day: d.day } : null;
}

function weekdayOf(d: LocalDate): DayKey {
  const js = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay(); // 0 = Sunday
  return DAY_KEYS[(js + 6) % 7];
}

function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether Intl knows this IANA time zone. */
/** Zones already checked (building an Intl.DateTimeFormat costs tens of ms in a browser). */
const zoneValidity = new Map<string, boolean>();

export function isValidTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || !timeZone) return false;
  if (formatters.has(timeZone)) return true;
  let ok = zoneValidity.get(timeZone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      ok = true;
    } catch {
      ok = false;
    }
    if (zoneValidity.size < 1000) zoneValidity.set(timeZone, ok);
  }
  return ok;
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f) return f;
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(zone, f);
  }
  return f;
}

/** The local calendar date, weekday and minutes since midnight of an instant in a time zone. */
export function localDateTime(instant: Date, timeZone: string): LocalDate & { weekday: DayKey; minutes: number } {
  // Intl's formatToParts is the dear part (a list of museums asks it for each museum, often for the
  // same zone and minute): answers are remembered per zone and minute (zones' offsets are whole minutes)
  const key = `${timeZone}|${Math.floor(instant.getTime() / 60_000)}`;
  const known = localTimes.get(key);
  if (known) return { ...known };
  const out = readLocalDateTime(instant, timeZone);
  if (localTimes.size >= 2_000) localTimes.clear();
  localTimes.set(key, out);
  return { ...out };
}
const localTimes = new Map<string, LocalDate & { weekday: DayKey; minutes: number }>();

function readLocalDateTime(instant: Date, timeZone: string): LocalDate & { weekday: DayKey; minutes: number } {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  const date = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
  const minutes = (Number(parts.hour) % 24) * 60 + Number(parts.minute);
  return { ...date, weekday: weekdayOf(date), minutes };
}

export const isoDate = (d: LocalDate) => `${String(d.year).padStart(4, '0')}-${pad(d.month)}-${pad(d.day)}`;

// ---------------------------------------------------------------- open now

/** [open, end) in minutes from the start of the entry's day; end may pass 1440 (next day). */
function span(e: DayEntry): [number, number] | null {
  if (!e.isOpen || e.isByAppointment) return null;
  const o = timeToMinutes(e.openTime);
  const c = timeToMinutes(e.closeTime);
  if (o === null || c === null) return null;
  return [o, c <= o ? c + 1440 : c];
}

/**
 * Whether the museum is open, closed or open by appointment at an instant, in its time zone.
 * `hours` may be either form (or anything normalizeHours accepts).
 */
export function openStatusAt(hours: unknown, instant: Date, timeZone: string, holidays?: HolidayList): OpenStatus {
  return openStatusOf(normalizeHours(hours), instant, timeZone, holidays);
}

/** openStatusAt for hours normalizeHours has already answered (a museum answer normalizes them once). */
export function openStatusOf(h: StructuredHours, instant: Date, timeZone: string, holidays?: HolidayList): OpenStatus {
  const now = localDateTime(instant, timeZone);
  const todayDate: LocalDate = { year: now.year, month: now.month, day: now.day };
  const base = { day: now.weekday, date: isoDate(todayDate), time: minutesToTime(now.minutes) };
  const t = now.minutes;

  // Yesterday's hours still running past midnight win over today's entry.
  const yDate = addDays(todayDate, -1);
  const yDay = weekdayOf(yDate);
  const ySched = dayScheduleOf(h, yDate, holidays);
  const ySpan = span(ySched.entry);
  if (ySpan && ySpan[1] > 1440 && t < ySpan[1] - 1440) {
    return { ...base, status: 'open', isOpen: true, today: ySched.entry, entryDay: yDay, ...extras(ySched), closesAt: ySched.entry.closeTime };
  }

  const sched = dayScheduleOf(h, todayDate, holidays);
  const entry = sched.entry;
  const common = { ...base, today: entry, entryDay: now.weekday, ...extras(sched) };
  if (entry.isOpen && entry.isByAppointment) return { ...common, status: 'by_appointment', isOpen: false };
  const sp = span(entry);
  if (sp && sp[0] <= t && t < sp[1]) return { ...common, status: 'open', isOpen: true, closesAt: entry.closeTime };
  return { ...common, status: 'closed', isOpen: false, ...nextOpening(h, todayDate, t, holidays) };
}

function extras(s: { season?: Season; special?: SpecialDay }): { season?: string; special?: SpecialDay } {
  return { ...(s.season ? { season: s.season.name } : {}), ...(s.special ? { special: s.special } : {}) };
}

function nextOpening(h: StructuredHours, today: LocalDate, t: number, holidays: HolidayList): { opensAt?: string; opensOn?: DayKey; opensDate?: string } {
  const sp = span(dayScheduleOf(h, today, holidays).entry);
  if (sp && t < sp[0]) return { opensAt: minutesToTime(sp[0]), opensOn: weekdayOf(today), opensDate: isoDate(today) };
  for (let i = 1; i <= 14; i++) {
    const d = addDays(today, i);
    const e = dayScheduleOf(h, d, holidays).entry;
    if (span(e)) return { opensAt: e.openTime, opensOn: weekdayOf(d), opensDate: isoDate(d) };
  }
  return {};
}

// ---------------------------------------------------------------- hours section

/** English text of one day entry: "10:00 AM – 5:00 PM", "Closed", "By appointment", "Open 24 hours". */
export function formatDayEntry(e: DayEntry): string {
  const kind = entryKind(e);
  if (kind === 'closed') return 'Closed';
  if (kind === 'by_appointment') return 'By appointment';
  if (e.openTime === e.closeTime && timeToMinutes(e.openTime) === 0) return 'Open 24 hours';
  return `${formatTime12(e.openTime!)} – ${formatTime12(e.closeTime!)}`;
}

function entryKind(e: DayEntry): OpenStatusKind {
  if (e.isOpen && e.isByAppointment) return 'by_appointment';
  return span(e) ? 'open' : 'closed';
}

/**
 * The week of the Hours section, Monday first, consecutive days with the same hours merged
 * ("Monday – Friday: 10:00 AM – 5:00 PM", "Saturday – Sunday: Closed").
 * Without `date` the default hours are shown; with a date ("YYYY-MM-DD", "MM-DD", or a Date read
 * in `timeZone`, default UTC) the schedule in force on that date (a season's hours inside it).
 */
export function mergeDayRanges(hours: unknown, date?: Date | string, timeZone = 'UTC'): DayRange[] {
  const h = normalizeHours(hours);
  let week = h.defaultHours;
  if (date !== undefined) {
    const d = typeof date === 'string' ? date : isoDate(localDateTime(date, timeZone));
    week = scheduleOf(h, d).hours;
  }
  const out: DayRange[] = [];
  for (const day of DAY_KEYS) {
    const e = week[day];
    const kind = entryKind(e);
    const openTime = kind === 'open' ? e.openTime : undefined;
    const closeTime = kind === 'open' ? e.closeTime : undefined;
    const last = out[out.length - 1];
    if (last && last.kind === kind && last.openTime === openTime && last.closeTime === closeTime) {
      last.to = day;
      last.days.push(day);
      last.label = `${DAY_LABELS[last.from]} – ${DAY_LABELS[day]}`;
      continue;
    }
    out.push({ from: day, to: day, days: [day], label: DAY_LABELS[day], kind, ...(openTime ? { openTime, closeTime } : {}), text: formatDayEntry(e) });
  }
  return out;
}
