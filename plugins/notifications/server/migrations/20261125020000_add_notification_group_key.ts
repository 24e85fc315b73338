import type { Knex } from 'knex';

/**
 * Notifications about the same thing (the likes of one insight: `like:insight:12`) share a group
 * key: the inbox shows them as one row ("Noah and 3 others liked your insight"), grouped in the
 * list's statement after the accounts rule has removed blocked and muted actors.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.string('group_key', 120).nullable();
    t.index(['user_id', 'group_key'], 'notifications_user_group_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.dropIndex(['user_id', 'group_key'], 'notifications_user_group_idx');
    t.dropColumn('group_key');
  });
}
