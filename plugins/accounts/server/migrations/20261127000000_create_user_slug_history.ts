import type { Knex } from 'knex';

/**
 * The slugs (and usernames) a member had before renaming: `/profile/{old}` answers a 301 to the
 * current slug, the API finds the member by an old one. A slug in use by a member now always wins
 * over the history; a slug taken by someone else is removed from it (slug-history.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_slug_history', (t) => {
    t.string('slug', 100).primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id'], 'user_slug_history_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('user_slug_history');
}
