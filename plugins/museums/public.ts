/**
 * What the museums plugin offers others (typed service references and events).
 * Other plugins import only this file from museums, never its server internals or tables.
 *
 * JSON Schemas other plugins may `$ref` in their routes (registered for every plugin):
 *   "museums/Museum" (a museum as every museum answer shows it), "museums/MuseumSummary",
 *   "museums/MuseumInput" (editable fields), "museums/EditSuggestion", "museums/MuseumSuggestion",
 *   "museums/AdminMuseumPage", "museums/EditSuggestionPage", "museums/MuseumSuggestionPage",
 *   "museums/Catalog#/definitions/…" (categories, amenities, opening hours).
 */
import type { Knex } from 'knex';
import type { ImageInfo } from '../../core/images.ts';
import { serviceRef } from '../../core/services.ts';
import type { PublicHoliday, StructuredHours } from './shared/catalog.ts';
import type { Admission } from './shared/admission.ts';
import type { Accessibility } from './shared/accessibility.ts';
import type { Freshness } from './shared/freshness.ts';
import type { VisitHours } from './shared/visit-hours.ts';

export type { VisitHours, VisitHoursStatus } from './shared/visit-hours.ts';
/** Discover's URL state and its list request (publicweb renders a shared Discover link with them). */
export { readDiscoverState, museumsQuery, type DiscoverState } from './shared/discover-query.ts';
export { formatDistance } from './shared/distance.ts';

export interface MuseumSummary {
  id: number;
  slug: string;
  name: string;
  city: string;
  country: string;
  featuredImage: string | null;
  /** the featured image's size, made variant widths and placeholder (read with the museum, null when unknown; absent where not read) */
  featuredImageInfo?: ImageInfo | null;
  category: string | null;
  managerId: number | null;
  isVerified: boolean;
  /** IANA time zone of the museum ("open now", event times and check-in days are computed there). */
  timezone: string;
}

/** A museum as every museum answer shows it (schema "museums/Museum"). */
export interface Museum extends MuseumSummary {
  description: string;
  phone: string | null;
  email: string | null;
  website: string | null;
  donateUrl: string | null;
  address: string;
  address2: string | null;
  state: string | null;
  zipCode: string | null;
  latitude: number | null;
  longitude: number | null;
  amenities: string[];
  /** Always the structured form (text-form input is converted on write). */
  openingHours: StructuredHours | null;
  /** Public holidays (per openingHours.publicHolidays) from yesterday to two weeks ahead at the museum. */
  holidays: PublicHoliday[];
  /** Prices and free-entry rules (schema museums/Admission), null when unknown. */
  admission: Admission | null;
  /** Every fact, unknown when nobody reported it (schema museums/Accessibility). */
  accessibility: Accessibility;
  /** When each fact group was last confirmed and by whom (null: never). */
  freshness: Freshness;
  /** From freeStatusAt(admission, now, timezone): a free-for-everyone rule applies today / now. */
  isFreeToday: boolean;
  isFreeNow: boolean;
  /** "Usually quiet / busy now" from verified check-ins (null below busyMinCheckIns). */
  busyNow: 'quiet' | 'average' | 'busy' | null;
  /**
   * The public-holiday calendar in force: the rule's own country and region, or (guessed: true)
   * the one guessed from the address when the rule names none; with no rule, the guess (the edit
   * form's default). null when nothing is known.
   */
  holidayRegion: { country: string; region?: string; guessed: boolean } | null;
  rating: number;
  totalReviews: number;
  totalInsights: number;
  followerCount: number;
  checkInCount: number;
  /** Check-ins of the last `recentCheckInDays` days (config, default 30). */
  recentCheckInsCount: number;
  isFeatured: boolean;
  /** From openStatusAt(openingHours, now, timezone). */
  isOpen: boolean;
  openStatus: 'open' | 'closed' | 'by_appointment';
  /** Only for a signed-in viewer. */
  isFollowing?: boolean;
  hasCheckedInToday?: boolean;
  /** Miles, only when the list was asked `near=lat,lng`. */
  distance?: number | null;
  wikidataId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Editable museum fields (schema "museums/MuseumInput"); every field optional in an update. */
export interface MuseumInput {
  name?: string;
  description?: string;
  /** a directory category; the public form's categories (art, history…) are accepted and mapped */
  category?: string | null;
  phone?: string | null;
  email?: string | null;
  website?: string | null;
  donateUrl?: string | null;
  address?: string;
  address2?: string | null;
  city?: string;
  state?: string | null;
  zipCode?: string | null;
  country?: string;
  latitude?: number | null;
  longitude?: number | null;
  timezone?: string;
  featuredImage?: string | null;
  amenities?: string[];
  /** either form of part 2 §3; stored structured */
  openingHours?: unknown;
  admission?: unknown;
  accessibility?: unknown;
  isFeatured?: boolean;
}

export type SuggestionStatus = 'pending' | 'approved' | 'rejected';

/** Part 2 §3 "Museum edit suggestion record" (schema "museums/EditSuggestion"). */
export interface EditSuggestion {
  id: number;
  suggestionId: number;
  museumId: number;
  status: SuggestionStatus;
  reason: string | null;
  suggestedChanges: Record<string, unknown>;
  /** While pending: the museum's values now of the fields the suggestion changes (shown beside them); null once reviewed. */
  currentValues: Record<string, unknown> | null;
  createdAt: string;
  reviewedAt: string | null;
  museum: { id: number; slug: string; name: string } | null;
  user: { id: number; username: string; firstName: string; lastName: string; email: string | null } | null;
  reviewer: { id: number; username: string } | null;
}

/** A new museum proposed by a member (schema "museums/MuseumSuggestion"). Insights use -id as museumId while pending. */
export interface MuseumSuggestion {
  id: number;
  status: SuggestionStatus;
  name: string;
  description: string;
  address: string;
  city: string;
  country: string;
  website: string | null;
  phone: string | null;
  createdAt: string;
  reviewedAt: string | null;
  /** the museum created when approved */
  museumId: number | null;
  user: { id: number; username: string; firstName: string; lastName: string; email: string | null } | null;
  reviewer: { id: number; username: string } | null;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Admin museum list filters (part 2 §2 Admin Dashboard, Museums tab). */
export interface AdminMuseumQuery {
  /** name, city or country, case-insensitive */
  q?: string;
  status?: 'all' | 'verified' | 'unverified' | 'with_manager' | 'without_manager';
  page?: number;
  pageSize?: number;
}

/** A badge as a `museums.museum.checkedIn` handler returns it when the check-in earned one. */
export interface EarnedBadge {
  id: number;
  name: string;
  description?: string | null;
  icon?: string | null;
  color?: string | null;
  earnedAt?: string | null;
}

/**
 * Errors thrown by the service methods are core HttpErrors (status + message): 400 validation,
 * 404 missing, 409 already reviewed / duplicate. Admin routes may let them through as they are.
 */
export interface MuseumsApi {
  getMuseumSummaries(ids: number[]): Promise<Map<number, MuseumSummary>>;
  getMuseum(idOrSlug: number | string): Promise<MuseumSummary | null>;
  /** Admin, or the Museum Manager whose id is the museum's managerId. */
  canManage(user: { id: number; role: string } | undefined, museumId: number): Promise<boolean>;
  /** Ids of museums a user follows. */
  followedMuseumIds(userId: number): Promise<number[]>;
  /** SQL fragments for hot paths that read museums' data inside a statement of their own (read only). */
  readonly sql: {
    /** A one-column subquery: the ids of the museums `userId` follows (as followedMuseumIds). */
    followedMuseumIds(userId: number): Knex.QueryBuilder;
    /** A subquery of every museum follow: columns user_id, museum_id (filter it; it is indexed both ways). */
    followEdges(): Knex.QueryBuilder;
    /** Columns of the `museums` table giving a card's summary fields (for a left join in a hot path). */
    readonly cardColumns: Record<'id' | 'slug' | 'name' | 'city' | 'country' | 'featuredImage', string>;
  };
  /** Atomically moves a museum's totalInsights counter (insights plugin calls it). */
  adjustInsightCount(museumId: number, delta: number): Promise<void>;

  /** Full museum answers (isOpen computed now), in the order of ids; unknown ids are absent. */
  getMuseums(ids: number[], viewerId?: number): Promise<Museum[]>;
  /** Typo-tolerant name/city search (the same as GET /api/search/museums). */
  searchMuseums(q: string, limit?: number): Promise<Museum[]>;
  /** Ids of museums a user has checked in at (most recent first). */
  checkedInMuseumIds(userId: number): Promise<number[]>;
  /** Number of museums (analytics). */
  countMuseums(): Promise<number>;
  /**
   * Suggestions never empty while museums exist (issue 21): museums in `categories` or within
   * `radiusKm` (default 100) of `near` first, then the most popular (followers + check-ins +
   * insights); never one `viewerId` follows nor one of `excludeIds`. One statement.
   */
  suggestMuseums(q: MuseumSuggestionQuery): Promise<SuggestedMuseum[]>;
  /**
   * Every museum's address and last change, by id, keyset-paged (`afterId` exclusive, `limit`
   * 1..50,000): the sitemap (publicweb) walks them all without OFFSET.
   */
  listSitemapEntries(opts: { afterId?: number; limit: number }): Promise<Array<{ id: number; slug: string; updatedAt: string }>>;

  // ---- administration (the admin plugin calls these; it never touches museum tables) ----
  adminList(query: AdminMuseumQuery): Promise<Page<Museum>>;
  /** Validates like POST /api/museums; answers the new museum. Emits museums.museum.created. */
  createMuseum(input: MuseumInput & { name: string; address: string; city: string; country: string }, userId: number | null): Promise<Museum>;
  /** Applies the given fields. Emits museums.museum.updated with what changed. */
  updateMuseum(museumId: number, changes: MuseumInput, userId: number | null): Promise<Museum>;
  setVerified(museumId: number, verified: boolean, adminId?: number | null): Promise<Museum>;
  /** managerId null removes the manager; otherwise the user must exist (404) and be Museum Manager or Admin (400). */
  setManager(museumId: number, managerId: number | null, adminId?: number | null): Promise<Museum>;
  listEditSuggestions(query?: { status?: SuggestionStatus; museumId?: number; page?: number; pageSize?: number }): Promise<Page<EditSuggestion>>;
  /** Applies exactly the suggested changes in one transaction; 409 when already reviewed. Notifies the suggester. */
  approveEditSuggestion(suggestionId: number, reviewerId: number): Promise<EditSuggestion>;
  rejectEditSuggestion(suggestionId: number, reviewerId: number, note?: string | null): Promise<EditSuggestion>;
  listMuseumSuggestions(query?: { status?: SuggestionStatus; page?: number; pageSize?: number }): Promise<Page<MuseumSuggestion>>;
  /**
   * One new-museum suggestion's suggester and state, or null when there is none: insights lets only
   * its suggester tag a post with it (museumId -id) while it is pending, and links it on approval.
   */
  getMuseumSuggestion(suggestionId: number): Promise<{ id: number; userId: number | null; status: SuggestionStatus; museumId: number | null } | null>;
  /** Creates the museum from the suggestion (unverified) in one transaction; 409 when already reviewed. */
  approveMuseumSuggestion(suggestionId: number, reviewerId: number): Promise<{ suggestion: MuseumSuggestion; museum: Museum }>;
  rejectMuseumSuggestion(suggestionId: number, reviewerId: number, note?: string | null): Promise<MuseumSuggestion>;
  /**
   * Fills missing museum information (description, website, phone, email, coordinates, image)
   * from Wikidata for up to `limit` museums (default 25) — what "Update Museums" runs.
   */
  enrichFromKnowledgeBase(opts?: { limit?: number; museumIds?: number[] }): Promise<{ checked: number; updated: number; failed: number }>;

  /**
   * Whether a visit from `start` to `end` (null: the start only) fits one opening span of the
   * museum, on its clock in its zone: dated closures and special hours, public holidays
   * (date-holidays, per its holiday rule), seasons, the week (shared/visit-hours.ts visitFit, the
   * rule checkVisit uses too). null when the
   * museum is unknown or has no opening hours at all (nothing to warn about). Meetups warn their
   * organiser with it (issue 20).
   */
  visitHours(museumId: number, start: Date, end: Date | null): Promise<VisitHours | null>;
  /**
   * getMuseumSummaries(ids) and visitHours for many visits, in one statement whatever their number
   * (a list of events with their hours warnings): `summaries` as getMuseumSummaries answers for
   * `ids`; `visits`, in the order given, what visitHours answers for each (the same rule).
   */
  summariesWithVisitHours(
    ids: number[],
    visits: ReadonlyArray<{ museumId: number; start: Date; end: Date | null }>,
  ): Promise<{ summaries: Map<number, MuseumSummary>; visits: Array<VisitHours | null> }>;
  /**
   * Plan a visit (issue 20, plans plugin): each museum's hours, admission, zone and position with
   * the public holidays of its rule between two local dates (YYYY-MM-DD, inclusive; pass
   * visitDates(date) for one day: the day before to the day after), in the order of ids; unknown ids are absent. Check a visit
   * with checkVisit (below).
   */
  visitFacts(ids: number[], dates: { from: string; to: string }): Promise<VisitFacts[]>;
}

/** MuseumsApi.visitFacts's answer for one museum. */
export interface VisitFacts extends Pick<MuseumSummary, 'id' | 'slug' | 'name' | 'city' | 'country' | 'featuredImage' | 'timezone'> {
  latitude: number | null;
  longitude: number | null;
  openingHours: StructuredHours | null;
  admission: Admission | null;
  holidays: PublicHoliday[];
}

/**
 * The rule evaluation a plan reuses (pure, the same as open now / free now, and the same visit
 * rule as visitHours: shared/visit-hours.ts visitFit): checkVisit(facts, facts.holidays, { date,
 * arrival, durationMinutes }) → open / closed / by appointment, before opening, after closing,
 * minutes open, free entry at arrival; distanceMeters (great circle).
 */
export { checkVisit, visitDates, type VisitCheck } from './shared/visit.ts';
export { localToInstant } from './shared/visit-hours.ts';
export { distanceMeters } from './shared/verify.ts';

export const MuseumsService = serviceRef<MuseumsApi>('museums.api');

export interface MuseumSuggestionQuery {
  viewerId: number | null;
  categories?: string[];
  near?: { latitude: number; longitude: number } | null;
  radiusKm?: number;
  excludeIds?: number[];
  limit: number;
}

export interface SuggestedMuseum extends MuseumSummary {
  reason: 'interest' | 'nearby' | 'popular';
  followerCount: number;
  distanceKm: number | null;
}

// ---------------------------------------------------------------- search providers

/**
 * GET /api/search?q= answers { museums, users, posts, communities, events }. Museums are the
 * museums plugin's own; every other kind comes from a provider that the owning plugin registers
 * in its bootstrap (no import of the museums server):
 *
 *   ctx.services.maybe(SearchRegistry)?.register({ kind: 'posts', itemSchema: 'insights/InsightPost', search: async (q, o) => [...] });
 *
 * The provider shapes its items (e.g. a post as its list item, a user as a UserSummary), each an
 * object with at least an `id`. With `itemSchema` (the $id of a schema it registered) an item
 * leaves with only what that schema declares, written by a compiled serializer; without it, as it
 * is (an open object: every property passes). A provider that
 * throws or takes longer than 3 s contributes nothing. When several providers register the same
 * kind, their results are concatenated up to the limit.
 */
export type SearchKind = 'users' | 'posts' | 'communities' | 'events';

export type SearchItem = { id: number | string } & Record<string, unknown>;

/**
 * One kind's search as a SELECT not yet run: GET /api/search reads the museums and every kind
 * that offers one in a single statement (issue 18: a statement costs more than its SQL), each
 * kind's rows as a JSON array. `answer` shapes them as `search` would; read back as JSON,
 * timestamps are ISO text, numeric and bigint are numbers.
 */
export interface SearchStatement {
  query: Knex.QueryBuilder;
  answer(rows: Array<Record<string, any>>): SearchItem[];
}

/** A provider gives `search`, `statement`, or both; at least one. */
export interface SearchProvider {
  kind: SearchKind;
  /**
   * The $id of the schema every item matches (e.g. 'shared/UserSummary'): what it does not declare
   * never leaves. When several providers of a kind name different schemas (or one names none),
   * that kind's items stay open objects.
   */
  itemSchema?: string;
  /** `q` is trimmed and longer than 2 characters; answer at most `limit` items. */
  search?(q: string, opts: { limit: number; viewer?: { id: number; role: string } }): Promise<SearchItem[]>;
  /**
   * The search as a statement not yet run (see SearchStatement), or null when nothing can be found
   * (an anonymous search for members). Without `search`, the registry runs it on its own when the
   * joint statement cannot be used (another provider of its kind has no statement, or it failed).
   */
  statement?(q: string, opts: { limit: number; viewer?: { id: number; role: string } }): SearchStatement | null;
}

export interface SearchRegistryApi {
  register(provider: SearchProvider): void;
  /** whether some provider answers this kind */
  has(kind: SearchKind): boolean;
}

export const SearchRegistry = serviceRef<SearchRegistryApi>('museums.search');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'museums.museum.followed': { userId: number; museumId: number; following: boolean };
    /**
     * After the check-in is stored. Handlers may return EarnedBadge (or { badge: EarnedBadge,
     * earnedAt }) objects or arrays of them: the check-in answer lists them as `badges`.
     */
    /** verified: near the museum and a possible journey (issue 20); badges count verified check-ins only. */
    /** at: when the check-in was stored (ISO); handlers running after the answer judge time windows by it. */
    'museums.museum.checkedIn': { userId: number; museumId: number; checkInId: number; verified: boolean; at?: string };
    'museums.museum.created': { museumId: number; userId: number | null };
    'museums.museum.updated': { museumId: number; userId: number | null; changes: Record<string, unknown> };
    'museums.suggestion.approved': { suggestionId: number; museumId: number | null; userId: number; reviewerId: number; kind: 'edit' | 'new' };
    'museums.suggestion.rejected': { suggestionId: number; museumId: number | null; userId: number; reviewerId: number; kind: 'edit' | 'new' };
    /**
     * A visitor's "still right?" answer helped (issue 20), announced after the answer: a yes that
     * matched the consensus (nobody else disputing the group), or a no whose suggestion was
     * approved. Once per answer (answerId).
     */
    'museums.facts.helped': { museumId: number; group: 'hours' | 'admission' | 'accessibility' | 'contact'; userId: number; answerId: number };
  }
}

/**
 * The check-in body that puts a member at the museum's own coordinates (10 m accuracy): what a
 * phone standing in the museum sends. For tests and tools that check in on a member's behalf.
 */
export function positionAt(m: { latitude: number | null; longitude: number | null }): { latitude: number; longitude: number; accuracy: number } {
  if (m.latitude == null || m.longitude == null) throw new Error('positionAt: the museum has no coordinates');
  return { latitude: m.latitude, longitude: m.longitude, accuracy: 10 };
}
