import type { Knex } from 'knex';

/**
 * Accessibility facts (issue 20): one JSON document per museum (schema museums/Accessibility).
 * Discover filters on "yes" read it in SQL (accessibility -> key ->> 'value').
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museums', (t) => {
    t.jsonb('accessibility').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museums', (t) => {
    t.dropColumn('accessibility');
  });
}
