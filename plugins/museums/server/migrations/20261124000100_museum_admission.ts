import type { Knex } from 'knex';

/** Admission prices and free-entry rules (issue 20), one JSON document per museum (schema museums/Admission). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museums', (t) => {
    t.jsonb('admission').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museums', (t) => {
    t.dropColumn('admission');
  });
}
