import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { toImageInfo } from '../../../core/images.ts';
import type { PluginContext, RouteDef } from '../../../core/plugin-api.ts';
import { UserStatsProvider, type UserBadgesProviderApi } from '../public.ts';
import { buildProfile, loadProfileRow } from './profiles.ts';
import { canViewProfile, iso, rowToPreferences } from './service.ts';
import { followedAmong, listFollows, toggleFollow } from './follows.ts';
import { USER_NOT_FOUND, type RouteDeps } from './deps.ts';

const idParams = { $ref: 'shared/IdParams' };
const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    offset: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
  },
};

export const PRIVATE_PROFILE = 'This profile is private';
export const YOU_BLOCKED = 'You blocked this member: unblock them first';

/** A member who blocked the viewer does not exist for the viewer (404 User not found); Admins are exempt. */
export async function refuseBlockedBy(knex: Knex, viewer: { id: number; role: string } | undefined | null, ownerId: number): Promise<void> {
  if (!viewer || viewer.id === ownerId || viewer.role === 'Admin') return;
  const b = await knex('user_blocks').where({ blocker_id: ownerId, blocked_id: viewer.id }).first('blocker_id');
  if (b) throw new HttpError(404, USER_NOT_FOUND);
}

export function addUserRoutes({ ctx, knex, api }: RouteDeps): void {
  const stats = () => ctx.services.maybe(UserStatsProvider);

  ctx.routes.add({
    method: 'GET',
    path: '/api/users/stats',
    operationId: 'getUserStats',
    summary: 'Public member figures for the landing page',
    auth: 'none',
    schema: { response: { $ref: 'accounts/UserStats' } },
    async handler() {
      const [{ n }] = await knex('users').count<{ n: number }[]>('* as n');
      return { travelersCount: Number(n) };
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/user',
    operationId: 'getOwnProfile',
    summary: "The signed-in user's own profile with counts",
    auth: 'required',
    schema: { response: { $ref: 'accounts/Profile' } },
    async handler(c) {
      const row = await loadProfileRow(knex, { id: c.user!.id });
      if (!row) throw new HttpError(401, 'Authentication required');
      return buildProfile(knex, row, c.user, stats());
    },
  });

  ctx.routes.add<{ slug: string }>({
    method: 'GET',
    path: '/api/user/slug/:slug',
    operationId: 'getUserBySlug',
    summary: 'A profile by slug or username',
    auth: 'optional',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['slug'], properties: { slug: { type: 'string', minLength: 1, maxLength: 100 } } },
      response: { $ref: 'accounts/Profile' },
    },
    async handler(c) {
      const row = await loadProfileRow(knex, { slug: c.input.params.slug });
      if (!row) throw new HttpError(404, USER_NOT_FOUND);
      return buildProfile(knex, row, c.user, stats());
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/user/:id',
    operationId: 'getUserProfile',
    summary: 'A profile by id, with counts and isFollowing for the viewer; privacy applied',
    auth: 'optional',
    schema: { params: idParams, response: { $ref: 'accounts/Profile' } },
    async handler(c) {
      const row = await loadProfileRow(knex, { id: c.input.params.id });
      if (!row) throw new HttpError(404, USER_NOT_FOUND);
      return buildProfile(knex, row, c.user, stats());
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/user/:id/follow',
    operationId: 'toggleFollowUser',
    summary: 'Follow or unfollow a member (toggle); answers the new state',
    auth: 'required',
    schema: { params: idParams, response: { $ref: 'accounts/FollowResult' } },
    async handler(c) {
      const target = c.input.params.id;
      if (target === c.user!.id) throw new HttpError(400, 'You cannot follow yourself');
      const r = await toggleFollow(knex, c.user!.id, target);
      if (r.kind === 'missing') throw new HttpError(404, USER_NOT_FOUND);
      if (r.kind === 'blocked') throw new HttpError(403, YOU_BLOCKED);
      // a request (private profile) or its withdrawal is not a follow: nobody is told
      if (r.change === 'followed' || r.change === 'unfollowed') {
        await ctx.events.emit('accounts.user.followed', { followerId: c.user!.id, followingId: target, following: r.following });
      }
      return { following: r.following, requested: r.requested, followersCount: r.followersCount };
    },
  });

  for (const direction of ['followers', 'following'] as const) {
    ctx.routes.add<{ id: number }, { limit: number; offset: number }>({
      method: 'GET',
      path: `/api/user/:id/${direction}`,
      operationId: direction === 'followers' ? 'getUserFollowers' : 'getUserFollowing',
      summary: direction === 'followers' ? "A member's followers, newest first" : 'The members a member follows, newest first',
      auth: 'optional',
      schema: { params: idParams, query: listQuery, response: { type: 'array', items: { $ref: 'accounts/FollowUser' } } },
      async handler(c) {
        const id = c.input.params.id;
        const owner = await knex('users').leftJoin('user_preferences as p', 'p.user_id', 'users.id').where('users.id', id).first('users.id', 'p.*');
        if (!owner) throw new HttpError(404, USER_NOT_FOUND);
        await refuseBlockedBy(knex, c.user, id);
        if (!(await canViewProfile(knex, c.user, id))) throw new HttpError(403, PRIVATE_PROFILE);
        const prefs = rowToPreferences(owner.user_id ? owner : undefined);
        const privileged = c.user && (c.user.id === id || c.user.role === 'Admin');
        const shown = direction === 'followers' ? prefs.showFollowers : prefs.showFollowing;
        if (!privileged && !shown) {
          throw new HttpError(403, direction === 'followers' ? "This member's followers are hidden" : 'Who this member follows is hidden');
        }
        const notBlocked = c.user && c.user.role !== 'Admin' ? api.sql.notBlocked(c.user.id, 'u.id') : undefined;
        const rows = await listFollows(knex, id, direction, c.input.query.limit, c.input.query.offset, notBlocked, c.user?.role === 'Admin');
        const mine = c.user ? await followedAmong(knex, c.user.id, rows.map((r) => r.id)) : new Set<number>();
        return rows.map((r) => ({
          id: r.id,
          slug: r.slug,
          username: r.username,
          firstName: r.first_name ?? '',
          lastName: r.last_name ?? '',
          profileImageUrl: r.profile_image_url ?? null,
          profileImageInfo: toImageInfo(r.profile_image_info),
          role: r.role,
          isFollowing: mine.has(r.id),
          followedAt: iso(r.followed_at),
        }));
      },
    });
  }

}

/** GET /api/user/{id}/badges from the UserBadgesProvider extension point ([] without one). */
export function userBadgesRoute(ctx: PluginContext, provider: () => UserBadgesProviderApi | undefined): RouteDef<{ id: number }> {
  const knex = ctx.db;
  return {
    method: 'GET',
    path: '/api/user/:id/badges',
    operationId: 'getProfileBadges',
    summary: "A member's badges, newest first (empty until the badges plugin provides them)",
    auth: 'optional',
    schema: { params: { $ref: 'shared/IdParams' }, response: { type: 'array', items: { $ref: 'accounts/ProfileBadge' } } },
    async handler(c) {
      const id = c.input.params.id;
      const exists = await knex('users').where({ id }).first('id');
      if (!exists) throw new HttpError(404, USER_NOT_FOUND);
      await refuseBlockedBy(knex, c.user, id);
      if (!(await canViewProfile(knex, c.user, id))) throw new HttpError(403, PRIVATE_PROFILE);
      const p = provider();
      if (!p) return [];
      const list = await p.listUserBadges(id);
      return list.map((b) => ({ ...b, earnedAt: iso(b.earnedAt) }));
    },
  };
}
