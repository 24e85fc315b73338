/** Members: list, roles (creator), removal, content deletion, restrictions, warnings, bans, bulk actions, a member's posts and comments. */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { Deps } from './deps.ts';
import { idMemberParams, idParams, okResponse, reasonBody } from './deps.ts';
import { RANK, assertCreator, assertManager, assertModerator, assertRead, loadAccess, loadTarget, type Access, type MemberRow } from './access.ts';
import { members as presentMembers, posts as presentPosts, users, type PostRow } from './present.ts';
import { removeComments, reportsGone } from './routes-posts.ts';
import { iso } from './util.ts';
import { storedMentionList } from '../../../core/threads.ts';

const PERMISSION_KEYS = ['canPost', 'canComment', 'isMuted', 'requiresApproval'] as const;
type PermissionKey = (typeof PERMISSION_KEYS)[number];
const COLUMN: Record<PermissionKey, string> = { canPost: 'can_post', canComment: 'can_comment', isMuted: 'is_muted', requiresApproval: 'requires_approval' };

const BULK_ACTIONS = ['remove', 'ban', 'warn', 'mute', 'unmute', 'restrict_posting', 'allow_posting', 'require_approval', 'remove_approval'] as const;
type BulkAction = (typeof BULK_ACTIONS)[number];

export function memberRoutes(d: Deps) {
  const { ctx, knex } = d;

  async function presentOne(a: Access, memberId: number) {
    const row = await knex('community_members').where({ id: memberId }).first();
    const [out] = await presentMembers(knex, d.accounts, a, [row]);
    return out;
  }

  /** Removes a member (optionally banning them) with an exact member count. */
  async function removeMember(a: Access, target: MemberRow, ban: { reason: string } | null): Promise<void> {
    await knex.transaction(async (trx) => {
      if (ban) {
        await trx('community_bans')
          .insert({ community_id: a.community.id, user_id: target.user_id, reason: ban.reason, banned_by: a.user!.id })
          .onConflict(['community_id', 'user_id'])
          .merge({ reason: ban.reason, banned_by: a.user!.id });
        await trx('community_join_requests').where({ community_id: a.community.id, user_id: target.user_id, status: 'pending' }).update({ status: 'declined', decided_at: trx.fn.now(), decided_by: a.user!.id });
      }
      const del = await trx('community_members').where({ id: target.id }).del().returning('id');
      if (del.length) await trx('communities').where({ id: a.community.id }).decrement('member_count', 1);
    });
    await ctx.events.emit('communities.member.left', { communityId: a.community.id, userId: target.user_id });
    await d.notify([target.user_id], ban
      ? {
          title: 'Banned from a community',
          message: `You have been banned from ${a.community.name}${ban.reason ? `: ${ban.reason}` : '.'}`,
          priority: 'high',
          link: '/communities',
          template: ban.reason ? 'communities:notify.bannedReason' : 'communities:notify.banned',
          params: { community: a.community.name, reason: ban.reason },
        }
      : { title: 'Removed from a community', message: `You have been removed from ${a.community.name}.`, link: '/communities', template: 'communities:notify.removed', params: { community: a.community.name } });
  }

  async function warn(a: Access, target: MemberRow, reason: string) {
    await knex('community_warnings').insert({ community_id: a.community.id, user_id: target.user_id, reason, issued_by: a.user!.id });
    await d.notify([target.user_id], { title: `Warning from ${a.community.name}`, message: reason, priority: 'high', link: `/communities/${a.community.id}`, template: 'communities:notify.warned', params: { community: a.community.name, reason } });
  }

  async function restrict(a: Access, target: MemberRow, key: PermissionKey, value: boolean) {
    await knex('community_members').where({ id: target.id }).update({ [COLUMN[key]]: value });
    const texts: Partial<Record<string, string>> = {
      'canPost:false': 'You can no longer post in',
      'canPost:true': 'You may post again in',
      'canComment:false': 'You can no longer comment in',
      'canComment:true': 'You may comment again in',
      'isMuted:true': 'You have been muted in',
      'isMuted:false': 'You are no longer muted in',
      'requiresApproval:true': 'Your posts now need a moderator’s approval in',
      'requiresApproval:false': 'Your posts no longer need approval in',
    };
    const t = texts[`${key}:${value}`];
    if (t) await d.notify([target.user_id], { title: 'Community permissions changed', message: `${t} ${a.community.name}.`, link: `/communities/${a.community.id}`, template: `communities:notify.permissions.${key}_${value}`, params: { community: a.community.name } });
  }

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/communities/:id/members',
    operationId: 'listCommunityMembers',
    summary: 'Members: creator first, then admins, moderators, members; restrictions and stats for admins, moderators and the creator',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'communities/Member' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertRead(a);
      const rows: MemberRow[] = await knex('community_members')
        .where({ community_id: a.community.id })
        .whereRaw(memberRule(a, c.user!, 'community_members.user_id'))
        .orderByRaw('(user_id = ?) desc', [a.community.creator_id])
        .orderByRaw("case role when 'admin' then 0 when 'moderator' then 1 else 2 end")
        .orderBy('joined_at')
        .orderBy('id')
        .limit(5000);
      return presentMembers(knex, d.accounts, a, rows);
    },
  });

  ctx.routes.add<{ id: number; memberId: number }, unknown, { role: 'member' | 'moderator' | 'admin' }>({
    method: 'PATCH',
    path: '/api/communities/:id/members/:memberId/role',
    operationId: 'updateCommunityMemberRole',
    summary: "Change a member's role: member, moderator or admin (creator only)",
    auth: 'required',
    schema: {
      params: idMemberParams,
      body: { type: 'object', additionalProperties: false, required: ['role'], properties: { role: { type: 'string', enum: ['member', 'moderator', 'admin'] } } },
      response: { allOf: [{ $ref: 'communities/Member' }] },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertCreator(a, 'Only the community creator can change roles');
      const target = await loadTarget(knex, a, c.input.params.memberId);
      await knex('community_members').where({ id: target.id }).update({ role: c.input.body.role });
      if (target.role !== c.input.body.role) {
        await d.notify([target.user_id], {
          title: 'Community role changed',
          message: `You are now ${c.input.body.role === 'admin' ? 'an admin' : `a ${c.input.body.role}`} of ${a.community.name}.`,
          link: `/communities/${a.community.id}`,
          template: `communities:notify.role.${c.input.body.role}`,
          params: { community: a.community.name },
        });
      }
      return presentOne(a, target.id);
    },
  });

  ctx.routes.add<{ id: number; memberId: number }>({
    method: 'DELETE',
    path: '/api/communities/:id/members/:memberId',
    operationId: 'removeCommunityMember',
    summary: 'Remove a member (creator and community admins; never the creator)',
    auth: 'required',
    schema: { params: idMemberParams, response: okResponse },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const target = await loadTarget(knex, a, c.input.params.memberId);
      await removeMember(a, target, null);
      return { success: true, message: 'Member removed successfully' };
    },
  });

  ctx.routes.add<{ id: number; memberId: number }, { contentType?: 'posts' | 'all' }, { contentType?: 'posts' | 'all' }>({
    method: 'DELETE',
    path: '/api/communities/:id/members/:memberId/content',
    operationId: 'deleteCommunityMemberContent',
    summary: "Delete a member's posts (contentType posts) or posts and comments (all) in this community; contentType in the JSON body or the query",
    auth: 'required',
    schema: {
      params: idMemberParams,
      query: { type: 'object', additionalProperties: false, properties: { contentType: { type: 'string', enum: ['posts', 'all'] } } },
      body: { type: 'object', additionalProperties: false, properties: { contentType: { type: 'string', enum: ['posts', 'all'] } } },
      response: {
        type: 'object',
        additionalProperties: false,
        required: ['success', 'message', 'deletedPosts', 'deletedComments'],
        properties: { success: { type: 'boolean' }, message: { type: 'string' }, deletedPosts: { type: 'integer' }, deletedComments: { type: 'integer' } },
      },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const contentType = c.input.body?.contentType ?? c.input.query.contentType;
      if (!contentType) throw new HttpError(400, 'Content type is required', { errors: [{ path: '/body/contentType', message: 'Content type is required' }] });
      const target = await loadTarget(knex, a, c.input.params.memberId);
      let deletedComments = 0;
      if (contentType === 'all') {
        const ids: number[] = await knex('community_comments').where({ community_id: a.community.id, user_id: target.user_id }).pluck('id');
        deletedComments = await removeComments(ctx, knex, ids);
      }
      const postIds = (await knex('community_posts').where({ community_id: a.community.id, user_id: target.user_id }).del().returning('id')).map((r: any) => Number(r.id ?? r));
      await reportsGone(ctx, 'community_post', postIds);
      const deletedPosts = postIds.length;
      return { success: true, message: 'Content deleted successfully', deletedPosts, deletedComments };
    },
  });

  ctx.routes.add<{ id: number; memberId: number }, unknown, Partial<Record<PermissionKey, boolean>>>({
    method: 'PATCH',
    path: '/api/communities/:id/members/:memberId/permissions',
    operationId: 'updateCommunityMemberPermissions',
    summary: 'Set exactly one of canPost, canComment, isMuted, requiresApproval (creator and community admins); enforced on posting and commenting',
    auth: 'required',
    schema: {
      params: idMemberParams,
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        'x-messages': { minProperties: 'Send exactly one of canPost, canComment, isMuted, requiresApproval', maxProperties: 'Send exactly one of canPost, canComment, isMuted, requiresApproval' },
        properties: { canPost: { type: 'boolean' }, canComment: { type: 'boolean' }, isMuted: { type: 'boolean' }, requiresApproval: { type: 'boolean' } },
      },
      response: { allOf: [{ $ref: 'communities/Member' }] },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const target = await loadTarget(knex, a, c.input.params.memberId);
      const [key] = Object.keys(c.input.body) as PermissionKey[];
      await restrict(a, target, key, c.input.body[key]!);
      return presentOne(a, target.id);
    },
  });

  ctx.routes.add<{ id: number; memberId: number }, unknown, { reason: string }>({
    method: 'POST',
    path: '/api/communities/:id/members/:memberId/warn',
    operationId: 'warnCommunityMember',
    summary: 'Warn a member: recorded in their stats, and they get a notification (creator and community admins)',
    auth: 'required',
    schema: { params: idMemberParams, body: reasonBody, response: okResponse },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const target = await loadTarget(knex, a, c.input.params.memberId);
      await warn(a, target, c.input.body.reason.trim());
      return { success: true, message: 'Warning sent' };
    },
  });

  ctx.routes.add<{ id: number; memberId: number }, unknown, { reason?: string }>({
    method: 'POST',
    path: '/api/communities/:id/members/:memberId/ban',
    operationId: 'banCommunityMember',
    summary: 'Ban a member: removed, and refused if they try to join or ask to join again (creator and community admins)',
    auth: 'required',
    schema: {
      params: idMemberParams,
      body: { type: 'object', additionalProperties: false, properties: { reason: { type: 'string', maxLength: 500 } } },
      response: okResponse,
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const target = await loadTarget(knex, a, c.input.params.memberId);
      await removeMember(a, target, { reason: (c.input.body.reason ?? '').trim() });
      return { success: true, message: 'Member banned' };
    },
  });

  ctx.routes.add<{ id: number }, unknown, { memberIds: number[]; action: BulkAction; reason?: string }>({
    method: 'POST',
    path: '/api/communities/:id/members/bulk',
    operationId: 'bulkCommunityMemberAction',
    summary: 'One action on many members (creator and community admins); members the actor may not act on are skipped with a reason',
    auth: 'required',
    schema: {
      params: idParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['memberIds', 'action'],
        properties: {
          memberIds: { type: 'array', minItems: 1, maxItems: 200, uniqueItems: true, items: { $ref: 'shared/Id' }, 'x-messages': { minItems: 'Select at least one member' } },
          action: { type: 'string', enum: [...BULK_ACTIONS] },
          reason: { type: 'string', maxLength: 500 },
        },
      },
      response: {
        type: 'object',
        additionalProperties: false,
        required: ['success', 'processed', 'skipped'],
        properties: {
          success: { type: 'boolean' },
          processed: { type: 'integer' },
          skipped: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['memberId', 'message'], properties: { memberId: { type: 'integer' }, message: { type: 'string' } } },
          },
        },
      },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const { action, memberIds } = c.input.body;
      const reason = (c.input.body.reason ?? '').trim();
      if (action === 'warn' && !reason) throw new HttpError(400, 'Reason is required', { errors: [{ path: '/body/reason', message: 'Reason is required' }] });
      const skipped: Array<{ memberId: number; message: string }> = [];
      let processed = 0;
      for (const memberId of memberIds) {
        let target: MemberRow;
        try {
          target = await loadTarget(knex, a, memberId);
        } catch (e) {
          if (e instanceof HttpError) {
            skipped.push({ memberId, message: e.message });
            continue;
          }
          throw e;
        }
        switch (action) {
          case 'remove': await removeMember(a, target, null); break;
          case 'ban': await removeMember(a, target, { reason }); break;
          case 'warn': await warn(a, target, reason); break;
          case 'mute': await restrict(a, target, 'isMuted', true); break;
          case 'unmute': await restrict(a, target, 'isMuted', false); break;
          case 'restrict_posting': await restrict(a, target, 'canPost', false); break;
          case 'allow_posting': await restrict(a, target, 'canPost', true); break;
          case 'require_approval': await restrict(a, target, 'requiresApproval', true); break;
          case 'remove_approval': await restrict(a, target, 'requiresApproval', false); break;
        }
        processed++;
      }
      return { success: true, processed, skipped };
    },
  });

  async function loadMember(a: Access, memberId: number, rule?: Knex.Raw): Promise<MemberRow> {
    const q = knex('community_members').where({ id: memberId, community_id: a.community.id });
    if (rule) q.whereRaw(rule);
    const m = await q.first();
    if (!m) throw new HttpError(404, 'Member not found');
    return m;
  }

  /**
   * Accounts' rule for the community's members as the viewer sees them (their list, one member's
   * posts): not blocked either way, not muted by the viewer, and not a member whose deletion is
   * pending. The community's moderators see every member but those pending deletion (they moderate
   * members they blocked or muted), and Admins everyone.
   */
  function memberRule(a: Access, viewer: { id: number; role: string }, col: string): Knex.Raw {
    return a.rank >= RANK.moderator && viewer.role !== 'Admin' ? d.accounts.sql.notPendingDeletion(col) : d.accounts.sql.notBlockedOrMuted(viewer, col);
  }

  ctx.routes.add<{ id: number; memberId: number }>({
    method: 'GET',
    path: '/api/communities/:id/members/:memberId/posts',
    operationId: 'listCommunityMemberPosts',
    summary: "A member's posts in this community, newest first (moderators also see posts waiting for review)",
    auth: 'required',
    schema: { params: idMemberParams, response: { type: 'array', items: { $ref: 'communities/Post' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertRead(a);
      // a member the viewer may not see in the list is not found here either
      const m = await loadMember(a, c.input.params.memberId, memberRule(a, c.user!, 'community_members.user_id'));
      const q = knex('community_posts').where({ community_id: a.community.id, user_id: m.user_id }).orderBy('id', 'desc').limit(100);
      if (a.rank >= RANK.moderator || m.user_id === c.user!.id) q.whereIn('status', ['published', 'pending']);
      else q.where({ status: 'published' });
      const rows: PostRow[] = await q;
      return presentPosts(knex, d.accounts, rows, a);
    },
  });

  ctx.routes.add<{ id: number; memberId: number }>({
    method: 'GET',
    path: '/api/communities/:id/members/:memberId/comments',
    operationId: 'listCommunityMemberComments',
    summary: "A member's comments in this community, newest first, to review them (community admins, moderators, creator)",
    auth: 'required',
    schema: { params: idMemberParams, response: { type: 'array', items: { $ref: 'communities/CommentReply' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertModerator(a);
      const m = await loadMember(a, c.input.params.memberId);
      const rows = await knex('community_comments').where({ community_id: a.community.id, user_id: m.user_id }).orderBy('id', 'desc').limit(200);
      const u = await users(d.accounts, [m.user_id]);
      return rows.map((r: any) => ({ id: r.id, postId: r.post_id, parentId: r.parent_id, content: r.content, mentions: storedMentionList(r.mentions), createdAt: iso(r.created_at)!, user: u.get(r.user_id) ?? null, canDelete: true }));
    },
  });
}
