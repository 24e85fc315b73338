import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import type { CommunitiesApi, CommunitySummary } from '../public.ts';
import { eraseUserComments, removeUserLikes } from '../../../core/threads.ts';
import { THREADS, reportsGone } from './routes-posts.ts';

export function createCommunitiesApi(knex: Knex): CommunitiesApi {
  return {
    async exists(communityId) {
      if (!Number.isInteger(communityId) || communityId < 1 || communityId > 2147483647) return false;
      return Boolean(await knex('communities').where({ id: communityId }).first('id'));
    },
    async roleOf(communityId, userId) {
      const c = await knex('communities').where({ id: communityId }).first('creator_id');
      if (!c) return null;
      if (c.creator_id === userId) return 'creator';
      const m = await knex('community_members').where({ community_id: communityId, user_id: userId }).first('role');
      return m?.role ?? null;
    },
    async creatorId(communityId) {
      const c = await knex('communities').where({ id: communityId }).first('creator_id');
      return c?.creator_id ?? null;
    },
    async communityIdsOf(userId) {
      return knex('community_members').where({ user_id: userId }).orderBy('community_id').pluck('community_id');
    },
    async summaries(ids) {
      const map = new Map<number, CommunitySummary>();
      const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i >= 1 && i <= 2147483647))];
      if (!unique.length) return map;
      for (const r of await knex('communities').whereIn('id', unique).select('id', 'name', 'membership_type')) {
        map.set(r.id, { id: r.id, name: r.name, isPrivate: r.membership_type === 'private' });
      }
      return map;
    },
    async findByName(name) {
      const r = await knex('communities').where({ name }).orderBy('id').first('id', 'name', 'membership_type');
      return r ? { id: r.id, name: r.name, isPrivate: r.membership_type === 'private' } : null;
    },
    sql: {
      isMember(userId, col) {
        if (!userId) return knex.raw('false');
        return knex.raw('exists (select 1 from community_members cm_ where cm_.community_id = ?? and cm_.user_id = ?)', [col, userId]);
      },
      summary(col) {
        return knex.raw(`(select json_build_object('id', cs_.id, 'name', cs_.name, 'isPrivate', cs_.membership_type = 'private') from communities cs_ where cs_.id = ??)`, [col]);
      },
      visibleTo(userId, col) {
        return knex.raw(
          `exists (select 1 from communities cv_ where cv_.id = ?? and (cv_.membership_type <> 'private'${userId ? ' or exists (select 1 from community_members cvm_ where cvm_.community_id = cv_.id and cvm_.user_id = ?)' : ''}))`,
          userId ? [col, userId] : [col],
        );
      },
    },
  };
}

/**
 * Before a user account goes: their communities pass to the longest-standing admin (else
 * moderator, else member); a community with no one left is deleted. Their memberships end with
 * exact member counts, and their comments go with the post counters fixed. (The rows would
 * cascade anyway; this keeps the counters right.)
 */
export async function onUserDeleting(ctx: PluginContext, userId: number): Promise<void> {
  const knex = ctx.db;
  const created = await knex('communities').where({ creator_id: userId }).select('id');
  for (const { id } of created) {
    const heir = await knex('community_members')
      .where({ community_id: id })
      .whereNot({ user_id: userId })
      .orderByRaw("case role when 'admin' then 0 when 'moderator' then 1 else 2 end")
      .orderBy('joined_at')
      .orderBy('id')
      .first('id', 'user_id');
    if (heir) {
      await knex.transaction(async (trx) => {
        await trx('communities').where({ id }).update({ creator_id: heir.user_id, updated_at: trx.fn.now() });
        await trx('community_members').where({ id: heir.id }).update({ role: 'admin' });
      });
    } else {
      await ctx.events.emit('communities.community.deleting', { communityId: id });
      const postIds: number[] = await knex('community_posts').where({ community_id: id }).pluck('id');
      await knex('communities').where({ id }).del();
      await reportsGone(ctx, 'community_post', postIds);
    }
  }
  // their comments go, except those others replied under: kept as "Deleted member" (no author, no words)
  await eraseUserComments(knex, THREADS, userId);
  // Likes and memberships: lower the counters they raised.
  await knex.transaction(async (trx) => {
    await removeUserLikes(trx, THREADS, userId);
    const memberOf: number[] = await trx('community_members').where({ user_id: userId }).pluck('community_id');
    if (memberOf.length) {
      await trx('communities').whereIn('id', memberOf).update({ member_count: trx.raw('greatest(member_count - 1, 0)') });
      await trx('community_members').where({ user_id: userId }).del();
    }
  });
}
