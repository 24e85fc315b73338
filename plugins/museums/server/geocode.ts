/**
 * Server-side geocoding with a Nominatim-style provider (GET <endpoint>?q=…&format=jsonv2&limit=1
 * answering [{ lat, lon, display_name }]). Answers are cached in museum_geocode_cache (found ones
 * for `cacheDays`, misses for a day); calls to the provider are spaced by `minIntervalMs`
 * (Nominatim's usage policy asks for at most one request per second).
 */
import type { Knex } from 'knex';
import { getJson } from './http-json.ts';

export interface GeocoderConfig {
  endpoint: string;
  timeoutMs: number;
  userAgent: string;
  cacheDays: number;
  minIntervalMs: number;
  language: string;
}

export interface GeocodeHit {
  found: boolean;
  latitude?: number;
  longitude?: number;
  displayName?: string;
  cached: boolean;
}

export function geocodeKey(parts: Array<string | null | undefined>): string {
  return parts
    .map((p) => (p ?? '').normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join(', ')
    .slice(0, 600);
}

export function createGeocoder(knex: Knex, cfg: GeocoderConfig) {
  let chain: Promise<unknown> = Promise.resolve();
  let last = 0;

  /** Runs provider calls one after the other, at least minIntervalMs apart. */
  function spaced<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(async () => {
      const wait = last + cfg.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        return await fn();
      } finally {
        last = Date.now();
      }
    });
    chain = run.catch(() => undefined);
    return run;
  }

  async function ask(query: string): Promise<Omit<GeocodeHit, 'cached'>> {
    const u = new URL(cfg.endpoint);
    u.searchParams.set('q', query);
    u.searchParams.set('format', 'jsonv2');
    u.searchParams.set('limit', '1');
    const body = await spaced(() => getJson('The geocoding service', u.toString(), { timeoutMs: cfg.timeoutMs, userAgent: cfg.userAgent, language: cfg.language }));
    const first = Array.isArray(body) ? body[0] : null;
    const lat = Number(first?.lat);
    const lng = Number(first?.lon);
    if (!first || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return { found: false };
    return { found: true, latitude: lat, longitude: lng, displayName: typeof first.display_name === 'string' ? first.display_name : query };
  }

  /** Answers from the cache when fresh enough, else asks the provider and caches the answer. */
  async function lookup(key: string, query: string): Promise<GeocodeHit> {
    const row = await knex('museum_geocode_cache').where({ query_key: key }).first();
    if (row) {
      const ageMs = Date.now() - new Date(row.created_at).getTime();
      const ttl = (row.found ? cfg.cacheDays : 1) * 86400000;
      if (ageMs < ttl) {
        return row.found
          ? { found: true, latitude: row.latitude, longitude: row.longitude, displayName: row.display_name ?? undefined, cached: true }
          : { found: false, cached: true };
      }
    }
    waiting++;
    let hit: Omit<GeocodeHit, 'cached'>;
    try {
      hit = await ask(query);
    } finally {
      waiting--;
    }
    await knex('museum_geocode_cache')
      .insert({ query_key: key, found: hit.found, latitude: hit.latitude ?? null, longitude: hit.longitude ?? null, display_name: hit.displayName ?? null, created_at: knex.fn.now() })
      .onConflict('query_key')
      .merge();
    return { ...hit, cached: false };
  }
  let waiting = 0;

  return {
    async geocode(address: string, city: string, country?: string | null): Promise<GeocodeHit> {
      const query = [address, city, country].map((p) => (p ?? '').trim()).filter(Boolean).join(', ');
      return lookup(geocodeKey([address, city, country]), query);
    },
    /** A typed place ("Lyon", "Brooklyn, NY") for Discover's "near": the same provider and cache. */
    async geocodePlace(place: string): Promise<GeocodeHit> {
      return lookup(geocodeKey(['place:', place]), place.trim());
    },
    /** Provider calls waiting their turn (they are spaced by minIntervalMs). */
    waiting: () => waiting,
  };
}

export type Geocoder = ReturnType<typeof createGeocoder>;
