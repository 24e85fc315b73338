import type { Knex } from 'knex';

/**
 * Discover's combined filters (issue 20) stay in SQL: the accessibility "yes" filters are one
 * jsonb containment test (`accessibility @> '{"stepFreeEntrance":{"value":"yes"}}'`) served by a
 * GIN index, and "near me" with a radius starts with a bounding box on latitude / longitude.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists museums_accessibility_gin on museums using gin (accessibility jsonb_path_ops)');
  await knex.raw('create index if not exists museums_lat_lng on museums (latitude, longitude) where latitude is not null and longitude is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists museums_lat_lng');
  await knex.raw('drop index if exists museums_accessibility_gin');
}
