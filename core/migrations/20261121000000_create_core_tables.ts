import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw('create extension if not exists citext');
  await knex.schema.createTable('core_meta', (t) => {
    t.string('key').primary();
    t.jsonb('value');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('core_jobs', (t) => {
    t.bigIncrements('id');
    t.string('name').notNullable();
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.string('status').notNullable().defaultTo('queued'); // queued running done failed
    t.string('unique_key').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(3);
    t.timestamp('run_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('locked_by').nullable();
    t.timestamp('locked_at', { useTz: true }).nullable();
    t.jsonb('progress').nullable();
    t.jsonb('result').nullable();
    t.text('error').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['status', 'run_at']);
  });
  await knex.raw(`create unique index core_jobs_unique_active on core_jobs (unique_key) where unique_key is not null and status in ('queued','running')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('core_jobs');
  await knex.schema.dropTable('core_meta');
}
