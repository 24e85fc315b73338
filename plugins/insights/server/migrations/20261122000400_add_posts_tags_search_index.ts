import type { Knex } from 'knex';

/**
 * Search of insights by tag (GET /api/search posts): a trigram index over the tags too, so a
 * search is "content matches or a tag matches" answered from two trigram indexes instead of a
 * scan of the whole table (the exists-over-unnest form could use no index: 0.8 s over 100,000
 * posts for a phrase that matches nothing). array_to_string is only STABLE in general (element
 * output functions); for text[] it is immutable, which the wrapper states so it can be indexed.
 * Tags are joined with the unit separator (U+001F), which a search term never contains, so a
 * term matches inside one tag only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create or replace function insights_tags_text(tags text[]) returns text
    language sql immutable parallel safe as $$ select array_to_string(tags, chr(31)) $$`);
  await knex.raw(`create index insights_posts_tags_trgm on insights_posts using gin (insights_tags_text(tags) gin_trgm_ops)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists insights_posts_tags_trgm`);
  await knex.raw(`drop function if exists insights_tags_text(text[])`);
}
