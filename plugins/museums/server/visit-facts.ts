/**
 * MuseumsApi.visitFacts: what a day plan (plans plugin) needs to check visits with checkVisit
 * (shared/visit.ts): hours, admission, zone, position, and the public holidays of the plan's
 * dates from date-holidays (server only, like every museum answer's `holidays`).
 */
import type { Knex } from 'knex';
import type { VisitFacts } from '../public.ts';
import { normalizeHours } from '../shared/opening-hours.ts';
import { normalizeAdmission } from '../shared/admission.ts';
import { effectivePolicy, publicHolidaysBetween } from './holidays.ts';

const jsonValue = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

function parse(s: string): { year: number; month: number; day: number } {
  const [year, month, day] = s.split('-').map(Number);
  return { year, month, day };
}

export async function visitFacts(knex: Knex, ids: number[], dates: { from: string; to: string }): Promise<VisitFacts[]> {
  const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i > 0))];
  if (!unique.length) return [];
  const rows = await knex('museums')
    .whereIn('id', unique)
    .select('id', 'slug', 'name', 'city', 'country', 'state', 'featured_image', 'timezone', 'latitude', 'longitude', 'opening_hours', 'admission');
  const byId = new Map(rows.map((r: any) => [r.id, r]));
  const out: VisitFacts[] = [];
  for (const id of unique) {
    const r: any = byId.get(id);
    if (!r) continue;
    const hours = r.opening_hours == null ? null : normalizeHours(jsonValue(r.opening_hours));
    out.push({
      id: r.id,
      slug: r.slug,
      name: r.name,
      city: r.city ?? '',
      country: r.country ?? '',
      featuredImage: r.featured_image ?? null,
      timezone: r.timezone || 'UTC',
      latitude: r.latitude == null ? null : Number(r.latitude),
      longitude: r.longitude == null ? null : Number(r.longitude),
      openingHours: hours,
      admission: r.admission == null ? null : normalizeAdmission(jsonValue(r.admission)),
      // a museum without a holiday country has it guessed from its address (effectivePolicy)
      holidays: hours ? publicHolidaysBetween(effectivePolicy(hours.publicHolidays, r), parse(dates.from), parse(dates.to)) : [],
    });
  }
  return out;
}
