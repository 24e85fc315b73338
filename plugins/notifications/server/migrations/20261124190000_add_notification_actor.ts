import type { Knex } from 'knex';

/**
 * Who caused a notification (the follower, the liker, the commenter), when a member did: the inbox
 * hides notifications from members blocked either way or muted with their notifications (accounts'
 * rule, applied in the list's statement), also for those stored before the block or mute.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.integer('actor_id').nullable().references('users.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.dropColumn('actor_id');
  });
}
