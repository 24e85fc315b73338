/**
 * Small place helpers: slugs, the public form's categories, great-circle distance and a time zone
 * guess for museums created without one (from the country, and for countries spanning several
 * zones, from the coordinates).
 */
import { CATEGORIES, isCategory, type Category } from '../shared/catalog.ts';
import { isValidTimeZone } from '../shared/opening-hours.ts';

export const EARTH_RADIUS_MILES = 3959;

/** Great-circle distance in miles (haversine, earth radius 3959). */
export function distanceMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The same formula in SQL (for ORDER BY): parameters lat, lat, lng. */
export const DISTANCE_SQL =
  `(${EARTH_RADIUS_MILES} * 2 * asin(least(1, sqrt(power(sin(radians(museums.latitude - ?) / 2), 2) + cos(radians(?)) * cos(radians(museums.latitude)) * power(sin(radians(museums.longitude - ?) / 2), 2)))))`;

/** "Musée d'Orsay" → "musee-d-orsay". Never purely numeric (ids and slugs share a route). */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  if (!base) return 'museum';
  return /^\d+$/.test(base) ? `museum-${base}` : base;
}

/** Public create-form categories → the canonical directory category. */
export const PUBLIC_TO_DIRECTORY: Record<string, Category> = {
  art: 'Art Museums',
  history: 'History Museums',
  science: 'Science Museums',
  natural_history: 'Science Museums',
  technology: 'Science Museums',
  archaeology: 'History Museums',
  cultural: 'Anthropology & Ethnography Museums',
  specialty: 'Specialty Museums',
  other: 'Specialty Museums',
};

/** Accepts a directory category (any case) or a public one; null when unknown. */
export function canonicalCategory(v: string | null | undefined): Category | null {
  if (v == null) return null;
  const s = v.trim();
  if (!s) return null;
  if (isCategory(s)) return s;
  const ci = CATEGORIES.find((c) => c.toLowerCase() === s.toLowerCase());
  if (ci) return ci;
  return PUBLIC_TO_DIRECTORY[s.toLowerCase().replace(/[\s-]+/g, '_')] ?? null;
}

/** Directory category → the public form's category (auto-populate answers public ones). */
export function publicCategoryFromLabels(labels: string[]): string {
  const text = labels.join(' | ').toLowerCase();
  if (/natural history/.test(text)) return 'natural_history';
  if (/\bart\b|gallery|painting|sculpture/.test(text)) return 'art';
  if (/archaeolog/.test(text)) return 'archaeology';
  if (/technolog|transport|railway|aviation|computer|industr/.test(text)) return 'technology';
  if (/science|planetarium/.test(text)) return 'science';
  if (/ethnograph|anthropolog|cultur|folk/.test(text)) return 'cultural';
  if (/histor|war|military|memorial|heritage|house museum/.test(text)) return 'history';
  if (/museum/.test(text)) return 'specialty';
  return 'other';
}

// ---------------------------------------------------------------- time zones

const SINGLE_ZONE: Record<string, string> = {
  france: 'Europe/Paris', 'united kingdom': 'Europe/London', uk: 'Europe/London', england: 'Europe/London', scotland: 'Europe/London', wales: 'Europe/London',
  ireland: 'Europe/Dublin', spain: 'Europe/Madrid', portugal: 'Europe/Lisbon', italy: 'Europe/Rome', 'vatican city': 'Europe/Vatican', germany: 'Europe/Berlin',
  austria: 'Europe/Vienna', switzerland: 'Europe/Zurich', netherlands: 'Europe/Amsterdam', 'the netherlands': 'Europe/Amsterdam', belgium: 'Europe/Brussels',
  luxembourg: 'Europe/Luxembourg', denmark: 'Europe/Copenhagen', norway: 'Europe/Oslo', sweden: 'Europe/Stockholm', finland: 'Europe/Helsinki',
  iceland: 'Atlantic/Reykjavik', poland: 'Europe/Warsaw', 'czech republic': 'Europe/Prague', czechia: 'Europe/Prague', hungary: 'Europe/Budapest',
  greece: 'Europe/Athens', turkey: 'Europe/Istanbul', türkiye: 'Europe/Istanbul', egypt: 'Africa/Cairo', israel: 'Asia/Jerusalem', japan: 'Asia/Tokyo',
  'south korea': 'Asia/Seoul', korea: 'Asia/Seoul', china: 'Asia/Shanghai', taiwan: 'Asia/Taipei', 'hong kong': 'Asia/Hong_Kong', singapore: 'Asia/Singapore',
  india: 'Asia/Kolkata', 'united arab emirates': 'Asia/Dubai', uae: 'Asia/Dubai', qatar: 'Asia/Qatar', 'south africa': 'Africa/Johannesburg',
  kenya: 'Africa/Nairobi', nigeria: 'Africa/Lagos', morocco: 'Africa/Casablanca', 'new zealand': 'Pacific/Auckland', argentina: 'America/Argentina/Buenos_Aires',
  peru: 'America/Lima', colombia: 'America/Bogota', chile: 'America/Santiago', cuba: 'America/Havana', thailand: 'Asia/Bangkok', vietnam: 'Asia/Ho_Chi_Minh',
  philippines: 'Asia/Manila', malaysia: 'Asia/Kuala_Lumpur', croatia: 'Europe/Zagreb', romania: 'Europe/Bucharest', ukraine: 'Europe/Kyiv',
  estonia: 'Europe/Tallinn', latvia: 'Europe/Riga', lithuania: 'Europe/Vilnius', slovenia: 'Europe/Ljubljana', slovakia: 'Europe/Bratislava',
  serbia: 'Europe/Belgrade', bulgaria: 'Europe/Sofia', malta: 'Europe/Malta', cyprus: 'Asia/Nicosia', jordan: 'Asia/Amman', lebanon: 'Asia/Beirut',
  'saudi arabia': 'Asia/Riyadh', iran: 'Asia/Tehran', pakistan: 'Asia/Karachi', bangladesh: 'Asia/Dhaka', 'sri lanka': 'Asia/Colombo', nepal: 'Asia/Kathmandu',
};

function usZone(lat: number, lng: number): string {
  if (lat < 23 && lng < -154) return 'Pacific/Honolulu';
  if (lat > 51 && lng < -129) return 'America/Anchorage';
  if (lat >= 31 && lat <= 37 && lng >= -114.8 && lng <= -109) return 'America/Phoenix';
  if (lng >= -85.5 || (lng >= -87.6 && lat >= 41.7 && lat < 46)) return 'America/New_York'; // incl. Michigan
  if (lng >= -101.5) return 'America/Chicago';
  if (lng >= -114.5) return 'America/Denver';
  return 'America/Los_Angeles';
}

function caZone(lat: number, lng: number): string {
  if (lng >= -61) return 'America/Halifax';
  if (lng >= -90) return 'America/Toronto';
  if (lng >= -102) return 'America/Winnipeg';
  if (lng >= -120) return 'America/Edmonton';
  return 'America/Vancouver';
}

function auZone(lat: number, lng: number): string {
  if (lng < 129) return 'Australia/Perth';
  if (lng < 138) return lat > -26 ? 'Australia/Darwin' : 'Australia/Adelaide';
  if (lat > -29) return 'Australia/Brisbane';
  if (lat < -39.5) return 'Australia/Hobart';
  if (lat < -34 && lng < 141.5) return 'Australia/Adelaide';
  return lat < -37 && lng < 150 ? 'Australia/Melbourne' : 'Australia/Sydney';
}

/**
 * A best guess of a museum's IANA zone: countries with one zone by name; the United States,
 * Canada, Australia, Brazil, Mexico and Russia by coordinates; otherwise by longitude (a fixed
 * Etc/GMT offset); UTC without anything. Editors can always set `timezone` explicitly.
 */
export function guessTimeZone(country: string | null | undefined, lat: number | null | undefined, lng: number | null | undefined): string {
  const c = (country ?? '').trim().toLowerCase().replace(/^the\s+(?!netherlands)/, '');
  const has = typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng);
  if (SINGLE_ZONE[c]) return SINGLE_ZONE[c];
  if (['united states', 'united states of america', 'usa', 'us', 'u.s.a.', 'u.s.'].includes(c)) return has ? usZone(lat!, lng!) : 'America/New_York';
  if (c === 'canada') return has ? caZone(lat!, lng!) : 'America/Toronto';
  if (c === 'australia') return has ? auZone(lat!, lng!) : 'Australia/Sydney';
  if (c === 'brazil' || c === 'brasil') return has && lng! < -60 ? 'America/Manaus' : 'America/Sao_Paulo';
  if (c === 'mexico' || c === 'méxico') return has && lng! < -106 ? 'America/Tijuana' : 'America/Mexico_City';
  if (c === 'russia' || c === 'russian federation') {
    if (!has || lng! < 50) return 'Europe/Moscow';
    if (lng! < 70) return 'Asia/Yekaterinburg';
    if (lng! < 100) return 'Asia/Novosibirsk';
    if (lng! < 140) return 'Asia/Irkutsk';
    return 'Asia/Vladivostok';
  }
  if (has) {
    const offset = Math.round(lng! / 15);
    if (offset === 0) return 'UTC';
    const zone = `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`; // Etc signs are inverted
    return isValidTimeZone(zone) ? zone : 'UTC';
  }
  return 'UTC';
}
