import type { Knex } from 'knex';
import { imageInfoSql } from '../../../core/images.ts';

export type FollowOutcome =
  | { kind: 'missing' }
  | { kind: 'blocked' }
  | { kind: 'done'; change: 'followed' | 'unfollowed' | 'requested' | 'withdrawn'; following: boolean; requested: boolean; followersCount: number };

/** Locks the given users' rows in id order (the order every follow change takes): answers the ids found. */
async function lockUsers(trx: Knex.Transaction, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await trx('users').whereIn('id', [...new Set(ids)]).orderBy('id').forUpdate().select('id')).map((r: any) => r.id);
}

/**
 * A follow-graph transaction, run again when PostgreSQL chose it as a deadlock victim (40P01) or
 * could not serialize it (40001): the victim was rolled back whole, so running it again is safe.
 * Row locks are taken in id order (lockUsers), but the foreign-key checks of other plugins' writes
 * (notifications naming a member) lock users rows too, outside that order.
 */
async function followTransaction<T>(knex: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(fn);
    } catch (err: any) {
      if (attempt >= 5 || (err?.code !== '40P01' && err?.code !== '40001')) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** Is there a block between a and b, either way? (inside the caller's statement or transaction) */
export async function blockedEitherWay(knex: Knex, a: number, b: number): Promise<{ byA: boolean; byB: boolean }> {
  const rows = await knex('user_blocks')
    .where({ blocker_id: a, blocked_id: b })
    .orWhere({ blocker_id: b, blocked_id: a })
    .select('blocker_id');
  return { byA: rows.some((r: any) => r.blocker_id === a), byB: rows.some((r: any) => r.blocker_id === b) };
}

/** Inserts the follow when absent and moves both counters by what changed; answers whether it was new. */
async function addFollow(trx: Knex.Transaction, followerId: number, followingId: number): Promise<boolean> {
  const inserted = await trx('user_follows').insert({ follower_id: followerId, following_id: followingId }).onConflict(['follower_id', 'following_id']).ignore().returning('follower_id');
  if (!inserted.length) return false;
  await trx('users').where({ id: followingId }).increment('followers_count', 1);
  await trx('users').where({ id: followerId }).increment('following_count', 1);
  return true;
}

/** Deletes the follow when present and moves both counters by what changed; answers whether one went. */
async function dropFollow(trx: Knex.Transaction, followerId: number, followingId: number): Promise<boolean> {
  const removed = await trx('user_follows').where({ follower_id: followerId, following_id: followingId }).del().returning('follower_id');
  if (!removed.length) return false;
  await trx('users').where({ id: followingId }).decrement('followers_count', 1);
  await trx('users').where({ id: followerId }).decrement('following_count', 1);
  return true;
}

const followersCountOf = async (trx: Knex.Transaction, id: number): Promise<number> => (await trx('users').where({ id }).first('followers_count')).followers_count;

/**
 * The follow button: unfollows when following, withdraws a pending request, else follows — or, on a
 * private profile, asks (a pending request the owner approves). In one transaction: both user rows
 * are locked in id order (so crossing toggles, approvals, blocks and deletions cannot deadlock or
 * slip in between), the rows change, and the counters move by what actually changed.
 * `missing`: no such user, or the target blocked the follower (as if absent); `blocked`: the
 * follower blocked the target.
 */
export async function toggleFollow(knex: Knex, followerId: number, followingId: number): Promise<FollowOutcome> {
  return followTransaction(knex, async (trx) => {
    const locked = await lockUsers(trx, [followerId, followingId]);
    if (locked.length < 2) return { kind: 'missing' } as const;
    const b = await blockedEitherWay(trx, followerId, followingId);
    if (b.byB) return { kind: 'missing' } as const;
    if (b.byA) return { kind: 'blocked' } as const;
    if (await dropFollow(trx, followerId, followingId)) return { kind: 'done', change: 'unfollowed', following: false, requested: false, followersCount: await followersCountOf(trx, followingId) } as const;
    const withdrawn = await trx('user_follow_requests').where({ requester_id: followerId, target_id: followingId }).del().returning('id');
    if (withdrawn.length) return { kind: 'done', change: 'withdrawn', following: false, requested: false, followersCount: await followersCountOf(trx, followingId) } as const;
    const prefs = await trx('user_preferences').where({ user_id: followingId }).first('profile_visibility');
    if (prefs?.profile_visibility === 'private') {
      await trx('user_follow_requests').insert({ requester_id: followerId, target_id: followingId }).onConflict(['requester_id', 'target_id']).ignore();
      return { kind: 'done', change: 'requested', following: false, requested: true, followersCount: await followersCountOf(trx, followingId) } as const;
    }
    await addFollow(trx, followerId, followingId);
    return { kind: 'done', change: 'followed', following: true, requested: false, followersCount: await followersCountOf(trx, followingId) } as const;
  });
}

/**
 * Follows (or asks to, on a private profile) unless already following or asked: the import of
 * follows (issue 24). Same locks and rules as toggleFollow; never unfollows.
 */
export async function ensureFollow(knex: Knex, followerId: number, followingId: number): Promise<'followed' | 'requested' | 'already' | 'missing' | 'blocked'> {
  return followTransaction(knex, async (trx) => {
    const locked = await lockUsers(trx, [followerId, followingId]);
    if (locked.length < 2) return 'missing';
    const b = await blockedEitherWay(trx, followerId, followingId);
    if (b.byB) return 'missing';
    if (b.byA) return 'blocked';
    if (await trx('user_follows').where({ follower_id: followerId, following_id: followingId }).first('follower_id')) return 'already';
    if (await trx('user_follow_requests').where({ requester_id: followerId, target_id: followingId }).first('id')) return 'already';
    const prefs = await trx('user_preferences').where({ user_id: followingId }).first('profile_visibility');
    if (prefs?.profile_visibility === 'private') {
      await trx('user_follow_requests').insert({ requester_id: followerId, target_id: followingId }).onConflict(['requester_id', 'target_id']).ignore();
      return 'requested';
    }
    return (await addFollow(trx, followerId, followingId)) ? 'followed' : 'already';
  });
}

/**
 * Approves (authorize) or refuses a pending request addressed to `ownerId`. Answers the requester's
 * id, or null when there is no such pending request (already decided, withdrawn, or someone else's).
 */
export async function decideRequest(knex: Knex, ownerId: number, requestId: number, approve: boolean): Promise<{ requesterId: number; followed: boolean } | null> {
  return followTransaction(knex, async (trx) => {
    const req = await trx('user_follow_requests').where({ id: requestId, target_id: ownerId }).first('requester_id');
    if (!req) return null;
    await lockUsers(trx, [ownerId, req.requester_id]);
    const gone = await trx('user_follow_requests').where({ id: requestId, target_id: ownerId }).del().returning('requester_id');
    if (!gone.length) return null; // decided meanwhile by a concurrent call
    const followed = approve ? await addFollow(trx, req.requester_id, ownerId) : false;
    return { requesterId: req.requester_id, followed };
  });
}

/** Accepts every pending request to `ownerId` (the profile became public); answers the requesters who now follow. */
export async function acceptAllRequests(knex: Knex, ownerId: number): Promise<number[]> {
  return followTransaction(knex, async (trx) => {
    const ids: number[] = await trx('user_follow_requests').where({ target_id: ownerId }).pluck('requester_id');
    if (!ids.length) return [];
    await lockUsers(trx, [ownerId, ...ids]);
    const gone: number[] = (await trx('user_follow_requests').where({ target_id: ownerId }).del().returning('requester_id')).map((r: any) => r.requester_id);
    const followed: number[] = [];
    for (const id of gone) if (await addFollow(trx, id, ownerId)) followed.push(id);
    return followed;
  });
}

/** `ownerId` removes `followerId` from their followers (no block); answers whether a follow went, null for an unknown user. */
export async function removeFollower(knex: Knex, ownerId: number, followerId: number): Promise<boolean | null> {
  return followTransaction(knex, async (trx) => {
    const locked = await lockUsers(trx, [ownerId, followerId]);
    if (locked.length < 2) return null;
    return dropFollow(trx, followerId, ownerId);
  });
}

/**
 * `blockerId` blocks `blockedId`: in one transaction (both rows locked in id order) the block row,
 * the follows both ways (counters moved by what went) and pending requests both ways go.
 * Answers null for an unknown user.
 */
export async function block(knex: Knex, blockerId: number, blockedId: number): Promise<boolean | null> {
  return followTransaction(knex, async (trx) => {
    const locked = await lockUsers(trx, [blockerId, blockedId]);
    if (locked.length < 2) return null;
    await trx('user_blocks').insert({ blocker_id: blockerId, blocked_id: blockedId }).onConflict(['blocker_id', 'blocked_id']).ignore();
    await dropFollow(trx, blockerId, blockedId);
    await dropFollow(trx, blockedId, blockerId);
    await trx('user_follow_requests')
      .where({ requester_id: blockerId, target_id: blockedId })
      .orWhere({ requester_id: blockedId, target_id: blockerId })
      .del();
    return true;
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
  /** the avatar's ImageInfo as JSON (imageInfoSql; read it with toImageInfo) */
  profile_image_info: unknown;
}

/** Followers of a user (direction 'followers') or the users they follow ('following'), newest first; `notBlocked` filters the listed people. */
export async function listFollows(knex: Knex, userId: number, direction: 'followers' | 'following', limit: number, offset: number, notBlocked?: Knex.Raw, showPending = false): Promise<FollowListRow[]> {
  const [mine, other] = direction === 'followers' ? ['following_id', 'follower_id'] : ['follower_id', 'following_id'];
  const q = knex('user_follows as f')
    .join('users as u', 'u.id', `f.${other}`)
    .where(`f.${mine}`, userId);
  // people blocked either way with the viewer are not listed (accounts' rule, in this statement)
  if (notBlocked) q.whereRaw(notBlocked);
  // nor members whose deletion is pending (hidden from all but Admins during the grace period)
  if (!showPending) q.whereNull('u.deletion_requested_at');
  return q
    .orderBy([{ column: 'f.created_at', order: 'desc' }, { column: 'u.id', order: 'desc' }])
    .limit(limit)
    .offset(offset)
    .select('u.id', 'u.slug', 'u.username', 'u.first_name', 'u.last_name', 'u.profile_image_url', 'u.role', 'f.created_at as followed_at')
    // the avatar's made widths, size and placeholder, in this statement (issue 23)
    .select(knex.raw('? as ??', [imageInfoSql(knex, 'u.profile_image_url'), 'profile_image_info']));
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
export async function removeUser(knex: Knex, userId: number, erase?: (trx: Knex.Transaction) => Promise<void>): Promise<any | null> {
  return followTransaction(knex, async (trx) => {
    // Other plugins' erasers first (they lock their own rows, then the user's): see UserDataApi.onErase.
    if (erase) await erase(trx);
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
