/** Community posts: feed, create (with restrictions and the review queue), like, pin, poll votes, comments, reports. */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { AuthUser, PluginContext } from '../../../core/plugin-api.ts';
import type { Deps } from './deps.ts';
import { idParams, okResponse, reasonBody } from './deps.ts';
import { RANK, assertMayDeleteContent, assertMember, assertModerator, assertRead, commentRefusal, loadAccess, mayDeleteContent, postRefusal, ranksIn, type Access } from './access.ts';
import { pollResults, posts as presentPosts, users, type PostRow } from './present.ts';
import { blankToNull, decodeCursor, encodeCursor, httpUrl, iso } from './util.ts';
import { ReportTargets } from '../../reports/public.ts';
import { addComment, commentBody, commentTree, deleteComments as deleteThreadComments, likeResponse, storedMentionList, toggleLike, type CommentRow, type ThreadTables } from '../../../core/threads.ts';
import type { Mention } from '../../accounts/public.ts';
import { excerptOf } from '../../../core/util.ts';

const POST_NOT_FOUND = 'Post not found';
const COMMENT_NOT_FOUND = 'Comment not found';
export const THREADS: ThreadTables = { posts: 'community_posts', likes: 'community_post_likes', comments: 'community_comments' };

export async function loadPost(knex: Knex, id: number): Promise<PostRow> {
  const p = await knex('community_posts').where({ id }).first();
  if (!p) throw new HttpError(404, POST_NOT_FOUND);
  return p;
}

/** A post as the viewer may see it: published, or their own pending post, or any for moderators. */
function assertPostVisible(a: Access, p: PostRow) {
  assertRead(a);
  if (p.status === 'published') return;
  if (a.user && p.user_id === a.user.id && p.status === 'pending') return;
  if (a.rank >= RANK.moderator) return;
  throw new HttpError(404, POST_NOT_FOUND);
}

async function touch(knex: Knex, communityId: number, userId: number) {
  await knex('community_members').where({ community_id: communityId, user_id: userId }).update({ last_active_at: knex.fn.now() });
}

export function postRoutes(d: Deps) {
  const { ctx, knex } = d;
  /** Platform reports (reports plugin) on removed posts and comments resolve themselves. */
  const gone = (type: 'community_post' | 'community_comment', id: number | number[]) => reportsGone(ctx, type, id);

  /**
   * The @username mentions of a text a member writes in the community (accounts' rule:
   * allowTagging, blocks); in a community that only members may read, only members are kept.
   */
  async function communityMentions(a: Access, user: AuthUser, text: string): Promise<Mention[]> {
    const list = await d.accounts.resolveMentions(user, text);
    if (!list.length || a.community.membership_type === 'open') return list;
    const members = new Set<number>((await knex('community_members').where({ community_id: a.community.id }).whereIn('user_id', list.map((m) => m.userId)).pluck('user_id')).map(Number));
    return list.filter((m) => m.userId === user.id || members.has(m.userId) || m.userId === a.community.creator_id);
  }

  /** A community's page scrolled to one of its posts (the page highlights `#post-{id}` once its feed shows it). */
  const postLink = (communityId: number, postId?: number) => (postId ? `/communities/${communityId}#post-${postId}` : `/communities/${communityId}`);

  /** Tells the mentioned members of a published text (not its author, nor those `told` already). */
  async function tellMentioned(mentions: Mention[], a: Access, author: { id: number; username: string }, dedupeKey: string, told: number[] = [], about?: { postId: number; text: string }) {
    const ids = [...new Set(mentions.map((m) => m.userId))].filter((id) => id !== author.id && !told.includes(id));
    if (!ids.length) return;
    await d.notify(ids, {
      type: 'mention',
      title: 'You were mentioned',
      message: `${author.username} mentioned you in a discussion in ${a.community.name}.`,
      link: postLink(a.community.id, about?.postId),
      template: 'communities:notify.mention',
      params: { user: author.username, community: a.community.name, ...(about ? { excerpt: excerptOf(about.text) } : {}) },
      dedupeKey,
      actorId: author.id,
    });
  }

  async function postAccess(postId: number, user: AuthUser | undefined) {
    const post = await loadPost(knex, postId);
    // a block either way with its author: the post does not exist for the viewer (accounts' rule)
    if (user && user.role !== 'Admin' && (await d.accounts.isBlockedEitherWay(user.id, post.user_id))) throw new HttpError(404, POST_NOT_FOUND);
    const a = await loadAccess(knex, post.community_id, user);
    return { post, a };
  }

  ctx.routes.add<{ id: number }, { cursor?: string; limit: number }>({
    method: 'GET',
    path: '/api/communities/:id/posts',
    operationId: 'listCommunityPosts',
    summary: "The community's discussion: pinned first, then newest (the viewer's own posts awaiting review included)",
    auth: 'required',
    schema: { params: idParams, query: { $ref: 'shared/CursorQuery' }, response: { allOf: [{ $ref: 'communities/PostFeed' }] } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertRead(a);
      const { limit } = c.input.query;
      const cur = decodeCursor<{ p: boolean; id: number }>(c.input.query.cursor, (v) => typeof v.p === 'boolean' && Number.isInteger(v.id));
      const q = knex('community_posts')
        .where({ community_id: a.community.id })
        .whereRaw(d.accounts.sql.notBlockedOrMuted(c.user, 'community_posts.user_id'))
        .where((w) => {
          w.where('status', 'published').orWhere((x) => x.where('status', 'pending').where('user_id', c.user!.id));
        })
        .orderBy('is_pinned', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (cur) q.whereRaw('(is_pinned, id) < (?::boolean, ?::int)', [cur.p, cur.id]);
      const rows: PostRow[] = await q;
      const more = rows.length > limit;
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { items: await presentPosts(knex, d.accounts, page, a), nextCursor: more && last ? encodeCursor({ p: last.is_pinned, id: last.id }) : null };
    },
  });

  ctx.routes.add<{ id: number }, unknown, any>({
    method: 'POST',
    path: '/api/communities/:id/posts',
    operationId: 'createCommunityPost',
    summary: 'Post in the community (members; restrictions enforced; posts of members who require approval wait for review)',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: { $ref: 'communities/CreatePostBody' }, response: { 201: { allOf: [{ $ref: 'communities/Post' }] } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      if (!a.member) throw new HttpError(403, 'Only members of this community can post');
      const refusal = postRefusal(a);
      if (refusal) throw new HttpError(403, refusal);
      const b = c.input.body;
      const type: PostRow['type'] = b.type ?? 'text';
      const row: Record<string, unknown> = {
        community_id: a.community.id,
        user_id: c.user!.id,
        type,
        content: b.content.trim(),
        title: blankToNull(b.title),
        status: a.member.requires_approval && a.rank < RANK.moderator ? 'pending' : 'published',
      };
      if (type === 'poll') {
        const options = (Array.isArray(b.pollOptions) ? b.pollOptions : []).map((o: string) => String(o).trim()).filter(Boolean);
        if (options.length < 2) throw new HttpError(400, 'A poll needs at least 2 options', { errors: [{ path: '/body/pollOptions', message: 'A poll needs at least 2 options' }] });
        row.poll_options = JSON.stringify(options);
      } else if (type === 'event') {
        const title = blankToNull(b.eventTitle);
        if (!title) throw new HttpError(400, 'Event title is required', { errors: [{ path: '/body/eventTitle', message: 'Event title is required' }] });
        const when = blankToNull(b.eventDateTime);
        if (!when) throw new HttpError(400, 'Event date and time are required', { errors: [{ path: '/body/eventDateTime', message: 'Event date and time are required' }] });
        const date = new Date(when);
        if (Number.isNaN(date.getTime())) throw new HttpError(400, 'Event date and time are not valid', { errors: [{ path: '/body/eventDateTime', message: 'Event date and time are not valid' }] });
        Object.assign(row, { event_title: title, event_date_time: date, event_location: blankToNull(b.eventLocation), event_description: blankToNull(b.eventDescription) });
      } else if (type === 'video') {
        row.video_url = httpUrl(b.videoUrl, 'A valid video URL is required');
      } else if (type === 'link') {
        row.link_url = httpUrl(b.linkUrl, 'A valid link URL is required');
      }
      const mentions = await communityMentions(a, c.user!, row.content as string);
      row.mentions = JSON.stringify(mentions);
      const [post] = await knex('community_posts').insert(row).returning('*');
      await touch(knex, a.community.id, c.user!.id);
      if (post.status === 'published') {
        await ctx.events.emit('communities.post.created', { communityId: a.community.id, postId: post.id, userId: c.user!.id });
        await tellMentioned(mentions, a, c.user!, `mention:cp${post.id}`, [], { postId: post.id, text: post.content ?? '' });
      }
      const [out] = await presentPosts(knex, d.accounts, [post], a);
      return out;
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/community-posts/:id',
    operationId: 'deleteCommunityPost',
    summary: 'Delete a post (its author, or a community admin, moderator or the creator)',
    auth: 'required',
    schema: { params: idParams, response: okResponse },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertMayDeleteContent(a, post.user_id, (await ranksIn(knex, a.community, [post.user_id])).get(post.user_id)!, 'posts');
      await knex('community_posts').where({ id: post.id }).del();
      await gone('community_post', post.id);
      return { success: true, message: 'Post deleted' };
    },
  });

  // ---- review queue ----

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/communities/:id/posts/pending',
    operationId: 'listPendingCommunityPosts',
    summary: 'Posts waiting for review, oldest first (community admins, moderators, creator)',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'communities/Post' } } },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertModerator(a);
      const rows: PostRow[] = await knex('community_posts').where({ community_id: a.community.id, status: 'pending' }).orderBy('id').limit(500);
      return presentPosts(knex, d.accounts, rows, a);
    },
  });

  for (const decision of ['approve', 'reject'] as const) {
    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: `/api/community-posts/:id/${decision}`,
      operationId: decision === 'approve' ? 'approveCommunityPost' : 'rejectCommunityPost',
      summary: `${decision === 'approve' ? 'Publish' : 'Reject'} a post waiting for review (community admins, moderators, creator)`,
      auth: 'required',
      schema: { params: idParams, response: okResponse },
      async handler(c) {
        const { post, a } = await postAccess(c.input.params.id, c.user);
        assertModerator(a);
        const [done] = await knex('community_posts')
          .where({ id: post.id, status: 'pending' })
          .update({ status: decision === 'approve' ? 'published' : 'rejected', reviewed_by: c.user!.id, reviewed_at: knex.fn.now(), updated_at: knex.fn.now() })
          .returning('id');
        if (!done) throw new HttpError(409, 'This post is not waiting for review');
        if (decision === 'approve') {
          await ctx.events.emit('communities.post.created', { communityId: a.community.id, postId: post.id, userId: post.user_id });
          // its mentions are told once it is published
          const author = await d.accounts.getUserSummary(post.user_id);
          if (author) await tellMentioned(storedMentionList(post.mentions), a, author, `mention:cp${post.id}`, [], { postId: post.id, text: post.content ?? '' });
          await d.notify([post.user_id], { title: 'Post approved', message: `Your post in ${a.community.name} is now published.`, link: `/communities/${a.community.id}`, template: 'communities:notify.postApproved', params: { community: a.community.name } });
          return { success: true, message: 'Post approved' };
        }
        await d.notify([post.user_id], { title: 'Post not approved', message: `A moderator of ${a.community.name} did not approve your post.`, link: `/communities/${a.community.id}`, template: 'communities:notify.postRejected', params: { community: a.community.name } });
        return { success: true, message: 'Post rejected' };
      },
    });
  }

  // ---- like, pin, vote ----

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/community-posts/:id/like',
    operationId: 'likeCommunityPost',
    summary: 'Like or unlike a post (toggles; members only)',
    auth: 'required',
    schema: { params: idParams, response: likeResponse },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertPostVisible(a, post);
      assertMember(a, 'Only members of this community can like posts');
      if (post.status !== 'published') throw new HttpError(400, 'This post is waiting for review');
      const userId = c.user!.id;
      const result = await toggleLike(knex, THREADS, post.id, userId);
      await touch(knex, a.community.id, userId);
      return result;
    },
  });

  ctx.routes.add<{ id: number }, unknown, { pin?: boolean }>({
    method: 'POST',
    path: '/api/community-posts/:id/pin',
    operationId: 'pinCommunityPost',
    summary: 'Pin (pin: true, the default) or unpin a post (community admins, moderators, creator)',
    auth: 'required',
    schema: {
      params: idParams,
      body: { type: 'object', additionalProperties: false, properties: { pin: { type: 'boolean', default: true } } },
      response: { type: 'object', additionalProperties: false, required: ['isPinned'], properties: { isPinned: { type: 'boolean' } } },
    },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertModerator(a);
      if (post.status !== 'published') throw new HttpError(400, 'Only published posts can be pinned');
      const pin = c.input.body.pin ?? true;
      await knex('community_posts').where({ id: post.id }).update({ is_pinned: pin, pinned_at: pin ? knex.fn.now() : null });
      return { isPinned: pin };
    },
  });

  ctx.routes.add<{ id: number }, unknown, { optionIndex: number }>({
    method: 'POST',
    path: '/api/community-posts/:id/vote',
    operationId: 'voteCommunityPoll',
    summary: 'Vote in a poll (members, one vote each); answers the results',
    auth: 'required',
    schema: {
      params: idParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['optionIndex'],
        properties: { optionIndex: { type: 'integer', minimum: 0, maximum: 100, 'x-messages': { required: 'Please choose an option' } } },
      },
      response: { allOf: [{ $ref: 'communities/Poll' }] },
    },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertPostVisible(a, post);
      assertMember(a, 'Only members of this community can vote');
      if (post.type !== 'poll' || !Array.isArray(post.poll_options)) throw new HttpError(400, 'This post is not a poll');
      if (post.status !== 'published') throw new HttpError(400, 'This post is waiting for review');
      const idx = c.input.body.optionIndex;
      if (idx >= post.poll_options.length) throw new HttpError(400, 'Unknown poll option');
      const ins = await knex('community_poll_votes').insert({ post_id: post.id, user_id: c.user!.id, option_index: idx }).onConflict(['post_id', 'user_id']).ignore().returning('post_id');
      if (!ins.length) throw new HttpError(409, 'You have already voted in this poll');
      await touch(knex, a.community.id, c.user!.id);
      return (await pollResults(knex, [post], c.user!.id)).get(post.id)!;
    },
  });

  // ---- comments ----

  async function presentComments(rows: CommentRow[], a: Access) {
    const [u, ranks] = await Promise.all([users(d.accounts, rows.map((r) => r.user_id)), ranksIn(knex, a.community, a.rank >= RANK.moderator ? rows.map((r) => r.user_id) : [])]);
    return commentTree(rows, u, (r) => mayDeleteContent(a, r.user_id, ranks.get(r.user_id) ?? RANK.none));
  }

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/community-posts/:id/comments',
    operationId: 'listCommunityPostComments',
    summary: 'Comments of a post, oldest first, each with its replies',
    auth: 'required',
    schema: { params: idParams, response: { type: 'array', items: { $ref: 'communities/Comment' } } },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertPostVisible(a, post);
      const rows = await knex('community_comments').where({ post_id: post.id }).whereRaw(d.accounts.sql.notBlockedOrMuted(c.user, 'community_comments.user_id')).orderBy('id').limit(2000);
      return presentComments(rows, a);
    },
  });

  ctx.routes.add<{ id: number }, unknown, { content: string; parentId?: number | null }>({
    method: 'POST',
    path: '/api/community-posts/:id/comments',
    operationId: 'createCommunityPostComment',
    summary: 'Comment on a post, or reply to a comment (parentId; replies are one level deep)',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: commentBody, response: { 201: { allOf: [{ $ref: 'communities/Comment' }] } } },
    async handler(c) {
      const { post, a } = await postAccess(c.input.params.id, c.user);
      assertPostVisible(a, post);
      if (!a.member) throw new HttpError(403, 'Only members of this community can comment');
      const refusal = commentRefusal(a);
      if (refusal) throw new HttpError(403, refusal);
      if (post.status !== 'published') throw new HttpError(400, 'This post is waiting for review');
      const userId = c.user!.id;
      const mentions = await communityMentions(a, c.user!, c.input.body.content.trim());
      const { row, parentId, recipients } = await addComment(knex, THREADS, post, {
        userId,
        content: c.input.body.content,
        parentId: c.input.body.parentId,
        columns: { community_id: post.community_id, mentions: JSON.stringify(mentions) },
        refuseParentAuthor: async (authorId) => c.user!.role !== 'Admin' && (await d.accounts.isBlockedEitherWay(userId, authorId)),
      });
      await touch(knex, a.community.id, userId);
      const about = { postId: post.id, text: String(row.content ?? '') };
      await tellMentioned(mentions, a, c.user!, `mention:cc${row.id}`, recipients, about);
      if (recipients.length) {
        await d.notify(recipients, {
          type: 'comment',
          title: parentId ? 'New reply' : 'New comment',
          message: `${c.user!.username} ${parentId ? 'replied in' : 'commented on'} a discussion in ${a.community.name}.`,
          link: postLink(a.community.id, post.id),
          template: parentId ? 'communities:notify.reply' : 'communities:notify.comment',
          params: { user: c.user!.username, community: a.community.name, excerpt: excerptOf(about.text) },
          actorId: userId, // not to members blocked either way or who muted the commenter
        });
      }
      const [out] = await presentComments([{ ...row, parent_id: null }], a);
      return { ...out, parentId };
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/community-comments/:id',
    operationId: 'deleteCommunityComment',
    summary: 'Delete a comment and its replies (its author, or a community admin, moderator or the creator)',
    auth: 'required',
    schema: { params: idParams, response: okResponse },
    async handler(c) {
      const comment = await knex('community_comments').where({ id: c.input.params.id }).first();
      if (!comment) throw new HttpError(404, COMMENT_NOT_FOUND);
      const a = await loadAccess(knex, comment.community_id, c.user);
      assertMayDeleteContent(a, comment.user_id, (await ranksIn(knex, a.community, [comment.user_id])).get(comment.user_id)!, 'comments');
      await removeComments(ctx, knex, [comment.id]);
      return { success: true, message: 'Comment deleted' };
    },
  });

  // ---- reports ----

  async function report(c: any, target: 'post' | 'comment') {
    const reason = String(c.input.body.reason).trim();
    let postId: number;
    let commentId: number | null = null;
    let authorId: number;
    let excerpt: string;
    let a: Access;
    if (target === 'post') {
      const r = await postAccess(c.input.params.id, c.user);
      assertPostVisible(r.a, r.post);
      a = r.a;
      postId = r.post.id;
      authorId = r.post.user_id;
      excerpt = r.post.content;
    } else {
      const comment = await knex('community_comments').where({ id: c.input.params.id }).first();
      // a deleted member's emptied comment (no author, no words) has nothing to report
      if (!comment || comment.user_id == null) throw new HttpError(404, COMMENT_NOT_FOUND);
      a = await loadAccess(knex, comment.community_id, c.user);
      assertRead(a);
      postId = comment.post_id;
      commentId = comment.id;
      authorId = comment.user_id;
      excerpt = comment.content;
    }
    assertMember(a, 'Only members of this community can report content');
    if (authorId === c.user.id) throw new HttpError(400, 'You cannot report your own content');
    const ins = await knex.raw(
      `insert into community_reports (community_id, target_type, post_id, comment_id, target_post_id, target_user_id, excerpt, reporter_id, reason)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
      [a.community.id, target, target === 'post' ? postId : null, commentId, postId, authorId, excerpt.slice(0, 2000), c.user.id, reason],
    );
    if (!ins.rows.length) throw new HttpError(409, `You have already reported this ${target}`);
    return { success: true, message: 'Report submitted. The community moderators will review it.' };
  }

  ctx.routes.add<{ id: number }, unknown, { reason: string }>({
    method: 'POST',
    path: '/api/community-posts/:id/report',
    operationId: 'reportCommunityPost',
    summary: 'Report a post to the community moderators (members)',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: reasonBody, response: { 201: okResponse } },
    handler: (c) => report(c, 'post'),
  });

  ctx.routes.add<{ id: number }, unknown, { reason: string }>({
    method: 'POST',
    path: '/api/community-comments/:id/report',
    operationId: 'reportCommunityComment',
    summary: 'Report a comment to the community moderators (members)',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: reasonBody, response: { 201: okResponse } },
    handler: (c) => report(c, 'comment'),
  });

  async function presentReports(rows: any[]) {
    const postIds = rows.map((r) => r.post_id).filter(Boolean);
    const commentIds = rows.map((r) => r.comment_id).filter(Boolean);
    const [ps, cs] = await Promise.all([
      postIds.length ? knex('community_posts').whereIn('id', postIds).select('id', 'content') : Promise.resolve([]),
      commentIds.length ? knex('community_comments').whereIn('id', commentIds).select('id', 'content') : Promise.resolve([]),
    ]);
    const postText = new Map<number, string>(ps.map((p: any) => [p.id, p.content]));
    const commentText = new Map<number, string>(cs.map((p: any) => [p.id, p.content]));
    const u = await users(d.accounts, rows.flatMap((r) => [r.reporter_id, r.target_user_id]));
    return rows.map((r) => {
      const live = r.target_type === 'post' ? (r.post_id ? postText.get(r.post_id) : undefined) : r.comment_id ? commentText.get(r.comment_id) : undefined;
      return {
        id: r.id,
        communityId: r.community_id,
        status: r.status,
        reason: r.reason,
        createdAt: iso(r.created_at)!,
        reporter: u.get(r.reporter_id) ?? null,
        targetType: r.target_type,
        postId: r.target_post_id,
        commentId: r.comment_id,
        content: live ?? r.excerpt,
        author: r.target_user_id ? (u.get(r.target_user_id) ?? null) : null,
        contentRemoved: live === undefined,
        resolution: r.resolution,
        resolvedAt: iso(r.resolved_at),
      };
    });
  }

  ctx.routes.add<{ id: number }, { status: 'open' | 'resolved' | 'all' }>({
    method: 'GET',
    path: '/api/communities/:id/reports',
    operationId: 'listCommunityReports',
    summary: 'Reported content (community admins, moderators, creator); open reports by default',
    auth: 'required',
    schema: {
      params: idParams,
      query: { type: 'object', additionalProperties: false, properties: { status: { type: 'string', enum: ['open', 'resolved', 'all'], default: 'open' } } },
      response: { type: 'array', items: { $ref: 'communities/Report' } },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertModerator(a);
      const q = knex('community_reports').where({ community_id: a.community.id }).orderBy('id', c.input.query.status === 'open' ? 'asc' : 'desc').limit(500);
      if (c.input.query.status !== 'all') q.where({ status: c.input.query.status });
      return presentReports(await q);
    },
  });

  ctx.routes.add<{ id: number; reportId: number }, unknown, { action: 'dismiss' | 'remove_content' }>({
    method: 'POST',
    path: '/api/communities/:id/reports/:reportId/resolve',
    operationId: 'resolveCommunityReport',
    summary: 'Resolve a report: dismiss it, or remove the reported content (every open report of that content is resolved with it)',
    auth: 'required',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['id', 'reportId'], properties: { id: { $ref: 'shared/Id' }, reportId: { $ref: 'shared/Id' } } },
      body: { type: 'object', additionalProperties: false, required: ['action'], properties: { action: { type: 'string', enum: ['dismiss', 'remove_content'] } } },
      response: { allOf: [{ $ref: 'communities/Report' }] },
    },
    async handler(c) {
      const a = await loadAccess(knex, c.input.params.id, c.user);
      assertModerator(a);
      const r = await knex('community_reports').where({ id: c.input.params.reportId, community_id: a.community.id }).first();
      if (!r) throw new HttpError(404, 'Report not found');
      if (r.status !== 'open') throw new HttpError(409, 'This report has already been resolved');
      const resolution = c.input.body.action === 'remove_content' ? 'content_removed' : 'dismissed';
      if (resolution === 'content_removed') {
        // Removing reported content is a deletion like any other: only of an author with a lower rank.
        const target = r.target_type === 'post' && r.post_id
          ? await knex('community_posts').where({ id: r.post_id }).first('user_id')
          : r.target_type === 'comment' && r.comment_id ? await knex('community_comments').where({ id: r.comment_id }).first('user_id') : null;
        if (target) assertMayDeleteContent(a, target.user_id, (await ranksIn(knex, a.community, [target.user_id])).get(target.user_id)!, r.target_type === 'post' ? 'posts' : 'comments');
      }
      const sameTarget = (q: Knex.QueryBuilder) =>
        r.target_type === 'post' ? q.where({ target_type: 'post', post_id: r.post_id }) : q.where({ target_type: 'comment', comment_id: r.comment_id });
      const ids: number[] = r.post_id || r.comment_id ? await sameTarget(knex('community_reports').where({ community_id: a.community.id, status: 'open' })).pluck('id') : [r.id];
      if (!ids.includes(r.id)) ids.push(r.id);
      await knex('community_reports').whereIn('id', ids).update({ status: 'resolved', resolution, resolved_by: c.user!.id, resolved_at: knex.fn.now() });
      if (resolution === 'content_removed') {
        if (r.target_type === 'post' && r.post_id) await knex('community_posts').where({ id: r.post_id }).del();
        if (r.target_type === 'comment' && r.comment_id) await removeComments(ctx, knex, [r.comment_id]);
        if (r.target_type === 'post' && r.post_id) await gone('community_post', r.post_id);
      }
      const [out] = await presentReports([await knex('community_reports').where({ id: r.id }).first()]);
      return out;
    },
  });
}

/** Deletes comments (and their replies) and keeps each post's comments_count exact. */
export function deleteComments(knex: Knex, ids: number[]): Promise<number> {
  return deleteThreadComments(knex, THREADS, ids);
}

/**
 * Platform reports (reports plugin) on removed community content resolve themselves: call it on
 * every path that deletes posts or comments (a post's reports take its comments' with them).
 */
export async function reportsGone(ctx: PluginContext, type: 'community_post' | 'community_comment', id: number | number[]): Promise<void> {
  const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
  await reports?.contentRemoved(type, id).catch((err) => ctx.log.error({ err, type, id }, 'could not resolve the platform reports of removed content'));
}

/** deleteComments, and the platform reports on them and on their replies resolve. */
export async function removeComments(ctx: PluginContext, knex: Knex, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const all: number[] = await knex('community_comments').whereIn('id', ids).orWhereIn('parent_id', ids).pluck('id');
  const n = await deleteComments(knex, ids);
  await reportsGone(ctx, 'community_comment', all);
  return n;
}
