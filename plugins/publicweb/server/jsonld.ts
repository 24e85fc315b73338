/**
 * schema.org JSON-LD of a museum (Museum) and of an event (Event), from the API's answers.
 * Hours: the weekly default hours, each season's hours (validFrom/validThrough: the season's next
 * or current occurrence for a recurring MM-DD season) and dated exceptions (closed: opens and
 * closes 00:00, as schema.org asks).
 */
import type { Museum } from '../../museums/public.ts';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const SCHEMA_DAY: Record<string, string> = {
  monday: 'https://schema.org/Monday',
  tuesday: 'https://schema.org/Tuesday',
  wednesday: 'https://schema.org/Wednesday',
  thursday: 'https://schema.org/Thursday',
  friday: 'https://schema.org/Friday',
  saturday: 'https://schema.org/Saturday',
  sunday: 'https://schema.org/Sunday',
};

type Week = Record<string, { isOpen: boolean; isByAppointment: boolean; openTime?: string; closeTime?: string }>;

function weekSpecs(week: Week | undefined, extra: Record<string, string> = {}): any[] {
  if (!week) return [];
  const out: any[] = [];
  for (const d of DAYS) {
    const e = week[d];
    if (!e?.isOpen || e.isByAppointment || !e.openTime || !e.closeTime) continue;
    out.push({ '@type': 'OpeningHoursSpecification', dayOfWeek: SCHEMA_DAY[d], opens: e.openTime, closes: e.closeTime, ...extra });
  }
  return out;
}

/** A season's dates as ISO dates: one-off as they are; MM-DD the occurrence that ends on or after `today`. */
export function seasonDates(start: string, end: string, today: string): { from: string; to: string } {
  if (/^\d{4}-/.test(start)) return { from: start, to: end };
  const year = Number(today.slice(0, 4));
  for (const y of [year - 1, year, year + 1]) {
    const from = `${y}-${start}`;
    const to = end < start ? `${y + 1}-${end}` : `${y}-${end}`;
    if (to >= today) return { from, to };
  }
  return { from: `${year + 1}-${start}`, to: end < start ? `${year + 2}-${end}` : `${year + 1}-${end}` };
}

export function localToday(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

export function museumJsonLd(m: Museum, opts: { url: string; image: string | null; amenityLabel: (k: string) => string; now?: Date }): Record<string, unknown> {
  const today = localToday(m.timezone, opts.now);
  const hours: any[] = [];
  const oh = m.openingHours as any;
  if (oh) {
    hours.push(...weekSpecs(oh.defaultHours));
    for (const s of oh.seasonalHours ?? []) {
      const { from, to } = seasonDates(s.startDate, s.endDate, today);
      hours.push(...weekSpecs(s.hours, { validFrom: from, validThrough: to, name: s.name }));
    }
    for (const x of oh.exceptions ?? []) {
      const end = x.endDate ?? x.startDate;
      if (end < today) continue;
      hours.push(
        x.closed
          ? { '@type': 'OpeningHoursSpecification', opens: '00:00', closes: '00:00', validFrom: x.startDate, validThrough: end, ...(x.note ? { description: x.note } : {}) }
          : { '@type': 'OpeningHoursSpecification', opens: x.openTime, closes: x.closeTime, validFrom: x.startDate, validThrough: end, ...(x.note ? { description: x.note } : {}) },
      );
    }
  }
  const free = m.admission ? m.admission.freeRules.some((r) => r.kind === 'always') || (m.admission.prices.length > 0 && m.admission.prices.every((p) => p.cents === 0)) : null;
  const sameAs = [m.website, m.wikidataId ? `https://www.wikidata.org/wiki/${m.wikidataId}` : null].filter(Boolean);
  const ld: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Museum',
    '@id': `${opts.url}#museum`,
    name: m.name,
    url: opts.url,
    description: m.description || undefined,
    image: opts.image ?? undefined,
    telephone: m.phone ?? undefined,
    email: m.email ?? undefined,
    sameAs: sameAs.length ? sameAs : undefined,
    address: {
      '@type': 'PostalAddress',
      streetAddress: [m.address, m.address2].filter(Boolean).join(', '),
      addressLocality: m.city,
      addressRegion: m.state ?? undefined,
      postalCode: m.zipCode ?? undefined,
      addressCountry: m.country,
    },
    geo: m.latitude != null && m.longitude != null ? { '@type': 'GeoCoordinates', latitude: m.latitude, longitude: m.longitude } : undefined,
    openingHoursSpecification: hours.length ? hours : undefined,
    amenityFeature: m.amenities.length ? m.amenities.map((a) => ({ '@type': 'LocationFeatureSpecification', name: opts.amenityLabel(a), value: true })) : undefined,
    isAccessibleForFree: free ?? undefined,
    aggregateRating: m.totalReviews > 0 && m.rating > 0 ? { '@type': 'AggregateRating', ratingValue: m.rating, reviewCount: m.totalReviews, bestRating: 5, worstRating: 1 } : undefined,
  };
  return JSON.parse(JSON.stringify(ld));
}

/** The fields of an event answer (schema events/Event) this needs. */
export interface EventLike {
  id: number;
  kind: 'meetup' | 'museum_event';
  title: string;
  description: string;
  location: string;
  dateTime: string;
  endDateTime: string | null;
  imageUrl: string | null;
  museum: { id: number; slug: string; name: string; city?: string | null; country?: string | null } | null;
  organizer: { id: number; username: string; firstName?: string | null; lastName?: string | null; slug?: string | null } | null;
  community?: { id: number; name: string } | null;
  cost: 'free' | 'donation' | 'paid';
  costAmount: number | null;
  price: number;
  ticketUrl: string | null;
  isFull: boolean;
  updatedAt: string;
  createdAt: string;
}

export function eventJsonLd(e: EventLike, opts: { url: string; origin: string; image: string | null; currency?: string }): Record<string, unknown> {
  const organizer = e.museum
    ? { '@type': 'Museum', name: e.museum.name, url: `${opts.origin}/museum/${encodeURIComponent(e.museum.slug)}` }
    : e.organizer
      ? { '@type': 'Person', name: `${e.organizer.firstName ?? ''} ${e.organizer.lastName ?? ''}`.trim() || e.organizer.username, url: `${opts.origin}/profile/${encodeURIComponent(e.organizer.slug || e.organizer.username)}` }
      : undefined;
  const amount = e.cost === 'free' && !e.price ? 0 : (e.costAmount ?? e.price ?? 0);
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    '@id': `${opts.url}#event`,
    name: e.title,
    description: e.description || undefined,
    url: opts.url,
    startDate: e.dateTime,
    endDate: e.endDateTime ?? undefined,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    image: opts.image ?? undefined,
    location: e.museum
      ? { '@type': 'Museum', name: e.museum.name, url: `${opts.origin}/museum/${encodeURIComponent(e.museum.slug)}`, address: { '@type': 'PostalAddress', streetAddress: e.location || undefined, addressLocality: e.museum.city ?? undefined, addressCountry: e.museum.country ?? undefined } }
      : { '@type': 'Place', name: e.location || 'Curio', address: e.location || undefined },
    organizer,
    isAccessibleForFree: e.cost === 'free' ? true : undefined,
    offers: {
      '@type': 'Offer',
      url: e.ticketUrl || opts.url,
      price: amount,
      priceCurrency: opts.currency ?? 'USD',
      availability: e.isFull ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
      validFrom: e.createdAt,
      ...(e.cost === 'donation' ? { description: 'Donation' } : {}),
    },
  };
  return JSON.parse(JSON.stringify(ld));
}
