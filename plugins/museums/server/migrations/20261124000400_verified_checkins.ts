import type { Knex } from 'knex';

/**
 * Check-ins that mean something (issue 20): the browser's position and accuracy, the distance to
 * the museum, and whether the check-in was verified (near enough, and no impossible journey from
 * the member's previous verified check-in). Existing check-ins had no position: unverified.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museum_checkins', (t) => {
    t.boolean('verified').notNullable().defaultTo(false);
    t.string('unverified_reason', 30).nullable();
    t.double('latitude').nullable();
    t.double('longitude').nullable();
    t.double('accuracy').nullable();
    t.double('distance_m').nullable();
    t.index(['user_id', 'verified', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('museum_checkins', (t) => {
    t.dropIndex(['user_id', 'verified', 'created_at']);
    t.dropColumns('verified', 'unverified_reason', 'latitude', 'longitude', 'accuracy', 'distance_m');
  });
}
