/**
 * "Update Museums" (admin): fills missing museum information from Wikidata. For each museum with
 * gaps (description, website, phone, email, coordinates, image) the item is its stored
 * wikidataId, or the best name match whose place agrees (same city or country label, or within
 * 5 miles of known coordinates). Only empty fields are filled; nothing typed by people is
 * overwritten.
 */
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import type { MuseumsDomain } from './service.ts';
import type { WikidataClient, WikidataMuseum } from './wikidata.ts';
import { distanceMiles } from './places.ts';

const norm = (s: string | null | undefined) => (s ?? '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase();

function samePlace(row: any, m: WikidataMuseum): boolean {
  if (row.latitude != null && row.longitude != null && m.latitude != null && m.longitude != null) {
    return distanceMiles(row.latitude, row.longitude, m.latitude, m.longitude) <= 5;
  }
  const city = norm(row.city);
  const text = `${norm(m.city)} | ${norm(m.state)} | ${norm(m.address)}`;
  if (city && text.includes(city)) return true;
  return Boolean(norm(row.country) && norm(row.country) === norm(m.country) && norm(m.name) === norm(row.name));
}

export async function enrichMuseums(
  knex: Knex,
  domain: MuseumsDomain,
  wikidata: WikidataClient,
  ctx: PluginContext,
  opts: { limit?: number; museumIds?: number[] },
): Promise<{ checked: number; updated: number; failed: number }> {
  const limit = Math.min(500, Math.max(1, opts.limit ?? 25));
  const q = knex('museums')
    .where((w) =>
      w
        .where('description', '')
        .orWhereNull('website')
        .orWhereNull('phone')
        .orWhereNull('email')
        .orWhereNull('latitude')
        .orWhereNull('featured_image'),
    )
    .orderBy('id')
    .limit(limit);
  if (opts.museumIds?.length) q.whereIn('id', opts.museumIds);
  const rows = await q.select('*');
  let updated = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      let match: WikidataMuseum | undefined;
      if (row.wikidata_id) match = (await wikidata.fetchMuseums([row.wikidata_id]))[0];
      else match = (await wikidata.findMuseums(row.name, 7)).find((m) => samePlace(row, m));
      if (!match) continue;
      const fill: Record<string, unknown> = {};
      if (!row.description && match.description) fill.description = match.description.charAt(0).toUpperCase() + match.description.slice(1) + '.';
      if (!row.website && /^https?:\/\//.test(match.website)) fill.website = match.website;
      if (!row.phone && match.phone) fill.phone = match.phone.slice(0, 50);
      if (!row.email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(match.email)) fill.email = match.email;
      if ((row.latitude == null || row.longitude == null) && match.latitude != null && match.longitude != null) {
        fill.latitude = match.latitude;
        fill.longitude = match.longitude;
      }
      if (!row.featured_image && match.featuredImage) fill.featuredImage = match.featuredImage;
      const hasFill = Object.keys(fill).length > 0;
      if (!hasFill && row.wikidata_id) continue;
      const taken = row.wikidata_id ? null : await knex('museums').where({ wikidata_id: match.wikidataId }).first('id');
      await knex.transaction(async (trx) => {
        if (hasFill) await domain.applyChanges(trx, row.id, domain.normalizeInput(fill));
        if (!row.wikidata_id && !taken) await trx('museums').where({ id: row.id }).update({ wikidata_id: match!.wikidataId });
      });
      if (hasFill) {
        updated++;
        await ctx.events.emit('museums.museum.updated', { museumId: row.id, userId: null, changes: fill });
      }
    } catch (err) {
      failed++;
      ctx.log.warn({ err, museumId: row.id }, 'could not enrich a museum from Wikidata');
    }
  }
  return { checked: rows.length, updated, failed };
}
