/** Communities: list, search, create, detail, edit, image, delete, join/leave, join requests, bans. */
import { HttpError } from '../../../core/errors.ts';
import { imageInfoSql, toImageInfo, withImageInfo, withImageInfos } from '../../../core/images.ts';
import type { Deps } from './deps.ts';
import { EmailVerification, type UserSummary } from '../../accounts/public.ts';
import { idParams, okResponse } from './deps.ts';
import { assertCreator, assertManager, loadAccess, type CommunityRow } from './access.ts';
import { card, cards, detail, users, type Users } from './present.ts';
import { canonicalMembership, iso, likeEscape, normalizeTags } from './util.ts';
import { reportsGone } from './routes-posts.ts';

const CREATOR_ROLES = ['Admin', 'Ambassador'];

const joinResult = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'status', 'message', 'memberCount', 'isMember'],
  properties: {
    success: { type: 'boolean' },
    status: { type: 'string', enum: ['joined', 'requested', 'left', 'cancelled'] },
    message: { type: 'string' },
    memberCount: { type: 'integer' },
    isMember: { type: 'boolean' },
  },
} as const;

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 200 },
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 100 },
  },
} as const;

/**
 * Communities matching a search text (name, description, location, tags), name matches first.
 * One statement whatever the results (issue 18: GET /api/search ≤ 6 statements): the creators'
 * summaries (accounts' summary columns, as getUserSummaries reads them) and the viewer's membership
 * are read with the communities, not in two more queries when some match.
 */
export async function searchCommunities(d: Deps, q: string, limit: number, viewerId?: number) {
  const st = searchCommunitiesStatement(d, q, limit, viewerId);
  return st ? st.answer(await st.query) : [];
}

/** searchCommunities' statement, not run, and its answer from the rows (GET /api/search reads it with the other kinds'). */
export function searchCommunitiesStatement(d: Deps, q: string, limit: number, viewerId?: number) {
  if (!q.trim()) return null;
  const creator = Object.fromEntries(Object.entries(d.accounts.summaryColumns).map(([k, v]) => [`u_${k}`, v]));
  const query = searchQuery(d, q)
    .leftJoin('users', 'users.id', 'communities.creator_id')
    .select('communities.*', creator)
    // the cover's and the creator's avatar's made widths and placeholders, in this statement (issue 23)
    .select(d.knex.raw('? as ??', [imageInfoSql(d.knex, 'communities.image_url'), 'image_info']))
    .select(d.knex.raw('? as ??', [imageInfoSql(d.knex, 'users.profile_image_url'), 'u_profileImageInfo']))
    .select(
      viewerId
        ? d.knex.raw('(select vm_.role from community_members vm_ where vm_.community_id = communities.id and vm_.user_id = ?) as viewer_role', [viewerId])
        : d.knex.raw('null as viewer_role'),
    )
    .limit(limit);
  const answer = (rows: Array<CommunityRow & Record<string, any>>) => {
    // the summary as accounts reads it: its columns' names without the prefix
    const u: Users = new Map();
    for (const r of rows) {
      if (r.u_id != null) u.set(Number(r.u_id), { ...(Object.fromEntries(Object.keys(creator).map((k) => [k.slice(2), r[k]])) as UserSummary), profileImageInfo: toImageInfo(r.u_profileImageInfo) });
    }
    return rows.map((r) => ({ ...card(r, u, r.viewer_role ? { role: r.viewer_role } : null, viewerId), imageInfo: toImageInfo(r.image_info) }));
  };
  return { query, answer };
}

function searchQuery(d: Deps, q: string | undefined) {
  // columns qualified: the search joins the creator's users row
  const query = d.knex('communities');
  const text = (q ?? '').trim();
  if (text) {
    const like = `%${likeEscape(text)}%`;
    query.where((w) => {
      w.whereILike('communities.name', like)
        .orWhereILike('communities.description', like)
        .orWhereILike('communities.location', like)
        .orWhereRaw('communities.tags::text ilike ?', [like]);
    });
    query.orderByRaw('(communities.name ilike ?) desc', [like]);
  }
  return query.orderBy('communities.member_count', 'desc').orderBy('communities.id', 'desc');
}

export function communityRoutes(d: Deps) {
  const { ctx, knex } = d;

  ctx.routes.add<unknown, { q?: string; limit: number }>({
    method: 'GET',
    path: '/api/communities',
    operationId: 'listCommunities',
    summary: 'Communities, busiest first; q searches name, description, location and tags',
    auth: 'optional',
    schema: { query: listQuery, response: { type: 'array', items: { $ref: 'communities/CommunityCard' } } },
    async handler(c) {
      const rows: CommunityRow[] = await searchQuery(d, c.input.query.q).limit(c.input.query.limit);
      // each cover's made widths and placeholder: one query for the whole list
      return withImageInfos(knex, ctx.storage, await cards(knex, d.accounts, rows, c.user?.id), 'imageUrl', 'imageInfo');
    },
  });

  ctx.routes.add<unknown, { q: string; limit: number }>({
    method: 'GET',
    path: '/api/search/communities',
    operationId: 'searchCommunities',
    summary: 'Communities matching the search text',
    auth: 'optional',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['q'],
        properties: { q: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 } },
      },
      response: { type: 'array', items: { $ref: 'communities/CommunityCard' } },
    },
    async handler(c) {
      // each cover's made widths and placeholder come with the search's statement
      return searchCommunities(d, c.input.query.q, c.input.query.limit, c.user?.id);
    },
  });

  ctx.routes.add<unknown, unknown, any>({
    method: 'POST',
    path: '/api/communities',
    operationId: 'createCommunity',
    summary: 'Create a community (roles Admin and Ambassador); the creator becomes its first member',
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'communities/CreateCommunityBody' }, response: { 201: { allOf: [{ $ref: 'communities/Community' }] } } },
    async handler(c) {
      const user = c.user!;
      if (!CREATOR_ROLES.includes(user.role)) throw new HttpError(403, 'Only ambassadors and admins can create communities');
      // a confirmed email address first (accounts' rule; 403 with its message)
      await ctx.services.maybe(EmailVerification)?.requireVerified(user.id);
      const b = c.input.body;
      const id = await knex.transaction(async (trx) => {
        const [row] = await trx('communities')
          .insert({
            name: b.name.trim(),
            description: (b.description ?? '').trim(),
            location: (b.location ?? '').trim(),
            type: (b.type ?? '').trim() || 'general',
            membership_type: canonicalMembership(b.membershipType),
            tags: JSON.stringify(normalizeTags(b.tags)),
            image_url: (b.imageUrl ?? '').trim() || null,
            rules: (b.rules ?? '').trim(),
            creator_id: user.id,
            member_count: 1,
          })
          .returning('id');
        await trx('community_members').insert({ community_id: row.id, user_id: user.id, role: 'admin', last_active_at: trx.fn.now() });
        return row.id as number;
      });
      return detail(knex, d.accounts, await loadAccess(knex, id, user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/communities/:id',
    operationId: 'getCommunity',
    summary: "A community with the viewer's membership, role and permissions",
    auth: 'optional',
    schema: { params: idParams, response: { allOf: [{ $ref: 'communities/Community' }] } },
    async handler(c) {
      // the cover's made variant widths and placeholder beside its URL
      return withImageInfo(knex, ctx.storage, await detail(knex, d.accounts, await loadAccess(knex, c.input.params.id, c.user)), 'imageUrl', 'imageInfo');
    },
  });

  ctx.routes.add<{ id: number }, unknown, any>({
    method: 'PATCH',
    path: '/api/communities/:id',
    operationId: 'updateCommunity',
    summary: 'Edit community info, privacy and rules (creator only)',
    auth: 'required',
    schema: { params: idParams, body: { $ref: 'communities/UpdateCommunityBody' }, response: { allOf: [{ $ref: 'communities/Community' }] } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertCreator(a, 'Only the community creator can edit the community');
      const b = c.input.body;
      const patch: Record<string, unknown> = { updated_at: knex.fn.now() };
      if (b.name !== undefined) patch.name = b.name.trim();
      if (b.description !== undefined) patch.description = b.description.trim();
      if (b.location !== undefined) patch.location = b.location.trim();
      if (b.type !== undefined) patch.type = b.type.trim() || 'general';
      if (b.membershipType !== undefined) patch.membership_type = canonicalMembership(b.membershipType);
      if (b.tags !== undefined) patch.tags = JSON.stringify(normalizeTags(b.tags));
      if (b.imageUrl !== undefined) patch.image_url = (b.imageUrl ?? '').trim() || null;
      if (b.rules !== undefined) patch.rules = b.rules.trim();
      await knex('communities').where({ id: a.community.id }).update(patch);
      // Others (events: seats of non-members at its meetups) follow the community going private.
      if (a.community.membership_type !== 'private' && patch.membership_type === 'private') {
        await ctx.events.emit('communities.community.madePrivate', { communityId: a.community.id });
      }
      return detail(knex, d.accounts, await loadAccess(knex, a.community.id, c.user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/communities/:id/image',
    operationId: 'uploadCommunityImage',
    summary: 'Replace the community image (creator only): JPG, PNG or GIF up to 5 MB, re-encoded',
    auth: 'required',
    bodyType: 'multipart',
    schema: { params: idParams, response: { allOf: [{ $ref: 'communities/Community' }] } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertCreator(a, 'Only the community creator can edit the community');
      const parsed = await ctx.uploads.parse(c as any, { maxFileSize: 5 * 1024 * 1024, maxFiles: 1, fileFields: ['image'], tooLargeMessage: 'Image too large: at most 5 MB' });
      try {
        const file = parsed.files[0];
        if (!file) throw new HttpError(400, 'Please choose an image');
        const img = await ctx.uploads.processImage(file, { prefix: 'communities', width: 1600, height: 900, fit: 'inside' });
        const old = a.community.image_url ? ctx.storage.keyFromUrl(a.community.image_url) : null;
        await knex('communities').where({ id: a.community.id }).update({ image_url: img.url, updated_at: knex.fn.now() });
        if (old) await ctx.storage.delete(old).catch(() => {});
      } finally {
        await ctx.uploads.cleanup(parsed.files);
      }
      return detail(knex, d.accounts, await loadAccess(knex, a.community.id, c.user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/communities/:id',
    operationId: 'deleteCommunity',
    summary: 'Delete the community and everything in it (creator only)',
    auth: 'required',
    schema: { params: idParams, response: okResponse },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertCreator(a, 'Only the community creator can delete the community');
      const memberIds: number[] = await knex('community_members').where({ community_id: a.community.id }).whereNot({ user_id: a.community.creator_id }).pluck('user_id');
      // Other plugins (events: the community's meetups) clean up first.
      await ctx.events.emit('communities.community.deleting', { communityId: a.community.id });
      const postIds: number[] = await knex('community_posts').where({ community_id: a.community.id }).pluck('id');
      await knex('communities').where({ id: a.community.id }).del();
      // platform reports on its posts (and, through them, their comments) resolve
      await reportsGone(ctx, 'community_post', postIds);
      if (a.community.image_url) {
        const key = ctx.storage.keyFromUrl(a.community.image_url);
        if (key) await ctx.storage.delete(key).catch(() => {});
      }
      await d.notify(memberIds, { title: 'Community deleted', message: `The community ${a.community.name} was deleted by its creator.`, link: '/communities', template: 'communities:notify.deleted', params: { community: a.community.name } });
      return { success: true, message: 'Community deleted successfully' };
    },
  });

  // ---- membership ----

  async function addMember(communityId: number, userId: number): Promise<{ added: boolean; memberCount: number }> {
    return knex.transaction(async (trx) => {
      const ins = await trx('community_members').insert({ community_id: communityId, user_id: userId, role: 'member', last_active_at: trx.fn.now() }).onConflict(['community_id', 'user_id']).ignore().returning('id');
      if (ins.length) {
        const [row] = await trx('communities').where({ id: communityId }).increment('member_count', 1).returning('member_count');
        return { added: true, memberCount: row.member_count };
      }
      const row = await trx('communities').where({ id: communityId }).first('member_count');
      return { added: false, memberCount: row.member_count };
    });
  }

  ctx.routes.add<{ id: number }, unknown, { message?: string }>({
    method: 'POST',
    path: '/api/communities/:id/join',
    operationId: 'joinCommunity',
    summary: 'Join an open community, or ask to join a private one (the creator and admins decide)',
    auth: 'required',
    schema: {
      params: idParams,
      body: { type: 'object', additionalProperties: false, properties: { message: { type: 'string', maxLength: 500 } } },
      response: joinResult,
    },
    async handler(c) {
      const user = c.user!;
      const a = await loadAccess(knex, c.input.params.id, user);
      const community = a.community;
      if (a.isCreator) throw new HttpError(400, 'You are the creator of this community and always a member');
      if (a.member) throw new HttpError(409, 'You are already a member of this community');
      if (await knex('community_bans').where({ community_id: community.id, user_id: user.id }).first('user_id')) {
        throw new HttpError(403, 'You have been banned from this community');
      }
      if (community.membership_type === 'private') {
        const ins = await knex.raw(
          `insert into community_join_requests (community_id, user_id, message) values (?, ?, ?)
           on conflict (community_id, user_id) where status = 'pending' do nothing returning id`,
          [community.id, user.id, (c.input.body.message ?? '').trim()],
        );
        if (ins.rows.length) {
          const managers: number[] = await knex('community_members').where({ community_id: community.id, role: 'admin' }).pluck('user_id');
          await d.notify([...new Set([community.creator_id, ...managers])], {
            title: 'New join request',
            message: `${user.username} asked to join ${community.name}.`,
            link: `/communities/${community.id}?tab=management`,
            template: 'communities:notify.joinRequested',
            params: { user: user.username, community: community.name },
          });
        }
        return { success: true, status: 'requested', message: 'Your request to join has been sent', memberCount: community.member_count, isMember: false };
      }
      const r = await addMember(community.id, user.id);
      if (!r.added) throw new HttpError(409, 'You are already a member of this community');
      await ctx.events.emit('communities.member.joined', { communityId: community.id, userId: user.id });
      return { success: true, status: 'joined', message: 'Joined community successfully!', memberCount: r.memberCount, isMember: true };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/communities/:id/leave',
    operationId: 'leaveCommunity',
    summary: 'Leave a community (or withdraw a pending join request); the creator cannot leave',
    auth: 'required',
    schema: { params: idParams, response: joinResult },
    async handler(c) {
      const user = c.user!;
      const a = await loadAccess(knex, c.input.params.id, user);
      if (a.isCreator) throw new HttpError(400, 'The creator cannot leave their own community');
      const result = await knex.transaction(async (trx) => {
        const del = await trx('community_members').where({ community_id: a.community.id, user_id: user.id }).del().returning('id');
        if (del.length) {
          const [row] = await trx('communities').where({ id: a.community.id }).decrement('member_count', 1).returning('member_count');
          return { left: true, memberCount: row.member_count as number };
        }
        const cancelled = await trx('community_join_requests').where({ community_id: a.community.id, user_id: user.id, status: 'pending' }).update({ status: 'cancelled', decided_at: trx.fn.now() }).returning('id');
        return { left: false, cancelled: cancelled.length > 0, memberCount: a.community.member_count };
      });
      if (result.left) {
        await ctx.events.emit('communities.member.left', { communityId: a.community.id, userId: user.id });
        return { success: true, status: 'left', message: 'Left community successfully!', memberCount: result.memberCount, isMember: false };
      }
      if ((result as any).cancelled) return { success: true, status: 'cancelled', message: 'Join request withdrawn', memberCount: result.memberCount, isMember: false };
      throw new HttpError(409, 'You are not a member of this community');
    },
  });

  // ---- join requests (private communities) ----

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/communities/:id/join-requests',
    operationId: 'listCommunityJoinRequests',
    summary: 'Pending join requests, oldest first (creator and community admins)',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'communities/JoinRequest' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const rows = await knex('community_join_requests').where({ community_id: a.community.id, status: 'pending' }).orderBy('id').limit(500);
      const u = await users(d.accounts, rows.map((r: any) => r.user_id));
      return rows.map((r: any) => ({ id: r.id, communityId: r.community_id, status: r.status, message: r.message, createdAt: iso(r.created_at), user: u.get(r.user_id) ?? null }));
    },
  });

  const requestParams = {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'requestId'],
    properties: { id: { $ref: 'shared/Id' }, requestId: { $ref: 'shared/Id' } },
  } as const;

  for (const decision of ['accept', 'decline'] as const) {
    ctx.routes.add<{ id: number; requestId: number }>({
      method: 'POST',
      path: `/api/communities/:id/join-requests/:requestId/${decision}`,
      operationId: decision === 'accept' ? 'acceptCommunityJoinRequest' : 'declineCommunityJoinRequest',
      summary: `${decision === 'accept' ? 'Accept' : 'Decline'} a join request (creator and community admins); the requester is notified`,
      auth: 'required',
      schema: { params: requestParams, response: okResponse },
      async handler(c) {
        const a = await loadAccess(knex, c.input.params.id, c.user);
        assertManager(a);
        const [req] = await knex('community_join_requests')
          .where({ id: c.input.params.requestId, community_id: a.community.id, status: 'pending' })
          .update({ status: decision === 'accept' ? 'accepted' : 'declined', decided_at: knex.fn.now(), decided_by: c.user!.id })
          .returning('*');
        if (!req) throw new HttpError(409, 'This request has already been handled or withdrawn');
        const name = a.community.name;
        if (decision === 'accept') {
          const r = await addMember(a.community.id, req.user_id);
          if (r.added) await ctx.events.emit('communities.member.joined', { communityId: a.community.id, userId: req.user_id });
          await d.notify([req.user_id], { title: 'Join request accepted', message: `You are now a member of ${name}.`, link: `/communities/${a.community.id}`, template: 'communities:notify.joinAccepted', params: { community: name } });
          return { success: true, message: 'Request accepted' };
        }
        await d.notify([req.user_id], { title: 'Join request declined', message: `Your request to join ${name} was declined.`, link: `/communities/${a.community.id}`, template: 'communities:notify.joinDeclined', params: { community: name } });
        return { success: true, message: 'Request declined' };
      },
    });
  }

  // ---- bans ----

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/communities/:id/bans',
    operationId: 'listCommunityBans',
    summary: 'Users banned from the community (creator and community admins)',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'communities/Ban' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const rows = await knex('community_bans').where({ community_id: a.community.id }).orderBy('created_at', 'desc').limit(1000);
      const u = await users(d.accounts, rows.map((r: any) => r.user_id));
      return rows.map((r: any) => ({ userId: r.user_id, reason: r.reason, createdAt: iso(r.created_at), user: u.get(r.user_id) ?? null }));
    },
  });

  ctx.routes.add<{ id: number; userId: number }>({
    method: 'DELETE',
    path: '/api/communities/:id/bans/:userId',
    operationId: 'unbanCommunityUser',
    summary: 'Lift a ban (creator and community admins); the user may join again',
    auth: 'required',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['id', 'userId'], properties: { id: { $ref: 'shared/Id' }, userId: { $ref: 'shared/Id' } } },
      response: okResponse,
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertManager(a);
      const n = await knex('community_bans').where({ community_id: a.community.id, user_id: c.input.params.userId }).del().returning('user_id');
      if (!n.length) throw new HttpError(404, 'This user is not banned');
      return { success: true, message: 'Ban lifted' };
    },
  });

}
