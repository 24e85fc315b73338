import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('title', 100).notNullable();
    t.string('visit_date', 10).notNullable(); // YYYY-MM-DD, a local date (text: no driver time-zone shifts)
    t.string('visibility', 8).notNullable().defaultTo('private'); // private | link | public
    // the unguessable part of the shared link (/plans/shared/<token>), 144 random bits
    t.string('share_token', 32).notNullable().unique();
    t.decimal('walking_speed_kmh', 3, 1).notNullable().defaultTo(4.5);
    // the ICS SEQUENCE of its stops: bumped by every change
    t.integer('sequence').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'visibility']);
  });
  await knex.raw(`alter table plans add constraint plans_visibility_check check (visibility in ('private', 'link', 'public'))`);
  await knex.schema.createTable('plan_stops', (t) => {
    t.increments('id');
    t.integer('plan_id').notNullable().references('id').inTable('plans').onDelete('CASCADE');
    t.integer('position').notNullable();
    // a museum visit, or an event or meetup (its own times, at its museum when it has one)
    t.integer('museum_id').nullable().references('id').inTable('museums').onDelete('CASCADE');
    t.integer('event_id').nullable().references('id').inTable('events_events').onDelete('CASCADE');
    t.string('arrival', 5).notNullable(); // HH:MM on the museum's clock
    t.integer('duration_minutes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['plan_id', 'position']);
    t.index(['museum_id']);
    t.index(['event_id']);
  });
  await knex.raw('alter table plan_stops add constraint plan_stops_one_target check ((museum_id is null) <> (event_id is null))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('plan_stops');
  await knex.schema.dropTableIfExists('plans');
}
