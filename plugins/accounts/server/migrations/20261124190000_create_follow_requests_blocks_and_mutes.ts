import type { Knex } from 'knex';

/**
 * Locked profiles, blocks and mutes (issue 15):
 * - user_follow_requests: a pending request to follow a private profile (one per pair);
 * - user_blocks: `blocker_id` blocked `blocked_id` (either way, neither sees nor reaches the other);
 * - user_mutes: `muter_id` muted `muted_id` until `expires_at` (null: until undone); `notifications`
 *   also hides their notifications. An expired mute simply no longer matches `expires_at > now()`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_follow_requests', (t) => {
    t.increments('id').primary();
    t.integer('requester_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('target_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['requester_id', 'target_id']);
    t.index(['target_id', 'id']);
  });
  await knex.raw('alter table user_follow_requests add constraint user_follow_requests_not_self check (requester_id <> target_id)');

  await knex.schema.createTable('user_blocks', (t) => {
    t.integer('blocker_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('blocked_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['blocker_id', 'blocked_id']);
    t.index(['blocked_id']);
  });
  await knex.raw('alter table user_blocks add constraint user_blocks_not_self check (blocker_id <> blocked_id)');

  await knex.schema.createTable('user_mutes', (t) => {
    t.integer('muter_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('muted_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('notifications').notNullable().defaultTo(true);
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['muter_id', 'muted_id']);
  });
  await knex.raw('alter table user_mutes add constraint user_mutes_not_self check (muter_id <> muted_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_mutes');
  await knex.schema.dropTable('user_blocks');
  await knex.schema.dropTable('user_follow_requests');
}
