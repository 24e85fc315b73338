import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AccountsApi } from '../../accounts/public.ts';
import type { LiveApi } from '../../../core/stream.ts';
import {
  PREFERENCE_OF_TYPE,
  type NewNotification,
  type NotificationPriority,
  type NotificationSend,
  type NotificationsApi,
} from '../public.ts';

/**
 * Accounts' rule for a member's notifications (the inbox, its unread count, the emailed batch):
 * nothing from an actor blocked either way, muted by the member with their notifications, or whose
 * deletion is pending (hidden from everyone but Admins until they sign in again; their
 * notifications come back then). Notifications without an actor always pass.
 */
export function actorVisible(q: Knex.QueryBuilder, sql: AccountsApi['sql'], userId: number): Knex.QueryBuilder {
  const col = 'notifications.actor_id';
  const nb = sql.notBlocked(userId, col);
  const nm = sql.notMuted({ id: userId }, col, { notifications: true });
  const np = sql.notPendingDeletion(col);
  return q.where((w) => w.whereNull(col).orWhere((x) => x.whereRaw(nb).whereRaw(nm).whereRaw(np)));
}

export const FANOUT_JOB = 'notifications.fanout';
/** A row's group: its group key, or the row alone. */
const GROUP = `coalesce(notifications.group_key, 'n' || notifications.id::text)`;
/** up to this many recipients, a notification's live update counts each one's unread rows on its own (announce) */
const FEW_RECIPIENTS = 3;
/** the unread count stops here (the bell shows "99+" beyond 99) */
export const UNREAD_COUNT_CAP = 100;
const PRIORITIES: NotificationPriority[] = ['low', 'normal', 'high', 'urgent'];

export interface NotificationItem {
  id: number;
  type: string;
  title: string;
  message: string;
  priority: NotificationPriority;
  link: string | null;
  read: boolean;
  createdAt: string;
  template: string | null;
  params: Record<string, string | number> | null;
  /** grouped rows (the likes of one insight): how many notifications and distinct members this row stands for */
  groupCount?: number;
  actorCount?: number;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const intArray = (ids: number[]) => `{${ids.join(',')}}`;
function rowsOf(r: any): any[] {
  return Array.isArray(r) ? r : (r?.rows ?? []);
}

/** App paths ('/x', not '//x') and http(s) URLs; anything else (javascript:, data:…) is dropped. */
export function safeLink(link: string | null | undefined): string | null {
  const s = (link ?? '').trim();
  if (!s || s.length > 500) return null;
  if (/^\/(?![\/\\])/.test(s)) return s;
  try {
    const u = new URL(s);
    if (u.protocol === 'https:' || u.protocol === 'http:') return u.toString();
  } catch {
    /* not a URL */
  }
  return null;
}

function clean(n: NewNotification) {
  const title = String(n.title ?? '').trim().slice(0, 200);
  const message = String(n.message ?? '').trim().slice(0, 2000);
  if (!title || !message) throw new Error('A notification needs a title and a message');
  const params = n.params && typeof n.params === 'object' ? JSON.stringify(n.params) : null;
  return {
    type: String(n.type).slice(0, 32),
    title,
    message,
    priority: PRIORITIES.includes(n.priority as NotificationPriority) ? (n.priority as NotificationPriority) : 'normal',
    link: safeLink(n.link),
    template: n.template ? String(n.template).slice(0, 120) : null,
    params,
    dedupe_key: n.dedupeKey ? String(n.dedupeKey).slice(0, 200) : null,
    actor_id: Number.isInteger(n.actorId) && Number(n.actorId) > 0 ? Number(n.actorId) : null,
    group_key: n.groupKey ? String(n.groupKey).slice(0, 120) : null,
  };
}

export function toItem(r: any): NotificationItem {
  return {
    id: Number(r.id),
    type: r.type,
    title: r.title,
    message: r.message,
    priority: r.priority,
    link: r.link ?? null,
    read: !!r.read,
    createdAt: iso(r.created_at),
    template: r.template ?? null,
    params: r.params ? (typeof r.params === 'string' ? JSON.parse(r.params) : r.params) : null,
    ...(r.group_count != null ? { groupCount: Number(r.group_count), actorCount: Number(r.actor_count) } : {}),
  };
}

function toSend(r: any): NotificationSend {
  return {
    id: Number(r.id),
    title: r.title,
    message: r.message,
    priority: r.priority,
    link: r.link ?? null,
    audience: r.audience,
    recipientCount: Number(r.recipient_count),
    deliveredCount: Number(r.delivered_count),
    status: r.status,
    sentBy: r.sent_by == null ? null : Number(r.sent_by),
    createdAt: iso(r.created_at),
  };
}

export interface NotificationsDeps {
  knex: Knex;
  log: Logger;
  accounts: () => AccountsApi | undefined;
  enqueue: (name: string, payload: unknown, opts?: { uniqueKey?: string }) => Promise<unknown>;
  /** members per INSERT … SELECT batch */
  batchSize: number;
  /** audiences up to this size are written during the request; larger ones by a background job */
  syncLimit: number;
  /** live updates (core/stream.ts): `notification.created` with the new unread count to each recipient */
  live?: LiveApi;
  /** a boolean SQL expression: the member in the column has a push subscription (push.ts); read with the insert */
  pushSubscribed?: (userIdColumn: string) => Knex.Raw;
}

/** Whom a notification was stored for, and of them who has a tab open and who a device for pushes. */
export interface Delivered {
  stored: number[];
  live: number[];
  push: number[];
}

/**
 * Recipients come from the accounts plugin's service (never its tables): a send to everyone walks
 * the members with AccountsApi.userIdsBatch (keyset batches of `batchSize` ids), filters each batch
 * by preferences in one query (getPreferencesMany) and writes it with one INSERT … SELECT unnest.
 */
export function createNotificationsService(deps: NotificationsDeps) {
  const { knex } = deps;

  /**
   * The ids of existing members (accounts' getPreferencesMany answers only those, in one query per
   * batch) whose preference for this type is not switched off (missing preference = on).
   */
  async function allowed(list: number[], type: string): Promise<number[]> {
    const pref = PREFERENCE_OF_TYPE[type as keyof typeof PREFERENCE_OF_TYPE];
    const acc = deps.accounts();
    if (!acc) throw new Error('Notifications need the accounts plugin');
    const out: number[] = [];
    for (let i = 0; i < list.length; i += deps.batchSize) {
      const chunk = list.slice(i, i + deps.batchSize);
      const m = await acc.getPreferencesMany(chunk);
      for (const id of chunk) {
        const p = m.get(id) as Record<string, unknown> | undefined;
        if (p && (!pref || p[pref] !== false)) out.push(id);
      }
    }
    return out;
  }

  /**
   * Inserts one row per id (ids of existing members, from allowed()); answers how many were stored
   * (dedupe keys and a retried fan-out batch store nothing twice). A member deleted meanwhile makes
   * the foreign key refuse the chunk, naming them: it is written again without them (each chunk
   * inside a transaction runs under a savepoint, so the refusal does not abort the transaction).
   */
  async function insertFor(
    trx: Knex | Knex.Transaction,
    list: number[],
    row: ReturnType<typeof clean>,
    sendId: number | null,
    storedIds?: number[],
    /** accounts' rules in the statement (u.id is the recipient: deliver()), and where to note whom to tell live and by push */
    opts?: { rules?: Knex.Raw[]; out?: Delivered },
  ): Promise<number> {
    const rules = opts?.rules ?? [];
    const out = opts?.out;
    const flags = out
      ? [deps.live ? deps.live.hasOpenStream('notifications.user_id') : knex.raw('false'), deps.pushSubscribed ? deps.pushSubscribed('notifications.user_id') : knex.raw('false')]
      : [];
    const write = async (db: Knex | Knex.Transaction, chunk: number[]) => {
      // One recipient (a like, a comment, a follow: most notifications) as one value, not a list:
      // PostgreSQL plans `unnest` of a parameter for ten rows and of a known list for its length, so
      // it never found its generic plan as cheap as a custom one and planned the statement again on
      // every run (0.23 ms of planning for 0.15 ms of execution, issue 18). With one value both
      // plans count one row, and after five runs the prepared statement keeps its generic plan.
      const one = chunk.length === 1;
      const rows = rowsOf(
        await db.raw(
          `insert into notifications (user_id, type, title, message, priority, link, template, params, dedupe_key, send_id, actor_id, group_key)
           select u.id, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?::int, ?::text from ${one ? '(values (?::int))' : 'unnest(?::int[])'} as u(id)
           ${rules.length ? `where ${rules.map(() => '?').join(' and ')}` : ''} order by u.id
           on conflict do nothing returning user_id${out ? ', ? as live, ? as push' : ''}`,
          [row.type, row.title, row.message, row.priority, row.link, row.template, row.params, row.dedupe_key, sendId, row.actor_id, row.group_key ?? null, one ? chunk[0] : intArray(chunk), ...rules, ...flags],
        ),
      );
      if (storedIds) for (const r of rows) storedIds.push(Number(r.user_id));
      if (out) {
        for (const r of rows) {
          if (r.live) out.live.push(Number(r.user_id));
          if (r.push) out.push.push(Number(r.user_id));
        }
      }
      return rows.length;
    };
    const inTrx = (trx as Knex.Transaction).isTransaction === true;
    let stored = 0;
    for (let i = 0; i < list.length; i += deps.batchSize) {
      let chunk = list.slice(i, i + deps.batchSize);
      for (let attempt = 0; chunk.length; attempt++) {
        try {
          stored += inTrx ? await (trx as Knex.Transaction).transaction((sp) => write(sp, chunk)) : await write(trx, chunk);
          break;
        } catch (e: any) {
          // Chosen as a deadlock victim (its foreign-key checks take KEY SHARE locks on users rows
          // that a follow or block transaction may hold; the ids go in ascending order to make it
          // rare): written again after a short pause instead of losing the notification.
          if ((e?.code === '40P01' || e?.code === '40001') && attempt < 5) {
            await new Promise((r) => setTimeout(r, 5 * (attempt + 1) + Math.random() * 20));
            continue;
          }
          // the member who caused it deleted their account meanwhile: nothing left to tell
          if (e?.code === '23503' && /\(actor_id\)=/.test(String(e.detail ?? ''))) break;
          // 'Key (user_id)=(42) is not present in table …': that member is gone; no query here
          // (inside a transaction the embedded database's single connection belongs to trx)
          const gone = e?.code === '23503' ? /\(user_id\)=\((\d+)\)/.exec(String(e.detail ?? '')) : null;
          if (!gone || attempt >= 100) throw e;
          chunk = chunk.filter((id) => id !== Number(gone[1]));
        }
      }
    }
    return stored;
  }

  /**
   * Stores a notification for those of `userIds` who may get it, tells their open tabs, and answers
   * whom it was stored for (a repeat of a deduplicated one is not) and who of them has a device for
   * pushes. One statement (issue 18: was five, and three more for the live update of a member
   * without a tab open): the recipient's preference for this type and, when a member caused it,
   * no block either way and no mute of their notifications (accounts' rules, AccountsApi.sql) are
   * conditions of the insert, which also says who has a stream open and a push subscription.
   */
  async function deliver(userIds: number[], n: NewNotification): Promise<Delivered> {
    const row = clean(n);
    const acc = deps.accounts();
    if (!acc) throw new Error('Notifications need the accounts plugin');
    const out: Delivered = { stored: [], live: [], push: [] };
    const list = ids(userIds);
    if (!list.length) return out;
    const pref = PREFERENCE_OF_TYPE[row.type as keyof typeof PREFERENCE_OF_TYPE];
    const rules: Knex.Raw[] = [];
    if (pref) rules.push(acc.sql.prefers(pref, 'u.id'));
    if (row.actor_id) rules.push(acc.sql.reachableBy(row.actor_id, 'u.id', { notifications: true }));
    await insertFor(knex, list, row, null, out.stored, { rules, out });
    // only the recipients with a tab open hear of it now; any other tab reads its count when it opens
    await announce(out.live);
    return out;
  }

  /** After the rows are committed: each recipient's open tabs hear of it, with their new unread count. */
  async function announce(userIds: number[]): Promise<void> {
    if (!deps.live || !userIds.length) return;
    try {
      // the count the inbox shows (api.unreadCount): rows caused by a member the recipient blocked
      // or muted (with notifications) are hidden. Rows without an actor are counted per batch;
      // members who have unread rows with an actor are counted with the inbox's own rule.
      const counts = new Map<number, number>();
      // a few recipients (a like, a comment, a mention): each one's count with the inbox's own rule,
      // one statement each, instead of the batch's two statements and then that rule for most of them
      if (userIds.length <= FEW_RECIPIENTS) for (const id of userIds) counts.set(id, await api.unreadCount(id));
      else for (let i = 0; i < userIds.length; i += deps.batchSize) {
        const chunk = userIds.slice(i, i + deps.batchSize);
        // (rows of a group, like the likes of one insight, count once: the inbox shows one row)
        const rows = await knex('notifications').whereIn('user_id', chunk).where({ read: false }).whereNull('actor_id').whereNull('group_key').select('user_id').count({ n: '*' }).groupBy('user_id');
        for (const r of rows as any[]) counts.set(Number(r.user_id), Number(r.n));
        const withActor = await knex('notifications')
          .whereIn('user_id', chunk)
          .where({ read: false })
          .where((w) => w.whereNotNull('actor_id').orWhereNotNull('group_key'))
          .distinct('user_id');
        for (const r of withActor as any[]) counts.set(Number(r.user_id), await api.unreadCount(Number(r.user_id)));
      }
      await deps.live.publish(userIds.map((id) => ({ userId: id, type: 'notification.created', data: { unreadCount: counts.get(id) ?? 0 } })));
    } catch (err) {
      deps.log.warn({ err }, 'notifications: live update failed');
    }
  }

  function ids(list: number[]): number[] {
    return [...new Set(list.map(Number).filter((i) => Number.isInteger(i) && i > 0 && i < 2147483648))];
  }

  /**
   * One batch of an 'all' send; false when there is nothing left. Preferences are read before the
   * transaction (the embedded database has one connection: inside a transaction only trx queries run).
   */
  async function fanoutBatch(sendId: number): Promise<boolean> {
    const s = await knex('notification_sends').where({ id: sendId }).first();
    if (!s || s.status === 'done') return false;
    const acc = deps.accounts();
    if (!acc) throw new Error('Notifications need the accounts plugin');
    const batch = await acc.userIdsBatch(Number(s.cursor), deps.batchSize, { maxId: Number(s.max_user_id ?? 0) });
    const recipients = await allowed(batch, s.type);
    const row = {
      ...clean({ type: s.type, title: s.title, message: s.message, priority: s.priority, link: s.link, template: s.template ?? undefined }),
      params: s.params ? (typeof s.params === 'string' ? s.params : JSON.stringify(s.params)) : null,
    };
    // whom to tell now: those with a tab open (a send to everyone no longer writes a live event for each member)
    const out: Delivered = { stored: [], live: [], push: [] };
    const more = await knex.transaction(async (trx) => {
      const locked = await trx('notification_sends').where({ id: sendId }).forUpdate().first('cursor', 'status');
      if (!locked || locked.status === 'done') return false;
      if (Number(locked.cursor) !== Number(s.cursor)) return true; // another process did this batch
      if (!batch.length) {
        await trx('notification_sends').where({ id: sendId }).update({ status: 'done', finished_at: trx.fn.now() });
        return false;
      }
      const n = await insertFor(trx, recipients, row, sendId, out.stored, { out });
      await trx('notification_sends')
        .where({ id: sendId })
        .update({ cursor: batch[batch.length - 1], delivered_count: trx.raw('delivered_count + ?', [n]) });
      return true;
    });
    await announce(out.live);
    return more;
  }

  async function runFanout(sendId: number, progress?: (done: number, total: number) => Promise<void>) {
    while (await fanoutBatch(sendId)) {
      if (progress) {
        const s = await knex('notification_sends').where({ id: sendId }).first('delivered_count', 'recipient_count');
        await progress(Number(s.delivered_count), Number(s.recipient_count));
      }
    }
    const s = await knex('notification_sends').where({ id: sendId }).first('delivered_count');
    return { delivered: Number(s?.delivered_count ?? 0) };
  }

  /** Accounts' rule in the inbox's statement (actorVisible). */
  function visibleTo(q: Knex.QueryBuilder, userId: number): Knex.QueryBuilder {
    const acc = deps.accounts();
    return acc ? actorVisible(q, acc.sql, userId) : q;
  }

  const api: NotificationsApi & {
    list(userId: number, opts: { cursor?: string; limit?: number; unread?: boolean }): Promise<{ items: NotificationItem[]; nextCursor: string | null }>;
    markRead(userId: number, id: number): Promise<NotificationItem | null>;
    markAllRead(userId: number): Promise<number>;
  } = {
    async notify(userIds, n) {
      return (await deliver(userIds, n)).stored.length;
    },

    async notifyAll(n, opts = {}) {
      return api.send(n, { sentBy: opts.sentBy ?? null });
    },

    async send(n, opts = {}) {
      const row = clean(n);
      const sentBy = opts.sentBy ?? null;
      if (opts.userIds != null) {
        const list = await allowed(ids(opts.userIds), row.type);
        const out: Delivered = { stored: [], live: [], push: [] };
        const total = await knex.transaction(async (trx) => {
          const [s] = await trx('notification_sends')
            .insert({ type: row.type, title: row.title, message: row.message, priority: row.priority, link: row.link, template: row.template, params: row.params, audience: 'users', status: 'sending', sent_by: sentBy })
            .returning('id');
          const sendId = Number(s.id ?? s);
          const stored = list.length ? await insertFor(trx, list, row, sendId, out.stored, { out }) : 0;
          await trx('notification_sends').where({ id: sendId }).update({ recipient_count: stored, delivered_count: stored, status: 'done', finished_at: trx.fn.now() });
          return stored;
        });
        await announce(out.live);
        return total;
      }
      const acc = deps.accounts();
      if (!acc) throw new Error('Notifications need the accounts plugin');
      const { count: total, maxId } = await acc.userIdRange();
      const [s] = await knex('notification_sends')
        .insert({
          type: row.type,
          title: row.title,
          message: row.message,
          priority: row.priority,
          link: row.link,
          template: row.template,
          params: row.params,
          audience: 'all',
          recipient_count: Number(total),
          max_user_id: Number(maxId),
          status: 'sending',
          sent_by: sentBy,
        })
        .returning('id');
      const sendId = Number(s.id ?? s);
      if (Number(total) <= deps.syncLimit) await runFanout(sendId);
      else await deps.enqueue(FANOUT_JOB, { sendId }, { uniqueKey: `${FANOUT_JOB}:${sendId}` });
      return Number(total);
    },

    async listSends({ page = 1, pageSize = 10 } = {}) {
      const size = Math.max(1, Math.min(100, pageSize));
      const p = Math.max(1, page);
      const [{ n }] = await knex('notification_sends').count({ n: '*' });
      const rows = await knex('notification_sends').orderBy('id', 'desc').limit(size).offset((p - 1) * size);
      return { items: rows.map(toSend), total: Number(n), page: p, pageSize: size };
    },

    /**
     * Unread groups (what the inbox shows as rows), up to UNREAD_COUNT_CAP: the bell shows "99+"
     * beyond 99. A walk from group to group over the unread rows' index (a loose index scan: one
     * probe for each group, the accounts rule applied to the rows it meets) instead of reading every
     * unread row: a member with thousands of unread likes was counted on each new notification.
     */
    async unreadCount(userId) {
      const unread = () => visibleTo(knex('notifications').where({ 'notifications.user_id': userId, 'notifications.read': false }), userId);
      const first = unread().select(knex.raw(`${GROUP} as k, 1 as n`)).orderByRaw(GROUP).limit(1);
      const next = unread().whereRaw(`${GROUP} > g.k`).select(knex.raw(GROUP)).orderByRaw(GROUP).limit(1);
      const row = rowsOf(await knex.raw(`with recursive g(k, n) as ((?) union all select (?), g.n + 1 from g where g.k is not null and g.n < ?) select count(k)::int as n from g`, [first, next, UNREAD_COUNT_CAP]))[0];
      return Number(row?.n ?? 0);
    },

    /**
     * Newest first, one row per group: rows sharing a group key (likes of one insight) become the
     * newest of them with groupCount / actorCount, counted after the accounts rule removed the rows
     * of blocked and muted actors (so they are neither named nor counted). The cursor is the id of
     * a group's newest visible row: pages never split or repeat a group.
     */
    async list(userId, { cursor, limit = 20, unread = false }) {
      const size = Math.max(1, Math.min(100, limit));
      const visible = visibleTo(knex('notifications').where({ 'notifications.user_id': userId }), userId).select('notifications.*', knex.raw(`${GROUP} as gk`));
      if (unread) visible.where('notifications.read', false);
      const groups = knex('visible')
        .select('gk')
        .max({ top: 'id' })
        .count({ group_count: '*' })
        .select(knex.raw('count(distinct actor_id) as actor_count'), knex.raw('bool_and(read) as all_read'))
        .groupBy('gk');
      const q = knex
        .with('visible', visible)
        .with('grouped', groups)
        .from('grouped')
        .join('visible', 'visible.id', 'grouped.top')
        .select('visible.*', 'grouped.group_count', 'grouped.actor_count', 'grouped.all_read');
      if (cursor && /^\d{1,19}$/.test(cursor)) q.where('grouped.top', '<', cursor);
      const rows = await q.orderBy('grouped.top', 'desc').limit(size + 1);
      const more = rows.length > size;
      const items = rows.slice(0, size).map((r: any) => ({ ...toItem({ ...r, read: r.all_read }) }));
      return { items, nextCursor: more ? String(items[items.length - 1].id) : null };
    },

    /**
     * Marks one row read and, for a group's row, the older rows of its group (what the inbox showed
     * as one; a hidden row of a muted member stays as it was).
     */
    async markRead(userId, id) {
      const rows = await knex('notifications')
        .where({ user_id: userId })
        .where((w) =>
          w.where({ id }).orWhere((g) =>
            g.where('id', '<', id).whereRaw('group_key = (select n2.group_key from notifications n2 where n2.id = ? and n2.user_id = ?)', [id, userId]),
          ),
        )
        .update({ read: true, read_at: knex.raw('coalesce(read_at, now())') })
        .returning('*');
      const row = rows.find((r: any) => Number(r.id) === Number(id));
      return row ? toItem(row) : null;
    },

    async markAllRead(userId) {
      // (knex-pglite answers a raw result for update counts; returning works on both drivers)
      const rows = await knex('notifications').where({ user_id: userId, read: false }).update({ read: true, read_at: knex.fn.now() }).returning('id');
      return rows.length;
    },
  };

  return { api, deliver, runFanout };
}
