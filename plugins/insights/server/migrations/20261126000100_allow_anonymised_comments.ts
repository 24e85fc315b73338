import type { Knex } from 'knex';

/**
 * A deleted member's comment that others replied under is kept, emptied and without an author
 * (issue 24: "deleted member"), so the replies stay in their thread: user_id becomes nullable.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table insights_comments alter column user_id drop not null');
  // an anonymised comment holds nothing of its author
  await knex.raw(`alter table insights_comments add constraint insights_comments_anonymised_check check (user_id is not null or (content = '' and mentions = '[]'::jsonb))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table insights_comments drop constraint insights_comments_anonymised_check');
  await knex('insights_comments').whereNull('user_id').del();
  await knex.raw('alter table insights_comments alter column user_id set not null');
}
