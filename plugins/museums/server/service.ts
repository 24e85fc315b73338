/**
 * The museums domain: reading museums (with open-now, counters and the viewer's follow state),
 * writing them (validation shared by create, edit, suggestions and the admin), follows and
 * check-ins with exact counters, edit and new-museum suggestions, and search.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { imageInfoSql, toImageInfo } from '../../../core/images.ts';
import { likeEscape } from '../../../core/util.ts';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import { earnedBadgesFrom } from '../../badges/public.ts';
import { NotificationsService } from '../../notifications/public.ts';
import type {
  AdminMuseumQuery,
  EditSuggestion,
  Museum,
  MuseumInput,
  MuseumSuggestion,
  MuseumSummary,
  Page,
  SuggestionStatus,
} from '../public.ts';
import { isAmenityKey } from '../shared/catalog.ts';
import { isValidTimeZone, localDateTime, normalizeHours, openStatusOf } from '../shared/opening-hours.ts';
import { effectivePolicy, guessHolidayRegion, holidaysAround, isKnownHolidayRegion } from './holidays.ts';
import { freeStatusAt, normalizeAdmission } from '../shared/admission.ts';
import { isAccessKey, normalizeAccessibility, type AccessKey } from '../shared/accessibility.ts';
import { DEFAULT_VERIFY, verifyCheckIn, type UnverifiedReason, type VerifyOptions } from '../shared/verify.ts';
import { FACT_GROUPS, groupsOf, oldestGroup, type ConfirmationSource, type FactGroup, type Freshness } from '../shared/freshness.ts';
import { canonicalCategory, DISTANCE_SQL, EARTH_RADIUS_MILES, guessTimeZone, slugify } from './places.ts';
import { busyLevel, relativeToBusiest } from '../shared/busy.ts';
import { consensusChanges, correctionToChanges, type FactCorrection } from './corrections.ts';

type Db = Knex | Knex.Transaction;

export interface MuseumsOptions {
  recentCheckInDays: number;
  /** Verified check-ins before the best-time-to-visit histogram and "usually busy now" show (20). */
  busyMinCheckIns?: number;
  /** Check-in verification (shared/verify.ts); defaults DEFAULT_VERIFY. */
  verify?: VerifyOptions;
}

/** The reason of a suggestion made from visitors' "no" answers: how many, and their notes. */
function answersReason(visitors: number, group: string, notes: Array<string | null | undefined>): string {
  const words = notes.filter((n): n is string => !!n);
  return `${visitors} visitors say the ${group} facts are not right${words.length ? `: ${words.map((n) => `"${n}"`).join('; ')}` : ''}`.slice(0, 1000);
}

/** Field name in answers and inputs → column. */
const COLUMNS: Record<string, string> = {
  name: 'name',
  description: 'description',
  category: 'category',
  phone: 'phone',
  email: 'email',
  website: 'website',
  donateUrl: 'donate_url',
  address: 'address',
  address2: 'address2',
  city: 'city',
  state: 'state',
  zipCode: 'zip_code',
  country: 'country',
  latitude: 'latitude',
  longitude: 'longitude',
  timezone: 'timezone',
  featuredImage: 'featured_image',
  amenities: 'amenities',
  openingHours: 'opening_hours',
  admission: 'admission',
  accessibility: 'accessibility',
  isFeatured: 'is_featured',
  wikidataId: 'wikidata_id',
};
export const EDITABLE_FIELDS = Object.keys(COLUMNS).filter((k) => k !== 'isFeatured' && k !== 'wikidataId');
/** Fields that may not be blank once present (name always; the rest per the edit dialog). */
const NOT_BLANK: Record<string, string> = {
  name: 'Museum name is required',
  address: 'Address is required',
  city: 'City is required',
  country: 'Country is required',
};
const NULLABLE_TEXT = new Set(['phone', 'email', 'website', 'donateUrl', 'address2', 'state', 'zipCode', 'featuredImage', 'category']);

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? new Date(v).toISOString() : '');
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));
const jsonValue = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/** The json_agg of museum_fact_confirmations → every group, null when never confirmed. */
export function toFreshness(raw: unknown): Freshness {
  const out = Object.fromEntries(FACT_GROUPS.map((g) => [g, null])) as Freshness;
  const list = (jsonValue(raw) ?? []) as Array<{ g: FactGroup; at: string; s: ConfirmationSource }>;
  for (const x of Array.isArray(list) ? list : []) if (x && x.g in out) out[x.g] = { confirmedAt: iso(x.at), source: x.s };
  return out;
}

const DAY_INDEX: Record<string, number> = { monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6 };

/**
 * Best time to visit: verified check-ins of the last year at one museum (the `museums` row in
 * scope; one parameter: its id) by local ISO weekday (d, 1 = Monday) and hour (h).
 */
const BUSY_BUCKETS_SQL = `select extract(isodow from c.created_at at time zone coalesce(bm.timezone, 'UTC'))::int as d,
    extract(hour from c.created_at at time zone coalesce(bm.timezone, 'UTC'))::int as h, count(*)::int as n
  from museum_checkins c join museums bm on bm.id = c.museum_id
  where c.museum_id = ? and c.verified and c.created_at > now() - interval '365 days' group by 1, 2`;
/** This local hour's share of the busiest hour, over the buckets `b` of the museum `museums`. */
const BUSY_NOW_SQL = `coalesce((select b2.n::float8 from b b2 where b2.d = extract(isodow from now() at time zone coalesce(museums.timezone, 'UTC'))::int
    and b2.h = extract(hour from now() at time zone coalesce(museums.timezone, 'UTC'))::int), 0) / nullif((select max(b3.n) from b b3), 0)`;

export class MuseumsDomain {
  constructor(
    private knex: Knex,
    private ctx: PluginContext,
    private opts: MuseumsOptions,
  ) {}

  // ---------------------------------------------------------------- reading

  /** museums.* plus recent check-ins and (for a viewer) follow state and last check-in day. */
  selectMuseums(db: Db = this.knex, viewerId?: number) {
    const q = db('museums').select(
      'museums.*',
      db.raw(`(select count(*) from museum_checkins c where c.museum_id = museums.id and c.created_at > now() - (?::int * interval '1 day'))::int as recent_check_ins`, [this.opts.recentCheckInDays]),
      db.raw(`(select json_agg(json_build_object('g', fc.fact_group, 'at', fc.confirmed_at, 's', fc.source)) from museum_fact_confirmations fc where fc.museum_id = museums.id) as freshness`),
      // "usually quiet / busy now" on cards and the page: null below the histogram's minimum
      db.raw(`(with b as (${BUSY_BUCKETS_SQL.replace('c.museum_id = ?', 'c.museum_id = museums.id')}) select case when coalesce((select sum(n) from b), 0) < ? then null else ${BUSY_NOW_SQL} end) as busy_share`, [
        Math.max(1, this.opts.busyMinCheckIns ?? 20),
      ]),
      // the featured image's made widths and placeholder (cards and the page): no statement more
      db.raw('? as featured_image_info', [imageInfoSql(db as Knex, 'museums.featured_image')]),
    );
    if (viewerId) {
      q.select(
        db.raw('exists(select 1 from museum_follows f where f.museum_id = museums.id and f.user_id = ?) as is_following', [viewerId]),
        db.raw(`(select to_char(max(c.local_date), 'YYYY-MM-DD') from museum_checkins c where c.museum_id = museums.id and c.user_id = ?) as last_check_in_date`, [viewerId]),
      );
    }
    return q;
  }

  toMuseum(row: any, now = new Date()): Museum {
    const hours = row.opening_hours == null ? null : normalizeHours(jsonValue(row.opening_hours));
    const tz = row.timezone || 'UTC';
    // a rule without a country uses the one guessed from the address (issue 20)
    const policy = hours ? effectivePolicy(hours.publicHolidays, row) : null;
    const holidays = hours ? holidaysAround(policy, now, tz) : [];
    const guess = policy ?? (hours?.publicHolidays?.country ? null : guessHolidayRegion(row.country, row.state, row.latitude, row.longitude));
    const status = hours ? openStatusOf(hours, now, tz, holidays) : null;
    const admission = row.admission == null ? null : normalizeAdmission(jsonValue(row.admission));
    const free = freeStatusAt(admission, now, tz);
    const m: Museum = {
      id: row.id,
      slug: row.slug,
      name: row.name,
      description: row.description ?? '',
      category: row.category ?? null,
      phone: row.phone ?? null,
      email: row.email ?? null,
      website: row.website ?? null,
      donateUrl: row.donate_url ?? null,
      address: row.address ?? '',
      address2: row.address2 ?? null,
      city: row.city ?? '',
      state: row.state ?? null,
      zipCode: row.zip_code ?? null,
      country: row.country ?? '',
      latitude: row.latitude == null ? null : Number(row.latitude),
      longitude: row.longitude == null ? null : Number(row.longitude),
      timezone: tz,
      featuredImage: row.featured_image ?? null,
      ...('featured_image_info' in row ? { featuredImageInfo: toImageInfo(row.featured_image_info) } : {}),
      amenities: (jsonValue(row.amenities) ?? []) as string[],
      openingHours: hours,
      holidays,
      holidayRegion: guess ? { country: guess.country, ...(guess.region ? { region: guess.region } : {}), guessed: !hours?.publicHolidays?.country } : null,
      admission,
      accessibility: normalizeAccessibility(jsonValue(row.accessibility)),
      freshness: toFreshness(row.freshness),
      isFreeToday: free.freeToday,
      isFreeNow: free.freeNow,
      busyNow: row.busy_share == null ? null : busyLevel(Number(row.busy_share)),
      managerId: row.manager_id ?? null,
      rating: Number(row.rating ?? 0),
      totalReviews: row.total_reviews ?? 0,
      totalInsights: row.total_insights ?? 0,
      followerCount: row.follower_count ?? 0,
      checkInCount: row.check_in_count ?? 0,
      recentCheckInsCount: Number(row.recent_check_ins ?? 0),
      isVerified: Boolean(row.is_verified),
      isFeatured: Boolean(row.is_featured),
      isOpen: status?.isOpen ?? false,
      openStatus: status?.status ?? 'closed',
      wikidataId: row.wikidata_id ?? null,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
    if (row.is_following !== undefined) {
      m.isFollowing = Boolean(row.is_following);
      const today = localDateTime(now, tz);
      const todayStr = `${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`;
      m.hasCheckedInToday = row.last_check_in_date === todayStr;
    }
    if (row.distance !== undefined) m.distance = row.distance == null ? null : Math.round(Number(row.distance) * 10) / 10;
    return m;
  }

  toSummary(row: any): MuseumSummary {
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      city: row.city ?? '',
      country: row.country ?? '',
      featuredImage: row.featured_image ?? null,
      ...('featured_image_info' in row ? { featuredImageInfo: toImageInfo(row.featured_image_info) } : {}),
      category: row.category ?? null,
      managerId: row.manager_id ?? null,
      isVerified: Boolean(row.is_verified),
      timezone: row.timezone ?? 'UTC',
    };
  }

  /** id (digits) or slug. */
  async findRow(idOrSlug: number | string, db: Db = this.knex, viewerId?: number): Promise<any | undefined> {
    const s = String(idOrSlug).trim();
    if (/^\d+$/.test(s) && Number(s) <= 2147483647) {
      const byId = await this.selectMuseums(db, viewerId).where('museums.id', Number(s)).first();
      if (byId) return byId;
    }
    return this.selectMuseums(db, viewerId).where('museums.slug', s.toLowerCase()).first();
  }

  async get(idOrSlug: number | string, viewerId?: number): Promise<Museum> {
    const row = await this.findRow(idOrSlug, this.knex, viewerId);
    if (!row) throw new HttpError(404, 'Museum not found');
    return this.toMuseum(row);
  }

  async getMany(ids: number[], viewerId?: number): Promise<Museum[]> {
    const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i > 0))];
    if (!unique.length) return [];
    const rows = await this.selectMuseums(this.knex, viewerId).whereIn('museums.id', unique);
    const byId = new Map(rows.map((r: any) => [r.id, r]));
    const now = new Date();
    return unique.filter((i) => byId.has(i)).map((i) => this.toMuseum(byId.get(i), now));
  }

  async list(query: {
    page: number;
    pageSize: number;
    category?: string;
    q?: string;
    verified?: boolean;
    near?: { lat: number; lng: number };
    radius?: number;
    sort?: string;
    open?: 'now';
    free?: 'now' | 'today';
    /** accessibility facts that must be "yes" */
    access?: string;
    viewerId?: number;
  }): Promise<Page<Museum>> {
    const base = this.knex('museums');
    if (query.category) {
      const cats = query.category.split(',').map((c) => canonicalCategory(c) ?? c.trim()).filter(Boolean);
      base.whereIn('museums.category', cats);
    }
    if (query.q?.trim()) {
      const like = `%${likeEscape(query.q.trim())}%`;
      base.where((w) => w.whereILike('museums.name', like).orWhereILike('museums.city', like).orWhereILike('museums.country', like));
    }
    if (query.verified !== undefined) base.where('museums.is_verified', query.verified);
    const near = query.near;
    if (near && query.radius) {
      // a bounding box first (plain range tests on the indexed latitude/longitude), then the exact
      // great circle: the box holds the whole disc (longitude half-width asin(sin r / cos lat))
      const r = query.radius / EARTH_RADIUS_MILES;
      const deg = 180 / Math.PI;
      const dLat = r * deg + 1e-6;
      base.whereNotNull('museums.latitude').whereBetween('museums.latitude', [near.lat - dLat, near.lat + dLat]);
      const cosLat = Math.cos(near.lat / deg);
      if (Math.sin(r) < cosLat && Math.abs(near.lat) + dLat < 90) {
        const dLng = Math.asin(Math.sin(r) / cosLat) * deg + 1e-6;
        const lo = near.lng - dLng;
        const hi = near.lng + dLng;
        // a box crossing the antimeridian wraps around
        if (lo < -180) base.where((w) => w.where('museums.longitude', '>=', lo + 360).orWhere('museums.longitude', '<=', hi));
        else if (hi > 180) base.where((w) => w.where('museums.longitude', '>=', lo).orWhere('museums.longitude', '<=', hi - 360));
        else base.whereBetween('museums.longitude', [lo, hi]);
      }
      base.whereRaw(`${DISTANCE_SQL} <= ?`, [near.lat, near.lat, near.lng, query.radius]);
    }
    if (query.access) {
      const keys = [...new Set(query.access.split(',').map((k) => k.trim()).filter(Boolean))];
      const bad = keys.filter((k) => !isAccessKey(k));
      if (bad.length) throw new HttpError(400, `Unknown accessibility fact: ${bad.join(', ')}`);
      // one jsonb containment test ({"stepFreeEntrance":{"value":"yes"},…}), served by the GIN index
      const wanted = Object.fromEntries((keys as AccessKey[]).map((k) => [k, { value: 'yes' }]));
      base.whereRaw('museums.accessibility @> ?::jsonb', [JSON.stringify(wanted)]);
    }
    const sort = query.sort ?? (near ? 'distance' : 'name');
    // Open now and free now depend on each museum's zone, closures, public holidays and free-entry
    // rules: decided in code (the same functions as the answers' isOpen / isFreeNow) in one pass
    // over the few columns of the museums every SQL filter above keeps; the result goes back into
    // the statement as a list of ids. One extra statement however many of them are combined.
    let openIds: number[] | null = null;
    if (query.open === 'now' || query.free || sort === 'open') {
      const now = new Date();
      // address columns: a museum without a holiday country has it guessed from them (effectivePolicy)
      const scan = base.clone().select('museums.id', 'museums.timezone', 'museums.opening_hours', 'museums.admission', 'museums.country', 'museums.state', 'museums.latitude', 'museums.longitude');
      if (query.open === 'now') scan.whereNotNull('museums.opening_hours');
      if (query.free) scan.whereNotNull('museums.admission');
      const candidates = await scan;
      const keep: number[] = [];
      openIds = [];
      for (const r of candidates as any[]) {
        const tz = r.timezone || 'UTC';
        let isOpen = false;
        if (r.opening_hours != null) {
          const h = normalizeHours(jsonValue(r.opening_hours));
          isOpen = openStatusOf(h, now, tz, holidaysAround(effectivePolicy(h.publicHolidays, r), now, tz)).isOpen;
        }
        if (isOpen) openIds.push(r.id);
        if (query.open === 'now' && !isOpen) continue;
        if (query.free) {
          const f = freeStatusAt(normalizeAdmission(jsonValue(r.admission)), now, tz);
          if (!(query.free === 'now' ? f.freeNow : f.freeToday)) continue;
        }
        keep.push(r.id);
      }
      if (query.open === 'now' || query.free) base.whereIn('museums.id', keep);
    }
    const [{ total }] = await base.clone().count<{ total: number }[]>({ total: '*' });
    const rowsQ = this.selectMuseums(this.knex, query.viewerId).from(base.clone().select('museums.*').as('museums'));
    if (near) {
      rowsQ.select(this.knex.raw(`case when museums.latitude is null or museums.longitude is null then null else ${DISTANCE_SQL} end as distance`, [near.lat, near.lat, near.lng]));
    }
    if (sort === 'open') {
      // open now first, then the nearest (with near) or by name
      if (openIds!.length) rowsQ.orderByRaw('(museums.id = any(?::int[])) desc', [openIds]);
      if (near) rowsQ.orderByRaw('distance asc nulls last');
    } else if (sort === 'distance' && near) rowsQ.orderByRaw('distance asc nulls last');
    else if (sort === 'popular') rowsQ.orderBy([{ column: 'museums.follower_count', order: 'desc' }, { column: 'museums.total_insights', order: 'desc' }]);
    else if (sort === 'recent') rowsQ.orderBy('museums.created_at', 'desc');
    rowsQ.orderBy('museums.name', 'asc').orderBy('museums.id', 'asc');
    const rows = await rowsQ.limit(query.pageSize).offset((query.page - 1) * query.pageSize);
    const now = new Date();
    return { items: rows.map((r: any) => this.toMuseum(r, now)), total: Number(total), page: query.page, pageSize: query.pageSize };
  }

  async featured(limit: number, viewerId?: number): Promise<Museum[]> {
    const rows = await this.selectMuseums(this.knex, viewerId)
      .orderBy([
        { column: 'museums.is_featured', order: 'desc' },
        { column: 'museums.is_verified', order: 'desc' },
        { column: 'museums.total_insights', order: 'desc' },
        { column: 'museums.follower_count', order: 'desc' },
        { column: 'museums.rating', order: 'desc' },
        { column: 'museums.id', order: 'asc' },
      ])
      .limit(limit);
    const now = new Date();
    return rows.map((r: any) => this.toMuseum(r, now));
  }

  /**
   * Typo-tolerant search on name (and city / country): substring matches first, then pg_trgm
   * similarity ("Metropolitn", "Louvere" still find their museum).
   */
  async search(q: string, limit: number, viewerId?: number): Promise<Museum[]> {
    const st = this.searchStatement(q, limit, viewerId);
    return st ? st.answer(await st.query) : [];
  }

  /** search's statement, not run, and its answer from the rows (GET /api/search reads it with the other kinds'). */
  searchStatement(q: string, limit: number, viewerId?: number): { query: Knex.QueryBuilder; answer: (rows: any[]) => Museum[] } | null {
    const term = q.trim().slice(0, 200);
    if (term.length <= 2) return null;
    const like = `%${likeEscape(term)}%`;
    const prefix = `${likeEscape(term)}%`;
    const query = this.selectMuseums(this.knex, viewerId)
      .select(
        this.knex.raw(
          `greatest(similarity(museums.name, ?), word_similarity(?, museums.name), similarity(museums.city, ?)) + case when museums.name ilike ? then 1 when museums.name ilike ? then 0.5 when museums.city ilike ? or museums.country ilike ? then 0.3 else 0 end as score`,
          [term, term, term, prefix, like, like, like],
        ),
      )
      // name, city or country containing the text, or a name or city close to it (typos), found
      // through the trigram indexes (migration 20261206000100_museum_search_by_index)
      .whereRaw('museums.id in (select museums_matching(?, ?))', [term, like])
      .orderBy([
        { column: 'score', order: 'desc' },
        { column: 'museums.follower_count', order: 'desc' },
        { column: 'museums.id', order: 'asc' },
      ])
      .limit(limit);
    const answer = (rows: any[]) => {
      const now = new Date();
      return rows.map((r: any) => this.toMuseum(r, now));
    };
    return { query, answer };
  }

  // ---------------------------------------------------------------- writing

  /**
   * Checks and normalizes museum fields for storage: trims text, blank optional text → null,
   * category → canonical directory category, time zone checked, hours → structured form.
   * Returns field → value (answer field names), only for the fields given.
   */
  normalizeInput(input: Record<string, unknown>, opts: { requireForEdit?: boolean } = {}): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const errors: Array<{ path: string; message: string }> = [];
    for (const [k, raw] of Object.entries(input)) {
      if (!(k in COLUMNS)) continue;
      let v: unknown = raw;
      if (typeof v === 'string') v = v.trim();
      if (k in NOT_BLANK) {
        if (typeof v !== 'string' || !v) errors.push({ path: `/${k}`, message: NOT_BLANK[k] });
      } else if (opts.requireForEdit && (k === 'state' || k === 'zipCode' || k === 'category') && (v == null || v === '')) {
        errors.push({ path: `/${k}`, message: k === 'state' ? 'State is required' : k === 'zipCode' ? 'Zip code is required' : 'Category is required' });
      }
      if (k === 'description') v = typeof v === 'string' ? v : '';
      if (NULLABLE_TEXT.has(k) && (v === '' || v === undefined)) v = null;
      if (k === 'category' && v != null) {
        const c = canonicalCategory(String(v));
        if (!c) errors.push({ path: '/category', message: 'Please choose a category from the list' });
        v = c;
      }
      if (k === 'timezone') {
        if (v === null || v === '') continue; // guessed later
        if (!isValidTimeZone(v)) errors.push({ path: '/timezone', message: 'Unknown time zone' });
      }
      if ((k === 'latitude' || k === 'longitude') && v !== null && v !== undefined) {
        const n = Number(v);
        const lim = k === 'latitude' ? 90 : 180;
        if (!Number.isFinite(n) || Math.abs(n) > lim) errors.push({ path: `/${k}`, message: k === 'latitude' ? 'Latitude must be between -90 and 90' : 'Longitude must be between -180 and 180' });
        v = n;
      }
      if (k === 'amenities') {
        const list = Array.isArray(v) ? v : [];
        const bad = list.filter((a) => !isAmenityKey(a));
        if (bad.length) errors.push({ path: '/amenities', message: `Unknown amenity: ${bad.join(', ')}` });
        v = [...new Set(list.filter(isAmenityKey))];
      }
      if (k === 'accessibility') v = normalizeAccessibility(v);
      if (k === 'admission' && v != null) {
        v = normalizeAdmission(v);
        if (!v) errors.push({ path: '/admission', message: 'Admission needs a three-letter currency code' });
      }
      if (k === 'openingHours') {
        v = v == null ? null : normalizeHours(v);
        const policy = (v as { publicHolidays?: { country: string; region?: string } | null } | null)?.publicHolidays;
        if (policy && policy.country && !isKnownHolidayRegion(policy.country, policy.region)) {
          errors.push({ path: '/openingHours/publicHolidays', message: 'Unknown country or region for public holidays' });
        }
      }
      out[k] = v;
    }
    if (errors.length) throw new HttpError(400, [...new Set(errors.map((e) => e.message))].join(', '), { errors });
    return out;
  }

  private toColumns(fields: Record<string, unknown>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      const col = COLUMNS[k];
      if (!col) continue;
      if (k === 'accessibility') {
        row[col] = JSON.stringify(v ?? {});
        continue;
      }
      row[col] = k === 'amenities' || k === 'openingHours' || k === 'admission' ? (v == null ? (k === 'amenities' ? '[]' : null) : JSON.stringify(v)) : v;
    }
    return row;
  }

  /** The stored value of a field, in the same normalized shape normalizeInput gives. */
  private currentValue(row: any, field: string): unknown {
    const m = this.toMuseum(row);
    const v = (m as any)[field];
    return v === undefined ? null : v;
  }

  private same(a: unknown, b: unknown): boolean {
    if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
    if (Array.isArray(a) && Array.isArray(b) && a.every((x) => typeof x === 'string') && b.every((x) => typeof x === 'string')) {
      return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
    }
    return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  }

  /** Only the fields whose normalized value differs from the stored one. */
  diff(row: any, fields: Record<string, unknown>): Record<string, unknown> {
    const changes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) if (!this.same(this.currentValue(row, k), v)) changes[k] = v;
    return changes;
  }

  private async uniqueSlug(db: Db, name: string, city?: string | null): Promise<string> {
    const base = slugify(name);
    const taken = new Set<string>((await db('museums').where('slug', base).orWhereLike('slug', `${likeEscape(base)}-%`).pluck('slug')) as string[]);
    if (!taken.has(base)) return base;
    if (city) {
      const withCity = slugify(`${name} ${city}`);
      if (!taken.has(withCity)) return withCity;
    }
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  }

  /**
   * Inserts a museum (fields already normalized) inside the caller's transaction. The slug comes
   * from the name (then name + city, then a number) and is retried under a savepoint when a
   * concurrent insert took it first.
   */
  async insert(trx: Knex.Transaction, fields: Record<string, unknown>, extra: { createdBy: number | null; isVerified?: boolean }): Promise<number> {
    const tz = (fields.timezone as string | undefined) || guessTimeZone(fields.country as string, fields.latitude as number, fields.longitude as number);
    for (let attempt = 0; ; attempt++) {
      const slug = await this.uniqueSlug(trx, String(fields.name), fields.city as string);
      const row = { ...this.toColumns({ ...fields, timezone: tz }), slug, created_by: extra.createdBy, is_verified: extra.isVerified ?? false };
      try {
        const inserted = await trx.transaction((sp) => sp('museums').insert(row).returning('id'));
        return (inserted[0] as any).id ?? inserted[0];
      } catch (e: any) {
        const which = `${e?.constraint ?? ''} ${e?.detail ?? ''} ${e?.message ?? ''}`;
        if (e?.code === '23505' && /museums_slug/.test(which) && attempt < 5) continue;
        if (e?.code === '23505' && /museums_name_city/.test(which)) throw new HttpError(409, `A museum named ${fields.name} already exists in ${fields.city}`);
        if (e?.code === '23505' && /wikidata/.test(which)) throw new HttpError(409, 'A museum with this Wikidata item already exists');
        throw e;
      }
    }
  }

  private async assertNoDuplicate(db: Db, name: string, city: string): Promise<void> {
    const dup = await db('museums').whereRaw('lower(name) = lower(?)', [name.trim()]).whereRaw('lower(city) = lower(?)', [city.trim()]).first('id', 'slug');
    if (dup) throw new HttpError(409, `A museum named ${name.trim()} already exists in ${city.trim()}`);
  }

  /** POST /api/museums and the admin's create. */
  async create(input: Record<string, unknown>, userId: number | null, opts: { isVerified?: boolean } = {}): Promise<Museum> {
    for (const k of ['name', 'address', 'city', 'country']) if (!(k in input)) input[k] = '';
    const fields = this.normalizeInput(input);
    if (fields.latitude == null || fields.longitude == null) {
      // both or neither
      if (fields.latitude != null || fields.longitude != null) fields.latitude = fields.longitude = null;
    }
    const id = await this.knex.transaction(async (trx) => {
      await this.assertNoDuplicate(trx, String(fields.name), String(fields.city));
      return this.insert(trx, fields, { createdBy: userId, isVerified: opts.isVerified });
    });
    await this.ctx.events.emit('museums.museum.created', { museumId: id, userId });
    return this.get(id, userId ?? undefined);
  }

  /** Applies normalized fields; answers what changed (nothing written when nothing differs). */
  async applyChanges(db: Db, museumId: number, fields: Record<string, unknown>, confirm?: { source: ConfirmationSource; userId: number | null }): Promise<Record<string, unknown>> {
    const row = await db('museums').where({ id: museumId }).forUpdate().first();
    if (!row) throw new HttpError(404, 'Museum not found');
    const changes = this.diff(row, fields);
    // A manager's, an admin's or an approved suggestion's save confirms the fact groups it covers,
    // changed or re-saved as they were.
    if (confirm) await this.confirmGroups(db, museumId, groupsOf(Object.keys(fields)), confirm.source, confirm.userId);
    if (!Object.keys(changes).length) return {};
    if (('name' in changes || 'city' in changes) && (await db('museums').whereNot({ id: museumId }).whereRaw('lower(name) = lower(?)', [String(changes.name ?? row.name)]).whereRaw('lower(city) = lower(?)', [String(changes.city ?? row.city)]).first('id'))) {
      throw new HttpError(409, `A museum named ${changes.name ?? row.name} already exists in ${changes.city ?? row.city}`);
    }
    await db('museums').where({ id: museumId }).update({ ...this.toColumns(changes), updated_at: db.fn.now() });
    return changes;
  }

  /** Marks fact groups confirmed now (one upsert per group; the latest confirmation wins). */
  async confirmGroups(db: Db, museumId: number, groups: FactGroup[], source: ConfirmationSource, userId: number | null): Promise<void> {
    for (const g of groups) {
      await db('museum_fact_confirmations')
        .insert({ museum_id: museumId, fact_group: g, source, confirmed_by: userId, confirmed_at: db.fn.now() })
        .onConflict(['museum_id', 'fact_group'])
        .merge({ source, confirmed_by: userId, confirmed_at: db.fn.now() });
    }
  }

  async update(museumId: number, input: Record<string, unknown>, userId: number | null, opts: { requireForEdit?: boolean; source?: ConfirmationSource } = {}): Promise<Museum> {
    const fields = this.normalizeInput(input, opts);
    const changes = await this.knex.transaction((trx) => this.applyChanges(trx, museumId, fields, { source: opts.source ?? 'admin', userId }));
    if (Object.keys(changes).length) await this.ctx.events.emit('museums.museum.updated', { museumId, userId, changes });
    return this.get(museumId, userId ?? undefined);
  }

  async canManage(user: { id: number; role: string } | undefined, museumId: number): Promise<boolean> {
    if (!user) return false;
    if (user.role === 'Admin') return true;
    if (user.role !== 'Museum Manager') return false;
    const row = await this.knex('museums').where({ id: museumId }).first('manager_id');
    return Boolean(row && row.manager_id === user.id);
  }

  // ---------------------------------------------------------------- follows and check-ins

  /**
   * Toggles `userId` following `museumId`, linearizably: the museum row is locked first (FOR UPDATE),
   * so toggles of one museum, even a double click of one member, run one after the other — each sees
   * the follow row the previous one left, and two toggles cancel out. The counter moves by what
   * actually changed. The lock also stops a concurrent deletion of the museum; every statement goes
   * through `trx`, so PGlite's single connection works too.
   */
  /** Follows unless already following (the import of follows, issue 24); answers whether it followed. */
  async followIfNot(userId: number, museumId: number): Promise<boolean> {
    const changed = await this.knex.transaction(async (trx) => {
      const museum = await trx('museums').where({ id: museumId }).forUpdate().first('id');
      if (!museum) return false;
      const added = await trx('museum_follows').insert({ user_id: userId, museum_id: museumId }).onConflict(['user_id', 'museum_id']).ignore().returning('museum_id');
      if (!added.length) return false;
      await trx('museums').where({ id: museumId }).update({ follower_count: trx.raw('follower_count + 1') });
      return true;
    });
    if (changed) await this.ctx.events.emit('museums.museum.followed', { userId, museumId, following: true });
    return changed;
  }

  async toggleFollow(userId: number, museumId: number): Promise<{ following: boolean; followerCount: number }> {
    const result = await this.knex.transaction(async (trx) => {
      const museum = await trx('museums').where({ id: museumId }).forUpdate().first('id', 'follower_count');
      if (!museum) throw new HttpError(404, 'Museum not found');
      // (counted from returning: PGlite's driver does not answer a row count for deletes)
      const removed = await trx('museum_follows').where({ user_id: userId, museum_id: museumId }).del().returning('museum_id');
      let following: boolean;
      let delta: number;
      if (removed.length > 0) {
        following = false;
        delta = -removed.length;
      } else {
        // Under the lock nobody else can insert this row; on-conflict stays as a guard only.
        const added = await trx('museum_follows')
          .insert({ user_id: userId, museum_id: museumId })
          .onConflict(['user_id', 'museum_id'])
          .ignore()
          .returning('museum_id')
          .catch((err: any) => {
            // the member's account was deleted in the same instant
            if (err?.code === '23503') throw new HttpError(401, 'Authentication required');
            throw err;
          });
        following = true;
        delta = added.length;
      }
      if (delta === 0) return { following, followerCount: museum.follower_count as number, changed: false };
      const [row] = await trx('museums')
        .where({ id: museumId })
        .update({ follower_count: trx.raw('greatest(0, follower_count + ?)', [delta]) })
        .returning('follower_count');
      return { following, followerCount: row.follower_count as number, changed: true };
    });
    if (result.changed) await this.ctx.events.emit('museums.museum.followed', { userId, museumId, following: result.following });
    return { following: result.following, followerCount: result.followerCount };
  }

  /**
   * A check-in, with the browser's position when it gave one. Verified when near the museum and
   * not an impossible journey from the member's previous verified check-in (shared/verify.ts);
   * unverified ones are kept as visits but the event says verified: false (no badges, no crowd
   * data). The member's check-ins are serialized with a transaction-scoped advisory lock, so two
   * check-ins sent at once on two continents cannot both pass the speed check.
   */
  async checkIn(userId: number, museumId: number, position: { latitude: number; longitude: number; accuracy: number } | null = null) {
    const now = new Date();
    const opts = this.opts.verify ?? DEFAULT_VERIFY;
    // Four statements (issue 18: was eight): the lock with the museum, then the speed check against
    // the previous verified check-in (read after the lock, so in a fresh snapshot), the insert, the
    // museum's counter and the recent count in one statement.
    const stored = await this.knex.transaction(async (trx) => {
      const m = (
        await trx.raw('select pg_advisory_xact_lock(?, ?) as locked, m.id, m.timezone, m.latitude, m.longitude from museums m where m.id = ?', [20200, userId, museumId])
      ).rows[0];
      if (!m) throw new HttpError(404, 'Museum not found');
      const d = localDateTime(now, m.timezone || 'UTC');
      const localDate = `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
      const museumPos = m.latitude == null || m.longitude == null ? null : { latitude: Number(m.latitude), longitude: Number(m.longitude) };
      // Near or not (no previous check-in needed); the speed from the previous one is the same rule
      // as verifyCheckIn's, stated in SQL so that it reads the previous check-in in this statement.
      const near = verifyCheckIn({ position, museum: museumPos, previous: null, at: now, opts });
      const hop = `2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(? - prev.lat) / 2), 2) + cos(radians(prev.lat)) * cos(radians(?)) * power(sin(radians(? - prev.lng) / 2), 2))))`;
      const r = await trx.raw(
        `with prev as (
           select pm.latitude::float8 as lat, pm.longitude::float8 as lng, c.created_at
           from museum_checkins c join museums pm on pm.id = c.museum_id
           where c.user_id = ? and c.verified and pm.latitude is not null
           order by c.created_at desc limit 1
         ), v as (
           select ?::boolean and coalesce((
             select hop <= 2 * ?::float8 or hop / 1000 / (greatest(1, extract(epoch from (?::timestamptz - prev.created_at))) / 3600) <= ?::float8
             from (select ${hop} as hop, prev.created_at from prev) prev
           ), true) as ok
         ), ins as (
           insert into museum_checkins (user_id, museum_id, local_date, verified, unverified_reason, latitude, longitude, accuracy, distance_m)
           select ?::int, ?::int, ?::date, v.ok, case when v.ok then null when ?::boolean then 'impossible_journey' else ?::text end, ?::float8, ?::float8, ?::float8, ?::float8 from v
           on conflict (user_id, museum_id, local_date) do nothing
           returning id, created_at, verified, unverified_reason
         ), upd as (
           update museums set check_in_count = check_in_count + 1 where id = ? and exists (select 1 from ins) returning check_in_count
         )
         select ins.*, (select check_in_count from upd) as check_in_count,
           (select count(*) from museum_checkins where museum_id = ? and created_at > now() - (?::int * interval '1 day'))::int + 1 as recent
         from ins`,
        [
          userId,
          near.verified, opts.radiusM, now.toISOString(), opts.maxSpeedKmh,
          museumPos?.latitude ?? 0, museumPos?.latitude ?? 0, museumPos?.longitude ?? 0,
          userId, museumId, localDate, near.verified, near.reason, position?.latitude ?? null, position?.longitude ?? null, position?.accuracy ?? null, near.distanceM,
          museumId,
          museumId, this.opts.recentCheckInDays,
        ],
      );
      const row = r.rows[0];
      if (!row) throw new HttpError(409, 'You have already checked in at this museum today. Come back tomorrow!');
      return {
        id: row.id as number,
        createdAt: iso(row.created_at),
        localDate,
        checkInCount: Number(row.check_in_count),
        recent: Number(row.recent),
        verified: row.verified as boolean,
        reason: (row.unverified_reason ?? null) as UnverifiedReason | null,
        distanceM: near.distanceM,
      };
    });
    const results = await this.ctx.events.emit('museums.museum.checkedIn', { userId, museumId, checkInId: stored.id, verified: stored.verified, at: stored.createdAt });
    return {
      checkIn: { id: stored.id, museumId, userId, localDate: stored.localDate, createdAt: stored.createdAt, verified: stored.verified, unverifiedReason: stored.reason, distanceMeters: stored.distanceM },
      checkInCount: stored.checkInCount,
      recentCheckInsCount: stored.recent,
      badges: earnedBadgesFrom(results),
    };
  }

  /**
   * Best time to visit (issue 20): verified check-ins of the last year by local weekday and hour
   * at the museum (its zone, so DST moves nothing), shown only from `minimum` check-ins on, and
   * "now" as quiet / average / busy relative to the museum's own busiest hour.
   */
  async busyTimes(museumId: number, minimum: number) {
    const m = await this.knex('museums').where({ id: museumId }).first('id');
    if (!m) throw new HttpError(404, 'Museum not found');
    // grouped in SQL at the museum's zone (PostgreSQL's time zone rules: DST moves nothing)
    const r = await this.knex.raw(
      `with b as (${BUSY_BUCKETS_SQL})
       select b.d, b.h, b.n, (select sum(n) from b)::int as total, ${BUSY_NOW_SQL} as now_share
       from museums left join b on true where museums.id = ?`,
      [museumId, museumId],
    );
    const rows = r.rows as Array<{ d: number | null; h: number | null; n: number | null; total: number | null; now_share: number | null }>;
    const total = Number(rows[0]?.total ?? 0);
    if (total < Math.max(1, minimum)) return { total, minimum, histogram: null, relative: null, now: null };
    const histogram = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    for (const x of rows) if (x.d != null && x.h != null) histogram[Number(x.d) - 1][Number(x.h)] = Number(x.n);
    return { total, minimum, histogram, relative: relativeToBusiest(histogram), now: busyLevel(Number(rows[0].now_share ?? 0)) };
  }

  async adjustInsightCount(museumId: number, delta: number): Promise<void> {
    if (!Number.isInteger(delta) || delta === 0 || !(museumId > 0)) return;
    await this.knex('museums').where({ id: museumId }).update({ total_insights: this.knex.raw('greatest(0, total_insights + ?)', [delta]) });
  }

  /**
   * In the transaction that removes a user row (accounts' UserData.onErase): their follows and
   * check-ins leave the counters too, exactly even when the member follows or checks in at that
   * instant. Museums are locked first (in id order, as toggleFollow does), then the user row: from
   * then on no follow or check-in of theirs can be inserted (the foreign-key check waits, then
   * fails), and one committed just before is read below and counted out.
   */
  async forgetUser(userId: number, e: { trx: Knex.Transaction; lockUser(): Promise<void> }): Promise<void> {
    const { trx } = e;
    const lockMuseums = (ids?: number[]) =>
      trx.raw(
        `select id from museums where id in (select museum_id from museum_follows where user_id = ? union select museum_id from museum_checkins where user_id = ?)
           ${ids && ids.length ? `and id not in (${ids.map(() => '?').join(', ')})` : ''} order by id for update`,
        [userId, userId, ...(ids ?? [])],
      );
    const first: any = await lockMuseums();
    await e.lockUser();
    // a follow committed between the two locks is on a museum not locked yet: nobody holds it now
    await lockMuseums(first.rows.map((r: any) => r.id));
    const follows = await trx('museum_follows').where({ user_id: userId }).del().returning('museum_id');
    for (const f of follows) await trx('museums').where({ id: f.museum_id }).update({ follower_count: trx.raw('greatest(0, follower_count - 1)') });
    const checkins = await trx('museum_checkins').where({ user_id: userId }).del().returning('museum_id');
    const per = new Map<number, number>();
    for (const c of checkins) per.set(c.museum_id, (per.get(c.museum_id) ?? 0) + 1);
    for (const [mid, n] of per) await trx('museums').where({ id: mid }).update({ check_in_count: trx.raw('greatest(0, check_in_count - ?)', [n]) });
    await this.forgetFactAnswers(trx, userId);
    // suggestions not yet reviewed go; reviewed ones stay as the museum's history, without their author (user_id set null)
    await trx('museum_edit_suggestions').where({ user_id: userId, status: 'pending' }).del();
    await trx('museum_suggestions').where({ user_id: userId, status: 'pending' }).del();
  }

  /**
   * Erasure of a member's "Still right?" answers (their museums are locked by forgetUser: an answer
   * needs a check-in there). The answers go. A suggestion made from several visitors' answers is
   * theirs too: it stays, its reason rebuilt without the member's words (the number of visitors it
   * rests on kept), and a pending one the member happened to make passes to the latest other
   * visitor behind it (who is told of its review). One resting on the member's answers alone goes
   * when pending and, reviewed, stays with the museum's history without their words or name.
   */
  private async forgetFactAnswers(trx: Knex.Transaction, userId: number): Promise<void> {
    const fromAnswers = trx('museum_fact_answers').whereNotNull('suggestion_id').select('suggestion_id');
    const ids = new Set<number>([
      ...((await trx('museum_fact_answers').where({ user_id: userId }).whereNotNull('suggestion_id').pluck('suggestion_id')) as number[]),
      ...((await trx('museum_edit_suggestions').where({ user_id: userId }).whereIn('id', fromAnswers).pluck('id')) as number[]),
    ]);
    for (const id of [...ids].sort((a, b) => a - b)) {
      const s = await trx('museum_edit_suggestions').where({ id }).first('id', 'user_id', 'status');
      if (!s) continue;
      const answers = await trx('museum_fact_answers').where({ suggestion_id: id }).orderBy('id').select('user_id', 'fact_group', 'correction');
      const others = answers.filter((a: any) => a.user_id !== userId);
      if (!others.length && s.status === 'pending') {
        await trx('museum_edit_suggestions').where({ id }).del();
        continue;
      }
      const visitors = new Set(answers.map((a: any) => a.user_id)).size;
      const patch: Record<string, unknown> = { reason: answersReason(visitors, answers[0].fact_group, others.map((a: any) => a.correction)) };
      if (s.user_id === userId) patch.user_id = s.status === 'pending' ? others[others.length - 1].user_id : null;
      await trx('museum_edit_suggestions').where({ id }).update(patch);
    }
    await trx('museum_fact_answers').where({ user_id: userId }).del();
  }

  // ---------------------------------------------------------------- "still right?" after a check-in

  /** The viewer's check-in day at the museum today (local date), or null. */
  private async checkedInToday(db: Db, userId: number, museumId: number): Promise<{ localDate: string } | null> {
    const m = await db('museums').where({ id: museumId }).first('timezone');
    if (!m) throw new HttpError(404, 'Museum not found');
    const d = localDateTime(new Date(), m.timezone || 'UTC');
    const localDate = `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
    // only a verified visit (at the museum, issue 20) may confirm or dispute its facts
    const c = await db('museum_checkins').where({ user_id: userId, museum_id: museumId, local_date: localDate, verified: true }).first('id');
    return c ? { localDate } : null;
  }

  /** After a check-in today: the oldest fact group the member has not answered today, else null. */
  async factQuestion(userId: number, museumId: number): Promise<{ group: FactGroup | null }> {
    const day = await this.checkedInToday(this.knex, userId, museumId);
    if (!day) return { group: null };
    const answered = await this.knex('museum_fact_answers').where({ user_id: userId, museum_id: museumId, local_date: day.localDate }).pluck('fact_group');
    if (answered.length) return { group: null }; // one quick question per visit
    const row = await this.findRow(museumId);
    return { group: oldestGroup(toFreshness(row.freshness)) };
  }

  /**
   * A member's answer. Yes: the group is confirmed by visitors now. No: recorded with the
   * correction; once two or more members disagree since the group's last confirmation (and after
   * the last suggestion made from answers), one suggestion goes to the manager/admin queue. The
   * museum row is locked for the count-then-insert, so concurrent answers make exactly one.
   */
  async answerFactQuestion(
    userId: number,
    museumId: number,
    group: FactGroup,
    agrees: boolean,
    correction: string | null | undefined,
    change?: FactCorrection | null,
  ): Promise<{ group: FactGroup; agrees: boolean; freshness: Freshness; suggestionId: number | null }> {
    const text = typeof correction === 'string' && correction.trim() ? correction.trim().slice(0, 1000) : null;
    if (agrees && change) throw new HttpError(400, 'A correction goes with a no');
    const helped: number[] = [];
    const suggestionId = await this.knex.transaction(async (trx) => {
      const m = await trx('museums').where({ id: museumId }).forUpdate().first();
      if (!m) throw new HttpError(404, 'Museum not found');
      const day = await this.checkedInToday(trx, userId, museumId);
      if (!day) throw new HttpError(403, 'Check in at this museum first (from the museum itself): only visitors can confirm its facts');
      // the structured change, as museum fields checked by the same rules as an edit (stored only when it changes something)
      let changes: Record<string, unknown> | null = null;
      if (!agrees && change) {
        if (group === 'hours' && m.opening_hours == null) throw new HttpError(400, 'This museum has no opening hours yet: suggest an edit with its hours');
        changes = this.diff(m, this.normalizeInput(correctionToChanges(m, group, change, day.localDate), { requireForEdit: true }));
        if (!Object.keys(changes).length) throw new HttpError(400, 'No changes detected');
      }
      const since = await trx('museum_fact_confirmations').where({ museum_id: museumId, fact_group: group }).first('confirmed_at');
      const openNo = () => {
        const q = trx('museum_fact_answers').where({ museum_id: museumId, fact_group: group, agrees: false }).whereNull('suggestion_id');
        if (since) q.where('created_at', '>', since.confirmed_at);
        return q;
      };
      // a yes matches the consensus when no other member disputes the group since its last confirmation
      const disputed = agrees ? Boolean(await openNo().whereNot({ user_id: userId }).first('id')) : false;
      const inserted = await trx('museum_fact_answers')
        .insert({ museum_id: museumId, user_id: userId, fact_group: group, local_date: day.localDate, agrees, correction: agrees ? null : text, changes: changes ? JSON.stringify(changes) : null })
        .onConflict(['user_id', 'museum_id', 'fact_group', 'local_date'])
        .ignore()
        .returning('id');
      if (!inserted.length) throw new HttpError(409, 'You have already answered this question today');
      if (agrees) {
        await this.confirmGroups(trx, museumId, [group], 'member', userId);
        if (!disputed) helped.push((inserted[0] as any).id ?? inserted[0]);
        return null;
      }
      const rows = await openNo().select('id', 'user_id', 'correction', 'changes').orderBy('id');
      if (new Set(rows.map((r: any) => r.user_id)).size < 2) return null;
      const reason = answersReason(new Set(rows.map((r: any) => r.user_id)).size, group, rows.map((r: any) => r.correction));
      // the structured change most of them asked for, still a change against today's data
      const suggested = this.diff(m, consensusChanges(rows));
      const [sid] = await trx('museum_edit_suggestions').insert({ museum_id: museumId, user_id: userId, suggested_changes: JSON.stringify(suggested), reason }).returning('id');
      const id = (sid as any).id ?? sid;
      await trx('museum_fact_answers').whereIn('id', rows.map((r: any) => r.id)).update({ suggestion_id: id });
      return id as number;
    });
    this.tellHelped(museumId, group, helped.map((answerId) => ({ answerId, userId })));
    const row = await this.findRow(museumId);
    return { group, agrees, freshness: toFreshness(row.freshness), suggestionId };
  }

  /**
   * Confirmations that helped (a yes matching the consensus, a no whose suggestion was approved)
   * are announced after the answer (badges count them: `fact_confirmations`), off its path.
   */
  private tellHelped(museumId: number, group: FactGroup, list: Array<{ answerId: number; userId: number }>): void {
    if (!list.length) return;
    for (const h of list) this.ctx.events.defer('museums.facts.helped', { museumId, group, userId: h.userId, answerId: h.answerId });
  }

  // ---------------------------------------------------------------- suggestions

  private async people(ids: Array<number | null | undefined>): Promise<Map<number, { id: number; username: string; firstName: string; lastName: string; email: string | null }>> {
    const accounts = this.ctx.services.get(AccountsService);
    const out = new Map<number, { id: number; username: string; firstName: string; lastName: string; email: string | null }>();
    for (const id of new Set(ids.filter((i): i is number => typeof i === 'number'))) {
      const u = await accounts.findUser(id);
      if (u && u.id === id) out.set(id, { id, username: u.username, firstName: u.firstName, lastName: u.lastName, email: u.email ?? null });
    }
    return out;
  }

  private async editSuggestions(rows: any[]): Promise<EditSuggestion[]> {
    const people = await this.people(rows.flatMap((r) => [r.user_id, r.reviewer_id]));
    // the whole row for museums with a pending suggestion: its current values are shown beside the proposed ones
    const pendingIds = [...new Set(rows.filter((r) => r.status === 'pending').map((r) => r.museum_id))];
    const museums = await this.knex('museums').whereIn('id', [...new Set(rows.map((r) => r.museum_id))]).select('id', 'slug', 'name');
    const mById = new Map(museums.map((m: any) => [m.id, m]));
    const now = new Map<number, Museum>();
    if (pendingIds.length) for (const row of await this.knex('museums').whereIn('id', pendingIds).select('*')) now.set(row.id, this.toMuseum(row));
    return rows.map((r) => {
      const m = mById.get(r.museum_id);
      const reviewer = r.reviewer_id ? people.get(r.reviewer_id) : undefined;
      const suggestedChanges = jsonValue(r.suggested_changes) ?? {};
      const current = r.status === 'pending' ? now.get(r.museum_id) : undefined;
      return {
        id: r.id,
        suggestionId: r.id,
        museumId: r.museum_id,
        status: r.status,
        reason: r.reason ?? null,
        suggestedChanges,
        currentValues: current ? Object.fromEntries(Object.keys(suggestedChanges).map((k) => [k, (current as any)[k] ?? null])) : null,
        createdAt: iso(r.created_at),
        reviewedAt: isoOrNull(r.reviewed_at),
        museum: m ? { id: m.id, slug: m.slug, name: m.name } : null,
        user: (r.user_id && people.get(r.user_id)) || null,
        reviewer: reviewer ? { id: reviewer.id, username: reviewer.username } : null,
      };
    });
  }

  private async museumSuggestions(rows: any[]): Promise<MuseumSuggestion[]> {
    const people = await this.people(rows.flatMap((r) => [r.user_id, r.reviewer_id]));
    return rows.map((r) => {
      const reviewer = r.reviewer_id ? people.get(r.reviewer_id) : undefined;
      return {
        id: r.id,
        status: r.status,
        name: r.name,
        description: r.description ?? '',
        address: r.address,
        city: r.city,
        country: r.country,
        website: r.website ?? null,
        phone: r.phone ?? null,
        createdAt: iso(r.created_at),
        reviewedAt: isoOrNull(r.reviewed_at),
        museumId: r.museum_id ?? null,
        user: (r.user_id && people.get(r.user_id)) || null,
        reviewer: reviewer ? { id: reviewer.id, username: reviewer.username } : null,
      };
    });
  }

  /** Stores only the fields that differ from the museum; 'No changes detected' otherwise. A blank email is never kept. */
  async suggestEdit(userId: number, museumId: number, suggested: Record<string, unknown>, reason: string | null | undefined): Promise<EditSuggestion> {
    const input = { ...suggested };
    if (typeof input.email === 'string' && !input.email.trim()) delete input.email;
    const fields = this.normalizeInput(input, { requireForEdit: true });
    const row = await this.knex('museums').where({ id: museumId }).first();
    if (!row) throw new HttpError(404, 'Museum not found');
    const changes = this.diff(row, fields);
    if (!Object.keys(changes).length) throw new HttpError(400, 'No changes detected');
    const why = typeof reason === 'string' && reason.trim() ? reason.trim() : 'User suggested edit';
    const [id] = await this.knex('museum_edit_suggestions')
      .insert({ museum_id: museumId, user_id: userId, suggested_changes: JSON.stringify(changes), reason: why })
      .returning('id');
    const stored = await this.knex('museum_edit_suggestions').where({ id: (id as any).id ?? id }).first();
    return (await this.editSuggestions([stored]))[0];
  }

  async listEditSuggestions(q: { status?: SuggestionStatus; museumId?: number; page?: number; pageSize?: number } = {}): Promise<Page<EditSuggestion>> {
    const page = Math.max(1, q.page ?? 1);
    const pageSize = Math.min(100, Math.max(1, q.pageSize ?? 20));
    const base = this.knex('museum_edit_suggestions');
    if (q.status) base.where({ status: q.status });
    if (q.museumId) base.where({ museum_id: q.museumId });
    const [{ total }] = await base.clone().count<{ total: number }[]>({ total: '*' });
    const rows = await base
      .clone()
      .select('*')
      .orderByRaw(`case when status = 'pending' then 0 else 1 end`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    return { items: await this.editSuggestions(rows), total: Number(total), page, pageSize };
  }

  private async notify(userId: number | null, title: string, message: string, link: string | null) {
    if (!userId) return;
    const n = this.ctx.services.maybe(NotificationsService);
    if (!n) return;
    try {
      await n.notify([userId], { type: 'museum_update', title, message, link });
    } catch (err) {
      this.ctx.log.warn({ err }, 'could not notify the suggester');
    }
  }

  async reviewEditSuggestion(suggestionId: number, reviewerId: number, approve: boolean, note?: string | null): Promise<EditSuggestion> {
    const outcome = await this.knex.transaction(async (trx) => {
      const s = await trx('museum_edit_suggestions').where({ id: suggestionId }).forUpdate().first();
      if (!s) throw new HttpError(404, 'Suggestion not found');
      if (s.status !== 'pending') throw new HttpError(409, `This suggestion has already been ${s.status}`);
      let changes: Record<string, unknown> = {};
      if (approve) {
        // Re-checked against today's rules; applies exactly the suggested fields.
        const fields = this.normalizeInput(jsonValue(s.suggested_changes) ?? {});
        changes = await this.applyChanges(trx, s.museum_id, fields, { source: 'suggestion', userId: reviewerId });
      }
      await trx('museum_edit_suggestions')
        .where({ id: suggestionId })
        .update({ status: approve ? 'approved' : 'rejected', reviewer_id: reviewerId, reviewed_at: trx.fn.now(), review_note: note ?? null });
      const museum = await trx('museums').where({ id: s.museum_id }).first('id', 'slug', 'name');
      // the visitors' "no" answers behind an approved suggestion helped
      const helped = approve ? await trx('museum_fact_answers').where({ suggestion_id: suggestionId, agrees: false }).select('id', 'user_id', 'fact_group') : [];
      return { s, changes, museum, helped };
    });
    const { s, changes, museum, helped } = outcome;
    if (helped.length) this.tellHelped(s.museum_id, helped[0].fact_group, helped.map((h: any) => ({ answerId: h.id, userId: h.user_id })));
    if (approve && Object.keys(changes).length) await this.ctx.events.emit('museums.museum.updated', { museumId: s.museum_id, userId: reviewerId, changes });
    if (s.user_id) {
      await this.ctx.events.emit(approve ? 'museums.suggestion.approved' : 'museums.suggestion.rejected', { suggestionId, museumId: s.museum_id, userId: s.user_id, reviewerId, kind: 'edit' });
      await this.notify(
        s.user_id,
        approve ? 'Suggestion approved' : 'Suggestion not accepted',
        approve ? `Your suggested edit to ${museum?.name ?? 'the museum'} was approved and is now live.` : `Your suggested edit to ${museum?.name ?? 'the museum'} was reviewed and not accepted.${note ? ` ${note}` : ''}`,
        museum ? `/museum/${museum.slug}` : null,
      );
    }
    const row = await this.knex('museum_edit_suggestions').where({ id: suggestionId }).first();
    return (await this.editSuggestions([row]))[0];
  }

  async suggestMuseum(userId: number, input: Record<string, unknown>): Promise<MuseumSuggestion> {
    const t = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const name = t(input.name);
    const address = t(input.address);
    const city = t(input.city);
    const country = t(input.country);
    const errors = [
      !name && { path: '/name', message: 'Museum name is required' },
      !address && { path: '/address', message: 'Address is required' },
      !city && { path: '/city', message: 'City is required' },
      !country && { path: '/country', message: 'Country is required' },
    ].filter(Boolean) as Array<{ path: string; message: string }>;
    if (errors.length) throw new HttpError(400, errors.map((e) => e.message).join(', '), { errors });
    const [id] = await this.knex('museum_suggestions')
      .insert({ user_id: userId, name, address, city, country, description: t(input.description), website: t(input.website) || null, phone: t(input.phone) || null })
      .returning('id');
    const row = await this.knex('museum_suggestions').where({ id: (id as any).id ?? id }).first();
    return (await this.museumSuggestions([row]))[0];
  }

  async getMuseumSuggestion(id: number): Promise<{ id: number; userId: number | null; status: SuggestionStatus; museumId: number | null } | null> {
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return null;
    const r = await this.knex('museum_suggestions').where({ id }).first('id', 'user_id', 'status', 'museum_id');
    return r ? { id: Number(r.id), userId: r.user_id ?? null, status: r.status, museumId: r.museum_id ?? null } : null;
  }

  async listMuseumSuggestions(q: { status?: SuggestionStatus; page?: number; pageSize?: number } = {}): Promise<Page<MuseumSuggestion>> {
    const page = Math.max(1, q.page ?? 1);
    const pageSize = Math.min(100, Math.max(1, q.pageSize ?? 20));
    const base = this.knex('museum_suggestions');
    if (q.status) base.where({ status: q.status });
    const [{ total }] = await base.clone().count<{ total: number }[]>({ total: '*' });
    const rows = await base.clone().select('*').orderByRaw(`case when status = 'pending' then 0 else 1 end`).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize);
    return { items: await this.museumSuggestions(rows), total: Number(total), page, pageSize };
  }

  async reviewMuseumSuggestion(suggestionId: number, reviewerId: number, approve: boolean, note?: string | null): Promise<{ suggestion: MuseumSuggestion; museumId: number | null }> {
    const { s, museumId } = await this.knex.transaction(async (trx) => {
      const s = await trx('museum_suggestions').where({ id: suggestionId }).forUpdate().first();
      if (!s) throw new HttpError(404, 'Suggestion not found');
      if (s.status !== 'pending') throw new HttpError(409, `This suggestion has already been ${s.status}`);
      let museumId: number | null = null;
      if (approve) {
        const fields = this.normalizeInput({ name: s.name, description: s.description, address: s.address, city: s.city, country: s.country, website: s.website, phone: s.phone });
        await this.assertNoDuplicate(trx, s.name, s.city);
        museumId = await this.insert(trx, fields, { createdBy: s.user_id ?? null });
      }
      await trx('museum_suggestions')
        .where({ id: suggestionId })
        .update({ status: approve ? 'approved' : 'rejected', reviewer_id: reviewerId, reviewed_at: trx.fn.now(), review_note: note ?? null, museum_id: museumId });
      return { s, museumId };
    });
    if (museumId) await this.ctx.events.emit('museums.museum.created', { museumId, userId: s.user_id ?? null });
    if (s.user_id) {
      await this.ctx.events.emit(approve ? 'museums.suggestion.approved' : 'museums.suggestion.rejected', { suggestionId, museumId, userId: s.user_id, reviewerId, kind: 'new' });
      const slug = museumId ? (await this.knex('museums').where({ id: museumId }).first('slug'))?.slug : null;
      await this.notify(
        s.user_id,
        approve ? 'Museum suggestion approved' : 'Museum suggestion not accepted',
        approve ? `${s.name} is now in the museum directory. Thank you!` : `Your suggestion of ${s.name} was reviewed and not accepted.${note ? ` ${note}` : ''}`,
        slug ? `/museum/${slug}` : null,
      );
    }
    const row = await this.knex('museum_suggestions').where({ id: suggestionId }).first();
    return { suggestion: (await this.museumSuggestions([row]))[0], museumId };
  }

  // ---------------------------------------------------------------- admin

  async adminList(q: AdminMuseumQuery): Promise<Page<Museum>> {
    const page = Math.max(1, Math.floor(q.page ?? 1));
    const pageSize = Math.min(100, Math.max(1, Math.floor(q.pageSize ?? 5)));
    const base = this.knex('museums');
    if (q.q?.trim()) {
      const like = `%${likeEscape(q.q.trim())}%`;
      base.where((w) => w.whereILike('name', like).orWhereILike('city', like).orWhereILike('country', like));
    }
    switch (q.status) {
      case 'verified': base.where('is_verified', true); break;
      case 'unverified': base.where('is_verified', false); break;
      case 'with_manager': base.whereNotNull('manager_id'); break;
      case 'without_manager': base.whereNull('manager_id'); break;
      default: break;
    }
    const [{ total }] = await base.clone().count<{ total: number }[]>({ total: '*' });
    const rows = await this.selectMuseums().from(base.clone().select('museums.*').as('museums')).orderBy('museums.name').orderBy('museums.id').limit(pageSize).offset((page - 1) * pageSize);
    const now = new Date();
    return { items: rows.map((r: any) => this.toMuseum(r, now)), total: Number(total), page, pageSize };
  }

  async setVerified(museumId: number, verified: boolean, adminId: number | null): Promise<Museum> {
    const n = await this.knex('museums').where({ id: museumId }).update({ is_verified: verified, updated_at: this.knex.fn.now() }).returning('id');
    if (!n.length) throw new HttpError(404, 'Museum not found');
    await this.ctx.events.emit('museums.museum.updated', { museumId, userId: adminId, changes: { isVerified: verified } });
    return this.get(museumId);
  }

  async setManager(museumId: number, managerId: number | null, adminId: number | null): Promise<Museum> {
    if (managerId !== null) {
      const u = await this.ctx.services.get(AccountsService).getUserSummary(managerId);
      if (!u) throw new HttpError(404, 'User not found');
      if (u.role !== 'Museum Manager' && u.role !== 'Admin') throw new HttpError(400, 'Only a Museum Manager or an Admin can manage a museum');
    }
    const n = await this.knex('museums').where({ id: museumId }).update({ manager_id: managerId, updated_at: this.knex.fn.now() }).returning('id');
    if (!n.length) throw new HttpError(404, 'Museum not found');
    await this.ctx.events.emit('museums.museum.updated', { museumId, userId: adminId, changes: { managerId } });
    return this.get(museumId);
  }
}

