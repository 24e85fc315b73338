/**
 * Discover's state in the URL query and the list request it makes (issues 20 and 21 #2). One
 * parser for the browser (web/components/DiscoverBrowse.tsx) and the server render of a shared
 * link (publicweb's /discover page): both read the same filters and ask `GET /api/museums` with
 * the same URL, so the answer the server primes is the key the page's SWR cache reads.
 */
import { CATEGORIES } from './catalog.ts';
import { KM_PER_MILE } from './distance.ts';

/** Accessibility facts offered as Discover filters (each must be "yes"). */
export const ACCESS_FILTERS = ['stepFreeEntrance', 'accessibleToilets', 'wheelchairLoan', 'quietHours'] as const;
export const SORTS = ['distance', 'open', 'name'] as const;
export type DiscoverSort = (typeof SORTS)[number];
export const DISCOVER_PAGE_SIZE = 24;
/** The radius choices around a near point, in the viewer's unit (the URL keeps the unit: `radius=10km`). */
export const RADIUS_CHOICES = [5, 10, 25, 50, 100] as const;
const NEAR_RE = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
const RADIUS_RE = /^\s*(\d{1,5}(?:\.\d{1,3})?)\s*(km|mi)\s*$/;

export interface DiscoverRadius {
  value: number;
  unit: 'km' | 'mi';
}

export interface DiscoverState {
  category: string;
  open: boolean;
  free: boolean;
  access: string[];
  near: { lat: number; lng: number } | null;
  /** the typed place the near point came from; empty for the browser's position */
  place: string;
  /** only museums within this distance of near (none without near) */
  radius: DiscoverRadius | null;
  sort: DiscoverSort;
  view: 'list' | 'map';
  page: number;
}

/** What `URLSearchParams` offers that the parser reads (the browser's and Node's both fit). */
interface Params {
  get(name: string): string | null;
}

/** `10km` / `5mi` → the radius, when it is a positive distance of at most 20,000 km. */
export function parseRadius(v: string | null): DiscoverRadius | null {
  const m = RADIUS_RE.exec(v ?? '');
  if (!m) return null;
  const value = Number(m[1]);
  const unit = m[2] as 'km' | 'mi';
  const miles = unit === 'km' ? value / KM_PER_MILE : value;
  return value > 0 && miles <= 12500 ? { value, unit } : null;
}

export const radiusParam = (r: DiscoverRadius) => `${r.value}${r.unit}`;

/** The Discover state from the URL query (unknown values are ignored, never an error). */
export function readDiscoverState(params: Params): DiscoverState {
  const m = NEAR_RE.exec(params.get('near') ?? '');
  const lat = m ? Number(m[1]) : NaN;
  const lng = m ? Number(m[2]) : NaN;
  const near = m && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
  const sortParam = params.get('sort') as DiscoverSort | null;
  const sort: DiscoverSort = sortParam && SORTS.includes(sortParam) && (sortParam !== 'distance' || near) ? sortParam : near ? 'distance' : 'name';
  return {
    category: (CATEGORIES as readonly string[]).includes(params.get('category') ?? '') ? params.get('category')! : '',
    open: params.get('open') === 'now',
    free: params.get('free') === 'now',
    access: (params.get('access') ?? '').split(',').filter((k) => (ACCESS_FILTERS as readonly string[]).includes(k)),
    near,
    place: near ? (params.get('place') ?? '').slice(0, 120) : '',
    radius: near ? parseRadius(params.get('radius')) : null,
    sort,
    view: params.get('view') === 'map' ? 'map' : 'list',
    page: Math.max(1, Math.min(10000, Number.parseInt(params.get('page') ?? '1', 10) || 1)),
  };
}

/** The list route's query for a state: the same filters the URL holds (the radius in the API's miles). */
export function museumsQuery(s: DiscoverState, q = ''): string {
  const p = new URLSearchParams();
  p.set('page', String(s.page));
  p.set('pageSize', String(DISCOVER_PAGE_SIZE));
  if (q) p.set('q', q);
  if (s.category) p.set('category', s.category);
  if (s.open) p.set('open', 'now');
  if (s.free) p.set('free', 'now');
  if (s.access.length) p.set('access', s.access.join(','));
  if (s.near) p.set('near', `${s.near.lat},${s.near.lng}`);
  if (s.near && s.radius) p.set('radius', String(Math.round((s.radius.unit === 'km' ? s.radius.value / KM_PER_MILE : s.radius.value) * 10000) / 10000));
  p.set('sort', s.sort);
  return `/api/museums?${p.toString()}`;
}
