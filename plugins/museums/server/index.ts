import fs from 'node:fs';
import path from 'node:path';
import { definePluginServer, type ApiContext, type PluginContext } from '../../../core/plugin-api.ts';
import { ROOT } from '../../../core/config.ts';
import { HttpError, tooMany } from '../../../core/errors.ts';
import { AccountsService, OnboardingSources, UserData } from '../../accounts/public.ts';
import { MuseumsService, SearchRegistry, type MuseumsApi, type SearchKind, type SearchItem, type SearchProvider, type SearchStatement } from '../public.ts';
import { MuseumsDomain } from './service.ts';
import { imageInfoSql } from '../../../core/images.ts';
import { createWikidataClient, type WikidataClient } from './wikidata.ts';
import { createGeocoder } from './geocode.ts';
import { ExternalServiceError } from './http-json.ts';
import { guessTimeZone } from './places.ts';
import { enrichMuseums } from './enrich.ts';
import { registerMuseumsExport } from './export.ts';
import { effectivePolicy, publicHolidaysBetween } from './holidays.ts';
import { normalizeHours } from '../shared/opening-hours.ts';
import { visitHolidayDates, visitHoursAt } from '../shared/visit-hours.ts';
import { createSuggest, onboardingSources } from './suggest.ts';
import type { FactCorrection } from './corrections.ts';
import { accessPhotoRoutes } from './access-photos.ts';
import { visitFacts } from './visit-facts.ts';

const ref = (name: string) => ({ $ref: `museums/${name}` });
const idParams = { $ref: 'shared/IdParams' };
const errorResponses = { 400: { $ref: 'shared/Error' }, 401: { $ref: 'shared/Error' }, 403: { $ref: 'shared/Error' }, 404: { $ref: 'shared/Error' }, 409: { $ref: 'shared/Error' } };

/** "40.78,-73.97" → coordinates, or a 400. */
function parseNear(v: string | undefined): { lat: number; lng: number } | undefined {
  if (v === undefined || v === '') return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(v);
  const lat = m ? Number(m[1]) : NaN;
  const lng = m ? Number(m[2]) : NaN;
  if (!m || Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new HttpError(400, 'near must be "latitude,longitude"');
  return { lat, lng };
}

function externalError(e: unknown, what: string): never {
  if (e instanceof ExternalServiceError) {
    throw new HttpError(e.kind === 'timeout' ? 504 : 502, `${what}: ${e.message}`);
  }
  throw e;
}

const SEARCH_KINDS: SearchKind[] = ['users', 'posts', 'communities', 'events'];
const PROVIDER_TIMEOUT_MS = 3000;
/** Place lookups waiting for the geocoder beyond which GET /api/geocode/place answers 429. */
const PLACE_QUEUE_MAX = 8;


export default definePluginServer({
  register(ctx: PluginContext) {
    const knex = ctx.db;
    const cfg = ctx.config;
    const d = new MuseumsDomain(knex, ctx, {
      recentCheckInDays: cfg.recentCheckInDays ?? 30,
      busyMinCheckIns: cfg.busyMinCheckIns ?? 20,
      verify: { radiusM: cfg.checkInRadiusMeters ?? 300, maxAccuracyM: cfg.checkInMaxAccuracyMeters ?? 1000, maxSpeedKmh: cfg.checkInMaxSpeedKmh ?? 900 },
    });
    const wikidata: WikidataClient = createWikidataClient({
      apiUrl: cfg.wikidataApiUrl,
      sparqlUrl: cfg.wikidataSparqlUrl,
      timeoutMs: cfg.wikidataTimeoutMs,
      userAgent: cfg.userAgent,
      language: cfg.language,
    });
    const geocoder = createGeocoder(knex, {
      endpoint: cfg.geocoderUrl,
      timeoutMs: cfg.geocoderTimeoutMs,
      userAgent: cfg.userAgent,
      cacheDays: cfg.geocodeCacheDays,
      minIntervalMs: cfg.geocoderMinIntervalMs,
      language: cfg.language,
    });

    // ---- search providers (users, posts, communities, events come from other plugins)
    const providers: SearchProvider[] = [];
    // GET /api/search's answer schema: museums/SearchResult, whose open item schemas become the
    // providers' own where every provider of a kind names the same one (itemSchema). The router
    // compiles it after every plugin's bootstrap, where providers register: an item then leaves
    // with only what its schema declares, written by a compiled serializer (core/serialize.ts).
    const searchAnswer = structuredClone(ctx.schemas.registry.get('museums/SearchResult')!) as { properties: Record<string, { items: unknown }> };
    delete (searchAnswer as { $id?: string }).$id;
    const openItems = structuredClone(searchAnswer.properties.users.items);
    /** set by the first search: the router has compiled the answer's schema by then */
    let answered = false;
    ctx.services.provide(SearchRegistry, {
      register(p) {
        if (!SEARCH_KINDS.includes(p.kind)) throw new Error(`Unknown search kind ${p.kind}`);
        if (!p.search && !p.statement) throw new Error(`A ${p.kind} search provider needs search or statement`);
        if (p.itemSchema && !ctx.schemas.registry.get(p.itemSchema)) throw new Error(`A ${p.kind} search provider names an unknown schema ${p.itemSchema}`);
        const named = new Set([...providers.filter((x) => x.kind === p.kind), p].map((x) => x.itemSchema ?? null));
        const only = named.size === 1 ? [...named][0] : null;
        const items = only ? { $ref: only } : openItems;
        if (answered && JSON.stringify(items) !== JSON.stringify(searchAnswer.properties[p.kind].items)) {
          throw new Error(`A ${p.kind} search provider must register in bootstrap: GET /api/search's answer schema was compiled before it`);
        }
        providers.push(p);
        searchAnswer.properties[p.kind].items = items;
      },
      has: (kind) => providers.some((p) => p.kind === kind),
    });

    async function runProviders(kind: SearchKind, q: string, limit: number, viewer?: { id: number; role: string }) {
      const mine = providers.filter((p) => p.kind === kind);
      const out: Array<Record<string, unknown>> = [];
      for (const p of mine) {
        try {
          const items = await Promise.race([
            p.search ? p.search(q, { limit, viewer }) : runStatement(p.statement!(q, { limit, viewer })),
            new Promise<never>((_, rej) => setTimeout(() => rej(new Error('search provider timed out')), PROVIDER_TIMEOUT_MS).unref()),
          ]);
          if (Array.isArray(items)) out.push(...items.filter((i) => i && typeof i === 'object' && 'id' in i));
        } catch (err) {
          ctx.log.warn({ err, kind }, 'search provider failed');
        }
      }
      if (kind === 'users' && !mine.length) {
        // Minimal fallback until accounts registers a users provider: an exact username or slug.
        const u = await ctx.services.get(AccountsService).findUser(q).catch(() => null);
        if (u) {
          const { email: _email, ...summary } = u;
          out.push(summary);
        }
      }
      return out.slice(0, limit);
    }

    /**
     * GET /api/search: the museums and every kind whose providers all offer a statement are read in
     * one statement, each provider's rows as a JSON array (issue 18: it was one statement per
     * plugin); the other kinds, in parallel, through their `search`. When the joint statement
     * fails or takes longer than a provider may, each of its kinds answers through `search`.
     */
    async function searchAll(q: string, limit: number, who?: { id: number; role: string }) {
      type Kind = 'museums' | SearchKind;
      const out: Record<Kind, unknown[]> = { museums: [], users: [], posts: [], communities: [], events: [] };
      const joint: Array<{ kind: Kind; st: { query: SearchStatement['query']; answer(rows: Array<Record<string, any>>): unknown[] } }> = [];
      const museums = d.searchStatement(q, 6, who?.id);
      if (museums) joint.push({ kind: 'museums', st: museums });
      const apart: SearchKind[] = [];
      for (const kind of SEARCH_KINDS) {
        const mine = providers.filter((p) => p.kind === kind);
        if (!mine.length || mine.some((p) => !p.statement)) {
          apart.push(kind);
          continue;
        }
        for (const p of mine) {
          try {
            const st = p.statement!(q, { limit, viewer: who });
            if (st) joint.push({ kind, st });
          } catch (err) {
            ctx.log.warn({ err, kind }, 'search provider failed');
          }
        }
      }
      const jointKinds = [...new Set(joint.map((j) => j.kind))];
      const readJoint = async () => {
        if (!joint.length) return;
        try {
          const row = await Promise.race([
            knex.first(joint.map(({ st }, i) => knex.raw(`(select coalesce(json_agg(t), '[]'::json) from (?) t) as ??`, [st.query, `k${i}`]))),
            new Promise<never>((_, rej) => setTimeout(() => rej(new Error('search timed out')), PROVIDER_TIMEOUT_MS).unref()),
          ]);
          joint.forEach(({ kind, st }, i) => {
            out[kind].push(...st.answer(jsonRows(row?.[`k${i}`])).filter((x) => x && typeof x === 'object' && 'id' in x));
          });
          for (const kind of jointKinds) out[kind] = out[kind].slice(0, kind === 'museums' ? 6 : limit);
        } catch (err) {
          // knex's message starts with the whole statement: the database's own words are enough here
          const e = err as { code?: string; message?: string };
          ctx.log.warn({ code: e?.code, reason: String(e?.message ?? err).split(' - ').pop() }, 'joint search failed: each kind searches on its own');
          await Promise.all(
            jointKinds.map(async (kind) => {
              out[kind] = kind === 'museums' ? await d.search(q, 6, who?.id) : await runProviders(kind, q, limit, who);
            }),
          );
        }
      };
      await Promise.all([
        readJoint(),
        ...apart.map(async (kind) => {
          out[kind] = await runProviders(kind, q, limit, who);
        }),
      ]);
      return out;
    }

    ctx.permissions.define('museums.museum.edit', async (user, resource) => {
      const id = typeof resource === 'number' ? resource : (resource as { id?: number } | undefined)?.id;
      return typeof id === 'number' && d.canManage(user, id);
    });
    ctx.permissions.define('museums.museum.create', (user) => Boolean(user));

    const api: MuseumsApi = {
      async getMuseumSummaries(ids) {
        const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i > 0))];
        const map = new Map();
        if (!unique.length) return map;
        const rows = await knex('museums')
          .whereIn('id', unique)
          .select('id', 'slug', 'name', 'city', 'country', 'featured_image', 'category', 'manager_id', 'is_verified', 'timezone')
          // the featured image's made widths and placeholder (cards elsewhere): no statement more
          .select(knex.raw('? as featured_image_info', [imageInfoSql(knex, 'museums.featured_image')]));
        for (const r of rows) map.set(r.id, d.toSummary(r));
        return map;
      },
      async getMuseum(idOrSlug) {
        const row = await d.findRow(idOrSlug);
        return row ? d.toSummary(row) : null;
      },
      canManage: (user, museumId) => d.canManage(user, museumId),
      sql: {
        followedMuseumIds: (userId) => knex('museum_follows').where('user_id', userId).select('museum_id'),
        followEdges: () => knex('museum_follows').select('user_id', 'museum_id'),
        cardColumns: { id: 'museums.id', slug: 'museums.slug', name: 'museums.name', city: 'museums.city', country: 'museums.country', featuredImage: 'museums.featured_image' },
      },
      async followedMuseumIds(userId) {
        return knex('museum_follows').where({ user_id: userId }).orderBy('created_at', 'desc').pluck('museum_id');
      },
      adjustInsightCount: (museumId, delta) => d.adjustInsightCount(museumId, delta),
      getMuseums: (ids, viewerId) => d.getMany(ids, viewerId),
      searchMuseums: (q, limit = 10) => d.search(q, limit),
      async checkedInMuseumIds(userId) {
        const rows = await knex('museum_checkins').where({ user_id: userId }).groupBy('museum_id').select('museum_id').max({ last: 'created_at' }).orderBy('last', 'desc');
        return rows.map((r: any) => r.museum_id);
      },
      suggestMuseums: createSuggest(knex, (r) => d.toSummary(r)),
      async countMuseums() {
        const [{ n }] = await knex('museums').count<{ n: number }[]>({ n: '*' });
        return Number(n);
      },
      async listSitemapEntries({ afterId = 0, limit }) {
        const n = Math.min(50_000, Math.max(1, Math.floor(limit)));
        const rows = await knex('museums').where('id', '>', afterId).orderBy('id').limit(n).select('id', 'slug', 'updated_at');
        return rows.map((r: any) => ({ id: r.id, slug: r.slug, updatedAt: new Date(r.updated_at).toISOString() }));
      },
      adminList: (q) => d.adminList(q),
      createMuseum: (input, userId) => d.create({ ...input }, userId),
      updateMuseum: (museumId, changes, userId) => d.update(museumId, { ...changes }, userId),
      setVerified: (museumId, verified, adminId) => d.setVerified(museumId, verified, adminId ?? null),
      setManager: (museumId, managerId, adminId) => d.setManager(museumId, managerId, adminId ?? null),
      listEditSuggestions: (q) => d.listEditSuggestions(q),
      approveEditSuggestion: (id, reviewerId) => d.reviewEditSuggestion(id, reviewerId, true),
      rejectEditSuggestion: (id, reviewerId, note) => d.reviewEditSuggestion(id, reviewerId, false, note),
      listMuseumSuggestions: (q) => d.listMuseumSuggestions(q),
      getMuseumSuggestion: (id) => d.getMuseumSuggestion(id),
      async approveMuseumSuggestion(id, reviewerId) {
        const r = await d.reviewMuseumSuggestion(id, reviewerId, true);
        return { suggestion: r.suggestion, museum: await d.get(r.museumId!) };
      },
      async rejectMuseumSuggestion(id, reviewerId, note) {
        return (await d.reviewMuseumSuggestion(id, reviewerId, false, note)).suggestion;
      },
      enrichFromKnowledgeBase: (opts) => enrichMuseums(knex, d, wikidata, ctx, opts ?? {}),
      async summariesWithVisitHours(ids, visits) {
        const unique = [...new Set([...ids, ...visits.map((v) => v.museumId)].filter((i) => Number.isInteger(i) && i > 0))];
        const summaries = new Map<number, ReturnType<typeof d.toSummary>>();
        if (!unique.length) return { summaries, visits: visits.map(() => null) };
        // one statement for the whole list: the summaries' columns and what the hours rule reads
        const rows = await knex('museums')
          .whereIn('id', unique)
          .select('id', 'slug', 'name', 'city', 'country', 'featured_image', 'category', 'manager_id', 'is_verified', 'timezone', 'opening_hours', 'state', 'latitude', 'longitude');
        const byId = new Map<number, any>();
        for (const r of rows) {
          byId.set(r.id, r);
          if (ids.includes(r.id)) summaries.set(r.id, d.toSummary(r));
        }
        const hoursOf = new Map<number, ReturnType<typeof normalizeHours>>();
        return {
          summaries,
          visits: visits.map((v) => {
            const row = byId.get(v.museumId);
            if (!row || row.opening_hours == null) return null;
            let hours = hoursOf.get(row.id);
            if (!hours) hoursOf.set(row.id, (hours = normalizeHours(typeof row.opening_hours === 'string' ? JSON.parse(row.opening_hours) : row.opening_hours)));
            const tz = row.timezone || 'UTC';
            const { from, to } = visitHolidayDates(v.start, v.end, tz);
            return visitHoursAt(hours, v.start, v.end, tz, publicHolidaysBetween(effectivePolicy(hours.publicHolidays, row), from, to));
          }),
        };
      },
      async visitHours(museumId, start, end) {
        const row = await knex('museums').where({ id: museumId }).first('opening_hours', 'timezone', 'country', 'state', 'latitude', 'longitude');
        if (!row || row.opening_hours == null) return null;
        const hours = normalizeHours(typeof row.opening_hours === 'string' ? JSON.parse(row.opening_hours) : row.opening_hours);
        const tz = row.timezone || 'UTC';
        const { from, to } = visitHolidayDates(start, end, tz);
        // a museum without a holiday country has it guessed from its address (effectivePolicy)
        return visitHoursAt(hours, start, end, tz, publicHolidaysBetween(effectivePolicy(hours.publicHolidays, row), from, to));
      },
      visitFacts: (ids, dates) => visitFacts(knex, ids, dates),
    };
    ctx.services.provide(MuseumsService, api);
    // onboarding (accounts): museum categories as interests, a typed home city geocoded here
    ctx.services.provide(OnboardingSources, onboardingSources((city) => geocoder.geocode('', city)));

    // Server-side failures of the external services (502/504) and the missing maps key (503)
    // leave as { message } with their status even where core's error handler does not know this
    // HttpError class (tests load core twice: CJS for the test files, ESM for plugins).
    const OWN_PATHS = /^\/api\/(museums|museum-suggestions|geocode|google-maps-|search)/;
    ctx.middleware.use((kctx, next) =>
      next().catch((err: any) => {
        if (OWN_PATHS.test(kctx.path) && err?.expose === true && err.status >= 500 && err.status < 600 && typeof err.message === 'string') {
          kctx.status = err.status;
          kctx.body = { message: err.message };
          return;
        }
        throw err;
      }),
    );

    // Account deletion: inside the transaction that removes the user row, so counters stay exact.
    ctx.services.get(UserData).onErase('museums', (userId, e) => d.forgetUser(userId, e));
    registerMuseumsExport(ctx, d); // the member's data archive and the import of follows (issue 24)

    const viewer = (c: ApiContext) => c.user?.id;

    // ---------------------------------------------------------------- directory

    ctx.routes.add<unknown, { page: number; pageSize: number; category?: string; q?: string; verified?: boolean; near?: string; radius?: number; sort?: string; open?: 'now'; free?: 'now' | 'today'; access?: string }>({
      method: 'GET',
      path: '/api/museums',
      operationId: 'listMuseums',
      publicCache: 30,
      summary: 'Museums, page by page; filters category, q (name, city or country), verified; near=lat,lng sorts by distance in miles',
      auth: 'optional',
      schema: {
        query: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
            pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            category: { type: 'string', maxLength: 400, description: 'One category, or several separated by commas' },
            q: { type: 'string', maxLength: 200 },
            verified: { type: 'boolean' },
            near: { type: 'string', maxLength: 60, pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*,\\s*-?\\d+(\\.\\d+)?\\s*$', description: 'latitude,longitude', 'x-messages': { pattern: 'near must be "latitude,longitude"' } },
            radius: { type: 'number', exclusiveMinimum: 0, maximum: 12500, description: 'Miles around near' },
            sort: { type: 'string', enum: ['name', 'distance', 'popular', 'recent', 'open'], description: 'open: the museums open now first, then by distance (with near) or name' },
            open: { type: 'string', enum: ['now'], description: 'now: only museums open at this moment (their zone, closures and public holidays)' },
            access: { type: 'string', maxLength: 300, pattern: '^[A-Za-z]+(,[A-Za-z]+)*$', description: 'Accessibility facts that must be yes, comma separated (stepFreeEntrance, accessibleToilets, …)', 'x-messages': { pattern: 'access must be a comma-separated list of accessibility facts' } },
            free: { type: 'string', enum: ['now', 'today'], description: 'only museums free for everyone now / at some time today (their free-entry rules, local time)' },
          },
        },
        response: { 200: ref('MuseumPage'), 400: { $ref: 'shared/Error' } },
      },
      handler: (c) => {
        const q = c.input.query;
        return d.list({ ...q, near: parseNear(q.near), viewerId: viewer(c) });
      },
    });

    ctx.routes.add<unknown, { limit: number }>({
      method: 'GET',
      path: '/api/museums/featured',
      operationId: 'getFeaturedMuseums',
      summary: 'Featured museums (featured, then verified and most discussed)',
      auth: 'optional',
      schema: {
        query: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 24, default: 3 } } },
        response: { type: 'array', items: ref('Museum') },
      },
      handler: (c) => d.featured(c.input.query.limit, viewer(c)),
    });

    ctx.routes.add<{ slug: string }>({
      method: 'GET',
      path: '/api/museums/slug/:slug',
      operationId: 'getMuseumBySlug',
      publicCache: 30,
      summary: 'A museum by slug (an id is accepted too)',
      auth: 'optional',
      schema: {
        params: { type: 'object', required: ['slug'], additionalProperties: false, properties: { slug: { type: 'string', minLength: 1, maxLength: 120 } } },
        response: { 200: ref('Museum'), 404: { $ref: 'shared/Error' } },
      },
      handler: async (c) => d.get(c.input.params.slug, viewer(c)),
    });

    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: '/api/museums/:id',
      operationId: 'getMuseum',
      publicCache: 30,
      summary: 'A museum by id',
      auth: 'optional',
      schema: { params: idParams, response: { 200: ref('Museum'), 404: { $ref: 'shared/Error' } } },
      handler: async (c) => d.get(c.input.params.id, viewer(c)),
    });

    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: '/api/museums/:id/follow',
      operationId: 'toggleMuseumFollow',
      summary: 'Follow or unfollow (toggle)',
      auth: 'required',
      schema: {
        params: idParams,
        response: {
          200: { type: 'object', additionalProperties: false, required: ['following', 'followerCount'], properties: { following: { type: 'boolean' }, followerCount: { type: 'integer' } } },
          ...errorResponses,
        },
      },
      handler: (c) => d.toggleFollow(c.user!.id, c.input.params.id),
    });

    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: '/api/museums/:id/checkin',
      operationId: 'checkInAtMuseum',
      summary: 'Check in (once per museum per day at the museum); answers the check-in, the new counts and badges earned',
      auth: 'required',
      status: 201,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          description: "The browser's position (Geolocation API) with its accuracy in metres; without it the check-in is recorded as a visit, unverified",
          properties: {
            latitude: { type: 'number', minimum: -90, maximum: 90 },
            longitude: { type: 'number', minimum: -180, maximum: 180 },
            accuracy: { type: 'number', minimum: 0, maximum: 1000000 },
          },
          dependencies: { latitude: ['longitude', 'accuracy'], longitude: ['latitude', 'accuracy'], accuracy: ['latitude', 'longitude'] },
        },
        response: { 201: ref('CheckInResult'), ...errorResponses },
      },
      handler: (c) => {
        const b = (c.input.body ?? {}) as { latitude?: number; longitude?: number; accuracy?: number };
        const pos = typeof b.latitude === 'number' && typeof b.longitude === 'number' && typeof b.accuracy === 'number' ? { latitude: b.latitude, longitude: b.longitude, accuracy: b.accuracy } : null;
        return d.checkIn(c.user!.id, c.input.params.id, pos);
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: '/api/museums/:id/busy-times',
      operationId: 'getMuseumBusyTimes',
      summary: "Best time to visit: verified check-ins by local weekday (Monday first) and hour; null below the minimum; now relative to the museum's busiest hour",
      auth: 'optional',
      schema: {
        params: idParams,
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['total', 'minimum', 'histogram', 'relative', 'now'],
            properties: {
              total: { type: 'integer' },
              minimum: { type: 'integer' },
              histogram: { anyOf: [{ type: 'array', items: { type: 'array', items: { type: 'integer' } } }, { type: 'null' }] },
              relative: {
                anyOf: [{ type: 'array', items: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 100 } } }, { type: 'null' }],
                description: "Each hour as a percent of the museum's busiest hour of the week (same shape as histogram)",
              },
              now: { anyOf: [{ type: 'string', enum: ['quiet', 'average', 'busy'] }, { type: 'null' }] },
            },
          },
          404: { $ref: 'shared/Error' },
        },
      },
      handler: (c) => d.busyTimes(c.input.params.id, cfg.busyMinCheckIns ?? 20),
    });

    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: '/api/museums/:id/fact-check',
      operationId: 'getMuseumFactQuestion',
      summary: 'After a check-in today: the one fact group to ask the member about (the oldest confirmed), or null',
      auth: 'required',
      schema: {
        params: idParams,
        response: { 200: { type: 'object', additionalProperties: false, required: ['group'], properties: { group: { anyOf: [{ type: 'string', enum: ['hours', 'admission', 'accessibility', 'contact'] }, { type: 'null' }] } } }, ...errorResponses },
      },
      handler: (c) => d.factQuestion(c.user!.id, c.input.params.id),
    });

    ctx.routes.add<{ id: number }, unknown, { group: 'hours' | 'admission' | 'accessibility' | 'contact'; agrees: boolean; correction?: string | null; change?: FactCorrection | null }>({
      method: 'POST',
      path: '/api/museums/:id/fact-check',
      operationId: 'answerMuseumFactQuestion',
      summary: 'A visitor who checked in today says whether a fact group is right (yes refreshes it; two or more no answers make a suggestion)',
      auth: 'required',
      status: 201,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['group', 'agrees'],
          properties: {
            group: { type: 'string', enum: ['hours', 'admission', 'accessibility', 'contact'] },
            agrees: { type: 'boolean' },
            correction: { type: ['string', 'null'], maxLength: 1000 },
            change: { anyOf: [ref('FactCorrection'), { type: 'null' }], description: "With a no: the structured correction of the group asked about (only that group's key)" },
          },
        },
        response: {
          201: {
            type: 'object',
            additionalProperties: false,
            required: ['group', 'agrees', 'freshness', 'suggestionId'],
            properties: {
              group: { type: 'string' },
              agrees: { type: 'boolean' },
              freshness: ref('Freshness'),
              suggestionId: { type: ['integer', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
      handler: (c) => d.answerFactQuestion(c.user!.id, c.input.params.id, c.input.body.group, c.input.body.agrees, c.input.body.correction, c.input.body.change),
    });

    ctx.routes.add<{ userId: number }>({
      method: 'GET',
      path: '/api/museums/user/:userId',
      operationId: 'getUserMuseums',
      summary: 'Museums a user follows and has checked in at (profile MUSEUMS tab); respects profile privacy',
      auth: 'optional',
      schema: {
        params: { type: 'object', required: ['userId'], additionalProperties: false, properties: { userId: { $ref: 'shared/Id' } } },
        response: { 200: ref('UserMuseums'), 403: { $ref: 'shared/Error' }, 404: { $ref: 'shared/Error' } },
      },
      async handler(c) {
        const userId = c.input.params.userId;
        const accounts = ctx.services.get(AccountsService);
        if (!(await accounts.getUserSummary(userId))) throw new HttpError(404, 'User not found');
        if (typeof accounts.canViewProfile === 'function' && !(await accounts.canViewProfile(c.user ? { id: c.user.id, role: c.user.role } : null, userId))) {
          throw new HttpError(403, 'This profile is private');
        }
        const followIds: number[] = await knex('museum_follows').where({ user_id: userId }).orderBy('created_at', 'desc').limit(100).pluck('museum_id');
        const visits = await knex('museum_checkins')
          .where({ user_id: userId })
          .groupBy('museum_id')
          .select('museum_id')
          .count({ visits: '*' })
          .max({ last: 'created_at' })
          .orderBy('last', 'desc')
          .limit(100);
        const all = await d.getMany([...followIds, ...visits.map((v: any) => v.museum_id)], viewer(c));
        const byId = new Map(all.map((m) => [m.id, m]));
        return {
          following: followIds.map((id) => byId.get(id)).filter(Boolean),
          visited: visits
            .filter((v: any) => byId.has(v.museum_id))
            .map((v: any) => ({ museum: byId.get(v.museum_id), visits: Number(v.visits), lastVisitAt: new Date(v.last).toISOString() })),
        };
      },
    });

    accessPhotoRoutes(ctx, d); // a photo per accessibility fact (issue 20)

    // ---------------------------------------------------------------- search

    ctx.routes.add<unknown, { q?: string; limit: number }>({
      method: 'GET',
      path: '/api/search/museums',
      operationId: 'searchMuseums',
      summary: 'Museums by name, city or country (typo-tolerant); empty for 2 characters or fewer',
      auth: 'optional',
      schema: {
        query: { type: 'object', additionalProperties: false, properties: { q: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } } },
        response: { type: 'array', items: ref('Museum') },
      },
      handler: (c) => d.search(c.input.query.q ?? '', c.input.query.limit, viewer(c)),
    });

    ctx.routes.add<unknown, { q?: string; limit: number }>({
      method: 'GET',
      path: '/api/search',
      operationId: 'searchAll',
      summary: 'Museums (at most 6), users, posts, communities and events matching q (longer than 2 characters)',
      auth: 'optional',
      schema: {
        query: { type: 'object', additionalProperties: false, properties: { q: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 20, default: 10 } } },
        response: searchAnswer,
      },
      async handler(c) {
        answered = true;
        const q = (c.input.query.q ?? '').trim();
        const empty = { museums: [], users: [], posts: [], communities: [], events: [] };
        if (q.length <= 2) return empty;
        const limit = c.input.query.limit;
        const who = c.user ? { id: c.user.id, role: c.user.role } : undefined;
        return searchAll(q, limit, who);
      },
    });

    // ---------------------------------------------------------------- edits and suggestions

    ctx.routes.add<{ id: number }, unknown, Record<string, unknown>>({
      method: 'PATCH',
      path: '/api/museums/:id/edit',
      operationId: 'editMuseum',
      summary: 'Direct edit: Admin, or the Museum Manager whose id is the museum\'s managerId',
      auth: 'required',
      schema: { params: idParams, body: ref('EditMuseumBody'), response: { 200: ref('Museum'), ...errorResponses } },
      async handler(c) {
        const id = c.input.params.id;
        if (!(await knex('museums').where({ id }).first('id'))) throw new HttpError(404, 'Museum not found');
        if (!(await d.canManage(c.user, id))) throw new HttpError(403, 'Only an Admin or this museum\'s manager can edit it directly. Suggest an edit instead.');
        return d.update(id, c.input.body, c.user!.id, { requireForEdit: true, source: c.user!.role === 'Admin' ? 'admin' : 'manager' });
      },
    });

    ctx.routes.add<{ id: number }, unknown, { suggestedChanges: Record<string, unknown>; reason?: string | null }>({
      method: 'POST',
      path: '/api/museums/:id/suggest-edit',
      operationId: 'suggestMuseumEdit',
      summary: 'Suggest changes for review (only changed fields are kept; "No changes detected" otherwise)',
      auth: 'required',
      status: 201,
      schema: { params: idParams, body: ref('SuggestEditBody'), response: { 201: ref('EditSuggestion'), ...errorResponses } },
      handler: (c) => d.suggestEdit(c.user!.id, c.input.params.id, c.input.body.suggestedChanges, c.input.body.reason),
    });

    ctx.routes.add<unknown, unknown, Record<string, unknown>>({
      method: 'POST',
      path: '/api/museum-suggestions',
      operationId: 'suggestMuseum',
      summary: 'Propose a new museum (pending review); while pending, insights tag it as museumId = -id',
      auth: 'required',
      status: 201,
      schema: { body: ref('MuseumSuggestionBody'), response: { 201: ref('MuseumSuggestion'), ...errorResponses } },
      handler: (c) => d.suggestMuseum(c.user!.id, c.input.body),
    });

    ctx.routes.add<unknown, unknown, Record<string, unknown>>({
      method: 'POST',
      path: '/api/museums',
      operationId: 'createMuseum',
      summary: 'Create a museum profile (unverified until an Admin verifies it)',
      auth: 'required',
      status: 201,
      schema: { body: ref('CreateMuseumBody'), response: { 201: ref('Museum'), ...errorResponses } },
      async handler(c) {
        const { wikidataId, ...fields } = c.input.body as Record<string, unknown> & { wikidataId?: string | null };
        const museum = await d.create(fields, c.user!.id);
        if (wikidataId) {
          await knex('museums').where({ id: museum.id }).whereNull('wikidata_id').update({ wikidata_id: wikidataId }).catch(() => undefined);
          return d.get(museum.id, c.user!.id);
        }
        return museum;
      },
    });

    // ---------------------------------------------------------------- knowledge base, geocoding, maps

    ctx.routes.add<unknown, unknown, { museumName: string }>({
      method: 'POST',
      path: '/api/museums/auto-populate',
      operationId: 'autoPopulateMuseum',
      summary: 'Looks a museum up by name in Wikidata; found false when nothing matches',
      auth: 'required',
      schema: {
        body: ref('AutoPopulateBody'),
        response: { 200: ref('AutoPopulateResult'), 400: { $ref: 'shared/Error' }, 401: { $ref: 'shared/Error' }, 502: { $ref: 'shared/Error' }, 504: { $ref: 'shared/Error' } },
      },
      async handler(c) {
        let m;
        try {
          m = await wikidata.findMuseum(c.input.body.museumName);
        } catch (e) {
          externalError(e, 'Failed to fetch museum data');
        }
        if (!m) return { found: false };
        const { types: _types, ...data } = m;
        return { found: true, data: { ...data, openingHours: null } };
      },
    });

    ctx.routes.add<unknown, { address?: string; city?: string; country?: string }>({
      method: 'GET',
      path: '/api/geocode',
      operationId: 'geocodeAddress',
      summary: 'Coordinates of an address and city (server-side geocoding, cached)',
      auth: 'required',
      schema: {
        query: {
          type: 'object',
          additionalProperties: false,
          properties: { address: { type: 'string', maxLength: 300 }, city: { type: 'string', maxLength: 120 }, country: { type: 'string', maxLength: 120 } },
        },
        response: { 200: ref('GeocodeResult'), 400: { $ref: 'shared/Error' }, 401: { $ref: 'shared/Error' }, 502: { $ref: 'shared/Error' }, 504: { $ref: 'shared/Error' } },
      },
      async handler(c) {
        const { address = '', city = '', country } = c.input.query;
        if (!address.trim() || !city.trim()) throw new HttpError(400, 'Please enter both address and city to lookup coordinates.');
        let hit;
        try {
          hit = await geocoder.geocode(address, city, country);
        } catch (e) {
          externalError(e, 'Failed to lookup coordinates');
        }
        if (!hit.found) return { found: false };
        return {
          found: true,
          latitude: hit.latitude,
          longitude: hit.longitude,
          displayName: hit.displayName,
          ...(country?.trim() ? { timezone: guessTimeZone(country, hit.latitude, hit.longitude) } : {}),
        };
      },
    });

    ctx.routes.add<unknown, { q: string }>({
      method: 'GET',
      path: '/api/geocode/place',
      operationId: 'geocodePlace',
      summary: "Coordinates of a typed place for Discover's near filter (server-side geocoding, cached; visitors too)",
      auth: 'optional',
      schema: {
        query: {
          type: 'object',
          additionalProperties: false,
          required: ['q'],
          properties: { q: { type: 'string', minLength: 2, maxLength: 120, pattern: '\\S', 'x-messages': { minLength: 'Please enter a place', pattern: 'Please enter a place', required: 'Please enter a place' } } },
        },
        response: { 200: ref('GeocodeResult'), 400: { $ref: 'shared/Error' }, 429: { $ref: 'shared/Error' }, 502: { $ref: 'shared/Error' }, 504: { $ref: 'shared/Error' } },
      },
      async handler(c) {
        // provider calls are spaced (1/s for Nominatim): a long queue answers 429 rather than waiting
        if (geocoder.waiting() >= PLACE_QUEUE_MAX) throw tooMany('Too many place lookups right now. Please try again in a moment.', 2);
        let hit;
        try {
          hit = await geocoder.geocodePlace(c.input.query.q);
        } catch (e) {
          externalError(e, 'Failed to look up the place');
        }
        if (!hit.found) return { found: false };
        return { found: true, latitude: hit.latitude, longitude: hit.longitude, displayName: hit.displayName };
      },
    });

    const mapsKey = () => (ctx.appConfig.googleMapsApiKey ?? '').trim();
    const notConfigured = 'Google Maps is not configured on this server (GOOGLE_MAPS_API_KEY is not set).';

    ctx.routes.add<unknown, { libraries?: string; v?: string; callback?: string }>({
      method: 'GET',
      path: '/api/google-maps-script',
      operationId: 'loadGoogleMapsScript',
      summary: 'Redirects to the Google Maps JavaScript API with the server\'s key; 503 when no key is configured',
      auth: 'none',
      raw: true,
      rawContentType: 'application/javascript',
      schema: {
        query: {
          type: 'object',
          additionalProperties: false,
          properties: {
            libraries: { type: 'string', maxLength: 100, pattern: '^[a-z,_]*$' },
            v: { type: 'string', maxLength: 20, pattern: '^[a-z0-9.]*$' },
            callback: { type: 'string', maxLength: 100, pattern: '^[A-Za-z_$][A-Za-z0-9_$.]*$' },
          },
        },
      },
      handler(c) {
        const key = mapsKey();
        c.set('Cache-Control', 'no-store');
        if (!key) {
          c.status = 503;
          c.body = { message: notConfigured };
          return;
        }
        const u = new URL('https://maps.googleapis.com/maps/api/js');
        u.searchParams.set('key', key);
        const q = c.input.query;
        if (q.libraries) u.searchParams.set('libraries', q.libraries);
        u.searchParams.set('v', q.v || 'weekly');
        if (q.callback) u.searchParams.set('callback', q.callback);
        c.status = 302;
        c.redirect(u.toString());
      },
    });

    ctx.routes.add({
      method: 'GET',
      path: '/api/google-maps-config',
      operationId: 'getGoogleMapsConfig',
      summary: 'The browser key for the map (restrict it by HTTP referrer at Google); 503 when none is configured',
      auth: 'none',
      schema: {
        response: {
          200: { type: 'object', additionalProperties: false, required: ['apiKey'], properties: { apiKey: { type: 'string' } } },
          503: { $ref: 'shared/Error' },
        },
      },
      handler(c) {
        const key = mapsKey();
        c.set('Cache-Control', 'no-store');
        if (!key) throw new HttpError(503, notConfigured);
        return { apiKey: key };
      },
    });
  },

  async seed(ctx, progress) {
    await seedMuseums(ctx, progress);
  },
});

/** Loads seeds/museums/museums.json: inserts museums whose slug is not there yet (a second run adds nothing). */
export async function seedMuseums(ctx: PluginContext, progress: { start(total: number, label: string): void; tick(n?: number): void }): Promise<number> {
  const file = path.join(ROOT, 'seeds', 'museums', 'museums.json');
  if (!fs.existsSync(file)) return 0;
  const list = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, any>>;
  progress.start(list.length, 'museums');
  const knex = ctx.db;
  const domain = new MuseumsDomain(knex, ctx, { recentCheckInDays: ctx.config.recentCheckInDays ?? 30 });
  let added = 0;
  for (const m of list) {
    const exists = await knex('museums').where({ slug: m.slug }).first('id');
    if (!exists) {
      const fields = domain.normalizeInput({
        name: m.name,
        description: m.description,
        category: m.category,
        phone: m.phone,
        email: m.email,
        website: m.website,
        donateUrl: m.donateUrl,
        address: m.address,
        address2: m.address2,
        city: m.city,
        state: m.state,
        zipCode: m.zipCode,
        country: m.country,
        latitude: m.latitude,
        longitude: m.longitude,
        timezone: m.timezone,
        featuredImage: m.featuredImage,
        amenities: m.amenities ?? [],
        openingHours: m.openingHours ?? null,
        admission: m.admission ?? null,
        accessibility: m.accessibility ?? {},
      });
      const row: Record<string, unknown> = {
        slug: m.slug,
        name: fields.name,
        description: fields.description ?? '',
        category: fields.category ?? null,
        phone: fields.phone ?? null,
        email: fields.email ?? null,
        website: fields.website ?? null,
        donate_url: fields.donateUrl ?? null,
        address: fields.address,
        address2: fields.address2 ?? null,
        city: fields.city,
        state: fields.state ?? null,
        zip_code: fields.zipCode ?? null,
        country: fields.country,
        latitude: fields.latitude ?? null,
        longitude: fields.longitude ?? null,
        timezone: (fields.timezone as string) || guessTimeZone(m.country, m.latitude, m.longitude),
        featured_image: fields.featuredImage ?? null,
        amenities: JSON.stringify(fields.amenities ?? []),
        opening_hours: fields.openingHours ? JSON.stringify(fields.openingHours) : null,
        admission: fields.admission ? JSON.stringify(fields.admission) : null,
        accessibility: JSON.stringify(fields.accessibility ?? {}),
        is_verified: Boolean(m.isVerified),
        is_featured: Boolean(m.isFeatured),
        rating: typeof m.rating === 'number' ? m.rating : 0,
        total_reviews: typeof m.totalReviews === 'number' ? m.totalReviews : 0,
      };
      const inserted = await knex('museums').insert(row).onConflict().ignore().returning('id');
      added += inserted.length;
    }
    progress.tick();
  }
  return added;
}

/** A statement-only provider's search, run on its own. */
async function runStatement(st: SearchStatement | null): Promise<SearchItem[]> {
  return st ? st.answer(await st.query) : [];
}

/** A kind's rows from the joint search statement (a JSON array; text when the driver leaves json unparsed). */
function jsonRows(value: unknown): Array<Record<string, any>> {
  const v = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(v) ? v : [];
}
