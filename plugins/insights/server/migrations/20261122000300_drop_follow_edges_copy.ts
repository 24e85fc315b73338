import type { Knex } from 'knex';

/** The accounts service now answers the follow graph (followingIds); the event-fed copy goes. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('insights_follow_edges');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('insights_follow_edges', (t) => {
    t.integer('follower_id').notNullable();
    t.integer('following_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['follower_id', 'following_id']);
  });
}
