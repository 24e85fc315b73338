import type { Knex } from 'knex';

/** Mentions resolved when an insight or comment is written: [{ userId, username, start, length }]. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table insights_posts add column mentions jsonb not null default '[]'::jsonb`);
  await knex.raw(`alter table insights_comments add column mentions jsonb not null default '[]'::jsonb`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table insights_posts drop column mentions');
  await knex.raw('alter table insights_comments drop column mentions');
}
