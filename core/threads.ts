/**
 * Discussion threads as the plugins that host discussions keep them (communities, groups): posts with
 * a likes counter and a comments counter, likes (one per user and post) and comments with one level
 * of replies. Each plugin passes its own table names, so none reads another's tables; who may do
 * what, and the messages that say no, stay with the plugin.
 *
 * Counters move in the same transaction as the rows they count, by what actually changed
 * (`on conflict do nothing`, `delete … returning`), so concurrent requests keep them exact.
 */
import type { Knex } from 'knex';
import { HttpError } from './errors.ts';
import { iso } from './util.ts';

export interface ThreadTables {
  /** id, user_id, likes_count, comments_count */
  posts: string;
  /** post_id, user_id; unique (post_id, user_id) */
  likes: string;
  /** id, post_id, user_id, parent_id (null on a top-level comment), content, created_at */
  comments: string;
}

export interface CommentRow {
  id: number;
  post_id: number;
  /** null: a deleted member's comment kept emptied because others replied under it (eraseUserComments) */
  user_id: number;
  parent_id: number | null;
  content: string;
  /** stored @username mentions (jsonb ranges; the owning plugin resolves them when the text is written) */
  mentions?: unknown;
  created_at: Date | string;
}

/** A stored mentions column as read (jsonb comes back parsed on pg, maybe as text elsewhere). */
export function storedMentionList<T = { userId: number; username: string; start: number; length: number }>(v: unknown): T[] {
  const list = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(list) ? list : [];
}

/** Response of a like toggle. */
export const likeResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['liked', 'likesCount'],
  properties: { liked: { type: 'boolean' }, likesCount: { type: 'integer' } },
} as const;

/** Body of a new comment or reply. */
export const commentBody = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: {
    content: { type: 'string', minLength: 1, maxLength: 5000, pattern: '\\S', 'x-label': 'Comment', 'x-messages': { required: 'Comment cannot be empty', minLength: 'Comment cannot be empty', pattern: 'Comment cannot be empty' } },
    parentId: { anyOf: [{ $ref: 'shared/Id' }, { type: 'null' }] },
  },
} as const;

/**
 * Likes the post when the user has not, else unlikes it; answers the new state and count.
 * Linearizable: the post row is locked first (FOR NO KEY UPDATE, which new comments, holding only
 * a key-share lock through their foreign key, do not wait for), so concurrent toggles of a post run
 * one after the other and a double click cancels out instead of answering "unliked" twice.
 */
export async function toggleLike(knex: Knex, t: ThreadTables, postId: number, userId: number): Promise<{ liked: boolean; likesCount: number }> {
  return knex.transaction(async (trx) => {
    await trx(t.posts).where({ id: postId }).forNoKeyUpdate().first('id');
    const ins = await trx(t.likes).insert({ post_id: postId, user_id: userId }).onConflict(['post_id', 'user_id']).ignore().returning('post_id');
    if (ins.length) {
      const [r] = await trx(t.posts).where({ id: postId }).increment('likes_count', 1).returning('likes_count');
      return { liked: true, likesCount: r.likes_count as number };
    }
    const del = await trx(t.likes).where({ post_id: postId, user_id: userId }).del().returning('post_id');
    // nothing deleted (the like went another way meanwhile, e.g. with its account): nothing to count
    const [r] = del.length
      ? await trx(t.posts).where({ id: postId }).decrement('likes_count', 1).returning('likes_count')
      : await trx(t.posts).where({ id: postId }).select('likes_count');
    return { liked: false, likesCount: r.likes_count as number };
  });
}

/**
 * Adds a comment to a post, or a reply when `parentId` names a comment of that post (404
 * `Comment not found` otherwise); a reply to a reply joins the same thread, so replies stay one
 * level deep. `columns` are the plugin's own extra columns. `recipients`: the post's author and
 * the replied-to comment's author, without the commenter.
 */
export async function addComment(
  knex: Knex,
  t: ThreadTables,
  post: { id: number; user_id: number },
  input: {
    userId: number;
    content: string;
    parentId?: number | null;
    columns?: Record<string, unknown>;
    /** true when the replier may not reach the author of the comment replied to (a block): 404 as if absent */
    refuseParentAuthor?: (authorId: number) => Promise<boolean>;
  },
): Promise<{ row: CommentRow; parentId: number | null; recipients: number[] }> {
  let parentId: number | null = null;
  let parentAuthor: number | null = null;
  if (input.parentId) {
    const parent: CommentRow | undefined = await knex(t.comments).where({ id: input.parentId, post_id: post.id }).first();
    if (!parent || (input.refuseParentAuthor && (await input.refuseParentAuthor(parent.user_id)))) throw new HttpError(404, 'Comment not found');
    parentId = parent.parent_id ?? parent.id;
    parentAuthor = parent.user_id;
  }
  const row: CommentRow = await knex.transaction(async (trx) => {
    const [r] = await trx(t.comments)
      .insert({ ...input.columns, post_id: post.id, user_id: input.userId, parent_id: parentId, content: input.content.trim() })
      .returning('*');
    await trx(t.posts).where({ id: post.id }).increment('comments_count', 1);
    return r;
  });
  const recipients = new Set<number>([post.user_id, ...(parentAuthor ? [parentAuthor] : [])]);
  recipients.delete(input.userId);
  return { row, parentId, recipients: [...recipients] };
}

/** Comments as the API answers them: top-level ones, oldest first, each with its replies. */
export function commentTree<U>(rows: CommentRow[], users: Map<number, U>, canDelete: (r: CommentRow) => boolean) {
  const one = (r: CommentRow) => ({
    id: r.id,
    postId: r.post_id,
    parentId: r.parent_id,
    content: r.content,
    mentions: storedMentionList(r.mentions),
    createdAt: iso(r.created_at)!,
    user: users.get(r.user_id) ?? null,
    canDelete: canDelete(r),
  });
  const top = rows.filter((r) => !r.parent_id).map((r) => ({ ...one(r), replies: [] as Array<ReturnType<typeof one>> }));
  const byId = new Map(top.map((c) => [c.id, c]));
  for (const r of rows) if (r.parent_id) byId.get(r.parent_id)?.replies.push(one(r));
  return top;
}

/**
 * Deletes comments with their replies and lowers each post's comments_count by what went; answers
 * how many went. Exact under concurrency: the rows are locked first (in id order), so a reply being
 * added to one of them either commits before, and the delete, a statement of its own, sees it, or
 * fails on its parent's foreign key after; and only what this delete removed is counted, so two
 * deletions of the same comment (author and moderator at once) lower the counter once.
 */
export async function deleteComments(knex: Knex, t: ThreadTables, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  return knex.transaction(async (trx) => {
    const locked = await trx(t.comments).whereIn('id', ids).orWhereIn('parent_id', ids).orderBy('id').forUpdate().select('id');
    if (!locked.length) return 0;
    const gone: Array<{ post_id: number; parent_id: number | null }> = await trx(t.comments).whereIn('id', ids).orWhereIn('parent_id', ids).del().returning(['post_id', 'parent_id']);
    // the last reply under a deleted member's emptied comment (eraseUserComments): that comment goes too
    const parents = [...new Set(gone.map((r) => r.parent_id).filter((p): p is number => p != null))];
    if (parents.length) {
      const emptied = await trx.raw(`delete from ?? c where c.id = any(?::int[]) and c.user_id is null and not exists (select 1 from ?? r where r.parent_id = c.id) returning post_id, parent_id`, [t.comments, parents, t.comments]);
      gone.push(...emptied.rows);
    }
    const perPost = new Map<number, number>();
    for (const r of gone) perPost.set(r.post_id, (perPost.get(r.post_id) ?? 0) + 1);
    // posts in id order, as every deletion takes them: two deletions never wait on each other in a circle
    for (const [postId, n] of [...perPost].sort((a, b) => a[0] - b[0])) {
      await trx(t.posts).where({ id: postId }).update({ comments_count: trx.raw('greatest(comments_count - ?, 0)', [n]) });
    }
    return gone.length;
  });
}

/**
 * A departing member's comments (account erasure, issue 24): each top-level comment of theirs that
 * others replied under is kept without author and words (user_id null, content '', mentions []),
 * shown as "Deleted member", so the others' replies keep their thread; their other comments go
 * (deleteComments, with the replies under them). Needs a nullable user_id. Answers the ids deleted.
 */
export async function eraseUserComments(knex: Knex, t: ThreadTables, userId: number): Promise<number[]> {
  await knex.raw(
    `update ?? c set user_id = null, content = '', mentions = '[]'::jsonb
      where c.user_id = ? and c.parent_id is null and exists (select 1 from ?? r where r.parent_id = c.id and r.user_id is distinct from ?)`,
    [t.comments, userId, t.comments, userId],
  );
  const ids: number[] = await knex(t.comments).where({ user_id: userId }).pluck('id');
  await deleteComments(knex, t, ids);
  return ids;
}

/**
 * Removes every like of a user (an account going), lowering the counters they raised. Run inside
 * the caller's transaction. The posts are locked in id order, as toggles lock them, so this never
 * waits in a circle with a toggle or another account's removal; only the likes it deleted count.
 */
export async function removeUserLikes(trx: Knex.Transaction, t: ThreadTables, userId: number): Promise<void> {
  const liked: number[] = await trx(t.likes).where({ user_id: userId }).pluck('post_id');
  if (!liked.length) return;
  await trx(t.posts).whereIn('id', liked).orderBy('id').forNoKeyUpdate().pluck('id');
  const gone: Array<{ post_id: number }> = await trx(t.likes).where({ user_id: userId }).del().returning('post_id');
  if (gone.length) await trx(t.posts).whereIn('id', gone.map((r) => r.post_id)).update({ likes_count: trx.raw('greatest(likes_count - 1, 0)') });
}

/** A sample comment: `author` (and each reply's) is an index into the sample members. */
export interface SeedComment {
  author: number;
  content: string;
  replies?: SeedComment[];
}

/**
 * Sample likes and comments (with replies) of a freshly inserted sample post, and its counters.
 * `likes` and authors are indexes into `members` (likes beyond the list are dropped, authors wrap
 * around); `columns` are the plugin's own extra comment columns.
 */
export async function seedThread(
  trx: Knex.Transaction,
  t: ThreadTables,
  s: { postId: number; members: number[]; likes?: number[]; comments?: SeedComment[]; columns?: Record<string, unknown> },
): Promise<void> {
  const who = (i: number) => s.members[i % s.members.length];
  const likers = [...new Set((s.likes ?? []).filter((i) => i < s.members.length).map(who))];
  if (likers.length) await trx(t.likes).insert(likers.map((u) => ({ post_id: s.postId, user_id: u })));
  let comments = 0;
  for (const cm of s.comments ?? []) {
    const [parent] = await trx(t.comments).insert({ ...s.columns, post_id: s.postId, user_id: who(cm.author), content: cm.content }).returning('id');
    comments++;
    for (const r of cm.replies ?? []) {
      await trx(t.comments).insert({ ...s.columns, post_id: s.postId, user_id: who(r.author), parent_id: parent.id, content: r.content });
      comments++;
    }
  }
  await trx(t.posts).where({ id: s.postId }).update({ likes_count: likers.length, comments_count: comments });
}
