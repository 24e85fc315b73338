import type { Knex } from 'knex';
import { userIdOfOldSlug } from './slug-history.ts';
import { HttpError } from '../../../core/errors.ts';
import { imageInfoSql, toImageInfo } from '../../../core/images.ts';
import { USER_NOT_FOUND } from './deps.ts';
import type { AuthUser } from '../../../core/plugin-api.ts';
import type { UserStatsProviderApi } from '../public.ts';
import { ACTIVE_MUTE_SQL, iso, relation, rowToPreferences, visible } from './service.ts';

export const PROFILE_COLUMNS = [
  'users.id',
  'users.slug',
  'users.username',
  'users.email',
  'users.first_name',
  'users.last_name',
  'users.bio',
  'users.profile_image_url',
  'users.role',
  'users.created_at',
  'users.followers_count',
  'users.following_count',
  'users.deletion_requested_at',
];

/** A user row with its preferences, by id, or by slug / username. */
export async function loadProfileRow(knex: Knex, key: { id: number } | { slug: string }): Promise<any | null> {
  const q = knex('users')
    .leftJoin('user_preferences as p', 'p.user_id', 'users.id')
    .select([...PROFILE_COLUMNS, 'p.user_id', 'p.profile_visibility', 'p.show_email', 'p.show_followers', 'p.show_following'])
    // the avatar's made widths, size and placeholder (the profile header), in this statement
    .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profile_image_info']));
  if ('id' in key) q.where('users.id', key.id);
  else {
    const s = key.slug.trim();
    q.where('users.slug', s.toLowerCase()).orWhere('users.username', s);
  }
  const rows = await q.limit(2);
  if ('slug' in key) {
    const found = rows.find((r) => r.slug === key.slug.trim().toLowerCase()) ?? rows[0];
    if (found) return found;
    // a slug or username the member had before renaming (slug-history.ts); the answer carries the current slug
    const old = await userIdOfOldSlug(knex, key.slug);
    return old ? loadProfileRow(knex, { id: old }) : null;
  }
  return rows[0] ?? null;
}

/**
 * The profile as `viewer` may see it. Others outside a private or friends-only profile get only the
 * name and avatar (`limited`); showEmail / showFollowers / showFollowing hide those fields from others.
 * The owner and Admins see everything.
 */
export async function buildProfile(knex: Knex, row: any, viewer: AuthUser | undefined, stats: UserStatsProviderApi | undefined) {
  const prefs = rowToPreferences(row.user_id ? row : undefined);
  const isOwn = viewer?.id === row.id;
  const privileged = isOwn || viewer?.role === 'Admin';
  const rel = await relation(knex, viewer?.id, row.id);
  const safety = await viewerSafety(knex, viewer?.id, row.id);
  // blocked by this member: as if they did not exist
  if (safety.blockedBy && viewer?.role !== 'Admin') throw new HttpError(404, USER_NOT_FOUND);
  // deletion pending (grace period): hidden from others, as if absent
  if (row.deletion_requested_at && !privileged) throw new HttpError(404, USER_NOT_FOUND);
  const base = {
    id: row.id,
    slug: row.slug,
    username: row.username,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    profileImageUrl: row.profile_image_url ?? null,
    profileImageInfo: toImageInfo(row.profile_image_info),
    role: row.role,
    isOwn,
    isFollowing: rel.isFollowing,
    followsYou: rel.followsYou,
    requested: safety.requested,
    isBlocked: safety.isBlocked,
    isMuted: safety.isMuted,
  };
  // the viewer blocked this member: name and avatar only (and the way to unblock)
  if (safety.isBlocked && !privileged) return { ...base, limited: true };
  if (!visible(prefs.profileVisibility, viewer, row.id, rel)) return { ...base, limited: true };
  let insightsCount = 0;
  if (stats) {
    try {
      insightsCount = (await stats.insightsCounts([row.id])).get(row.id) ?? 0;
    } catch {
      insightsCount = 0;
    }
  }
  return {
    ...base,
    limited: false,
    bio: row.bio ?? '',
    createdAt: iso(row.created_at),
    // showEmail shows it to members, never to signed-out visitors (crawlers harvest addresses from public pages)
    ...(privileged || (prefs.showEmail && viewer) ? { email: row.email } : {}),
    insightsCount,
    followersCount: privileged || prefs.showFollowers ? row.followers_count : null,
    followingCount: privileged || prefs.showFollowing ? row.following_count : null,
    ...(isOwn ? { profileVisibility: prefs.profileVisibility, followRequestsCount: await pendingRequestsCount(knex, row.id) } : {}),
  };
}

/** How many follow requests wait for `ownerId`'s decision. */
export async function pendingRequestsCount(knex: Knex, ownerId: number): Promise<number> {
  const [{ n }] = await knex('user_follow_requests').where({ target_id: ownerId }).count({ n: '*' });
  return Number(n);
}

/**
 * What stands between the viewer and a member: a pending request of the viewer's, a block by the
 * viewer (isBlocked), by the member (blockedBy: the profile is then "not found" for the viewer), an
 * active mute by the viewer. One statement.
 */
export async function viewerSafety(knex: Knex, viewerId: number | undefined, ownerId: number) {
  if (!viewerId || viewerId === ownerId) return { requested: false, isBlocked: false, blockedBy: false, isMuted: false };
  const { rows } = await knex.raw(
    `select exists (select 1 from user_follow_requests where requester_id = ? and target_id = ?) as requested,
            exists (select 1 from user_blocks where blocker_id = ? and blocked_id = ?) as is_blocked,
            exists (select 1 from user_blocks where blocker_id = ? and blocked_id = ?) as blocked_by,
            exists (select 1 from user_mutes acc_m where muter_id = ? and muted_id = ? and ${ACTIVE_MUTE_SQL}) as is_muted`,
    [viewerId, ownerId, viewerId, ownerId, ownerId, viewerId, viewerId, ownerId],
  );
  const r = rows[0];
  return { requested: Boolean(r.requested), isBlocked: Boolean(r.is_blocked), blockedBy: Boolean(r.blocked_by), isMuted: Boolean(r.is_muted) };
}
