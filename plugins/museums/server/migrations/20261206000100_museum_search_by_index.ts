import type { Knex } from 'knex';

/**
 * Museum search by index (issue 18). The search matched museums with six conditions (name, city or
 * country containing the text; the name's word similarity ≥ 0.4, its similarity ≥ 0.3, the city's
 * ≥ 0.5) written as function calls, which no index serves: every search computed them for every
 * museum, 1–1.7 ms of PostgreSQL per search at 92 museums and 220–280 ms at 30,000.
 *
 * `museums_matching(q, pattern)` finds the same museums through the trigram indexes: pg_trgm's `%`
 * (similarity) and `<%` (word similarity) operators say "at least the threshold", and the function
 * sets the thresholds for its own run (0.3 and 0.4; the city's 0.5 is checked after its `%`).
 * `enable_seqscan = off` for the same run only: its body is planned without the text's value, and
 * PostgreSQL's cost of a trigram index scan (as planned) is above a whole scan of a table of a few
 * thousand museums that the index answers 10–15 times faster. Country gains its trigram index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists museums_country_trgm on museums using gin (country gin_trgm_ops)');
  await knex.raw(`
    create or replace function museums_matching(q text, pattern text) returns setof integer
    language sql stable
    set pg_trgm.similarity_threshold = 0.3
    set pg_trgm.word_similarity_threshold = 0.4
    set enable_seqscan = off
    rows 50
    as $$
      select m.id from museums m
       where m.name ilike pattern or m.city ilike pattern or m.country ilike pattern
          or m.name % q or q <% m.name or (m.city % q and similarity(m.city, q) >= 0.5)
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists museums_matching(text, text)');
  await knex.raw('drop index if exists museums_country_trgm');
}
