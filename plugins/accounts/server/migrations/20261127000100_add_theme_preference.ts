import type { Knex } from 'knex';

/** The member's theme (issue 21): system (follows prefers-color-scheme), light or dark. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_preferences', (t) => {
    t.string('theme', 10).notNullable().defaultTo('system');
  });
  await knex.raw(`alter table user_preferences add constraint user_preferences_theme check (theme in ('system', 'light', 'dark'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_preferences', (t) => {
    t.dropColumn('theme');
  });
}
