import type { Knex } from 'knex';

/** Live-update events of the last minutes (core/stream.ts): the SSE ids, and what Last-Event-ID resumes from. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('core_stream_events', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable();
    t.string('type', 64).notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'id']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('core_stream_events');
}
