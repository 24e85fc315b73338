/**
 * A planned visit checked against a museum's calendar (issue 20, "Plan a visit"): is it open
 * when you arrive, do you leave before it closes, is entry free then. Isomorphic and pure. The
 * hours are the one visit rule, visitFit (shared/visit-hours.ts, the same as a meetup's warning),
 * this file only reads a plan's local date and arrival and adds free entry (ruleAppliesOn,
 * inWindow, as "free now"), so a plan never disagrees with the museum page. Other plugins reach
 * it through museums' public.ts.
 *
 * A visit is a local date, an arrival time (HH:MM) on the museum's clock and a duration. Both
 * ends are instants, so a visit over a daylight-saving change lasts its real duration (a 2-hour
 * visit from 01:00 on the spring-forward night in Paris ends at 04:00 local). A time inside a
 * spring-forward gap is read with the offset before the change (02:30 becomes 03:30), one that
 * exists twice is the earlier (localToInstant).
 */
import type { PublicHoliday } from './catalog.ts';
import { inWindow, ruleAppliesOn, type Admission } from './admission.ts';
import { isoDate, localDateTime, timeToMinutes, type LocalDate, type SpecialDay } from './opening-hours.ts';
import { localToInstant, visitFit } from './visit-hours.ts';

const MINUTE = 60_000;

export interface VisitFactsInput {
  openingHours: unknown;
  admission: Admission | null;
  timezone: string;
}

export interface VisitCheck {
  startsAt: Date;
  endsAt: Date;
  /** open: some opening overlaps the visit; closed: none does; by_appointment; unknown: no hours known */
  hours: 'open' | 'closed' | 'by_appointment' | 'unknown';
  /** Why the arrival day differs from the usual week (a dated closure or special hours, a public holiday). */
  special?: SpecialDay;
  /** The opening the visit falls in (or the day's first one when closed at that time), local HH:MM. */
  opensAt?: string;
  closesAt?: string;
  /** Arrives before that opening / leaves after it closes. */
  beforeOpening: boolean;
  afterClosing: boolean;
  /** Minutes of the visit while the museum is open. */
  openMinutes: number;
  /** A free-entry rule for everyone covers the arrival time. */
  free: { applies: boolean; note?: string; from?: string; to?: string };
}

function parseDate(s: string): LocalDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day));
  return t.getUTCMonth() + 1 === d.month && t.getUTCDate() === d.day ? d : null;
}

function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/**
 * Checks one visit. `holidays` are the public holidays of the museum's rule around the date
 * (visitDates: the day before, for hours running past midnight, to the day after, for a visit
 * running past midnight), as MuseumsApi.visitFacts gives them.
 */
export function checkVisit(m: VisitFactsInput, holidays: ReadonlyArray<PublicHoliday>, visit: { date: string; arrival: string; durationMinutes: number }): VisitCheck {
  const tz = m.timezone || 'UTC';
  const date = parseDate(visit.date);
  const arrival = timeToMinutes(visit.arrival);
  if (!date || arrival === null) throw new Error(`checkVisit: invalid date/time ${visit.date} ${visit.arrival}`);
  const startsAt = localToInstant(date, arrival, tz);
  const endsAt = new Date(startsAt.getTime() + Math.max(0, visit.durationMinutes) * MINUTE);
  const local = localDateTime(startsAt, tz); // the arrival's real local date (a gap time moves on)
  const arrivalDate: LocalDate = { year: local.year, month: local.month, day: local.day };

  // free entry at the arrival time
  const free: VisitCheck['free'] = { applies: false };
  const rule = (m.admission?.freeRules ?? []).find((r) => ruleAppliesOn(r, arrivalDate, local.weekday) && inWindow(r, local.minutes));
  if (rule) Object.assign(free, { applies: true }, rule.note ? { note: rule.note } : {}, rule.from ? { from: rule.from } : {}, rule.to ? { to: rule.to } : {});

  const base = { startsAt, endsAt, beforeOpening: false, afterClosing: false, openMinutes: 0, free };
  if (m.openingHours == null) return { ...base, hours: 'unknown' };
  const fit = visitFit(m.openingHours, startsAt, endsAt, tz, holidays);
  const special = fit.day.special ? { special: fit.day.special } : {};
  const best = fit.span;
  const s = startsAt.getTime();
  if (!best) {
    // closed at that time: the day's next opening (or its last one), never a later day's
    const kind = fit.status === 'by_appointment' ? 'by_appointment' : 'closed';
    const day = isoDate(arrivalDate);
    const upToToday = fit.spans.filter((o) => o.date <= day);
    const later = upToToday.find((o) => o.start >= s) ?? upToToday[upToToday.length - 1];
    return { ...base, ...special, hours: kind, ...(later && kind === 'closed' ? { opensAt: later.opens, closesAt: later.closes } : {}) };
  }
  return {
    ...base,
    ...special,
    hours: 'open',
    opensAt: best.opens,
    closesAt: best.closes,
    beforeOpening: s < best.start,
    afterClosing: endsAt.getTime() > best.end,
    openMinutes: fit.overlapMinutes,
  };
}

/** The local dates whose holidays checkVisit needs for a visit on `date`: the day before to the day after. */
export function visitDates(date: string): { from: string; to: string } | null {
  const d = parseDate(date);
  return d ? { from: isoDate(addDays(d, -1)), to: isoDate(addDays(d, 1)) } : null;
}
