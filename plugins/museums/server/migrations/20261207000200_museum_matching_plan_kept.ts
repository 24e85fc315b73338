import type { Knex } from 'knex';

/**
 * `museums_matching(q, pattern)` (migration 20261206000100) keeps its plan (issue 18).
 *
 * As a SQL function with SET clauses it cannot be inlined, and PostgreSQL plans the body of such a
 * function again on every call: under the bench's mixed workload it was called 4,665 times and
 * planned 4,665 times (0.16 ms of planning for 0.19 ms of execution, pg_stat_statements). A PL/pgSQL
 * body keeps its plan for the life of the connection (a prepared statement's: planned with the
 * values for its first runs, then the generic plan when it costs no more). Same statement, same
 * settings for its run, same answers (museums.test.ts compares it with the conditions it replaced).
 * pgbench, 92 museums, six words in turn, two clients: 4,450–4,560 → 5,560–5,570 calls a second.
 */
const SETTINGS = `
    set pg_trgm.similarity_threshold = 0.3
    set pg_trgm.word_similarity_threshold = 0.4
    set enable_seqscan = off
    rows 50`;

const MATCH = `select m.id from museums m
       where m.name ilike pattern or m.city ilike pattern or m.country ilike pattern
          or m.name % q or q <% m.name or (m.city % q and similarity(m.city, q) >= 0.5)`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function museums_matching(q text, pattern text) returns setof integer
    language plpgsql stable${SETTINGS}
    as $$
    begin
      return query ${MATCH};
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function museums_matching(q text, pattern text) returns setof integer
    language sql stable${SETTINGS}
    as $$
      ${MATCH}
    $$`);
}
