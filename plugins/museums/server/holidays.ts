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
import { iso1A2Code } from '@rapideditor/country-coder';
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

// ---------------------------------------------------------------- the holiday country guess

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.'’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the /, '');

/** Common ways addresses name a country that date-holidays' English and native names do not cover. */
const ALIASES: Record<string, string> = {
  usa: 'US', us: 'US', 'united states': 'US', america: 'US', 'etats unis': 'US',
  uk: 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', 'royaume uni': 'GB',
  holland: 'NL', 'the netherlands': 'NL', 'pays bas': 'NL',
  allemagne: 'DE', espagne: 'ES', italie: 'IT', belgique: 'BE', suisse: 'CH', autriche: 'AT', 'czech republic': 'CZ', russia: 'RU',
  'south korea': 'KR', korea: 'KR', 'republic of korea': 'KR', japon: 'JP', chine: 'CN', bresil: 'BR', mexique: 'MX', grece: 'GR',
  'vatican city': 'VA', vatican: 'VA', 'ivory coast': 'CI', turkiye: 'TR', irlande: 'IE', ecosse: 'GB', angleterre: 'GB',
};

let countryIndex: Map<string, string> | null = null;
function countryCodeOf(name: string): string | null {
  if (!countryIndex) {
    countryIndex = new Map();
    const hd = new Holidays();
    for (const lang of [undefined, 'en']) {
      for (const [code, n] of Object.entries((lang ? hd.getCountries(lang) : hd.getCountries()) ?? {})) {
        countryIndex.set(fold(String(n)), code);
        countryIndex.set(code.toLowerCase(), code);
      }
    }
    for (const [a, code] of Object.entries(ALIASES)) if (!countryIndex.has(a)) countryIndex.set(a, code);
  }
  const f = fold(name);
  return f ? (countryIndex.get(f) ?? null) : null;
}

/** The date-holidays region of a state or province as addresses write it (code or name, English or native). */
function regionCodeOf(country: string, state: string): string | undefined {
  const f = fold(state);
  if (!f) return undefined;
  const hd = new Holidays();
  for (const lang of [undefined, 'en']) {
    const states = ((lang ? hd.getStates(country, lang) : hd.getStates(country)) ?? {}) as Record<string, string>;
    for (const [code, n] of Object.entries(states)) if (code.toLowerCase() === f || fold(String(n)) === f) return code;
  }
  return undefined;
}

/** The ISO country at a point (country-coder's offline borders), or null (the sea, bad numbers). */
function countryAt(lat: unknown, lng: unknown): string | null {
  const la = Number(lat);
  const ln = Number(lng);
  if (lat == null || lng == null || !Number.isFinite(la) || !Number.isFinite(ln) || Math.abs(la) > 90 || Math.abs(ln) > 180) return null;
  try {
    return iso1A2Code([ln, la]) ?? null;
  } catch {
    return null;
  }
}

/**
 * The holiday calendar of a museum that has none set, from its address: its country (ISO code,
 * English or native name, common aliases) or, when the address's country is not one we can read,
 * the country at its coordinates (the @rapideditor/country-coder package: offline borders); and,
 * when the state field names one of date-holidays' regions of that country (NY or New York, BY or
 * Bayern), that region. null when no country date-holidays knows comes out.
 */
export function guessHolidayRegion(country: string | null | undefined, state?: string | null, latitude?: number | string | null, longitude?: number | string | null): { country: string; region?: string } | null {
  // a pure function of the address, about 50 µs (name folding, the country and region tables), asked
  // for every museum of every list: remembered per address (issue 18)
  const key = `${country ?? ''}\u001f${state ?? ''}\u001f${latitude ?? ''}\u001f${longitude ?? ''}`;
  if (guesses.has(key)) {
    const g = guesses.get(key)!;
    return g && { ...g };
  }
  const g = guessUncached(country, state, latitude, longitude);
  if (guesses.size >= 5_000) guesses.clear();
  guesses.set(key, g);
  return g && { ...g };
}
const guesses = new Map<string, { country: string; region?: string } | null>();

function guessUncached(country: string | null | undefined, state?: string | null, latitude?: number | string | null, longitude?: number | string | null): { country: string; region?: string } | null {
  let code = country ? countryCodeOf(country) : null;
  if (!code || !isKnownHolidayRegion(code)) code = countryAt(latitude, longitude);
  if (!code || !isKnownHolidayRegion(code)) return null;
  const region = state ? regionCodeOf(code, state) : undefined;
  return region ? { country: code, region } : { country: code };
}

/**
 * The holiday rule in force: the museum's own, with the guessed country (and region) when the rule
 * names none; null without a rule, or when nothing can be guessed.
 */
export function effectivePolicy(
  policy: HolidayPolicy | null | undefined,
  address: { country?: string | null; state?: string | null; latitude?: number | string | null; longitude?: number | string | null },
): HolidayPolicy | null {
  if (!policy) return null;
  if (policy.country) return policy;
  const g = guessHolidayRegion(address.country, address.state, address.latitude, address.longitude);
  return g ? { ...policy, ...g } : null;
}
