import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { decodeCursor, encodeCursor } from '../../../core/util.ts';
import type { ReportCategory, ReportTargetType } from '../public.ts';
import { MESSAGES, cleanSnapshot, toMine, type Describers, type ReportStore } from './store.ts';

const ref = (n: string) => ({ $ref: `reports/${n}` });
const ERR = { $ref: 'shared/Error' };

export function registerMemberRoutes(ctx: PluginContext, store: ReportStore, describers: Describers) {
  const knex = ctx.db;
  const limits = { perWindow: Number(ctx.config.perWindow ?? 20), windowSeconds: Number(ctx.config.windowSeconds ?? 3600) };

  ctx.routes.add<unknown, unknown, { targetType: ReportTargetType; targetId: number; category: ReportCategory; note?: string | null }>({
    method: 'POST',
    path: '/api/reports',
    operationId: 'createReport',
    summary: 'Report an insight, a comment, a member, a community post or comment, a meetup or a message (one open report per reporter and target)',
    auth: 'required',
    status: 201,
    schema: { body: ref('CreateReportBody'), response: { 201: ref('MyReport'), 404: ERR, 409: ERR, 429: ERR } },
    async handler(c) {
      const me = c.user!;
      const b = c.input.body;
      const describer = describers.get(b.targetType);
      let snapshot = cleanSnapshot(null);
      if (describer) {
        // The reporter can only report what they may see: anything else is answered like a missing object.
        const s = await describer.describe(b.targetId, me);
        if (!s) throw new HttpError(404, MESSAGES.notFound);
        snapshot = cleanSnapshot(s);
        if (snapshot.ownerId === me.id) throw new HttpError(400, MESSAGES.ownContent);
      }
      const note = b.note?.trim() || null;
      const row = await store.create(me.id, { targetType: b.targetType, targetId: b.targetId, category: b.category, note }, snapshot, limits);
      return toMine(row);
    },
  });

  ctx.routes.add<unknown, { cursor?: string; limit: number }>({
    method: 'GET',
    path: '/api/reports/mine',
    operationId: 'listMyReports',
    summary: "The signed-in member's reports and how they stand, newest first (cursor-paged)",
    auth: 'required',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { cursor: { type: 'string', maxLength: 100 }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      },
      response: ref('ReportPage'),
    },
    async handler(c) {
      const q = c.input.query;
      const cur = q.cursor ? decodeCursor<{ id: number }>(q.cursor, (v) => Number.isInteger(v?.id) && v.id > 0) : null;
      if (q.cursor && !cur) throw new HttpError(400, 'Invalid cursor');
      const base = knex('reports').where('reporter_id', c.user!.id);
      if (cur) base.where('id', '<', cur.id);
      const rows = await base.orderBy('id', 'desc').limit(q.limit + 1);
      const more = rows.length > q.limit;
      const items = rows.slice(0, q.limit);
      return { items: items.map(toMine), nextCursor: more ? encodeCursor({ id: Number(items[items.length - 1].id) }) : null };
    },
  });
}
