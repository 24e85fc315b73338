import type { Knex } from 'knex';

/**
 * Each member's activity of the last 30 days, kept as it happens (issue 18).
 *
 * People suggestions ("People to Follow" on every signed-in home, `/api/users/active`) rank members
 * by their activity of 30 days: 3 per insight, 2 per comment, 1 per like. That was summed from every
 * post, comment and like of the month on each request: ~100 ms at 5,000 members and 117,000 rows,
 * growing with the platform. `insights_member_activity` holds each member's sum (`score`) and their
 * insights (`posts`) counted since `insights_member_activity_window.counted_after`, and the
 * suggestions read the best of it through an index.
 *
 * The database keeps it, whoever writes:
 * - a post, comment or like inserted adds to its author's sums, one deleted (an unlike, a deleted
 *   post and what cascades from it, a deleted member's content) takes from them, and a row whose
 *   author or time changes (an anonymised comment, a back-dated row) moves its count; only rows
 *   newer than `counted_after` count;
 * - `insights_expire_member_activity()`, run by a repeating job, moves `counted_after` to 30 days
 *   ago and takes away the rows that fell out of the window in between, then drops members at zero.
 * A row deleted while the window moves past it would be taken away twice (by its delete and by the
 * move): writers take a shared advisory lock (CURIO_MEMBER_ACTIVITY_LOCK) before reading
 * `counted_after`, and the move takes the exclusive one, so each statement of either reads the
 * other's committed work (read committed: a statement's snapshot is taken after the lock).
 */
const LOCK = 72_110_402; // CURIO_MEMBER_ACTIVITY_LOCK: a constant of our own, the same in every function below

/** [table, weight of a row, insights a row counts as] */
const SOURCES: Array<[string, number, number]> = [
  ['insights_posts', 3, 1],
  ['insights_comments', 2, 0],
  ['insights_likes', 1, 0],
];

const sourceRows = (from: string, to: string | null) =>
  SOURCES.map(
    ([t, w, p]) => `select user_id, ${w} as w, ${p} as p from ${t} where user_id is not null and created_at > ${from}${to ? ` and created_at <= ${to}` : ''}`,
  ).join(' union all ');

export async function up(knex: Knex): Promise<void> {
  // writers of other processes wait for this migration's commit, when the triggers exist for them
  await knex.raw(`lock table insights_posts, insights_comments, insights_likes in share mode`);
  await knex.raw(`create table insights_member_activity (
    user_id integer primary key,
    score integer not null default 0,
    posts integer not null default 0
  )`);
  await knex.raw(`create index insights_member_activity_rank on insights_member_activity (score desc, user_id) where score > 0`);
  await knex.raw(`create table insights_member_activity_window (
    id boolean primary key default true check (id),
    counted_after timestamptz not null
  )`);
  await knex.raw(`insert into insights_member_activity_window (counted_after) values (now() - interval '30 days')`);
  await knex.raw(`insert into insights_member_activity (user_id, score, posts)
    select user_id, sum(w), sum(p) from (${sourceRows(`(select counted_after from insights_member_activity_window)`, null)}) x group by user_id`);
  // the window's move reads the comments and likes that leave it by time: block ranges, small and
  // nearly free to keep on tables written in time order (posts have their btree of created_at)
  await knex.raw(`create index insights_comments_time_brin on insights_comments using brin (created_at)`);
  await knex.raw(`create index insights_likes_time_brin on insights_likes using brin (created_at)`);

  // Row triggers (TG_ARGV: the weight of a row, the insights it counts as): a like, the hottest
  // write, touches one row, and its statement (like or unlike in one) would fire statement triggers
  // for both its insert and its delete, each with nothing to count half the time.
  await knex.raw(`create function insights_count_member_activity() returns trigger language plpgsql as $$
    declare
      w int := TG_ARGV[0]::int;
      p int := TG_ARGV[1]::int;
      decided boolean := false; -- without the window
      take boolean := false;    -- the old row counted: take it from its author's sums
      add boolean := false;     -- the new row counts: add it to its author's sums
      after_ts timestamptz;
    begin
      -- A row of the last 29 days (a like, a post, their undoing: nearly every write) is counted
      -- whatever the window's start, and no move of the window can be taking it away (a move takes
      -- rows older than 30 days): decided without the lock or the window.
      if TG_OP = 'INSERT' then
        if new.created_at > now() - interval '29 days' then
          decided := true;
          add := new.user_id is not null;
        end if;
      elsif TG_OP = 'DELETE' then
        if old.created_at > now() - interval '29 days' then
          decided := true;
          take := old.user_id is not null;
        end if;
      end if;
      if not decided then
        perform pg_advisory_xact_lock_shared(${LOCK});
        select counted_after into after_ts from insights_member_activity_window;
        if TG_OP <> 'INSERT' then
          take := old.user_id is not null and old.created_at > after_ts;
        end if;
        if TG_OP <> 'DELETE' then
          add := new.user_id is not null and new.created_at > after_ts;
        end if;
      end if;
      if take then
        update insights_member_activity set score = score - w, posts = posts - p where user_id = old.user_id;
      end if;
      if add then
        -- the member's row is there but for their first write in 30 days: an update, cheaper than
        -- an insert's speculative path
        update insights_member_activity set score = score + w, posts = posts + p where user_id = new.user_id;
        if not found then
          insert into insights_member_activity as a (user_id, score, posts) values (new.user_id, w, p)
            on conflict (user_id) do update set score = a.score + excluded.score, posts = a.posts + excluded.posts;
        end if;
      end if;
      return null;
    end $$`);
  for (const [t, w, p] of SOURCES) {
    await knex.raw(`create trigger ${t}_count_activity after insert or delete on ${t}
      for each row execute function insights_count_member_activity(${w}, ${p})`);
    // with a column list: not run by the posts' counter updates of every like
    await knex.raw(`create trigger ${t}_move_activity after update of user_id, created_at on ${t}
      for each row when (old.user_id is distinct from new.user_id or old.created_at is distinct from new.created_at)
      execute function insights_count_member_activity(${w}, ${p})`);
  }

  await knex.raw(`create function insights_expire_member_activity() returns void language plpgsql as $$
    declare
      old_after timestamptz;
      new_after timestamptz := now() - interval '30 days';
    begin
      perform pg_advisory_xact_lock(${LOCK});
      select counted_after into old_after from insights_member_activity_window;
      if new_after <= old_after then return; end if;
      update insights_member_activity a set score = a.score - d.score, posts = a.posts - d.posts
        from (select user_id, sum(w) as score, sum(p) as posts from (${sourceRows('old_after', 'new_after')}) x group by user_id) d
       where a.user_id = d.user_id;
      update insights_member_activity_window set counted_after = new_after;
      delete from insights_member_activity where score = 0 and posts = 0;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [t] of SOURCES) {
    await knex.raw(`drop trigger if exists ${t}_move_activity on ${t}`);
    await knex.raw(`drop trigger if exists ${t}_count_activity on ${t}`);
  }
  await knex.raw(`drop function if exists insights_expire_member_activity()`);
  await knex.raw(`drop function if exists insights_count_member_activity()`);
  await knex.raw(`drop index if exists insights_likes_time_brin`);
  await knex.raw(`drop index if exists insights_comments_time_brin`);
  await knex.raw(`drop table if exists insights_member_activity_window`);
  await knex.raw(`drop table if exists insights_member_activity`);
}
