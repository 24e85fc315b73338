import type { Knex } from 'knex';

/**
 * A requirement type for meetups attended (issue 20): attendance confirmed by a verified check-in
 * at the meetup's museum during the meetup (events.attendance.confirmed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table badges drop constraint badges_requirement_type_check`);
  await knex.raw(`alter table badges add constraint badges_requirement_type_check check (requirement_type in ('check_ins','posts','likes','follows','community_joins','meetups_attended'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table badges drop constraint badges_requirement_type_check`);
  await knex.raw(`alter table badges add constraint badges_requirement_type_check check (requirement_type in ('check_ins','posts','likes','follows','community_joins'))`);
}
