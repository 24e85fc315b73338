/**
 * Groups. Every route needs sign-in. A public group is visible to every signed-in user; a private
 * group only to its members (others get 403), who are added by the group's admins. Posts, likes and
 * comments are for members only.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { withImageInfo, withImageInfos } from '../../../core/images.ts';
import type { AuthUser, PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, type AccountsApi, type Mention, type UserSummary } from '../../accounts/public.ts';
import { NotificationsService, type NewNotification } from '../../notifications/public.ts';
import { decodeCursor, encodeCursor, iso, likeEscape, normalizeTags } from './util.ts';
import { addComment, commentBody, commentTree, deleteComments, likeResponse, storedMentionList, toggleLike, type CommentRow, type ThreadTables } from '../../../core/threads.ts';

export const GROUP_NOT_FOUND = 'Group not found';
const PRIVATE = 'This group is private. Only its members can see it.';
export const THREADS: ThreadTables = { posts: 'group_posts', likes: 'group_post_likes', comments: 'group_comments' };

interface GroupRow {
  id: number;
  name: string;
  description: string;
  is_private: boolean;
  location: string;
  tags: string[];
  image_url: string | null;
  creator_id: number;
  member_count: number;
  created_at: Date;
}
interface MemberRow {
  id: number;
  group_id: number;
  user_id: number;
  role: 'admin' | 'member';
  joined_at: Date;
}
interface PostRow {
  id: number;
  group_id: number;
  user_id: number;
  type: 'text';
  content: string;
  mentions?: unknown;
  likes_count: number;
  comments_count: number;
  created_at: Date;
}
interface Access {
  group: GroupRow;
  member: MemberRow | null;
  user: AuthUser;
  isCreator: boolean;
  isAdmin: boolean;
}

const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { $ref: 'shared/Id' } } } as const;
const ok = { allOf: [{ $ref: 'shared/Ok' }] } as const;
const contentBody = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: {
    content: { type: 'string', minLength: 1, maxLength: 10000, pattern: '\\S', 'x-label': 'Content', 'x-messages': { required: 'Content is required', minLength: 'Content cannot be blank', pattern: 'Content cannot be blank' } },
  },
} as const;

export function groupRoutes(ctx: PluginContext) {
  const knex = ctx.db;
  const accounts = (): AccountsApi => ctx.services.get(AccountsService);
  const notify = async (ids: number[], n: NewNotification) => {
    const svc = ctx.services.maybe(NotificationsService);
    if (!svc || !ids.length) return;
    try {
      await svc.notify(ids, n);
    } catch (err) {
      ctx.log.warn({ err }, 'group notification failed');
    }
  };
  const summaries = (ids: number[]) => accounts().getUserSummaries(ids);

  /**
   * The @username mentions of a text a member writes in the group (accounts' rule: allowTagging,
   * blocks), kept only for members of the group: nobody else may read it.
   */
  async function groupMentions(a: Access, user: AuthUser, text: string): Promise<Mention[]> {
    const list = await accounts().resolveMentions(user, text);
    if (!list.length) return list;
    const members = new Set<number>((await knex('group_members').where({ group_id: a.group.id }).whereIn('user_id', list.map((m) => m.userId)).pluck('user_id')).map(Number));
    return list.filter((m) => m.userId === user.id || members.has(m.userId));
  }

  /** The group's page scrolled to one of its posts (the page highlights `#post-{id}` once its feed shows it). */
  const postLink = (groupId: number, postId: number) => `/groups/${groupId}#post-${postId}`;

  /** Tells the mentioned members (not the author, nor those `told` already for this text), linking to the post. */
  async function tellMentioned(mentions: Mention[], a: Access, user: AuthUser, postId: number, dedupeKey: string, told: number[] = []) {
    const ids = [...new Set(mentions.map((m) => m.userId))].filter((id) => id !== user.id && !told.includes(id));
    await notify(ids, {
      type: 'mention',
      title: 'You were mentioned',
      message: `${user.username} mentioned you in a post in ${a.group.name}.`,
      link: postLink(a.group.id, postId),
      template: 'groups:notify.mention',
      params: { user: user.username, group: a.group.name },
      dedupeKey,
      actorId: user.id,
    });
  }

  async function loadAccess(groupId: number, user: AuthUser, opts: { allowPrivate?: boolean } = {}): Promise<Access> {
    const group: GroupRow | undefined = await knex('groups').where({ id: groupId }).first();
    if (!group) throw new HttpError(404, GROUP_NOT_FOUND);
    const member: MemberRow | null = (await knex('group_members').where({ group_id: groupId, user_id: user.id }).first()) ?? null;
    const isCreator = group.creator_id === user.id;
    if (group.is_private && !member && !isCreator && !opts.allowPrivate) throw new HttpError(403, PRIVATE);
    return { group, member, user, isCreator, isAdmin: isCreator || member?.role === 'admin' };
  }

  function assertMember(a: Access, message: string) {
    if (!a.member) throw new HttpError(403, message);
  }

  function card(g: GroupRow, u: Map<number, UserSummary>, m: Pick<MemberRow, 'role'> | null | undefined, viewerId: number) {
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      isPrivate: g.is_private,
      location: g.location,
      tags: g.tags ?? [],
      imageUrl: g.image_url,
      memberCount: g.member_count,
      creator: u.get(g.creator_id) ?? null,
      isMember: Boolean(m) || g.creator_id === viewerId,
      role: g.creator_id === viewerId ? 'admin' : (m?.role ?? null),
      createdAt: iso(g.created_at)!,
    };
  }

  /** Group cards: creators, the viewer's memberships and the covers' made widths (imageInfo), one query each for the whole list. */
  async function cards(rows: GroupRow[], viewerId: number) {
    const u = await summaries(rows.map((r) => r.creator_id));
    const mine = new Map<number, MemberRow>();
    if (rows.length) for (const m of await knex('group_members').where({ user_id: viewerId }).whereIn('group_id', rows.map((r) => r.id))) mine.set(m.group_id, m);
    return withImageInfos(knex, ctx.storage, rows.map((r) => card(r, u, mine.get(r.id), viewerId)), 'imageUrl', 'imageInfo');
  }

  /**
   * `a`: the viewer's access. Accounts' rule for member lists: members blocked either way with the
   * viewer, muted by the viewer, or whose deletion is pending are not listed; the group's admins
   * see every member but those pending deletion (they manage members they blocked or muted), and
   * Admins everyone.
   */
  async function memberList(g: GroupRow, limit: number, a: Access) {
    const rows: MemberRow[] = await knex('group_members')
      .where({ group_id: g.id })
      .whereRaw(a.isAdmin && a.user.role !== 'Admin' ? accounts().sql.notPendingDeletion('group_members.user_id') : accounts().sql.notBlockedOrMuted(a.user, 'group_members.user_id'))
      .orderByRaw('(user_id = ?) desc', [g.creator_id])
      .orderByRaw("(role = 'admin') desc")
      .orderBy('joined_at')
      .orderBy('id')
      .limit(limit);
    const u = await summaries(rows.map((r) => r.user_id));
    return rows.map((m) => ({ userId: m.user_id, role: m.role, isCreator: m.user_id === g.creator_id, joinedAt: iso(m.joined_at)!, user: u.get(m.user_id) ?? null }));
  }

  async function detail(a: Access) {
    const g = a.group;
    const u = await summaries([g.creator_id]);
    const [{ n }] = await knex('group_posts').where({ group_id: g.id }).count({ n: '*' });
    return {
      ...card(g, u, a.member, a.user.id),
      postsCount: Number(n),
      creatorId: g.creator_id,
      members: await memberList(g, 100, a),
      isMember: Boolean(a.member) || a.isCreator,
      isCreator: a.isCreator,
    };
  }

  async function presentPosts(rows: PostRow[], a: Access) {
    const [u, liked] = await Promise.all([
      summaries(rows.map((r) => r.user_id)),
      rows.length ? knex('group_post_likes').where({ user_id: a.user.id }).whereIn('post_id', rows.map((r) => r.id)).pluck('post_id') : Promise.resolve([]),
    ]);
    const likedSet = new Set<number>(liked);
    return rows.map((p) => ({
      id: p.id,
      groupId: p.group_id,
      type: p.type,
      content: p.content,
      mentions: storedMentionList(p.mentions),
      likesCount: p.likes_count,
      commentsCount: p.comments_count,
      isLiked: likedSet.has(p.id),
      createdAt: iso(p.created_at)!,
      user: u.get(p.user_id) ?? null,
      canDelete: p.user_id === a.user.id || a.isAdmin,
    }));
  }

  async function addMember(groupId: number, userId: number, role: 'admin' | 'member' = 'member'): Promise<boolean> {
    return knex.transaction(async (trx) => {
      const ins = await trx('group_members').insert({ group_id: groupId, user_id: userId, role }).onConflict(['group_id', 'user_id']).ignore().returning('id');
      if (ins.length) await trx('groups').where({ id: groupId }).increment('member_count', 1);
      return ins.length > 0;
    });
  }

  async function removeMember(groupId: number, userId: number): Promise<boolean> {
    return knex.transaction(async (trx) => {
      const del = await trx('group_members').where({ group_id: groupId, user_id: userId }).del().returning('id');
      if (del.length) await trx('groups').where({ id: groupId }).decrement('member_count', 1);
      return del.length > 0;
    });
  }

  // ---- groups ----

  ctx.routes.add<unknown, { q?: string; limit: number }>({
    method: 'GET',
    path: '/api/groups',
    operationId: 'listGroups',
    summary: 'Groups the viewer may see (public ones and private ones they belong to), busiest first',
    auth: 'required',
    schema: {
      query: { type: 'object', additionalProperties: false, properties: { q: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 100 } } },
      response: { type: 'array', items: { $ref: 'groups/GroupCard' } },
    },
    async handler(c) {
      const viewer = c.user!.id;
      const q = knex('groups')
        .where((w) => {
          w.where('is_private', false).orWhereIn('id', knex('group_members').where({ user_id: viewer }).select('group_id'));
        })
        .orderBy('member_count', 'desc')
        .orderBy('id', 'desc')
        .limit(c.input.query.limit);
      const text = (c.input.query.q ?? '').trim();
      if (text) {
        const like = `%${likeEscape(text)}%`;
        q.where((w) => {
          w.whereILike('name', like).orWhereILike('description', like).orWhereILike('location', like).orWhereRaw('tags::text ilike ?', [like]);
        });
      }
      return cards(await q, viewer);
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/user/groups',
    operationId: 'listMyGroups',
    summary: "The viewer's groups, most recently joined first",
    auth: 'required',
    schema: { response: { type: 'array', items: { $ref: 'groups/GroupCard' } } },
    async handler(c) {
      const rows: GroupRow[] = await knex('groups')
        .join('group_members', 'group_members.group_id', 'groups.id')
        .where('group_members.user_id', c.user!.id)
        .orderBy('group_members.joined_at', 'desc')
        .orderBy('groups.id', 'desc')
        .select('groups.*')
        .limit(500);
      return cards(rows, c.user!.id);
    },
  });

  ctx.routes.add<unknown, unknown, any>({
    method: 'POST',
    path: '/api/groups',
    operationId: 'createGroup',
    summary: 'Create a group; the creator becomes its first member and admin',
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'groups/CreateGroupBody' }, response: { 201: { allOf: [{ $ref: 'groups/Group' }] } } },
    async handler(c) {
      const b = c.input.body;
      const id = await knex.transaction(async (trx) => {
        const [g] = await trx('groups')
          .insert({
            name: b.name.trim(),
            description: (b.description ?? '').trim(),
            location: (b.location ?? '').trim(),
            is_private: Boolean(b.isPrivate),
            tags: JSON.stringify(normalizeTags(b.tags)),
            creator_id: c.user!.id,
            member_count: 1,
          })
          .returning('id');
        await trx('group_members').insert({ group_id: g.id, user_id: c.user!.id, role: 'admin' });
        return g.id as number;
      });
      return detail(await loadAccess(id, c.user!));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/groups/:id',
    operationId: 'getGroup',
    summary: "A group with its members and the viewer's membership (private groups: members only)",
    auth: 'required',
    schema: { params: idParams, response: { allOf: [{ $ref: 'groups/Group' }] } },
    async handler(c) {
      // the cover's made variant widths and placeholder beside its URL
      return withImageInfo(knex, ctx.storage, await detail(await loadAccess(c.input.params.id, c.user!)), 'imageUrl', 'imageInfo');
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/groups/:id',
    operationId: 'deleteGroup',
    summary: 'Delete the group with its posts (creator only)',
    auth: 'required',
    schema: { params: idParams, response: ok },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (!a.isCreator) throw new HttpError(403, 'Only the group creator can delete the group');
      await knex('groups').where({ id: a.group.id }).del();
      return { success: true, message: 'Group deleted' };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/groups/:id/image',
    operationId: 'uploadGroupImage',
    summary: "Replace the group's cover image (multipart field 'image'; creator only): JPG, PNG, WebP or GIF up to 5 MB, re-encoded",
    auth: 'required',
    bodyType: 'multipart',
    schema: { params: idParams, response: { allOf: [{ $ref: 'groups/Group' }] } },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (!a.isCreator) throw new HttpError(403, 'Only the group creator can change the group image');
      const parsed = await ctx.uploads.parse(c as any, { maxFileSize: 5 * 1024 * 1024, maxFiles: 1, fileFields: ['image'], tooLargeMessage: 'Image too large: at most 5 MB' });
      try {
        const file = parsed.files[0];
        if (!file || file.size === 0) throw new HttpError(400, 'Please choose an image');
        const img = await ctx.uploads.processImage(file, { prefix: 'groups', width: 1600, height: 900, fit: 'inside' });
        const old = a.group.image_url ? ctx.storage.keyFromUrl(a.group.image_url) : null;
        await knex('groups').where({ id: a.group.id }).update({ image_url: img.url, updated_at: knex.fn.now() });
        if (old) await ctx.storage.delete(old).catch(() => {});
      } finally {
        await ctx.uploads.cleanup(parsed.files);
      }
      return detail(await loadAccess(a.group.id, c.user!));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/groups/:id/members',
    operationId: 'listGroupMembers',
    summary: 'Every member: creator and admins first',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'groups/Member' } } },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      return memberList(a.group, 5000, a);
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/groups/:id/join',
    operationId: 'joinGroup',
    summary: 'Join a public group (private groups: members are added by the group admins)',
    auth: 'required',
    schema: {
      params: idParams,
      response: { type: 'object', additionalProperties: false, required: ['success', 'message', 'memberCount'], properties: { success: { type: 'boolean' }, message: { type: 'string' }, memberCount: { type: 'integer' } } },
    },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (a.isCreator) throw new HttpError(400, 'You are the creator of this group and always a member');
      if (a.member) throw new HttpError(409, 'You are already a member of this group');
      if (!(await addMember(a.group.id, c.user!.id))) throw new HttpError(409, 'You are already a member of this group');
      await ctx.events.emit('groups.member.joined', { groupId: a.group.id, userId: c.user!.id });
      const g = await knex('groups').where({ id: a.group.id }).first('member_count');
      return { success: true, message: 'Joined group successfully!', memberCount: g.member_count };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/groups/:id/leave',
    operationId: 'leaveGroup',
    summary: 'Leave a group; the creator cannot leave',
    auth: 'required',
    schema: {
      params: idParams,
      response: { type: 'object', additionalProperties: false, required: ['success', 'message', 'memberCount'], properties: { success: { type: 'boolean' }, message: { type: 'string' }, memberCount: { type: 'integer' } } },
    },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (a.isCreator) throw new HttpError(400, 'The creator cannot leave their own group');
      if (!(await removeMember(a.group.id, c.user!.id))) throw new HttpError(409, 'You are not a member of this group');
      await ctx.events.emit('groups.member.left', { groupId: a.group.id, userId: c.user!.id });
      const g = await knex('groups').where({ id: a.group.id }).first('member_count');
      return { success: true, message: 'Left group successfully!', memberCount: g.member_count };
    },
  });

  ctx.routes.add<{ id: number }, unknown, { username: string }>({
    method: 'POST',
    path: '/api/groups/:id/members',
    operationId: 'addGroupMember',
    summary: 'Add a user to the group by username (group admins; the way into a private group)',
    auth: 'required',
    status: 201,
    schema: {
      params: idParams,
      body: { type: 'object', additionalProperties: false, required: ['username'], properties: { username: { type: 'string', minLength: 1, maxLength: 100, 'x-messages': { required: 'Username is required', minLength: 'Username is required' } } } },
      response: { 201: { allOf: [{ $ref: 'groups/Member' }] } },
    },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (!a.isAdmin) throw new HttpError(403, 'Only group admins can add members');
      const u = await accounts().findUser(c.input.body.username.trim().replace(/^@/, ''));
      if (!u || (await accounts().isBlockedEitherWay(c.user!.id, u.id))) throw new HttpError(404, 'User not found');
      if (!(await addMember(a.group.id, u.id))) throw new HttpError(409, 'This user is already a member of this group');
      await ctx.events.emit('groups.member.joined', { groupId: a.group.id, userId: u.id });
      await notify([u.id], { type: 'community', title: 'Added to a group', message: `${c.user!.username} added you to the group ${a.group.name}.`, link: `/groups/${a.group.id}`, template: 'groups:notify.added', params: { user: c.user!.username, group: a.group.name } });
      const m = await knex('group_members').where({ group_id: a.group.id, user_id: u.id }).first();
      const s = await summaries([u.id]);
      return { userId: u.id, role: m.role, isCreator: false, joinedAt: iso(m.joined_at)!, user: s.get(u.id) ?? null };
    },
  });

  ctx.routes.add<{ id: number; userId: number }>({
    method: 'DELETE',
    path: '/api/groups/:id/members/:userId',
    operationId: 'removeGroupMember',
    summary: 'Remove a member (group admins; never the creator)',
    auth: 'required',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['id', 'userId'], properties: { id: { $ref: 'shared/Id' }, userId: { $ref: 'shared/Id' } } },
      response: ok,
    },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      if (!a.isAdmin) throw new HttpError(403, 'Only group admins can remove members');
      const target = c.input.params.userId;
      if (target === a.group.creator_id) throw new HttpError(403, 'The group creator cannot be removed');
      if (target === c.user!.id) throw new HttpError(400, 'Use Leave to leave the group');
      const m = await knex('group_members').where({ group_id: a.group.id, user_id: target }).first('role');
      if (!m) throw new HttpError(404, 'Member not found');
      if (m.role === 'admin' && !a.isCreator) throw new HttpError(403, 'Only the group creator can remove an admin');
      await removeMember(a.group.id, target);
      await ctx.events.emit('groups.member.left', { groupId: a.group.id, userId: target });
      return { success: true, message: 'Member removed successfully' };
    },
  });

  // ---- posts ----

  ctx.routes.add<{ id: number }, { cursor?: string; limit: number }>({
    method: 'GET',
    path: '/api/groups/:id/posts',
    operationId: 'listGroupPosts',
    summary: "The group's posts, newest first (members only)",
    auth: 'required',
    schema: { params: idParams, query: { $ref: 'shared/CursorQuery' }, response: { allOf: [{ $ref: 'groups/PostFeed' }] } },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      assertMember(a, 'Join this group to participate in discussions.');
      const { limit } = c.input.query;
      const cur = decodeCursor<{ id: number }>(c.input.query.cursor, (v) => Number.isInteger(v.id));
      const q = knex('group_posts').where({ group_id: a.group.id }).whereRaw(accounts().sql.notBlockedOrMuted(c.user, 'group_posts.user_id')).orderBy('id', 'desc').limit(limit + 1);
      if (cur) q.where('id', '<', cur.id);
      const rows: PostRow[] = await q;
      const page = rows.slice(0, limit);
      return { items: await presentPosts(page, a), nextCursor: rows.length > limit ? encodeCursor({ id: page[page.length - 1].id }) : null };
    },
  });

  ctx.routes.add<{ id: number }, unknown, { content: string; type?: 'text' }>({
    method: 'POST',
    path: '/api/groups/:id/posts',
    operationId: 'createGroupPost',
    summary: 'Post in the group (members only)',
    auth: 'required',
    status: 201,
    schema: {
      params: idParams,
      body: { ...contentBody, properties: { ...contentBody.properties, type: { type: 'string', enum: ['text'], default: 'text' } } },
      response: { 201: { allOf: [{ $ref: 'groups/Post' }] } },
    },
    async handler(c) {
      const a = await loadAccess(c.input.params.id, c.user!);
      assertMember(a, 'Join this group to participate in discussions.');
      if (c.user!.restricted) throw new HttpError(403, 'Your account is restricted from posting');
      const content = c.input.body.content.trim();
      const mentions = await groupMentions(a, c.user!, content);
      const [row] = await knex('group_posts').insert({ group_id: a.group.id, user_id: c.user!.id, type: 'text', content, mentions: JSON.stringify(mentions) }).returning('*');
      await ctx.events.emit('groups.post.created', { groupId: a.group.id, postId: row.id, userId: c.user!.id });
      await tellMentioned(mentions, a, c.user!, row.id, `mention:gp${row.id}`);
      const [out] = await presentPosts([row], a);
      return out;
    },
  });

  async function postAccess(postId: number, user: AuthUser) {
    const post: PostRow | undefined = await knex('group_posts').where({ id: postId }).first();
    if (!post) throw new HttpError(404, 'Post not found');
    // a block either way with its author: the post does not exist for the viewer (accounts' rule)
    if (user.role !== 'Admin' && (await accounts().isBlockedEitherWay(user.id, post.user_id))) throw new HttpError(404, 'Post not found');
    return { post, a: await loadAccess(post.group_id, user) };
  }

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/group-posts/:id',
    operationId: 'deleteGroupPost',
    summary: 'Delete a post (its author or a group admin)',
    auth: 'required',
    schema: { params: idParams, response: ok },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user!);
      if (post.user_id !== c.user!.id && !a.isAdmin) throw new HttpError(403, 'You can only delete your own posts');
      await knex('group_posts').where({ id: post.id }).del();
      return { success: true, message: 'Post deleted' };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/group-posts/:id/like',
    operationId: 'likeGroupPost',
    summary: 'Like or unlike a post (toggles; members only)',
    auth: 'required',
    schema: { params: idParams, response: likeResponse },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user!);
      assertMember(a, 'Only members of this group can like posts');
      return toggleLike(knex, THREADS, post.id, c.user!.id);
    },
  });

  // ---- comments ----

  async function presentComments(rows: CommentRow[], a: Access) {
    const u = await summaries(rows.map((r) => r.user_id));
    return commentTree(rows, u, (r) => r.user_id === a.user.id || a.isAdmin);
  }

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/group-posts/:id/comments',
    operationId: 'listGroupPostComments',
    summary: 'Comments of a post, oldest first, each with its replies (members only)',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'groups/Comment' } } },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user!);
      assertMember(a, 'Join this group to participate in discussions.');
      return presentComments(await knex('group_comments').where({ post_id: post.id }).whereRaw(accounts().sql.notBlockedOrMuted(c.user, 'group_comments.user_id')).orderBy('id').limit(2000), a);
    },
  });

  ctx.routes.add<{ id: number }, unknown, { content: string; parentId?: number | null }>({
    method: 'POST',
    path: '/api/group-posts/:id/comments',
    operationId: 'createGroupPostComment',
    summary: 'Comment on a post or reply to a comment (parentId; one level deep; members only)',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: commentBody, response: { 201: { allOf: [{ $ref: 'groups/Comment' }] } } },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user!);
      assertMember(a, 'Only members of this group can comment');
      if (c.user!.restricted) throw new HttpError(403, 'Your account is restricted from commenting');
      const mentions = await groupMentions(a, c.user!, c.input.body.content.trim());
      const { row, parentId, recipients } = await addComment(knex, THREADS, post, {
        userId: c.user!.id,
        content: c.input.body.content,
        parentId: c.input.body.parentId,
        columns: { mentions: JSON.stringify(mentions) },
        refuseParentAuthor: async (authorId) => c.user!.role !== 'Admin' && (await accounts().isBlockedEitherWay(c.user!.id, authorId)),
      });
      await tellMentioned(mentions, a, c.user!, post.id, `mention:gc${row.id}`, recipients);
      await notify(recipients, { type: 'comment', title: parentId ? 'New reply' : 'New comment', message: `${c.user!.username} ${parentId ? 'replied in' : 'commented on'} a post in ${a.group.name}.`, link: postLink(a.group.id, post.id), template: parentId ? 'groups:notify.reply' : 'groups:notify.comment', params: { user: c.user!.username, group: a.group.name }, actorId: c.user!.id });
      const [out] = await presentComments([{ ...row, parent_id: null }], a);
      return { ...out, parentId };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/group-comments/:id',
    operationId: 'deleteGroupComment',
    summary: 'Delete a comment and its replies (its author or a group admin)',
    auth: 'required',
    schema: { params: idParams, response: ok },
    async handler(c) {
      const comment = await knex('group_comments').where({ id: c.input.params.id }).first();
      if (!comment) throw new HttpError(404, 'Comment not found');
      const { a } = await postAccess(comment.post_id, c.user!);
      if (comment.user_id !== c.user!.id && !a.isAdmin) throw new HttpError(403, 'You can only delete your own comments');
      await deleteGroupComments(knex, [comment.id]);
      return { success: true, message: 'Comment deleted' };
    },
  });
}

/** Deletes comments with their replies, keeping each post's comments_count exact. */
export function deleteGroupComments(knex: Knex, ids: number[]): Promise<number> {
  return deleteComments(knex, THREADS, ids);
}
