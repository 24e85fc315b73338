import type { Knex } from 'knex';

/**
 * Issue 21: what a member picked during onboarding (and edits later in Settings): museum interests
 * (the museums plugin's category keys), a home city with its coordinates (geocoded on the server,
 * or the browser's position), and where they are in the onboarding (null: never offered — members
 * created before it and accounts made outside the web sign-up).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.specificType('interests', 'text[]').notNullable().defaultTo('{}');
    t.string('home_city', 200).nullable();
    t.double('home_latitude').nullable();
    t.double('home_longitude').nullable();
    t.string('onboarding_status', 16).nullable();
    t.smallint('onboarding_step').notNullable().defaultTo(0);
  });
  await knex.raw(`alter table users add constraint users_onboarding_status_check check (onboarding_status in ('started','done','skipped'))`);
  // the last fallback of people suggestions reads the most followed members (sql.popularMembers)
  await knex.raw('create index users_followers_count_idx on users (followers_count desc, id)');
  await knex.raw(
    `alter table users add constraint users_home_coordinates_check check ((home_latitude is null) = (home_longitude is null) and (home_latitude is null or (home_latitude between -90 and 90 and home_longitude between -180 and 180)))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_followers_count_idx');
  await knex.raw('alter table users drop constraint if exists users_home_coordinates_check');
  await knex.raw('alter table users drop constraint if exists users_onboarding_status_check');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('onboarding_step');
    t.dropColumn('onboarding_status');
    t.dropColumn('home_longitude');
    t.dropColumn('home_latitude');
    t.dropColumn('home_city');
    t.dropColumn('interests');
  });
}
