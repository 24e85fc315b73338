import type { Knex } from 'knex';
import type { AuthUser } from '../../../core/plugin-api.ts';
import type { UserStatsProviderApi } from '../public.ts';
import { iso, relation, rowToPreferences, visible } from './service.ts';

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
];

/** A user row with its preferences, by id, or by slug / username. */
export async function loadProfileRow(knex: Knex, key: { id: number } | { slug: string }): Promise<any | null> {
  const q = knex('users')
    .leftJoin('user_preferences as p', 'p.user_id', 'users.id')
    .select([...PROFILE_COLUMNS, 'p.user_id', 'p.profile_visibility', 'p.show_email', 'p.show_followers', 'p.show_following']);
  if ('id' in key) q.where('users.id', key.id);
  else {
    const s = key.slug.trim();
    q.where('users.slug', s.toLowerCase()).orWhere('users.username', s);
  }
  const rows = await q.limit(2);
  if ('slug' in key) return rows.find((r) => r.slug === key.slug.trim().toLowerCase()) ?? rows[0] ?? null;
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
  const base = {
    id: row.id,
    slug: row.slug,
    username: row.username,
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    profileImageUrl: row.profile_image_url ?? null,
    role: row.role,
    isOwn,
    isFollowing: rel.isFollowing,
    followsYou: rel.followsYou,
  };
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
    ...(privileged || prefs.showEmail ? { email: row.email } : {}),
    insightsCount,
    followersCount: privileged || prefs.showFollowers ? row.followers_count : null,
    followingCount: privileged || prefs.showFollowing ? row.following_count : null,
    ...(isOwn ? { profileVisibility: prefs.profileVisibility } : {}),
  };
}
