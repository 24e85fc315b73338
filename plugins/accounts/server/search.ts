import type { Knex } from 'knex';
import type { SearchProvider } from '../../museums/public.ts';
import { searchUsers, toSummary, visible } from './service.ts';

/**
 * People in GET /api/search (the museums plugin's all-in-one search): partial, case-insensitive
 * match on username, first name, last name and "first last" — never email.
 *
 * Searching users is for signed-in members (spec part 2 §6: "search users | signed in"), so an
 * anonymous search lists no one. Privacy: a profile the viewer may see (profileVisibility, as on
 * the profile page) appears as a UserSummary; any other still appears, so that people can find
 * and follow a private member, but by name and photo only (no role).
 */
export function usersSearchProvider(knex: Knex): SearchProvider {
  return {
    kind: 'users',
    async search(q, { limit, viewer }) {
      if (!viewer) return [];
      const rows = await searchUsers(knex, q, limit, viewer.role === 'Admin' ? undefined : viewer.id);
      const restricted = rows.filter((r) => (r.visibility ?? 'public') !== 'public' && r.id !== viewer.id).map((r) => r.id as number);
      // one query for the viewer's relations with every non-public result
      const follows = restricted.length
        ? await knex('user_follows')
            .where((w) => w.where('follower_id', viewer.id).whereIn('following_id', restricted))
            .orWhere((w) => w.where('following_id', viewer.id).whereIn('follower_id', restricted))
            .select('follower_id', 'following_id')
        : [];
      return rows.map((r) => {
        const rel = {
          isFollowing: follows.some((f) => f.follower_id === viewer.id && f.following_id === r.id),
          followsYou: follows.some((f) => f.follower_id === r.id && f.following_id === viewer.id),
        };
        const s = toSummary(r);
        if (visible(r.visibility ?? 'public', viewer, r.id, rel)) return { ...s };
        return { id: s.id, slug: s.slug, username: s.username, firstName: s.firstName, lastName: s.lastName, profileImageUrl: s.profileImageUrl };
      });
    },
  };
}
