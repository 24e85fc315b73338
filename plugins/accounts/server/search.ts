import type { Knex } from 'knex';
import type { SearchProvider } from '../../museums/public.ts';
import { searchUsersQuery, toSummary, visible } from './service.ts';

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
    itemSchema: 'shared/UserSummary',
    statement(q, { limit, viewer }) {
      if (!viewer) return null;
      const query = searchUsersQuery(knex, q, limit, viewer.role === 'Admin' ? undefined : viewer.id);
      return query && { query, answer: (rows) => answer(rows, viewer) };
    },
  };
}

function answer(rows: Array<Record<string, any>>, viewer: { id: number; role: string }) {
  return rows.map((r) => {
    // the viewer's relations come with the rows (one statement, whatever the results)
    const rel = { isFollowing: Boolean(r.isFollowing), followsYou: Boolean(r.followsYou) };
    const s = toSummary(r);
    if (visible(r.visibility ?? 'public', viewer, r.id, rel)) return { ...s };
    return { id: s.id, slug: s.slug, username: s.username, firstName: s.firstName, lastName: s.lastName, profileImageUrl: s.profileImageUrl, profileImageInfo: s.profileImageInfo ?? null };
  });
}
