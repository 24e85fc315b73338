import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import type { GroupsApi, GroupSummary } from '../public.ts';
import { eraseUserComments, removeUserLikes } from '../../../core/threads.ts';
import { THREADS } from './routes.ts';

export function createGroupsApi(knex: Knex): GroupsApi {
  return {
    async exists(groupId) {
      if (!Number.isInteger(groupId) || groupId < 1 || groupId > 2147483647) return false;
      return Boolean(await knex('groups').where({ id: groupId }).first('id'));
    },
    async isMember(groupId, userId) {
      return Boolean(await knex('group_members').where({ group_id: groupId, user_id: userId }).first('id'));
    },
    async creatorId(groupId) {
      const g = await knex('groups').where({ id: groupId }).first('creator_id');
      return g?.creator_id ?? null;
    },
    async groupIdsOf(userId) {
      return knex('group_members').where({ user_id: userId }).orderBy('group_id').pluck('group_id');
    },
    async summaries(ids) {
      const map = new Map<number, GroupSummary>();
      const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i >= 1 && i <= 2147483647))];
      if (!unique.length) return map;
      for (const r of await knex('groups').whereIn('id', unique).select('id', 'name', 'is_private')) {
        map.set(r.id, { id: r.id, name: r.name, isPrivate: Boolean(r.is_private) });
      }
      return map;
    },
    sql: {
      isMember(userId, col) {
        if (!userId) return knex.raw('false');
        return knex.raw('exists (select 1 from group_members gm_ where gm_.group_id = ?? and gm_.user_id = ?)', [col, userId]);
      },
      summary(col) {
        return knex.raw(`(select json_build_object('id', gs_.id, 'name', gs_.name, 'isPrivate', coalesce(gs_.is_private, false)) from groups gs_ where gs_.id = ??)`, [col]);
      },
      visibleTo(userId, col) {
        return knex.raw(
          `exists (select 1 from groups gv_ where gv_.id = ?? and (not coalesce(gv_.is_private, false)${userId ? ' or exists (select 1 from group_members gvm_ where gvm_.group_id = gv_.id and gvm_.user_id = ?)' : ''}))`,
          userId ? [col, userId] : [col],
        );
      },
    },
  };
}

/**
 * Before a user account goes: their groups pass to the longest-standing admin (else member), or
 * are deleted when empty; their memberships, comments and likes go with the counters kept exact.
 */
export async function onUserDeleting(ctx: PluginContext, userId: number): Promise<void> {
  const knex = ctx.db;
  for (const { id } of await knex('groups').where({ creator_id: userId }).select('id')) {
    const heir = await knex('group_members').where({ group_id: id }).whereNot({ user_id: userId }).orderByRaw("(role = 'admin') desc").orderBy('joined_at').orderBy('id').first('id', 'user_id');
    if (heir) {
      await knex.transaction(async (trx) => {
        await trx('groups').where({ id }).update({ creator_id: heir.user_id, updated_at: trx.fn.now() });
        await trx('group_members').where({ id: heir.id }).update({ role: 'admin' });
      });
    } else await knex('groups').where({ id }).del();
  }
  // their comments go, except those others replied under: kept as "Deleted member" (no author, no words)
  await eraseUserComments(knex, THREADS, userId);
  await knex.transaction(async (trx) => {
    await removeUserLikes(trx, THREADS, userId);
    const memberOf: number[] = await trx('group_members').where({ user_id: userId }).pluck('group_id');
    if (memberOf.length) {
      await trx('groups').whereIn('id', memberOf).update({ member_count: trx.raw('greatest(member_count - 1, 0)') });
      await trx('group_members').where({ user_id: userId }).del();
    }
  });
}
