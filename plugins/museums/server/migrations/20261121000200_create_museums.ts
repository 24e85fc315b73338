import type { Knex } from 'knex';

/**
 * Museums, follows, check-ins (one per user, museum and local day), edit suggestions, new-museum
 * suggestions and the geocoding cache. Counters live on the museum row and are moved in the same
 * transaction as the row that justifies them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('museums', (t) => {
    t.increments('id');
    t.string('slug', 120).notNullable().unique();
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('category', 80).nullable();
    t.string('phone', 50).nullable();
    t.string('email', 254).nullable();
    t.text('website').nullable();
    t.text('donate_url').nullable();
    t.string('address', 300).notNullable().defaultTo('');
    t.string('address2', 300).nullable();
    t.string('city', 120).notNullable().defaultTo('');
    t.string('state', 120).nullable();
    t.string('zip_code', 30).nullable();
    t.string('country', 120).notNullable().defaultTo('');
    t.double('latitude').nullable();
    t.double('longitude').nullable();
    t.string('timezone', 64).notNullable().defaultTo('UTC');
    t.text('featured_image').nullable();
    t.jsonb('amenities').notNullable().defaultTo('[]');
    t.jsonb('opening_hours').nullable();
    t.integer('manager_id').nullable().references('users.id').onDelete('SET NULL');
    t.decimal('rating', 2, 1).notNullable().defaultTo(0);
    t.integer('total_reviews').notNullable().defaultTo(0);
    t.integer('total_insights').notNullable().defaultTo(0);
    t.integer('follower_count').notNullable().defaultTo(0);
    t.integer('check_in_count').notNullable().defaultTo(0);
    t.boolean('is_verified').notNullable().defaultTo(false);
    t.boolean('is_featured').notNullable().defaultTo(false);
    t.string('wikidata_id', 32).nullable();
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['manager_id']);
    t.index(['category']);
  });
  await knex.raw(`alter table museums add constraint museums_counts_check check (follower_count >= 0 and check_in_count >= 0 and total_insights >= 0)`);
  await knex.raw(`alter table museums add constraint museums_coords_check check ((latitude is null or latitude between -90 and 90) and (longitude is null or longitude between -180 and 180))`);
  await knex.raw(`create index museums_name_trgm on museums using gin (name gin_trgm_ops)`);
  await knex.raw(`create index museums_city_trgm on museums using gin (city gin_trgm_ops)`);
  await knex.raw(`create unique index museums_name_city on museums (lower(name), lower(city))`);
  await knex.raw(`create unique index museums_wikidata_id on museums (wikidata_id) where wikidata_id is not null`);

  await knex.schema.createTable('museum_follows', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('museum_id').notNullable().references('museums.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'museum_id']);
    t.index(['museum_id']);
  });

  await knex.schema.createTable('museum_checkins', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('museum_id').notNullable().references('museums.id').onDelete('CASCADE');
    /** the calendar day at the museum (its time zone) */
    t.date('local_date').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'museum_id', 'local_date'], { indexName: 'museum_checkins_one_per_day' });
    t.index(['museum_id', 'created_at']);
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('museum_edit_suggestions', (t) => {
    t.increments('id');
    t.integer('museum_id').notNullable().references('museums.id').onDelete('CASCADE');
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.jsonb('suggested_changes').notNullable();
    t.text('reason').nullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    t.integer('reviewer_id').nullable().references('users.id').onDelete('SET NULL');
    t.text('review_note').nullable();
    t.timestamp('reviewed_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'created_at']);
    t.index(['museum_id']);
  });
  await knex.raw(`alter table museum_edit_suggestions add constraint museum_edit_suggestions_status_check check (status in ('pending','approved','rejected'))`);

  await knex.schema.createTable('museum_suggestions', (t) => {
    t.increments('id');
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('address', 300).notNullable();
    t.string('city', 120).notNullable();
    t.string('country', 120).notNullable();
    t.text('website').nullable();
    t.string('phone', 50).nullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    t.integer('reviewer_id').nullable().references('users.id').onDelete('SET NULL');
    t.text('review_note').nullable();
    t.timestamp('reviewed_at', { useTz: true }).nullable();
    t.integer('museum_id').nullable().references('museums.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'created_at']);
  });
  await knex.raw(`alter table museum_suggestions add constraint museum_suggestions_status_check check (status in ('pending','approved','rejected'))`);

  await knex.schema.createTable('museum_geocode_cache', (t) => {
    t.string('query_key', 600).primary();
    t.double('latitude').nullable();
    t.double('longitude').nullable();
    t.text('display_name').nullable();
    t.boolean('found').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('museum_geocode_cache');
  await knex.schema.dropTable('museum_suggestions');
  await knex.schema.dropTable('museum_edit_suggestions');
  await knex.schema.dropTable('museum_checkins');
  await knex.schema.dropTable('museum_follows');
  await knex.schema.dropTable('museums');
}
