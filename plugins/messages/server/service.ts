/**
 * Conversations and messages. Rules (README.md):
 * - who may write to whom is accounts' decision (AccountsApi.mayContact: allowMessages, follows, blocks);
 * - a member who does not follow the person who wrote first finds the conversation in Requests
 *   until they reply or accept; declining deletes it (a group: their place in it);
 * - blocks (accounts' sql.notBlocked, either way) hold in every list, in SQL: a direct conversation
 *   with a member blocked either way is hidden (as if absent) and, in a group, that member's
 *   messages are left out (messages, last message, unread counts, live message.created);
 * - unread counts are computed, never kept: messages of others after the member's read marker
 *   (`last_read_message_id`, only ever raised), so concurrent sends cannot make them drift.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HttpError } from '../../../core/errors.ts';
import type { LiveApi } from '../../../core/stream.ts';
import type { Storage } from '../../../core/storage.ts';
import { imageInfoSql, toImageInfo, type ImageInfo } from '../../../core/images.ts';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import type { NotificationsApi } from '../../notifications/public.ts';

export const TEXT = {
  notFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  memberNotFound: 'Member not found',
  followersOnly: 'This member only receives messages from people they follow.',
  blocked: 'You cannot message this member.',
  self: 'You cannot message yourself',
  empty: 'Write a message or add an image',
  tooLong: 'A message is at most 2,000 characters',
  groupSize: (n: number) => `A group conversation has at most ${n} members`,
  unknownImage: 'An image was not found (upload it again)',
  notOwn: 'You can delete only your own messages',
  notCreator: 'Only the creator of a group conversation can add people',
  directAdd: 'People can be added to group conversations only',
  left: 'You have left this conversation',
  notRequest: 'This conversation is not a request',
  already: 'Already in this conversation',
};

export type ParticipantStatus = 'active' | 'request' | 'left';

export interface MessageImageItem {
  id: number;
  url: string;
  thumbnailUrl: string | null;
  width: number;
  height: number;
  /** the made variant widths, size and BlurHash placeholder (core_images), null before the variants job has run */
  imageInfo: ImageInfo | null;
}

export interface MessageItem {
  id: number;
  conversationId: number;
  sender: UserSummary;
  text: string;
  deleted: boolean;
  images: MessageImageItem[];
  createdAt: string;
  mine: boolean;
}

export interface ConversationItem {
  id: number;
  kind: 'direct' | 'group';
  participants: UserSummary[];
  lastMessage: MessageItem | null;
  lastMessageAt: string;
  unreadCount: number;
  muted: boolean;
  status: 'active' | 'request';
  isCreator: boolean;
  creatorId: number | null;
  canSend: boolean;
}

export interface MessagesDeps {
  knex: Knex;
  log: Logger;
  accounts: AccountsApi;
  notifications: () => NotificationsApi | undefined;
  /** open platform reports on these messages resolve (reports plugin, when enabled); never throws */
  reportsGone: (messageIds: number[]) => Promise<void>;
  live: LiveApi;
  storage: Storage;
  maxGroupSize: number;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const rowsOf = (r: any): any[] => (Array.isArray(r) ? r : (r?.rows ?? []));
const ghost = (id: number): UserSummary => ({ id, slug: '', username: 'deleted', firstName: '', lastName: '', profileImageUrl: null, role: 'Traveler' });
export const displayName = (u: UserSummary | null | undefined) => (u ? `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username : 'Someone');

/** `<iso time>_<id>` of the last conversation of a page. */
function encodeCursor(at: Date | string, id: number): string {
  return `${iso(at)}_${id}`;
}
function decodeCursor(c: string | undefined): { at: string; id: number } | null {
  const m = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)_(\d{1,10})$/.exec(c ?? '');
  if (!m || Number.isNaN(Date.parse(m[1]))) return null;
  return { at: m[1], id: Number(m[2]) };
}

export function createMessagesStore(deps: MessagesDeps) {
  const { knex, accounts } = deps;

  function refusal(reason: string | null): HttpError {
    if (reason === 'not_found') return new HttpError(404, TEXT.memberNotFound);
    if (reason === 'blocked') return new HttpError(403, TEXT.blocked);
    return new HttpError(403, TEXT.followersOnly);
  }

  /**
   * A boolean SQL expression: the viewer may see messages of the sender in `senderColumn`: no block
   * either way, and the sender not in the grace period of a deletion (hidden as if absent, as the
   * erasure at its end deletes their messages; signing in again brings them back).
   */
  function senderVisible(viewerId: number, senderColumn: string): Knex.Raw {
    return knex.raw('(? and ?)', [accounts.sql.notBlocked(viewerId, senderColumn), accounts.sql.notPendingDeletion(senderColumn)]);
  }

  /**
   * A boolean SQL expression: the conversation whose id is `conversationIdColumn` is not a direct
   * conversation with a member blocked either way with the viewer (such a one is hidden from both
   * of them, as if absent, until the block is undone: nothing is deleted). Groups always pass.
   */
  function directVisible(viewerId: number, conversationIdColumn: string): Knex.Raw {
    return knex.raw(
      `not exists (select 1 from messages_conversations mv_c join messages_participants mv_o on mv_o.conversation_id = mv_c.id
         where mv_c.id = ?? and mv_c.kind = 'direct' and mv_o.user_id <> ? and not ?)`,
      [conversationIdColumn, viewerId, accounts.sql.notBlocked(viewerId, 'mv_o.user_id')],
    );
  }

  /**
   * The members of a conversation who hear of what `personId` did in it (live events): its active
   * and requested members, but for those blocked either way with that person.
   */
  function audience(conversationId: number, personId: number) {
    return knex('messages_participants')
      .where({ conversation_id: conversationId })
      .whereIn('status', ['active', 'request'])
      .whereRaw(accounts.sql.notBlocked(personId, 'messages_participants.user_id'));
  }

  /**
   * The viewer's place in a conversation they can read (active or request), else 404; a direct
   * conversation with a member blocked either way too, unless `evenBlocked` (send answers it with
   * its own 403).
   */
  async function membership(userId: number, conversationId: number, db: Knex | Knex.Transaction = knex, evenBlocked = false) {
    const q = db('messages_participants as p')
      .join('messages_conversations as c', 'c.id', 'p.conversation_id')
      .where({ 'p.conversation_id': conversationId, 'p.user_id': userId })
      .whereIn('p.status', ['active', 'request']);
    if (!evenBlocked) q.whereRaw(directVisible(userId, 'c.id'));
    const row = await q
      .first('c.id', 'c.kind', 'c.creator_id', 'c.last_message_at', 'p.status', 'p.muted', 'p.last_read_message_id');
    if (!row) throw new HttpError(404, TEXT.notFound);
    return row as { id: number; kind: 'direct' | 'group'; creator_id: number | null; last_message_at: Date; status: 'active' | 'request'; muted: boolean; last_read_message_id: string | number };
  }

  /** A messages_images row (read with its image_info: imageInfoSql) as answered. */
  const imageItem = (r: any): MessageImageItem => ({
    id: Number(r.id),
    url: r.url,
    thumbnailUrl: r.thumbnail_url ?? null,
    width: r.width,
    height: r.height,
    imageInfo: toImageInfo(r.image_info),
  });

  async function imagesOf(messageIds: number[]): Promise<Map<number, MessageImageItem[]>> {
    const map = new Map<number, MessageImageItem[]>();
    if (!messageIds.length) return map;
    // with each image's made widths and placeholder, in this same statement
    const rows = await knex('messages_images')
      .whereIn('message_id', messageIds)
      .orderBy('id')
      .select('messages_images.*', knex.raw('? as ??', [imageInfoSql(knex, 'messages_images.url'), 'image_info']));
    for (const r of rows) {
      const list = map.get(Number(r.message_id)) ?? [];
      list.push(imageItem(r));
      map.set(Number(r.message_id), list);
    }
    return map;
  }

  async function toMessages(rows: any[], viewerId: number): Promise<MessageItem[]> {
    const [users, images] = await Promise.all([
      accounts.getUserSummaries(rows.map((r) => Number(r.sender_id))),
      imagesOf(rows.filter((r) => !r.deleted_at).map((r) => Number(r.id))),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      conversationId: Number(r.conversation_id),
      sender: users.get(Number(r.sender_id)) ?? ghost(Number(r.sender_id)),
      text: r.deleted_at ? '' : r.body,
      deleted: Boolean(r.deleted_at),
      images: r.deleted_at ? [] : (images.get(Number(r.id)) ?? []),
      createdAt: iso(r.created_at),
      mine: Number(r.sender_id) === viewerId,
    }));
  }

  /** Conversations (rows of the viewer's membership query) as answered to the viewer. */
  async function toConversations(rows: any[], viewerId: number): Promise<ConversationItem[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => Number(r.id));
    // the last message the viewer may see, which mine() found (last_message_id)
    const lastIds = rows.map((r) => r.last_message_id).filter((id) => id != null);
    const [others, lasts] = await Promise.all([
      // (a member whose deletion is pending is not shown, as after the erasure)
      knex('messages_participants')
        .whereIn('conversation_id', ids)
        .whereNot('user_id', viewerId)
        .whereNot('status', 'left')
        .whereRaw(accounts.sql.notPendingDeletion('messages_participants.user_id'))
        .orderBy('joined_at')
        .select('conversation_id', 'user_id'),
      lastIds.length ? knex('messages_messages').whereIn('id', lastIds) : Promise.resolve([]),
    ]);
    const users = await accounts.getUserSummaries(others.map((o: any) => Number(o.user_id)));
    const lastItems = await toMessages(lasts, viewerId);
    const lastOf = new Map(lastItems.map((m) => [m.conversationId, m]));
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      participants: others.filter((o: any) => Number(o.conversation_id) === Number(r.id)).map((o: any) => users.get(Number(o.user_id)) ?? ghost(Number(o.user_id))),
      lastMessage: lastOf.get(Number(r.id)) ?? null,
      lastMessageAt: iso(r.at),
      unreadCount: Number(r.unread ?? 0),
      muted: Boolean(r.muted),
      status: r.status,
      isCreator: r.creator_id != null && Number(r.creator_id) === viewerId,
      creatorId: r.creator_id == null ? null : Number(r.creator_id),
      canSend: true,
    }));
  }

  /**
   * The viewer's conversations with their unread counts, in one statement: direct conversations
   * with a member blocked either way are left out, and so are, in the counts, messages of such members.
   * Each with the last message the viewer may see (`last_message_id`, read backward on
   * (conversation_id, id) to the first visible one) and its time (`at`; the conversation's creation
   * when none is): a group's place in the list and its lastMessageAt do not move for a hidden
   * member's message.
   */
  function mine(viewerId: number) {
    return knex('messages_conversations as c')
      .join('messages_participants as p', function () {
        this.on('p.conversation_id', 'c.id').andOn('p.user_id', knex.raw('?', [viewerId]));
      })
      .joinRaw('left join lateral (select lm.id, lm.created_at from messages_messages lm where lm.conversation_id = c.id and ? order by lm.id desc limit 1) lm on true', [
        senderVisible(viewerId, 'lm.sender_id'),
      ])
      .select(
        'c.id',
        'c.kind',
        'c.creator_id',
        'p.status',
        'p.muted',
        'lm.id as last_message_id',
        knex.raw(`(select count(*) from messages_messages m where m.conversation_id = c.id and m.id > p.last_read_message_id and m.sender_id <> ? and m.deleted_at is null and ?)::int as unread`, [
          viewerId,
          senderVisible(viewerId, 'm.sender_id'),
        ]),
        // (to the millisecond, as the page's cursor carries it: two conversations within one millisecond are then ordered by id, never skipped)
        knex.raw(`date_trunc('milliseconds', coalesce(lm.created_at, c.created_at)) as at`),
      )
      .whereRaw(directVisible(viewerId, 'c.id'));
  }

  async function getConversation(viewerId: number, id: number): Promise<ConversationItem> {
    const row = await mine(viewerId).where('c.id', id).whereIn('p.status', ['active', 'request']).first();
    if (!row) throw new HttpError(404, TEXT.notFound);
    const [item] = await toConversations([row], viewerId);
    return item;
  }

  async function list(viewerId: number, q: { folder?: 'inbox' | 'requests'; cursor?: string; limit?: number }) {
    const size = Math.max(1, Math.min(100, q.limit ?? 20));
    // newest first by the last message the viewer may see (mine()'s `at`)
    const b = knex.select('*').from(mine(viewerId).where('p.status', q.folder === 'requests' ? 'request' : 'active').as('v'));
    const cur = decodeCursor(q.cursor);
    if (cur) b.whereRaw('(v.at, v.id) < (?::timestamptz, ?)', [cur.at, cur.id]);
    const rows = await b.orderBy([{ column: 'v.at', order: 'desc' }, { column: 'v.id', order: 'desc' }]).limit(size + 1);
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return { items: await toConversations(page, viewerId), nextCursor: rows.length > size ? encodeCursor(last.at, Number(last.id)) : null };
  }

  async function unreadCount(viewerId: number) {
    // as mine(): no hidden direct conversation, no message of a member blocked either way
    const [r] = rowsOf(
      await knex.raw(
        `select
           coalesce(sum(case when p.status = 'active' then
             (select count(*) from messages_messages m where m.conversation_id = p.conversation_id and m.id > p.last_read_message_id and m.sender_id <> ? and m.deleted_at is null and ?)
           else 0 end), 0)::int as count,
           count(*) filter (where p.status = 'request')::int as requests
         from messages_participants p where p.user_id = ? and p.status in ('active', 'request') and ?`,
        [viewerId, senderVisible(viewerId, 'm.sender_id'), viewerId, directVisible(viewerId, 'p.conversation_id')],
      ),
    );
    return { count: Number(r?.count ?? 0), requests: Number(r?.requests ?? 0) };
  }

  async function listMessages(viewerId: number, conversationId: number, q: { cursor?: string; limit?: number }) {
    await membership(viewerId, conversationId);
    const size = Math.max(1, Math.min(100, q.limit ?? 30));
    // none of a member blocked either way (groups), left out before the limit: pages stay full
    const b = knex('messages_messages').where({ conversation_id: conversationId }).whereRaw(senderVisible(viewerId, 'messages_messages.sender_id'));
    if (q.cursor && /^\d{1,18}$/.test(q.cursor)) b.where('id', '<', q.cursor);
    const rows = await b.orderBy('id', 'desc').limit(size + 1);
    const page = rows.slice(0, size);
    return { items: await toMessages(page, viewerId), nextCursor: rows.length > size ? String(page[page.length - 1].id) : null };
  }

  function cleanText(text: string | undefined, imageIds: number[] | undefined): string {
    const t = (text ?? '').replace(/\r\n/g, '\n').trim();
    if (t.length > 2000) throw new HttpError(400, TEXT.tooLong);
    if (!t && !imageIds?.length) throw new HttpError(400, TEXT.empty);
    return t;
  }

  /** Stores a message (the conversation exists, the sender may write in it); then tells the others. */
  async function insertMessage(trx: Knex.Transaction, conversationId: number, senderId: number, text: string, imageIds: number[]) {
    const [msg] = await trx('messages_messages').insert({ conversation_id: conversationId, sender_id: senderId, body: text }).returning('*');
    if (imageIds.length) {
      const attached = await trx('messages_images')
        .whereIn('id', imageIds)
        .where({ uploader_id: senderId })
        .whereNull('message_id')
        .update({ message_id: msg.id, conversation_id: conversationId })
        .returning('id');
      if (attached.length !== imageIds.length) throw new HttpError(400, TEXT.unknownImage);
    }
    await trx('messages_conversations').where({ id: conversationId }).update({ last_message_at: msg.created_at });
    // writing reads the thread, and replying to a request accepts it
    await trx('messages_participants')
      .where({ conversation_id: conversationId, user_id: senderId })
      .update({ last_read_message_id: trx.raw('greatest(last_read_message_id, ?)', [msg.id]), status: 'active' });
    return msg;
  }

  /**
   * After the commit: live events to every member's tabs, notifications to the others (unless muted
   * or still a request); neither to a member blocked either way with the sender.
   */
  async function announce(conversationId: number, msg: any, senderId: number) {
    const members = await audience(conversationId, senderId).select('user_id', 'status', 'muted');
    await deps.live.publishTo(
      members.map((m: any) => Number(m.user_id)),
      'message.created',
      { conversationId, messageId: Number(msg.id), senderId },
    );
    const notif = deps.notifications();
    const to = members.filter((m: any) => Number(m.user_id) !== senderId && m.status === 'active' && !m.muted).map((m: any) => Number(m.user_id));
    if (!notif || !to.length) return;
    try {
      const sender = await accounts.getUserSummary(senderId);
      const name = displayName(sender);
      await notif.notify(to, {
        type: 'message',
        title: `New message from ${name}`,
        message: msg.body ? String(msg.body).slice(0, 200) : `${name} sent an image`,
        link: `/messages/${conversationId}`,
        template: 'messages:notification',
        params: { name },
        // its sender, under accounts' rule: not to a member who muted the sender with notifications (or blocked them); it goes when their account is deleted
        actorId: senderId,
      });
    } catch (err) {
      deps.log.error({ err }, 'messages: notification failed');
    }
  }

  async function send(viewerId: number, conversationId: number, body: { text?: string; imageIds?: number[] }): Promise<MessageItem> {
    const text = cleanText(body.text, body.imageIds);
    // a hidden direct conversation (a block) is still found here: it answers the 403 below
    const conv = await membership(viewerId, conversationId, knex, true);
    if (conv.kind === 'direct') {
      // a block (accounts' rule) ends a direct conversation both ways
      const other = await knex('messages_participants').where({ conversation_id: conversationId }).whereNot('user_id', viewerId).first('user_id');
      if (other) {
        const d = await accounts.mayContact(viewerId, Number(other.user_id));
        if (!d.allowed && d.reason === 'blocked') throw refusal(d.reason);
      }
    }
    const msg = await knex.transaction((trx) => insertMessage(trx, conversationId, viewerId, text, body.imageIds ?? []));
    await announce(conversationId, msg, viewerId);
    const [item] = await toMessages([msg], viewerId);
    return item;
  }

  async function create(viewerId: number, body: { participantIds: number[]; message: { text?: string; imageIds?: number[] } }) {
    const others = [...new Set(body.participantIds.map(Number))].filter((id) => id !== viewerId);
    if (!others.length) throw new HttpError(400, TEXT.self);
    if (others.length + 1 > deps.maxGroupSize) throw new HttpError(400, TEXT.groupSize(deps.maxGroupSize));
    const text = cleanText(body.message.text, body.message.imageIds);
    const decisions = await Promise.all(others.map((id) => accounts.mayContact(viewerId, id)));
    const refused = decisions.find((d) => !d.allowed);
    if (refused) throw refusal(refused.reason);
    const statusOf = (i: number): ParticipantStatus => (decisions[i].recipientFollows ? 'active' : 'request');

    const { conversationId, msg } = await knex.transaction(async (trx) => {
      let conversationId: number;
      if (others.length === 1) {
        const key = [viewerId, others[0]].sort((a, b) => a - b).join(':');
        const inserted = await trx('messages_conversations').insert({ kind: 'direct', creator_id: viewerId, direct_key: key }).onConflict('direct_key').ignore().returning('id');
        conversationId = inserted.length ? Number(inserted[0].id ?? inserted[0]) : Number((await trx('messages_conversations').where({ direct_key: key }).first('id')).id);
      } else {
        const [c] = await trx('messages_conversations').insert({ kind: 'group', creator_id: viewerId }).returning('id');
        conversationId = Number(c.id ?? c);
      }
      // the writer is in; each other member in their inbox or Requests (one who had left comes back)
      await trx.raw(
        `insert into messages_participants (conversation_id, user_id, status) values (?, ?, 'active')
         on conflict (conversation_id, user_id) do update set status = 'active'`,
        [conversationId, viewerId],
      );
      for (let i = 0; i < others.length; i++) {
        await trx.raw(
          `insert into messages_participants (conversation_id, user_id, status) values (?, ?, ?)
           on conflict (conversation_id, user_id) do update set status = case when messages_participants.status = 'left' then excluded.status else messages_participants.status end`,
          [conversationId, others[i], statusOf(i)],
        );
      }
      const msg = await insertMessage(trx, conversationId, viewerId, text, body.message.imageIds ?? []);
      return { conversationId, msg };
    });
    await announce(conversationId, msg, viewerId);
    return getConversation(viewerId, conversationId);
  }

  async function markRead(viewerId: number, conversationId: number, messageId: number | undefined) {
    await membership(viewerId, conversationId);
    let upTo: number;
    if (messageId !== undefined) {
      // a message the viewer may not see (a member blocked either way) is unknown
      const m = await knex('messages_messages')
        .where({ id: messageId, conversation_id: conversationId })
        .whereRaw(senderVisible(viewerId, 'messages_messages.sender_id'))
        .first('id');
      if (!m) throw new HttpError(404, TEXT.messageNotFound);
      upTo = Number(m.id);
    } else {
      // the last message the viewer may see: later ones of a hidden member stay unread for when they show again
      const m = await knex('messages_messages').where({ conversation_id: conversationId }).whereRaw(senderVisible(viewerId, 'messages_messages.sender_id')).max({ id: 'id' }).first();
      upTo = Number(m?.id ?? 0);
    }
    await knex('messages_participants')
      .where({ conversation_id: conversationId, user_id: viewerId })
      .update({ last_read_message_id: knex.raw('greatest(last_read_message_id, ?)', [upTo]) });
    // how far the viewer read, to the others: not to a member blocked either way (no read receipts across a block)
    const members = await audience(conversationId, viewerId).pluck('user_id');
    await deps.live.publishTo(members.map(Number), 'conversation.read', { conversationId, userId: viewerId, messageId: upTo });
    const conv = await getConversation(viewerId, conversationId);
    return { conversationUnreadCount: conv.unreadCount, ...(await unreadCount(viewerId)) };
  }

  async function deleteFiles(rows: Array<{ storage_key: string; thumbnail_url: string | null }>) {
    for (const r of rows) {
      for (const key of [r.storage_key, r.thumbnail_url ? deps.storage.keyFromUrl(r.thumbnail_url) : null]) {
        if (key) await deps.storage.delete(key).catch((err) => deps.log.warn({ err, key }, 'messages: could not delete an image file'));
      }
    }
  }

  /** Empties a message (shown as "Message deleted") with its images; answers false when it already was. */
  async function eraseMessage(m: any): Promise<boolean> {
    if (m.deleted_at) return false;
    const images = await knex('messages_images').where({ message_id: m.id }).select('storage_key', 'thumbnail_url');
    const done: unknown[] = await knex.transaction(async (trx) => {
      await trx('messages_images').where({ message_id: m.id }).del();
      return (await trx('messages_messages').where({ id: m.id }).whereNull('deleted_at').update({ body: '', deleted_at: trx.fn.now() }).returning('id')) as unknown[];
    });
    await deleteFiles(images);
    if (!done.length) return false;
    await deps.reportsGone([Number(m.id)]);
    // to those who could see the message: not to a member blocked either way with its sender
    const members = await audience(Number(m.conversation_id), Number(m.sender_id)).pluck('user_id');
    await deps.live.publishTo(members.map(Number), 'message.deleted', { conversationId: Number(m.conversation_id), messageId: Number(m.id) });
    return true;
  }

  async function deleteMessage(viewerId: number, messageId: number) {
    const m = await knex('messages_messages').where({ id: messageId }).first();
    if (!m) throw new HttpError(404, TEXT.messageNotFound);
    // someone else's conversation: as if it did not exist
    const member = await knex('messages_participants').where({ conversation_id: m.conversation_id, user_id: viewerId }).whereIn('status', ['active', 'request']).first('user_id');
    if (!member) throw new HttpError(404, TEXT.messageNotFound);
    if (Number(m.sender_id) !== viewerId) throw new HttpError(403, TEXT.notOwn);
    await eraseMessage(m);
    return { success: true };
  }

  /**
   * A reported message as the reporter sees it (reports plugin): only a member of its conversation
   * may report it; null (404) for anyone else, and for a deleted message.
   */
  async function describeForReport(messageId: number, viewer: { id: number }) {
    const m = await knex('messages_messages').where({ id: messageId }).first();
    if (!m || m.deleted_at) return null;
    const member = await knex('messages_participants').where({ conversation_id: m.conversation_id, user_id: viewer.id }).whereIn('status', ['active', 'request', 'left']).first('user_id');
    if (!member) return null;
    const images = (await imagesOf([Number(m.id)])).get(Number(m.id)) ?? [];
    return {
      ownerId: Number(m.sender_id),
      text: m.body || null,
      link: `/messages/${m.conversation_id}`,
      mediaUrl: images[0]?.url ?? null,
    };
  }

  /** An Admin removes a reported message (reports queue): it shows as deleted to everyone. */
  async function removeForReport(messageId: number): Promise<boolean> {
    const m = await knex('messages_messages').where({ id: messageId }).first();
    if (!m) return false;
    return eraseMessage(m);
  }

  async function leave(viewerId: number, conversationId: number) {
    await membership(viewerId, conversationId);
    await knex('messages_participants').where({ conversation_id: conversationId, user_id: viewerId }).update({ status: 'left' });
    const members = await knex('messages_participants').where({ conversation_id: conversationId }).whereIn('status', ['active', 'request']).pluck('user_id');
    await deps.live.publishTo([viewerId, ...members.map(Number)], 'conversation.updated', { conversationId });
    return { success: true };
  }

  /** Deletes a whole conversation with its image files. */
  async function removeConversation(conversationId: number) {
    const images = await knex('messages_images').where({ conversation_id: conversationId }).select('storage_key', 'thumbnail_url');
    const ids: number[] = (await knex('messages_messages').where({ conversation_id: conversationId }).pluck('id')).map(Number);
    await knex('messages_conversations').where({ id: conversationId }).del();
    await deleteFiles(images);
    await deps.reportsGone(ids);
  }

  async function accept(viewerId: number, conversationId: number) {
    const conv = await membership(viewerId, conversationId);
    if (conv.status !== 'request') throw new HttpError(409, TEXT.notRequest);
    await knex('messages_participants').where({ conversation_id: conversationId, user_id: viewerId }).update({ status: 'active' });
    return getConversation(viewerId, conversationId);
  }

  async function decline(viewerId: number, conversationId: number) {
    const conv = await membership(viewerId, conversationId);
    if (conv.status !== 'request') throw new HttpError(409, TEXT.notRequest);
    if (conv.kind === 'direct') await removeConversation(conversationId);
    else await knex('messages_participants').where({ conversation_id: conversationId, user_id: viewerId }).del();
    await deps.live.publishTo([viewerId], 'conversation.updated', { conversationId });
    return { success: true };
  }

  async function addParticipants(viewerId: number, conversationId: number, userIds: number[]) {
    const conv = await membership(viewerId, conversationId);
    if (conv.kind !== 'group') throw new HttpError(400, TEXT.directAdd);
    if (Number(conv.creator_id) !== viewerId) throw new HttpError(403, TEXT.notCreator);
    const current = await knex('messages_participants').where({ conversation_id: conversationId }).whereIn('status', ['active', 'request']).pluck('user_id');
    const fresh = [...new Set(userIds.map(Number))].filter((id) => !current.map(Number).includes(id));
    if (!fresh.length) throw new HttpError(409, TEXT.already);
    if (current.length + fresh.length > deps.maxGroupSize) throw new HttpError(400, TEXT.groupSize(deps.maxGroupSize));
    const decisions = await Promise.all(fresh.map((id) => accounts.mayContact(viewerId, id)));
    const refused = decisions.find((d) => !d.allowed);
    if (refused) throw refusal(refused.reason);
    await knex.transaction(async (trx) => {
      // the group's size is checked again under a lock: two additions at once cannot pass it together
      await trx('messages_conversations').where({ id: conversationId }).forUpdate().first('id');
      const [{ n }] = rowsOf(await trx.raw(`select count(*)::int as n from messages_participants where conversation_id = ? and status in ('active', 'request')`, [conversationId]));
      if (Number(n) + fresh.length > deps.maxGroupSize) throw new HttpError(400, TEXT.groupSize(deps.maxGroupSize));
      for (let i = 0; i < fresh.length; i++) {
        await trx.raw(
          `insert into messages_participants (conversation_id, user_id, status) values (?, ?, ?)
           on conflict (conversation_id, user_id) do update set status = excluded.status, joined_at = now()`,
          [conversationId, fresh[i], decisions[i].recipientFollows ? 'active' : 'request'],
        );
      }
    });
    await deps.live.publishTo([...current.map(Number), ...fresh], 'conversation.updated', { conversationId });
    return getConversation(viewerId, conversationId);
  }

  async function mute(viewerId: number, conversationId: number, muted: boolean) {
    await membership(viewerId, conversationId);
    await knex('messages_participants').where({ conversation_id: conversationId, user_id: viewerId }).update({ muted });
    return getConversation(viewerId, conversationId);
  }

  async function contactStatus(viewerId: number, userId: number) {
    if (userId === viewerId) return { canMessage: false, reason: 'self', conversationId: null };
    const key = [viewerId, userId].sort((a, b) => a - b).join(':');
    const [d, existing] = await Promise.all([
      accounts.mayContact(viewerId, userId),
      knex('messages_conversations as c')
        .join('messages_participants as p', 'p.conversation_id', 'c.id')
        .where({ 'c.direct_key': key, 'p.user_id': viewerId })
        .whereIn('p.status', ['active', 'request'])
        .whereRaw(directVisible(viewerId, 'c.id'))
        .first('c.id'),
    ]);
    if (d.reason === 'not_found') throw new HttpError(404, TEXT.memberNotFound);
    return { canMessage: d.allowed, reason: d.allowed ? null : d.reason, conversationId: existing ? Number(existing.id) : null };
  }

  /** Uploads waiting in a composer: stored now, attached when the message is sent. */
  async function storeImages(viewerId: number, images: Array<{ key: string; url: string; thumbnailUrl?: string; width: number; height: number }>) {
    const rows = await knex('messages_images')
      .insert(images.map((s) => ({ uploader_id: viewerId, storage_key: s.key, url: s.url, thumbnail_url: s.thumbnailUrl ?? null, width: s.width, height: s.height })))
      // their info too (null until the variants job has run), in this statement
      .returning(['*', knex.raw('? as ??', [imageInfoSql(knex, 'messages_images.url'), 'image_info'])]);
    // uploads never sent are forgotten after a day
    const stale = await knex('messages_images').where({ uploader_id: viewerId }).whereNull('message_id').where('created_at', '<', knex.raw(`now() - interval '1 day'`)).select('id', 'storage_key', 'thumbnail_url');
    if (stale.length) {
      await knex('messages_images').whereIn('id', stale.map((s: any) => s.id)).del();
      await deleteFiles(stale);
    }
    return rows.map(imageItem);
  }

  /** A member's account goes: their messages, uploads and places go with it; conversations left empty go too. */
  async function forgetUser(userId: number) {
    const images = await knex('messages_images').where({ uploader_id: userId }).select('storage_key', 'thumbnail_url');
    const convs = await knex('messages_participants').where({ user_id: userId }).pluck('conversation_id');
    await knex('messages_images').where({ uploader_id: userId }).del();
    await knex('messages_messages').where({ sender_id: userId }).del();
    await knex('messages_participants').where({ user_id: userId }).del();
    if (convs.length) {
      const empty = await knex('messages_conversations as c')
        .whereIn('c.id', convs)
        .whereNotExists(knex('messages_participants as p').whereRaw('p.conversation_id = c.id').whereIn('p.status', ['active', 'request']))
        .pluck('c.id');
      for (const id of empty) await removeConversation(Number(id));
    }
    await deleteFiles(images);
  }

  return {
    list,
    getConversation,
    unreadCount,
    listMessages,
    send,
    create,
    markRead,
    deleteMessage,
    leave,
    accept,
    decline,
    addParticipants,
    mute,
    contactStatus,
    storeImages,
    forgetUser,
    describeForReport,
    removeForReport,
  };
}

export type MessagesStore = ReturnType<typeof createMessagesStore>;
