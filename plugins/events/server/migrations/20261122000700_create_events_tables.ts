import type { Knex } from 'knex';

/**
 * Meetups and museum events share one table (kind), so RSVPs, photos, comments, calendars and
 * search work the same for both. user, community, group and museum ids belong to other plugins:
 * no foreign keys across plugins, their rows are cleaned up through events
 * (accounts.user.deleting, communities.community.deleting).
 *
 * current_attendees counts the 'attending' rows of events_attendees exactly: it only changes in
 * the transaction that changes those rows, with the event row locked (select … for update).
 * Money is integer cents; times are timestamptz, with the zone they were entered in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events_events', (t) => {
    t.increments('id');
    t.string('kind', 16).notNullable();
    t.string('title', 200).notNullable();
    t.text('description').notNullable();
    t.string('location', 300).notNullable();
    t.timestamp('date_time', { useTz: true }).notNullable();
    t.timestamp('end_date_time', { useTz: true }).nullable();
    t.string('time_zone', 64).notNullable().defaultTo('UTC');
    t.integer('max_attendees').nullable();
    t.integer('current_attendees').notNullable().defaultTo(0);
    t.boolean('enable_waitlist').notNullable().defaultTo(false);
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.boolean('allow_photo_sharing').notNullable().defaultTo(true);
    t.boolean('allow_comments').notNullable().defaultTo(true);
    t.integer('museum_id').nullable();
    // meetups
    t.integer('organizer_id').nullable();
    t.integer('community_id').nullable();
    t.integer('group_id').nullable();
    t.boolean('connect_to_museum_event').notNullable().defaultTo(false);
    t.integer('museum_event_id').nullable().references('events_events.id').onDelete('SET NULL');
    t.string('expected_group_size', 50).nullable();
    t.boolean('rsvp_required').notNullable().defaultTo(false);
    t.string('cost', 16).notNullable().defaultTo('free');
    t.integer('cost_amount_cents').nullable();
    t.string('age_restrictions', 200).nullable();
    t.string('museum_contact', 300).nullable();
    t.string('collaboration_status', 16).notNullable().defaultTo('discussion');
    t.boolean('can_museum_promote').notNullable().defaultTo(false);
    t.string('who_can_join', 16).notNullable().defaultTo('members_only');
    t.text('accessibility_notes').nullable();
    t.text('rain_plan').nullable();
    // museum events
    t.integer('created_by').nullable();
    t.string('category', 100).nullable();
    t.integer('price_cents').notNullable().defaultTo(0);
    t.text('requirements').nullable();
    t.text('ticket_url').nullable();
    t.text('image_url').nullable();
    t.string('seed_key', 100).nullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table events_events add constraint events_events_kind_check check (kind in ('meetup','museum_event'))`);
  await knex.raw(
    `alter table events_events add constraint events_events_owner_check check ((kind = 'meetup' and organizer_id is not null and (community_id is not null) <> (group_id is not null)) or (kind = 'museum_event' and museum_id is not null))`,
  );
  await knex.raw(
    `alter table events_events add constraint events_events_capacity_check check (current_attendees >= 0 and (max_attendees is null or (max_attendees >= 1 and current_attendees <= max_attendees)))`,
  );
  await knex.raw(`alter table events_events add constraint events_events_end_check check (end_date_time is null or end_date_time > date_time)`);
  await knex.raw(`alter table events_events add constraint events_events_cost_check check (cost in ('free','donation','paid') and ((cost = 'paid') = (cost_amount_cents is not null)) and (cost_amount_cents is null or cost_amount_cents > 0) and price_cents >= 0)`);
  await knex.raw(`alter table events_events add constraint events_events_collab_check check (collaboration_status in ('discussion','confirmed','museum_host'))`);
  await knex.raw(`alter table events_events add constraint events_events_who_check check (who_can_join in ('members_only','anyone'))`);
  await knex.raw(`create index events_events_kind_time_idx on events_events (kind, date_time, id)`);
  await knex.raw(`create index events_events_community_idx on events_events (community_id, date_time) where community_id is not null`);
  await knex.raw(`create index events_events_group_idx on events_events (group_id, date_time) where group_id is not null`);
  await knex.raw(`create index events_events_museum_idx on events_events (museum_id, date_time) where museum_id is not null`);
  await knex.raw(`create index events_events_organizer_idx on events_events (organizer_id) where organizer_id is not null`);
  await knex.raw(`create index events_events_search_idx on events_events using gin ((title || ' ' || location || ' ' || description) gin_trgm_ops)`);

  await knex.schema.createTable('events_attendees', (t) => {
    t.integer('event_id').notNullable().references('events_events.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.string('status', 16).notNullable();
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // waitlist order: the sequence number taken when the member joined the waitlist
    t.bigInteger('waitlist_seq').nullable();
    t.primary(['event_id', 'user_id']);
  });
  await knex.raw(`alter table events_attendees add constraint events_attendees_status_check check (status in ('attending','interested','waitlisted') and ((status = 'waitlisted') = (waitlist_seq is not null)))`);
  await knex.raw(`create sequence events_waitlist_seq`);
  await knex.raw(`create index events_attendees_user_idx on events_attendees (user_id, status)`);
  await knex.raw(`create index events_attendees_waitlist_idx on events_attendees (event_id, waitlist_seq) where status = 'waitlisted'`);

  await knex.schema.createTable('events_photos', (t) => {
    t.increments('id');
    t.integer('event_id').notNullable().references('events_events.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.text('storage_key').notNullable().unique();
    t.text('url').notNullable();
    t.text('thumbnail_url').nullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.string('caption', 500).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
  });
  await knex.raw(`create index events_photos_event_idx on events_photos (event_id, created_at, id)`);
  await knex.raw(`create index events_photos_user_idx on events_photos (user_id)`);

  await knex.schema.createTable('events_comments', (t) => {
    t.increments('id');
    t.integer('event_id').notNullable().references('events_events.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
  });
  await knex.raw(`create index events_comments_event_idx on events_comments (event_id, created_at, id)`);
  await knex.raw(`create index events_comments_user_idx on events_comments (user_id)`);

  await knex.schema.createTable('events_calendar_tokens', (t) => {
    t.integer('user_id').primary();
    t.string('token', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events_calendar_tokens');
  await knex.schema.dropTable('events_comments');
  await knex.schema.dropTable('events_photos');
  await knex.schema.dropTable('events_attendees');
  await knex.raw('drop sequence if exists events_waitlist_seq');
  await knex.schema.dropTable('events_events');
}
