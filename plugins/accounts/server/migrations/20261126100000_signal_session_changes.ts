import type { Knex } from 'knex';
import { STREAM_CHANNEL } from '../../../../core/stream.ts';
import { SESSIONS_SIGNAL, SIGNAL_ALL_ABOVE } from '../session-cache.ts';

/**
 * Issue 18: every process keeps the sessions it saw in the last few seconds (session-cache.ts).
 * Whatever ends a session or changes what a request learns from it tells every process through the
 * live-updates channel (core/stream.ts, LISTEN/NOTIFY), at commit, whichever code or script made
 * the change: a session deleted or rewritten (logout, logout everywhere, a ban, a password change,
 * expiry), a member deleted, their role, username, slug or password changed.
 */
export async function up(knex: Knex): Promise<void> {
  const notify = (data: string) => `perform pg_notify('${STREAM_CHANNEL}', json_build_object('signal', '${SESSIONS_SIGNAL}', 'data', ${data})::text);`;
  await knex.raw(`
    create or replace function accounts_signal_user_sessions() returns trigger language plpgsql as $$
    begin
      ${notify(`json_build_object('users', json_build_array(old.id))`)}
      return null;
    end $$`);
  await knex.raw(`
    create trigger accounts_users_signal_update after update of role, username, slug, password_hash on users
    for each row when (old.role is distinct from new.role or old.username is distinct from new.username
      or old.slug is distinct from new.slug or old.password_hash is distinct from new.password_hash)
    execute function accounts_signal_user_sessions()`);
  await knex.raw(`create trigger accounts_users_signal_delete after delete on users for each row execute function accounts_signal_user_sessions()`);
  await knex.raw(`
    create or replace function accounts_signal_sessions_table() returns trigger language plpgsql as $$
    declare
      n int;
      ids json;
    begin
      select count(distinct user_id), json_agg(distinct user_id) into n, ids from gone where user_id is not null;
      if n = 0 then return null; end if;
      if n > ${SIGNAL_ALL_ABOVE} then
        ${notify(`json_build_object('all', true)`)}
      else
        ${notify(`json_build_object('users', ids)`)}
      end if;
      return null;
    end $$`);
  await knex.raw(`create trigger accounts_sessions_signal_delete after delete on user_sessions referencing old table as gone for each statement execute function accounts_signal_sessions_table()`);
  await knex.raw(`create trigger accounts_sessions_signal_update after update on user_sessions referencing old table as gone for each statement execute function accounts_signal_sessions_table()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists accounts_sessions_signal_update on user_sessions');
  await knex.raw('drop trigger if exists accounts_sessions_signal_delete on user_sessions');
  await knex.raw('drop trigger if exists accounts_users_signal_delete on users');
  await knex.raw('drop trigger if exists accounts_users_signal_update on users');
  await knex.raw('drop function if exists accounts_signal_sessions_table()');
  await knex.raw('drop function if exists accounts_signal_user_sessions()');
}
