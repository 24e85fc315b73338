/**
 * Suggestions that are never empty while museums exist (issue 21): museums in a member's interest
 * categories or near their home first, then the most popular (followers, check-ins, insights), never
 * one they follow. One statement. Also the onboarding sources accounts asks for (interest choices,
 * geocoding a typed home city through the cached geocoding client).
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { OnboardingSourcesApi } from '../../accounts/public.ts';
import type { MuseumsApi, MuseumSuggestionQuery, SuggestedMuseum } from '../public.ts';
import { CATEGORIES } from '../shared/catalog.ts';
import { imageInfoSql } from '../../../core/images.ts';
import { ExternalServiceError } from './http-json.ts';

export const NEARBY_KM = 100;
const catKey = (c: string) => c.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');

export function createSuggest(knex: Knex, toSummary: (row: any) => any): MuseumsApi['suggestMuseums'] {
  return async function suggestMuseums(q: MuseumSuggestionQuery): Promise<SuggestedMuseum[]> {
    const limit = Math.max(1, Math.min(100, Math.floor(q.limit)));
    const cats = (q.categories ?? []).filter((c) => typeof c === 'string');
    const near = q.near ?? null;
    const radius = q.radiusKm ?? NEARBY_KM;
    // great-circle distance in km (null without a home or coordinates)
    const km = near
      ? knex.raw(
          `case when latitude is null or longitude is null then null else 6371 * 2 * asin(sqrt(power(sin(radians(latitude - ?) / 2), 2) + cos(radians(?)) * cos(radians(latitude)) * power(sin(radians(longitude - ?) / 2), 2))) end`,
          [near.latitude, near.latitude, near.longitude],
        )
      : knex.raw('null::double precision');
    const inner = knex('museums')
      .select('id', 'slug', 'name', 'city', 'country', 'featured_image', 'category', 'manager_id', 'is_verified', 'timezone', 'follower_count', 'check_in_count', 'total_insights')
      .select(knex.raw('(category = any(?::text[])) as interest', [cats]))
      .select({ km })
      .modify((b) => {
        if (q.viewerId != null) b.whereNotExists(knex('museum_follows as f').whereRaw('f.museum_id = museums.id').andWhere('f.user_id', q.viewerId));
        if (q.excludeIds?.length) b.whereNotIn('id', q.excludeIds);
      });
    const rows = await knex
      .from(inner.as('m'))
      .select('*')
      .select(knex.raw('(m.km is not null and m.km <= ?) as nearby', [radius]))
      // the featured image's made widths and placeholder (cards), in this statement
      .select(knex.raw('? as featured_image_info', [imageInfoSql(knex, 'm.featured_image')]))
      .orderByRaw('(case when m.interest then 2 else 0 end + case when m.km is not null and m.km <= ? then 1 else 0 end) desc, m.follower_count + m.check_in_count + m.total_insights desc, m.km asc nulls last, m.id asc', [radius])
      .limit(limit);
    return (rows as any[]).map((r) => ({
      ...toSummary(r),
      reason: r.interest ? 'interest' : r.nearby ? 'nearby' : 'popular',
      followerCount: Number(r.follower_count ?? 0),
      distanceKm: r.km == null ? null : Math.round(Number(r.km) * 10) / 10,
    }));
  };
}

export function onboardingSources(geocodeCity: (city: string) => Promise<{ found: boolean; latitude?: number; longitude?: number; displayName?: string }>): OnboardingSourcesApi {
  return {
    interestChoices: () => CATEGORIES.map((c) => ({ key: c, label: c, labelKey: `museums:categories.${catKey(c)}` })),
    async geocodeCity(city) {
      try {
        return await geocodeCity(city);
      } catch (e) {
        if (e instanceof ExternalServiceError) throw new HttpError(e.kind === 'timeout' ? 504 : 502, `Failed to look up the city: ${e.message}`);
        throw e;
      }
    },
  };
}
