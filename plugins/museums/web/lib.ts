/** Shared helpers of the museums web pages: types, labels, hours text, distances. */
import type { TFunction } from 'i18next';
import type { Museum } from '../../../web/src/api/generated/museums.ts';
import { CATEGORIES, DAY_KEYS, type DayKey } from '../shared/catalog.ts';
import { formatClock } from '../../../web/src/index.ts';
import { formatDistance } from '../shared/distance.ts';
import { calendarDays, mergeDayRanges, openStatusAt, type CalendarDay, type DayRange } from '../shared/opening-hours.ts';

export type MuseumView = Museum;

/**
 * The window event the badges plugin's web part listens to (BADGES_EARNED_EVENT in
 * plugins/badges/public.ts) to celebrate earned badges. Named here rather than imported: museums
 * does not depend on badges (when badges is disabled no badge is earned and no one listens).
 */
export const BADGES_EARNED_EVENT = 'curio:badges-earned';

/** Hands the badges of a check-in answer to whoever celebrates them. */
export function announceBadges(badges: ReadonlyArray<{ id: number; name: string }> | null | undefined): void {
  if (!badges?.length || typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent(BADGES_EARNED_EVENT, { detail: badges }));
}

export const NEW_YORK = { lat: 40.78, lng: -73.97 };

export const catKey = (c: string) => c.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');

/** A directory category in the viewer's language (unknown values as they are). */
export function categoryLabel(t: TFunction, category: string | null | undefined): string {
  if (!category) return '';
  return (CATEGORIES as readonly string[]).includes(category) ? t(`categories.${catKey(category)}`) : category;
}

/** 'HH:MM' → '1:30 PM' in English, '13:30' in French (Intl, the shared formatter). */
export function formatTime(time: string | undefined, lang: string): string {
  if (!time) return '';
  return formatClock(time, lang);
}

export function dayLabel(t: TFunction, d: DayKey) {
  return t(`days.${d}`);
}

/** One merged row of the Hours section, localized. */
export function rangeText(t: TFunction, r: DayRange, lang: string): { days: string; hours: string } {
  const days = r.from === r.to ? dayLabel(t, r.from) : t('hours.dayRange', { from: dayLabel(t, r.from), to: dayLabel(t, r.to) });
  let hours: string;
  if (r.kind === 'closed') hours = t('hours.closed');
  else if (r.kind === 'by_appointment') hours = t('hours.byAppointment');
  else if (r.openTime === r.closeTime && r.openTime === '00:00') hours = t('hours.open24');
  else hours = t('hours.timeRange', { open: formatTime(r.openTime, lang), close: formatTime(r.closeTime, lang) });
  return { days, hours };
}

/** The week shown on the profile: the schedule in force today at the museum (seasons included). */
export function weekRows(m: Pick<MuseumView, 'openingHours' | 'timezone' | 'holidays'>, now = new Date()) {
  if (!m.openingHours) return { rows: [] as DayRange[], season: undefined as string | undefined, special: [] as CalendarDay[] };
  const rows = mergeDayRanges(m.openingHours, now, m.timezone);
  const status = openStatusAt(m.openingHours, now, m.timezone, m.holidays);
  return { rows, season: status.season, special: specialDays(m, now) };
}

/** The days of the next two weeks whose hours differ from the week: closures, special hours, public holidays. */
export function specialDays(m: Pick<MuseumView, 'openingHours' | 'timezone' | 'holidays'>, now = new Date(), count = 14): CalendarDay[] {
  if (!m.openingHours) return [];
  return calendarDays(m.openingHours, now, m.timezone, m.holidays, count).filter((d) => d.special);
}

/** "Closed", "10:00 AM – 3:00 PM" for one dated day. */
export function dayHoursText(t: TFunction, d: CalendarDay, lang: string): string {
  if (d.kind === 'closed') return t('hours.closed');
  if (d.kind === 'by_appointment') return t('hours.byAppointment');
  if (d.entry.openTime === d.entry.closeTime && d.entry.openTime === '00:00') return t('hours.open24');
  return t('hours.timeRange', { open: formatTime(d.entry.openTime, lang), close: formatTime(d.entry.closeTime, lang) });
}

/** Why a day is special: the closure's note, or the public holiday's name. */
export function specialReason(t: TFunction, d: CalendarDay): string {
  if (d.special?.reason === 'holiday') return t('hours.publicHoliday', { name: d.special.holiday ?? '' });
  return d.special?.note || t('hours.specialHours');
}

/** A local date at the museum ("2026-12-24") in the viewer's language: "Thu, Dec 24". */
export function formatLocalDate(date: string, lang: string): string {
  const [y, mo, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(lang, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, mo - 1, d)));
}

/** "Closes at 5:00 PM" / "Opens Tuesday at 10:00 AM", from the shared open-now function. */
export function statusDetail(t: TFunction, m: Pick<MuseumView, 'openingHours' | 'timezone' | 'holidays'>, lang: string, now = new Date()): string | null {
  if (!m.openingHours) return null;
  const s = openStatusAt(m.openingHours, now, m.timezone, m.holidays);
  if (s.status === 'closed' && s.opensAt && s.opensDate && s.opensOn !== s.day && s.opensDate > addDaysIso(s.date, 6)) {
    return t('hours.opensOnDate', { date: formatLocalDate(s.opensDate, lang), time: formatTime(s.opensAt, lang) });
  }
  if (s.status === 'open' && s.closesAt) return t('hours.closesAt', { time: formatTime(s.closesAt, lang) });
  if (s.status === 'closed' && s.opensAt && s.opensOn) {
    if (s.opensOn === s.day) return t('hours.opensToday', { time: formatTime(s.opensAt, lang) });
    return t('hours.opensOn', { day: dayLabel(t, s.opensOn), time: formatTime(s.opensAt, lang) });
  }
  return null;
}

export const WEEK: readonly DayKey[] = DAY_KEYS;

function addDaysIso(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** A distance the API gives in miles, in the viewer's unit: "2.3 mi" (en), "3,7 km" (fr). */
export const formatDistanceIn = (d: number | null | undefined, lang: string) => (typeof d === 'number' ? formatDistance(d, lang) : '');

/** Museum page link: the slug when there is one. */
export const museumPath = (m: { slug?: string | null; id: number }) => `/museum/${m.slug || m.id}`;

/** The one-line address. */
export function addressLine(m: Pick<MuseumView, 'address' | 'address2' | 'city' | 'state' | 'zipCode' | 'country'>): string[] {
  const cityLine = [m.city, [m.state, m.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [m.address, m.address2 ?? '', cityLine, m.country].filter((s) => !!s && s.trim());
}

export function directionsUrl(m: Pick<MuseumView, 'latitude' | 'longitude' | 'name' | 'address' | 'city' | 'country'>): string {
  const dest = m.latitude != null && m.longitude != null ? `${m.latitude},${m.longitude}` : [m.name, m.address, m.city, m.country].filter(Boolean).join(', ');
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(dest)}`;
}

/** http(s) links only (never javascript: from data). */
export function safeUrl(u: string | null | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
