/** Shared helpers of the events pages: types, labels, links, formatting. */
import type { Event as EventItem, Photo, EventsComment } from '../../../web/src/api/generated/events.ts';
import { viewerTimeZone, zoneAbbreviation } from '../shared/time.ts';
import { formatClock, formatDate, formatTimeOfDay, intlLocale, useHydrated } from '../../../web/src/index.ts';

export type { EventItem, Photo, EventsComment };

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const CARD_TAGS = 3;

/** The detail page of an event (defined in public.ts, where other plugins' pages read it too). */
export { eventPath } from '../public.ts';

/** API prefix of an event's kind. */
export function apiBase(e: Pick<EventItem, 'id' | 'kind'>): string {
  return e.kind === 'meetup' ? `/api/meetups/${e.id}` : `/api/museum-events/${e.id}`;
}

export const locale = (lang: string | undefined): string => intlLocale(lang);

/**
 * The viewer's time zone, once the page is hydrated. Null on the server, which cannot know it, and
 * in the render that hydrates the server's HTML, which must draw the same text.
 */
export function useViewerZone(): string | null {
  return useHydrated() ? viewerTimeZone() : null;
}

/**
 * Date and time of day in the viewer's language (shared formatters), in the event's own zone (where
 * it takes place). The zone is named when it differs from the viewer's (a Paris meetup seen from
 * New York), and always while the viewer's zone is unknown (`useViewerZone()` is null).
 */
export function when(e: Pick<EventItem, 'dateTime' | 'endDateTime' | 'timeZone'>, lang: string | undefined, viewerZone: string | null) {
  const loc = locale(lang);
  const date = formatDate(e.dateTime, loc, e.timeZone);
  const start = formatTimeOfDay(e.dateTime, loc, e.timeZone);
  const end = e.endDateTime ? formatTimeOfDay(e.endDateTime, loc, e.timeZone) : null;
  const own = zoneAbbreviation(e.dateTime, e.timeZone, loc);
  const zone = viewerZone === null || own !== zoneAbbreviation(e.dateTime, viewerZone, loc) ? own : null;
  return { date, start, end, zone, time: end ? `${start} – ${end}` : start };
}

/** Money: 0 reads Free, otherwise $ and the amount (12.5 → $12.50). */
export function priceAmount(price: number): string {
  return Number.isInteger(price) ? String(price) : price.toFixed(2);
}

/** A file the Upload Photo dialog keeps: an image type, at most 10 MB. */
export function isAcceptedPhoto(f: File): boolean {
  return /^image\//.test(f.type) && f.size <= MAX_PHOTO_BYTES && f.size > 0;
}

/** Display name of a user summary. */
export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string } | null | undefined): string {
  if (!u) return '';
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return full || u.username;
}

/** HH:MM choices every 15 minutes, 00:00 to 23:45. */
export const TIME_CHOICES: string[] = Array.from({ length: 96 }, (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`);

/** '18:30' → '6:30 PM' in English, '18:30' in French (the locale's own clock). */
export function timeLabel(hhmm: string, lang?: string): string {
  return formatClock(hhmm, locale(lang));
}

export function timeZones(): string[] {
  try {
    const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
    if (list?.length) return list.includes('UTC') ? list : ['UTC', ...list];
  } catch {
    // older browsers
  }
  return ['UTC', viewerTimeZone()];
}
