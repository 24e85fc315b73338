import type { Knex } from 'knex';

/**
 * Structured corrections (issue 20): a visitor's "no" to "still right?" may carry the change it
 * asks for (museum fields, e.g. today's hours as a dated exception), which the suggestion made
 * from two or more such answers carries to the manager/admin queue. An index for the
 * best-time-to-visit counts (verified check-ins of one museum in the last year).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museum_fact_answers', (t) => {
    t.jsonb('changes').nullable();
  });
  await knex.raw('create index if not exists museum_checkins_busy_idx on museum_checkins (museum_id, created_at) where verified');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists museum_checkins_busy_idx');
  await knex.schema.alterTable('museum_fact_answers', (t) => {
    t.dropColumn('changes');
  });
}
