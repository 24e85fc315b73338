/**
 * Public holidays per country and region, from the date-holidays package (its rules for ~200
 * countries and their regions ship inside the package: no network, no hand-typed lists).
 * Server only: the browser gets the holidays of the days it shows with each museum
 * (`Museum.holidays`), so the holiday data stays out of the web bundle.
 *
 * Only holidays of type "public" count (banks, school and observance days do not close museums).
 * The dates are local calendar dates (YYYY-MM-DD); the museum's time zone decides which local
 * date "now" is (shared/opening-hours.ts).
 */
import Holidays from 'date-holidays';
import type { HolidayPolicy, PublicHoliday } from '../shared/catalog.ts';
import { isoDate, localDateTime, type LocalDate } from '../shared/opening-hours.ts';

const instances = new Map<string, Holidays | null>();
const yearCache = new Map<string, PublicHoliday[]>();

function calendar(country: string, region?: string): Holidays | null {
  const key = `${country}/${region ?? ''}`;
  if (instances.has(key)) return instances.get(key)!;
  let h: Holidays | null = null;
  const hd = new Holidays();
  const countries = hd.getCountries('en') ?? {};
  if (country in countries) {
    if (!region || region in (hd.getStates(country, 'en') ?? {})) {
      h = region ? new Holidays(country, region, { types: ['public'] }) : new Holidays(country, { types: ['public'] });
    }
  }
  if (instances.size < 500) instances.set(key, h);
  return h;
}

/** Whether date-holidays knows the country (ISO 3166-1 alpha-2) and, when given, its region. */
export function isKnownHolidayRegion(country: string, region?: string | null): boolean {
  return calendar(country, region || undefined) !== null;
}

/** The public holidays of a calendar year (English names), cached. */
export function publicHolidaysOfYear(country: string, region: string | undefined, year: number): PublicHoliday[] {
  const key = `${country}/${region ?? ''}/${year}`;
  const hit = yearCache.get(key);
  if (hit) return hit;
  const cal = calendar(country, region);
  const list: PublicHoliday[] = [];
  if (cal) {
    const seen = new Set<string>();
    for (const x of cal.getHolidays(year, 'en')) {
      if (x.type !== 'public') continue;
      const date = x.date.slice(0, 10); // "YYYY-MM-DD hh:mm:ss" in the country's own calendar
      if (seen.has(date)) continue;
      seen.add(date);
      list.push({ date, name: x.name });
    }
  }
  if (yearCache.size < 2000) yearCache.set(key, list);
  return list;
}

/** Public holidays between two local dates (inclusive) for a museum's holiday rule. */
export function publicHolidaysBetween(policy: HolidayPolicy | null | undefined, from: LocalDate, to: LocalDate): PublicHoliday[] {
  if (!policy) return [];
  const a = isoDate(from);
  const b = isoDate(to);
  const out: PublicHoliday[] = [];
  for (let y = from.year; y <= to.year; y++) {
    for (const h of publicHolidaysOfYear(policy.country, policy.region || undefined, y)) if (a <= h.date && h.date <= b) out.push(h);
  }
  return out;
}

/**
 * The holidays a museum answer carries: from yesterday (hours running past midnight) to two
 * weeks ahead at the museum, enough for open-now, the next opening and the week view.
 */
export function holidaysAround(policy: HolidayPolicy | null | undefined, instant: Date, timeZone: string, daysAhead = 15): PublicHoliday[] {
  if (!policy) return [];
  const now = localDateTime(instant, timeZone);
  const shift = (n: number): LocalDate => {
    const t = new Date(Date.UTC(now.year, now.month - 1, now.day + n));
    return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
  };
  return publicHolidaysBetween(policy, shift(-1), shift(daysAhead));
}
