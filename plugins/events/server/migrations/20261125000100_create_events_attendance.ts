import type { Knex } from 'knex';

/**
 * Attendance confirmed by a check-in (issue 20): a member attending a meetup (RSVP "attending")
 * whose verified check-in at the meetup's museum falls in the meetup's time window. One row per
 * meetup and member (the primary key makes marking idempotent and exact under concurrency);
 * check_in_id is the museums plugin's check-in that confirmed it (no foreign key across plugins).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events_attendance', (t) => {
    t.integer('event_id').notNullable().references('events_events.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.integer('check_in_id').nullable();
    t.timestamp('attended_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['event_id', 'user_id']);
  });
  await knex.raw(`create index events_attendance_user_idx on events_attendance (user_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('events_attendance');
}
