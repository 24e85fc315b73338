import type { Knex } from 'knex';

/**
 * A deleted member's comment that others replied under is kept, emptied and without an author
 * (issue 24: "Deleted member", core/threads.ts eraseUserComments), so the replies stay in their
 * thread: user_id becomes nullable (the foreign key stays for every other row).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table community_comments alter column user_id drop not null');
  // an anonymised comment holds nothing of its author
  await knex.raw(`alter table community_comments add constraint community_comments_anonymised_check check (user_id is not null or (content = '' and mentions = '[]'::jsonb))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table community_comments drop constraint community_comments_anonymised_check');
  await knex('community_comments').whereNull('user_id').del();
  await knex.raw('alter table community_comments alter column user_id set not null');
}
