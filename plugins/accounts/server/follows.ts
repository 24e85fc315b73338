import type { Knex } from 'knex';

/**
 * Toggles `followerId` following `followingId`. In one transaction: both user rows are locked in id
 * order (so crossing toggles A→B / B→A cannot deadlock and a deletion cannot slip in between), the
 * follow row is inserted or deleted, and the two counters move by what actually changed.
 * Answers null when the target does not exist.
 */
export async function toggleFollow(knex: Knex, followerId: number, followingId: number): Promise<{ following: boolean; followersCount: number } | null> {
  return knex.transaction(async (trx) => {
    const locked = await trx('users').whereIn('id', [followerId, followingId]).orderBy('id').forUpdate().select('id');
    if (locked.length < 2) return null;
    const inserted = await trx('user_follows').insert({ follower_id: followerId, following_id: followingId }).onConflict(['follower_id', 'following_id']).ignore().returning('follower_id');
    let following: boolean;
    let delta: number;
    if (inserted.length) {
      following = true;
      delta = 1;
    } else {
      const removed = (await trx('user_follows').where({ follower_id: followerId, following_id: followingId }).del().returning('follower_id')).length;
      following = false;
      delta = removed ? -1 : 0;
    }
    if (delta) {
      await trx('users').where({ id: followingId }).increment('followers_count', delta);
      await trx('users').where({ id: followerId }).increment('following_count', delta);
    }
    const row = await trx('users').where({ id: followingId }).first('followers_count');
    return { following, followersCount: row.followers_count };
  });
}

export interface FollowListRow {
  id: number;
  slug: string;
  username: string;
  first_name: string;
  last_name: string;
  profile_image_url: string | null;
  role: string;
  followed_at: Date;
}

/** Followers of a user (direction 'followers') or the users they follow ('following'), newest first. */
export async function listFollows(knex: Knex, userId: number, direction: 'followers' | 'following', limit: number, offset: number): Promise<FollowListRow[]> {
  const [mine, other] = direction === 'followers' ? ['following_id', 'follower_id'] : ['follower_id', 'following_id'];
  return knex('user_follows as f')
    .join('users as u', 'u.id', `f.${other}`)
    .where(`f.${mine}`, userId)
    .orderBy([{ column: 'f.created_at', order: 'desc' }, { column: 'u.id', order: 'desc' }])
    .limit(limit)
    .offset(offset)
    .select('u.id', 'u.slug', 'u.username', 'u.first_name', 'u.last_name', 'u.profile_image_url', 'u.role', 'f.created_at as followed_at');
}

/** Of `ids`, those the viewer follows. */
export async function followedAmong(knex: Knex, viewerId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await knex('user_follows').where({ follower_id: viewerId }).whereIn('following_id', ids).pluck('following_id');
  return new Set(rows);
}

/**
 * Removes a user and everything of theirs in this plugin's tables, keeping the others' follower and
 * following counts exact: the user row is locked first, so a concurrent follow of or by this user
 * either committed before (and is counted here) or fails afterwards on its foreign key.
 * Answers the removed row, or null.
 */
export async function removeUser(knex: Knex, userId: number): Promise<any | null> {
  return knex.transaction(async (trx) => {
    // Lock the user and everyone whose counter moves, in id order (the order toggleFollow uses).
    await trx.raw(
      `select id from users where id = ? or id in (select following_id from user_follows where follower_id = ?)
         or id in (select follower_id from user_follows where following_id = ?) order by id for update`,
      [userId, userId, userId],
    );
    const row = await trx('users').where({ id: userId }).first();
    if (!row) return null;
    await trx.raw('update users set followers_count = followers_count - 1 where id in (select following_id from user_follows where follower_id = ?)', [userId]);
    await trx.raw('update users set following_count = following_count - 1 where id in (select follower_id from user_follows where following_id = ?)', [userId]);
    await trx('users').where({ id: userId }).del(); // cascades: follows, preferences, sessions
    return row;
  });
}
