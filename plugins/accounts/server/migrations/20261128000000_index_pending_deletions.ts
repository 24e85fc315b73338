import type { Knex } from 'knex';

/**
 * Issue 18: every list applies accounts' visibility rule, whose "deletion pending" test
 * (`exists (select 1 from users acc_del where acc_del.id = … and acc_del.deletion_requested_at is not null)`)
 * PostgreSQL plans as an anti-join against every row of users it has to scan (1.4 ms at 1,000
 * members on the bench, growing with the members). Pending deletions are few: a partial index holds
 * only them, and the test becomes an index lookup of an almost empty index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists users_deletion_pending_idx on users (id) where deletion_requested_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_deletion_pending_idx');
}
