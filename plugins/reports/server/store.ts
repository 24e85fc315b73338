import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HttpError } from '../../../core/errors.ts';
import type { NotificationsApi } from '../../notifications/public.ts';
import type { ReportCategory, ReportTargetDescriber, ReportTargetSnapshot, ReportTargetType } from '../public.ts';
import { englishTexts } from '../../../core/texts.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** English text of one of our locale keys with {{param}} interpolation (stored notification text; the web app localizes by template). */
export const english = englishTexts(path.join(HERE, '..', 'locales'), 'reports');

export type ReportStatus = 'open' | 'resolved' | 'dismissed';
export type Resolution = 'dismissed' | 'content_removed' | 'warned' | 'restricted' | 'temporarily_banned' | 'permanently_banned';

export const MESSAGES = {
  duplicate: 'You have already reported this. We will let you know when it has been reviewed.',
  notFound: 'Not found',
  ownContent: 'You cannot report yourself or your own content.',
  reportNotFound: 'Report not found',
  alreadyClosed: 'These reports have already been handled.',
  cannotRemove: 'This content cannot be removed from here.',
  noOwner: 'No member to act on for this content.',
  reasonRequired: 'Reason is required',
};

export const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());
export const isoOrNull = (d: unknown): string | null => (d == null ? null : iso(d));

const clip = (s: unknown, n: number): string | null => (typeof s === 'string' && s.length ? s.slice(0, n) : null);

/** Keeps only the snapshot's known fields, with bounded sizes. */
export function cleanSnapshot(s: ReportTargetSnapshot | null): ReportTargetSnapshot {
  if (!s) return { ownerId: null };
  return {
    ownerId: Number.isInteger(s.ownerId) ? s.ownerId : null,
    title: clip(s.title, 300),
    text: clip(s.text, 5000),
    link: typeof s.link === 'string' && s.link.startsWith('/') ? s.link.slice(0, 500) : null,
    mediaUrl: clip(s.mediaUrl, 1000),
    container: s.container && Number.isInteger(s.container.id) ? { type: s.container.type, id: s.container.id } : null,
  };
}

export function parseJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

/** One member's report as they see it. */
export function toMine(r: any) {
  const snap = parseJson<ReportTargetSnapshot>(r.snapshot) ?? { ownerId: null };
  return {
    id: Number(r.id),
    targetType: r.target_type,
    targetId: r.target_id,
    category: r.category,
    note: r.note ?? null,
    status: r.status,
    resolution: r.resolution ?? null,
    title: snap.title ?? (snap.text ? snap.text.slice(0, 120) : null),
    link: snap.link ?? null,
    createdAt: iso(r.created_at),
    resolvedAt: isoOrNull(r.resolved_at),
  };
}

export class Describers {
  private map = new Map<ReportTargetType, ReportTargetDescriber>();
  register(type: ReportTargetType, d: ReportTargetDescriber) {
    if (this.map.has(type)) throw new Error(`A report describer for '${type}' is registered twice`);
    this.map.set(type, d);
  }
  get(type: ReportTargetType): ReportTargetDescriber | undefined {
    return this.map.get(type);
  }
}

/**
 * Counts one report of `userId` against the throttle, in the caller's transaction and in one
 * statement (an upsert takes the row lock, so concurrent reports, in any process, count one after
 * the other): answers false when the member is over `limit` in the current window.
 */
export async function takeThrottle(trx: Knex.Transaction, userId: number, limit: number, windowSeconds: number): Promise<boolean> {
  const r = await trx.raw(
    `insert into reports_throttle (user_id, window_start, count) values (?, now(), 1)
     on conflict (user_id) do update set
       count = case when reports_throttle.window_start <= now() - (?::int * interval '1 second') then 1 else reports_throttle.count + 1 end,
       window_start = case when reports_throttle.window_start <= now() - (?::int * interval '1 second') then now() else reports_throttle.window_start end
     returning count`,
    [userId, windowSeconds, windowSeconds],
  );
  const rows = r.rows ?? r;
  return Number(rows[0].count) <= limit;
}

export function createReportStore(knex: Knex, log: Logger, notifications: () => NotificationsApi | undefined) {
  /** Tells reporters how their reports ended (one notification per report, in their language by template). */
  async function tellReporters(rows: Array<{ id: number | string; reporter_id: number; target_type: string; resolution: string | null; status: string }>) {
    const svc = notifications();
    if (!svc) return;
    for (const r of rows) {
      const key = r.status === 'dismissed' ? 'dismissed' : 'resolved';
      try {
        await svc.notify([r.reporter_id], {
          type: 'report',
          title: english(`notification.${key}.title`),
          message: english(`notification.${key}.message`),
          link: '/reports/mine',
          template: `reports:notification.${key}`,
          dedupeKey: `report:${r.id}`,
        });
      } catch (err) {
        log.error({ err, reportId: r.id }, 'could not tell a reporter their report was handled');
      }
    }
  }

  return {
    tellReporters,

    /** Open reports on the target (or inside it, e.g. comments of a deleted insight) become resolved 'content_removed'. */
    async contentRemoved(type: ReportTargetType, id: number | number[]): Promise<number> {
      const ids = [...new Set((Array.isArray(id) ? id : [id]).map(Number).filter((n) => Number.isInteger(n) && n > 0))];
      if (!ids.length) return 0;
      const rows = await knex('reports')
        .where('status', 'open')
        .where((w) =>
          w.where((x) => x.where({ target_type: type }).whereIn('target_id', ids)).orWhere((x) => x.where({ container_type: type }).whereIn('container_id', ids)),
        )
        .update({ status: 'resolved', resolution: 'content_removed', resolved_at: knex.fn.now() })
        .returning(['id', 'reporter_id', 'target_type', 'resolution', 'status']);
      await tellReporters(rows);
      return rows.length;
    },

    /** Open reports on content owned by a deleted account (it went with the account) become resolved 'content_removed'. */
    async ownerRemoved(userId: number): Promise<number> {
      const rows = await knex('reports')
        .where('status', 'open')
        .where('target_owner_id', userId)
        // what a member writes goes with their account; a meetup may outlive its organizer (its own event resolves it)
        .whereIn('target_type', ['user', 'insight', 'comment', 'community_post', 'community_comment', 'message'])
        .update({ status: 'resolved', resolution: 'content_removed', resolved_at: knex.fn.now() })
        .returning(['id', 'reporter_id', 'target_type', 'resolution', 'status']);
      await tellReporters(rows);
      return rows.length;
    },

    /**
     * Reserve-then-act: closes every open report on the target of report `id` in one statement, so two
     * Admins acting at once cannot both act (the second gets 409). Answers the closed rows; `reopen`
     * puts them back when the action then fails.
     */
    async claim(id: number, status: ReportStatus, resolution: Resolution, adminId: number) {
      const first = await knex('reports').where({ id }).first('target_type', 'target_id', 'target_owner_id', 'snapshot', 'status');
      if (!first) throw new HttpError(404, MESSAGES.reportNotFound);
      const rows = await knex('reports')
        .where({ target_type: first.target_type, target_id: first.target_id, status: 'open' })
        .update({ status, resolution, resolved_by: adminId, resolved_at: knex.fn.now() })
        .returning(['id', 'reporter_id', 'target_type', 'resolution', 'status']);
      if (!rows.length) throw new HttpError(409, MESSAGES.alreadyClosed);
      return { target: first, rows };
    },

    async reopen(ids: number[]) {
      if (!ids.length) return;
      await knex('reports').whereIn('id', ids).update({ status: 'open', resolution: null, resolved_by: null, resolved_at: null });
    },

    async create(
      reporterId: number,
      input: { targetType: ReportTargetType; targetId: number; category: ReportCategory; note: string | null },
      snapshot: ReportTargetSnapshot,
      limits: { perWindow: number; windowSeconds: number },
    ) {
      return knex
        .transaction(async (trx) => {
          if (!(await takeThrottle(trx, reporterId, limits.perWindow, limits.windowSeconds))) {
            throw new HttpError(429, 'You have sent many reports in a short time. Please try again later.');
          }
          const [row] = await trx('reports')
            .insert({
              reporter_id: reporterId,
              target_type: input.targetType,
              target_id: input.targetId,
              target_owner_id: snapshot.ownerId,
              container_type: snapshot.container?.type ?? null,
              container_id: snapshot.container?.id ?? null,
              category: input.category,
              note: input.note,
              snapshot: JSON.stringify(snapshot),
            })
            .returning('*');
          return row;
        })
        .catch((e) => {
          if (e?.code === '23505') throw new HttpError(409, MESSAGES.duplicate);
          throw e;
        });
    },
  };
}

export type ReportStore = ReturnType<typeof createReportStore>;
