import type { Knex } from 'knex';

/** Search of insights by text (GET /api/search posts): trigram index (pg_trgm comes with core). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index insights_posts_content_trgm on insights_posts using gin (content gin_trgm_ops)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists insights_posts_content_trgm`);
}
