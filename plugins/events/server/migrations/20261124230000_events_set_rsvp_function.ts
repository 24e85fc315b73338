import type { Knex } from 'knex';

/**
 * An RSVP in one statement (issue 18: the join route was 15 statements, the locked transaction
 * alone 6). events_set_rsvp() is the transaction rsvp.ts ran, moved into the database: it locks
 * the event row (select … for update) first, so concurrent RSVPs to one event queue on that lock
 * exactly as before; being VOLATILE, each statement after the lock reads with a fresh snapshot
 * (READ COMMITTED), so it sees what the RSVP it waited for committed. Capacity stays exact (and
 * the check constraint on current_attendees still backs it up); a freed seat goes to the waitlist
 * in waitlist_seq order in the same statement.
 *
 * Returns one row per change (o_reason joined / promoted), or one row whose o_reason says why
 * nothing changed: missing (no such event of this kind), started, unchanged, full. o_current is
 * the event's current_attendees after the call, o_title its title.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create or replace function events_set_rsvp(p_event integer, p_kind text, p_user integer, p_wanted text, p_now timestamptz)
returns table(o_user integer, o_status text, o_previous text, o_reason text, o_current integer, o_title text)
language plpgsql volatile as $fn$
declare
  ev record;
  prev text;
  cur integer;
  free integer;
  promoted integer[] := '{}';
  pid integer;
begin
  select e.id, e.title, e.date_time, e.max_attendees, e.current_attendees, e.enable_waitlist into ev
    from events_events e where e.id = p_event and e.kind = p_kind for update;
  if not found then
    o_reason := 'missing';
    return next;
    return;
  end if;
  cur := ev.current_attendees;
  o_title := ev.title;
  o_current := cur;
  if ev.date_time <= p_now then
    o_reason := 'started';
    return next;
    return;
  end if;
  select a.status into prev from events_attendees a where a.event_id = p_event and a.user_id = p_user;
  if prev = p_wanted or (p_wanted = 'attending' and prev = 'waitlisted') then
    o_reason := 'unchanged';
    return next;
    return;
  end if;
  if p_wanted = 'attending' then
    if ev.max_attendees is null or cur < ev.max_attendees then
      insert into events_attendees (event_id, user_id, status, waitlist_seq, joined_at) values (p_event, p_user, 'attending', null, now())
        on conflict (event_id, user_id) do update set status = excluded.status, waitlist_seq = excluded.waitlist_seq, joined_at = excluded.joined_at;
      cur := cur + 1;
      update events_events set current_attendees = cur where id = p_event;
      o_status := 'attending';
    elsif ev.enable_waitlist then
      insert into events_attendees (event_id, user_id, status, waitlist_seq, joined_at) values (p_event, p_user, 'waitlisted', nextval('events_waitlist_seq'), now())
        on conflict (event_id, user_id) do update set status = excluded.status, waitlist_seq = excluded.waitlist_seq, joined_at = excluded.joined_at;
      o_status := 'waitlisted';
    else
      o_reason := 'full';
      return next;
      return;
    end if;
  else
    insert into events_attendees (event_id, user_id, status, waitlist_seq, joined_at) values (p_event, p_user, 'interested', null, now())
      on conflict (event_id, user_id) do update set status = excluded.status, waitlist_seq = excluded.waitlist_seq, joined_at = excluded.joined_at;
    o_status := 'interested';
    if prev = 'attending' then
      cur := cur - 1;
      -- the freed seat (and any other free one) goes to the waitlist, first come first served
      free := case when ev.max_attendees is null then 10000 else least(ev.max_attendees - cur, 10000) end;
      if free > 0 then
        select coalesce(array_agg(x.user_id order by x.waitlist_seq), '{}') into promoted
          from (select a.user_id, a.waitlist_seq from events_attendees a
                 where a.event_id = p_event and a.status = 'waitlisted' order by a.waitlist_seq limit free) x;
        if coalesce(array_length(promoted, 1), 0) > 0 then
          update events_attendees a set status = 'attending', waitlist_seq = null, joined_at = now()
            where a.event_id = p_event and a.status = 'waitlisted' and a.user_id = any(promoted);
          cur := cur + array_length(promoted, 1);
        end if;
      end if;
      update events_events set current_attendees = cur where id = p_event;
    end if;
  end if;
  o_user := p_user;
  o_previous := prev;
  o_reason := 'joined';
  o_current := cur;
  return next;
  foreach pid in array promoted loop
    o_user := pid;
    o_status := 'attending';
    o_previous := 'waitlisted';
    o_reason := 'promoted';
    return next;
  end loop;
  return;
end
$fn$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists events_set_rsvp(integer, text, integer, text, timestamptz)');
}
