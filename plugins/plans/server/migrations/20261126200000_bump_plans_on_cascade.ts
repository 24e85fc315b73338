import type { Knex } from 'knex';

/**
 * A stop leaves a plan without the plans service when its museum or its event is deleted (the
 * foreign keys cascade, whichever plugin, script or admin deleted it). A calendar that already
 * imported the plan then keeps the old VEVENT unless the plan's ICS SEQUENCE moves on: bump the
 * sequence and updated_at of every plan that lost a stop, once per plan, in the deleting
 * transaction. Only for stops whose museum or event is gone (the cascade: pg_trigger_depth() cannot
 * tell it apart, its triggers fire at the outer level); the service's own stop removals already
 * bump the plan they change, and a deleted plan has nothing left to bump.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function plans_bump_after_cascade() returns trigger language plpgsql as $$
    begin
      update plans set sequence = sequence + 1, updated_at = now()
      where id in (
        select g.plan_id from gone g
        where (g.museum_id is not null and not exists (select 1 from museums m where m.id = g.museum_id))
           or (g.event_id is not null and not exists (select 1 from events_events e where e.id = g.event_id)));
      return null;
    end $$`);
  await knex.raw(`create trigger plan_stops_bump_after_cascade after delete on plan_stops referencing old table as gone for each statement execute function plans_bump_after_cascade()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists plan_stops_bump_after_cascade on plan_stops');
  await knex.raw('drop function if exists plans_bump_after_cascade()');
}
