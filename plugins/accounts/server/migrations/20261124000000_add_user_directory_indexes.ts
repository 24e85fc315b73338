import type { Knex } from 'knex';

/**
 * The user directory at scale (service.ts listUsers, countUsers, searchUsers):
 * - trigram indexes on the exact search expressions (partial, case-insensitive ILIKE '%q%'):
 *   people search (username, "first last") and the admin list (the same plus email);
 * - newest first (created_at desc, id desc) for the admin list's pages;
 * - role, for the admin list's role filter and the count of Admins.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index users_name_search_trgm on users using gin ((username::text || E'\\n' || first_name || ' ' || last_name) gin_trgm_ops)`);
  await knex.raw(`create index users_admin_search_trgm on users using gin ((username::text || E'\\n' || first_name || ' ' || last_name || E'\\n' || email::text) gin_trgm_ops)`);
  await knex.raw('create index users_newest on users (created_at desc, id desc)');
  await knex.raw('create index users_role on users (role)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_role');
  await knex.raw('drop index if exists users_newest');
  await knex.raw('drop index if exists users_admin_search_trgm');
  await knex.raw('drop index if exists users_name_search_trgm');
}
