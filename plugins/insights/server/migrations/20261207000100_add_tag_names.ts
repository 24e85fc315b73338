import type { Knex } from 'knex';

/**
 * Search of insights by tag through the names of the tags in use (issue 18).
 *
 * The search finds a post whose content or one of whose tags contains the term. The tags were
 * matched through a trigram index over every post's tags joined as text: a few hundred distinct
 * tags repeated over every post, so the trigrams of a common word fragment ("ion", "nal") listed a
 * large part of the table, and a term that matched no tag still cost 2 ms of index reading
 * ("national": 2.2 of the search's 2.8 ms on 100,000 posts). Now the term is matched against the
 * distinct tag names (`insights_tag_names`, small, with its own trigram index), and the posts
 * carrying one of those names are found through an index of the tags arrays (`tags && names`).
 *
 * The names are kept by the database, whoever writes the posts:
 * - a statement that inserts posts adds their new tag names (`on conflict do nothing`), and one
 *   that changes a post's tags adds the new ones (a row trigger, only when the tags changed: a
 *   trigger with a column list cannot read a transition table, and one on every update would run
 *   on each like's counter update);
 * - `insights_prune_tag_names(names)` removes those of the names that no post carries any more;
 *   the app calls it after deleting posts (a deleted member's tags do not outlive their posts).
 * A name removed while another transaction inserts a post with it would leave that post
 * unfindable by the tag: writers take a shared advisory lock (CURIO_TAG_NAMES_LOCK) before adding
 * names, and the prune takes the exclusive one without waiting (if a writer holds it, it answers
 * false and removes nothing; the app tries again shortly) before reading which names are unused,
 * so it only ever sees posts that are committed, and a writer after it adds the name again.
 */
const LOCK = 72_110_401; // CURIO_TAG_NAMES_LOCK: any constant of our own, the same in both functions

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table insights_tag_names (name text primary key)`);
  await knex.raw(`insert into insights_tag_names (name) select distinct t from insights_posts p, unnest(p.tags) t where t is not null on conflict do nothing`);
  await knex.raw(`create index insights_tag_names_trgm on insights_tag_names using gin (name gin_trgm_ops)`);
  await knex.raw(`create index insights_posts_tags_gin on insights_posts using gin (tags)`);

  await knex.raw(`create function insights_add_tag_names() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(${LOCK});
      insert into insights_tag_names (name)
        select distinct t from added_posts a, unnest(a.tags) t where t is not null
        on conflict do nothing;
      return null;
    end $$`);
  await knex.raw(`create trigger insights_posts_add_tag_names after insert on insights_posts
    referencing new table as added_posts for each statement execute function insights_add_tag_names()`);

  await knex.raw(`create function insights_add_changed_tag_names() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(${LOCK});
      insert into insights_tag_names (name) select distinct t from unnest(new.tags) t where t is not null on conflict do nothing;
      return null;
    end $$`);
  await knex.raw(`create trigger insights_posts_change_tag_names after update of tags on insights_posts
    for each row when (new.tags is distinct from old.tags) execute function insights_add_changed_tag_names()`);

  await knex.raw(`create function insights_prune_tag_names(names text[]) returns boolean language plpgsql as $$
    begin
      if not pg_try_advisory_xact_lock(${LOCK}) then return false; end if;
      delete from insights_tag_names n
        where n.name = any(names)
          and not exists (select 1 from insights_posts p where p.tags @> array[n.name]);
      return true;
    end $$`);

  await knex.raw(`drop index if exists insights_posts_tags_trgm`);
  await knex.raw(`drop function if exists insights_tags_text(text[])`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`create or replace function insights_tags_text(tags text[]) returns text
    language sql immutable parallel safe as $$ select array_to_string(tags, chr(31)) $$`);
  await knex.raw(`create index insights_posts_tags_trgm on insights_posts using gin (insights_tags_text(tags) gin_trgm_ops)`);
  await knex.raw(`drop trigger if exists insights_posts_change_tag_names on insights_posts`);
  await knex.raw(`drop trigger if exists insights_posts_add_tag_names on insights_posts`);
  await knex.raw(`drop function if exists insights_prune_tag_names(text[])`);
  await knex.raw(`drop function if exists insights_add_changed_tag_names()`);
  await knex.raw(`drop function if exists insights_add_tag_names()`);
  await knex.raw(`drop index if exists insights_posts_tags_gin`);
  await knex.raw(`drop table if exists insights_tag_names`);
}
