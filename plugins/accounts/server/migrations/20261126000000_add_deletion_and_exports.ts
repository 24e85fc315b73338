import type { Knex } from 'knex';

/**
 * Issue 24: a member's deletion request (a grace period in which signing in cancels it) and their
 * data archives (one a day, kept 7 days, stored under the storage's private prefix).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('deletion_requested_at', { useTz: true }).nullable();
    t.timestamp('deletion_scheduled_for', { useTz: true }).nullable();
  });
  await knex.schema.createTable('accounts_exports', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('status', 16).notNullable().defaultTo('queued');
    t.integer('job_id').nullable();
    t.string('storage_key', 300).nullable();
    t.bigInteger('size').nullable();
    t.integer('files').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ready_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.index(['user_id', 'created_at']);
  });
  await knex.raw(`alter table accounts_exports add constraint accounts_exports_status_check check (status in ('queued','running','ready','failed','expired'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('accounts_exports');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('deletion_requested_at');
    t.dropColumn('deletion_scheduled_for');
  });
}
