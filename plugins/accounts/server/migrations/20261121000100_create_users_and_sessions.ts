import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('slug', 80).notNullable().unique();
    t.specificType('username', 'citext').notNullable().unique();
    t.specificType('email', 'citext').notNullable().unique();
    t.text('password_hash').notNullable();
    t.string('first_name', 100).notNullable().defaultTo('');
    t.string('last_name', 100).notNullable().defaultTo('');
    t.string('bio', 200).notNullable().defaultTo('');
    t.text('profile_image_url').nullable();
    t.string('role', 32).notNullable().defaultTo('Traveler');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_active_at', { useTz: true }).nullable();
  });
  await knex.raw(`alter table users add constraint users_role_check check (role in ('Traveler','Ambassador','Museum Manager','Admin'))`);
  await knex.schema.createTable('user_sessions', (t) => {
    t.string('id', 64).primary();
    t.integer('user_id').nullable().references('users.id').onDelete('CASCADE');
    t.jsonb('data').notNullable();
    t.boolean('remember_me').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_activity', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.string('user_agent', 400).nullable();
    t.string('ip', 64).nullable();
    t.index(['user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_sessions');
  await knex.schema.dropTable('users');
}
