import type { Knex } from 'knex';

/** A requirement type for members whose museum-fact confirmations help (issue 20): fact_confirmations,
 * after meetups_attended (the list keeps every type before it). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table badges drop constraint if exists badges_requirement_type_check');
  await knex.raw(`alter table badges add constraint badges_requirement_type_check check (requirement_type in ('check_ins','posts','likes','follows','community_joins','meetups_attended','fact_confirmations'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table badges drop constraint if exists badges_requirement_type_check');
  await knex.raw(`alter table badges add constraint badges_requirement_type_check check (requirement_type in ('check_ins','posts','likes','follows','community_joins','meetups_attended'))`);
}
