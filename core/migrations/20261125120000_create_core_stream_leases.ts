import type { Knex } from 'knex';

/**
 * One row per open live-update stream (core/stream.ts), whichever process holds it: the per-member
 * limit counts these rows, so it holds across processes. A process refreshes `expires_at` of its
 * rows while it runs; the rows of a process that died expire and are deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('core_stream_leases', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable();
    t.string('process_id', 64).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['user_id', 'id']);
    t.index(['process_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('core_stream_leases');
}
