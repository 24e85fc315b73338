/**
 * Locked profiles and safety (issue 15): follow requests of private profiles, removing a follower,
 * blocks and mutes. Who may see whom is decided by the one rule in service.ts (accountsSql,
 * canViewProfile), which reads the tables these routes write.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { acceptAllRequests, block, decideRequest, removeFollower } from './follows.ts';
import { iso, SUMMARY_COLUMNS, toSummary } from './service.ts';
import { imageInfoSql } from '../../../core/images.ts';
import { USER_NOT_FOUND, type RouteDeps } from './deps.ts';

const idParams = { $ref: 'shared/IdParams' };
const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cursor: { type: 'string', pattern: '^[0-9]{1,16}\\.[0-9]{1,10}$', description: 'nextCursor of the previous page' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
};

export const REQUEST_NOT_FOUND = 'Follow request not found';
export const CANNOT_BLOCK_SELF = 'You cannot block yourself';
export const CANNOT_MUTE_SELF = 'You cannot mute yourself';
export const MUTE_END_PAST = 'The end of a mute must be in the future';

type Page = { cursor?: string; limit: number };

/** Keyset pages newest first on (created_at, user id): the cursor is "<ms>.<id>" of the last row. */
function keysetPage(q: Knex.QueryBuilder, timeCol: string, idCol: string, page: Page) {
  if (page.cursor) {
    const [ms, id] = page.cursor.split('.').map(Number);
    q.whereRaw(`(date_trunc('milliseconds', ${timeCol}), ${idCol}) < (to_timestamp(?::double precision / 1000), ?)`, [ms, id]);
  }
  return q
    .orderByRaw(`date_trunc('milliseconds', ${timeCol}) desc, ${idCol} desc`)
    .limit(page.limit + 1);
}

function pageOut<T extends { created_at: Date; cursor_id: number }>(rows: T[], limit: number) {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: more && last ? `${new Date(last.created_at).getTime()}.${last.cursor_id}` : null };
}

const userCols = Object.fromEntries(Object.entries(SUMMARY_COLUMNS).map(([k, v]) => [k, v.replace(/^users\./, 'u.')]));

/** Blocks and mutes are rows of (owner, other member): each gets an undo and a cursor-paged list the same way. */
interface Relation {
  kind: 'block' | 'mute';
  table: 'user_blocks' | 'user_mutes';
  owner: string;
  other: string;
  /** the state answered after an undo */
  undone: (userId: number) => object;
  /** SQL on the row (alias x) that keeps only what is in force */
  active?: string;
  /** more columns of the row for the list, and how an item shows them */
  columns?: Record<string, string>;
  item?: (row: any) => object;
}

const BLOCKS: Relation = { kind: 'block', table: 'user_blocks', owner: 'blocker_id', other: 'blocked_id', undone: (userId) => ({ userId, blocked: false }) };
const MUTES: Relation = {
  kind: 'mute',
  table: 'user_mutes',
  owner: 'muter_id',
  other: 'muted_id',
  undone: (userId) => ({ userId, muted: false, notifications: false, expiresAt: null }),
  active: '(x.expires_at is null or x.expires_at > now())',
  columns: { expires_at: 'x.expires_at', notifications: 'x.notifications' },
  item: (r) => ({ expiresAt: r.expires_at ? iso(r.expires_at) : null, notifications: Boolean(r.notifications) }),
};

export function addSafetyRoutes({ ctx, knex }: RouteDeps): void {
  const exists = async (id: number) => Boolean(await knex('users').where({ id }).first('id'));
  /** the listed member's avatar: its made widths, size and placeholder, in the list's statement (toSummary reads it) */
  const avatarInfo = () => knex.raw('? as ??', [imageInfoSql(knex, 'u.profile_image_url'), 'profileImageInfo']);

  /** DELETE /api/user/:id/<kind>: undo; GET /api/user/<kind>s: the members concerned, newest first. */
  function relationRoutes(r: Relation, doc: { undoId: string; undo: string; listId: string; list: string; state: string; page: string }) {
    ctx.routes.add<{ id: number }>({
      method: 'DELETE',
      path: `/api/user/:id/${r.kind}`,
      operationId: doc.undoId,
      summary: doc.undo,
      auth: 'required',
      schema: { params: idParams, response: { $ref: doc.state } },
      async handler(c) {
        const id = c.input.params.id;
        if (!(await exists(id))) throw new HttpError(404, USER_NOT_FOUND);
        await knex(r.table).where({ [r.owner]: c.user!.id, [r.other]: id }).del();
        return r.undone(id);
      },
    });
    ctx.routes.add<unknown, Page>({
      method: 'GET',
      path: `/api/user/${r.kind}s`,
      operationId: doc.listId,
      summary: doc.list,
      auth: 'required',
      schema: { query: pageQuery, response: { $ref: doc.page } },
      async handler(c) {
        const q = knex(`${r.table} as x`)
          .join('users as u', 'u.id', `x.${r.other}`)
          .where(`x.${r.owner}`, c.user!.id)
          .select({ ...userCols, created_at: 'x.created_at', cursor_id: 'u.id', ...(r.columns ?? {}) })
          .select(avatarInfo());
        if (r.active) q.whereRaw(r.active);
        const page = pageOut((await keysetPage(q, 'x.created_at', 'u.id', c.input.query)) as any[], c.input.query.limit);
        return { items: page.items.map((row: any) => ({ user: toSummary(row), createdAt: iso(row.created_at), ...(r.item?.(row) ?? {}) })), nextCursor: page.nextCursor };
      },
    });
  }

  // ---------- follow requests ----------
  ctx.routes.add<unknown, Page>({
    method: 'GET',
    path: '/api/follow-requests',
    operationId: 'listFollowRequests',
    summary: 'Follow requests waiting for your decision (private profile), newest first (cursor-paged)',
    auth: 'required',
    schema: { query: pageQuery, response: { $ref: 'accounts/FollowRequestPage' } },
    async handler(c) {
      const q = knex('user_follow_requests as r')
        .join('users as u', 'u.id', 'r.requester_id')
        .where('r.target_id', c.user!.id)
        .select({ ...userCols, requestId: 'r.id', created_at: 'r.created_at', cursor_id: 'r.id' })
        .select(avatarInfo());
      const rows = await keysetPage(q, 'r.created_at', 'r.id', c.input.query);
      const page = pageOut(rows as any[], c.input.query.limit);
      return { items: page.items.map((r: any) => ({ id: r.requestId, user: toSummary(r), createdAt: iso(r.created_at) })), nextCursor: page.nextCursor };
    },
  });

  for (const decision of ['authorize', 'reject'] as const) {
    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: `/api/follow-requests/:id/${decision}`,
      operationId: decision === 'authorize' ? 'authorizeFollowRequest' : 'rejectFollowRequest',
      summary: decision === 'authorize' ? 'Approve a follow request: the requester follows you and is told' : 'Refuse a follow request (the requester is not told)',
      auth: 'required',
      schema: { params: idParams, response: { $ref: 'accounts/FollowRequestDecision' } },
      async handler(c) {
        const r = await decideRequest(knex, c.user!.id, c.input.params.id, decision === 'authorize');
        if (!r) throw new HttpError(404, REQUEST_NOT_FOUND);
        if (r.followed) await ctx.events.emit('accounts.follow.approved', { requesterId: r.requesterId, ownerId: c.user!.id });
        const row = await knex('users').where({ id: c.user!.id }).first('followers_count');
        return { id: c.input.params.id, userId: r.requesterId, status: decision === 'authorize' ? 'authorized' : 'rejected', followersCount: row.followers_count };
      },
    });
  }

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/user/:id/remove-follower',
    operationId: 'removeFollower',
    summary: 'Remove a member from your followers (without blocking them; they may ask again)',
    auth: 'required',
    schema: { params: idParams, response: { $ref: 'accounts/RemoveFollowerResult' } },
    async handler(c) {
      const id = c.input.params.id;
      if (id === c.user!.id) throw new HttpError(400, 'You cannot remove yourself');
      const removed = await removeFollower(knex, c.user!.id, id);
      if (removed === null) throw new HttpError(404, USER_NOT_FOUND);
      const row = await knex('users').where({ id: c.user!.id }).first('followers_count');
      return { removed, followersCount: row.followers_count };
    },
  });

  // ---------- blocks ----------
  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/user/:id/block',
    operationId: 'blockUser',
    summary: 'Block a member: follows both ways and pending requests end; neither sees nor reaches the other',
    auth: 'required',
    schema: { params: idParams, response: { $ref: 'accounts/BlockState' } },
    async handler(c) {
      const id = c.input.params.id;
      if (id === c.user!.id) throw new HttpError(400, CANNOT_BLOCK_SELF);
      const done = await block(knex, c.user!.id, id);
      if (!done) throw new HttpError(404, USER_NOT_FOUND);
      return { userId: id, blocked: true };
    },
  });

  relationRoutes(BLOCKS, {
    undoId: 'unblockUser',
    undo: 'Undo a block (follows that ended stay ended)',
    listId: 'listBlockedUsers',
    list: 'The members you blocked, newest first (cursor-paged)',
    state: 'accounts/BlockState',
    page: 'accounts/BlockPage',
  });

  // ---------- mutes ----------
  ctx.routes.add<{ id: number }, unknown, { expiresAt?: string | null; notifications?: boolean }>({
    method: 'POST',
    path: '/api/user/:id/mute',
    operationId: 'muteUser',
    summary: "Mute a member: their insights, comments and (optionally) notifications are hidden from you; they are not told. Again: changes the mute's end and options",
    auth: 'required',
    schema: { params: idParams, body: { $ref: 'accounts/MuteBody' }, response: { $ref: 'accounts/MuteState' } },
    async handler(c) {
      const id = c.input.params.id;
      if (id === c.user!.id) throw new HttpError(400, CANNOT_MUTE_SELF);
      const b = c.input.body ?? {};
      const expiresAt = b.expiresAt ? new Date(b.expiresAt) : null;
      if (expiresAt && (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now())) {
        throw new HttpError(400, MUTE_END_PAST, { errors: [{ path: '/body/expiresAt', message: MUTE_END_PAST }] });
      }
      if (!(await exists(id))) throw new HttpError(404, USER_NOT_FOUND);
      const notifications = b.notifications ?? true;
      try {
        await knex('user_mutes')
          .insert({ muter_id: c.user!.id, muted_id: id, notifications, expires_at: expiresAt, created_at: knex.fn.now() })
          .onConflict(['muter_id', 'muted_id'])
          .merge(['notifications', 'expires_at', 'created_at']);
      } catch (e) {
        if ((e as any)?.code === '23503') throw new HttpError(404, USER_NOT_FOUND); // deleted meanwhile
        throw e;
      }
      return { userId: id, muted: true, notifications, expiresAt: expiresAt ? expiresAt.toISOString() : null };
    },
  });


  relationRoutes(MUTES, {
    undoId: 'unmuteUser',
    undo: 'Undo a mute',
    listId: 'listMutedUsers',
    list: 'The members you muted (active mutes only: expired ones have ended), newest first (cursor-paged)',
    state: 'accounts/MuteState',
    page: 'accounts/MutePage',
  });
}

/** After a profile became public: every pending request is accepted (and each requester told). */
export async function onProfilePublic(deps: Pick<RouteDeps, 'ctx' | 'knex'>, ownerId: number): Promise<void> {
  const followed = await acceptAllRequests(deps.knex, ownerId);
  for (const requesterId of followed) await deps.ctx.events.emit('accounts.follow.approved', { requesterId, ownerId });
}
