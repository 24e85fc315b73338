import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { AccountsService, type UserSummary } from '../../accounts/public.ts';
import { AdminActionsService, type ModerationType } from '../../admin/public.ts';
import type { ReportCategory, ReportTargetSnapshot, ReportTargetType } from '../public.ts';
import { MESSAGES, iso, isoOrNull, parseJson, type Describers, type ReportStatus, type ReportStore, type Resolution } from './store.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `reports/${n}` });
const ERR = { $ref: 'shared/Error' };

type Action = 'dismiss' | 'remove_content' | 'warn' | 'restrict' | 'temporary_ban' | 'permanent_ban';

const MODERATION: Partial<Record<Action, { type: ModerationType; resolution: Resolution }>> = {
  warn: { type: 'warning', resolution: 'warned' },
  restrict: { type: 'content_restriction', resolution: 'restricted' },
  temporary_ban: { type: 'temporary_ban', resolution: 'temporarily_banned' },
  permanent_ban: { type: 'permanent_ban', resolution: 'permanently_banned' },
};

/** Audit log action names of the queue's own decisions (moderations keep the admin plugin's names). */
export const REPORT_ACTIONS = { dismiss: 'dismiss_reports', removeContent: 'remove_reported_content' } as const;

const summary = (u: UserSummary | undefined | null) =>
  u ? { id: u.id, slug: u.slug, username: u.username, firstName: u.firstName, lastName: u.lastName, profileImageUrl: u.profileImageUrl, role: u.role } : null;

export function registerAdminRoutes(ctx: PluginContext, store: ReportStore, describers: Describers) {
  const knex = ctx.db;
  const actions = () => {
    const a = ctx.enabled.has('admin') ? ctx.services.maybe(AdminActionsService) : undefined;
    if (!a) throw new HttpError(404, 'The admin dashboard is not enabled');
    return a;
  };
  const accounts = () => ctx.services.get(AccountsService);

  ctx.routes.add<unknown, { status: ReportStatus | 'all'; category?: ReportCategory; targetType?: ReportTargetType; page: number; pageSize: number }>({
    method: 'GET',
    path: '/api/admin/reports',
    operationId: 'adminListReports',
    summary: 'The report queue: one row per reported target and status (reporter count, categories, notes, the content as reported), oldest open first',
    roles: ADMIN,
    schema: { query: ref('AdminReportQuery'), response: ref('AdminReportPage') },
    async handler(c) {
      const q = c.input.query;
      const filtered = knex('reports');
      if (q.status !== 'all') filtered.where('status', q.status);
      if (q.category) filtered.where('category', q.category);
      if (q.targetType) filtered.where('target_type', q.targetType);
      // A case: the reports of one status on one target.
      const cases = filtered
        .clone()
        .groupBy('target_type', 'target_id', 'status')
        .select('target_type', 'target_id', 'status')
        .min({ id: 'id' })
        .min({ first_at: 'created_at' })
        .max({ last_at: 'created_at' })
        .max({ resolved_at: 'resolved_at' })
        .countDistinct({ reporters: 'reporter_id' });
      const [{ n }] = await knex.from(cases.clone().as('c')).count({ n: '*' });
      const order = q.status === 'open' ? 'asc' : 'desc';
      const page: any[] = await cases.orderBy([{ column: 'first_at', order }, { column: 'id', order }]).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
      if (!page.length) return { items: [], total: Number(n), page: q.page, pageSize: q.pageSize };

      // Every report of these cases (the queue's filters apply: categories and notes of what matched).
      const members = await filtered
        .clone()
        .where((w) => {
          for (const p of page) w.orWhere({ target_type: p.target_type, target_id: p.target_id, status: p.status });
        })
        .orderBy('id')
        .select('id', 'target_type', 'target_id', 'status', 'category', 'note', 'reporter_id', 'resolution', 'snapshot');
      const key = (r: any) => `${r.target_type}:${r.target_id}:${r.status}`;
      const byCase = new Map<string, any[]>();
      for (const r of members) byCase.set(key(r), [...(byCase.get(key(r)) ?? []), r]);
      const snaps = new Map<string, ReportTargetSnapshot>();
      for (const [k, rs] of byCase) snaps.set(k, parseJson<ReportTargetSnapshot>(rs[0].snapshot) ?? { ownerId: null });
      const people = await accounts().getUserSummaries([
        ...new Set([...members.filter((r) => r.note).map((r) => r.reporter_id), ...[...snaps.values()].map((s) => s.ownerId).filter((x): x is number => x != null)]),
      ]);
      return {
        items: page.map((p: any) => {
          const rs = byCase.get(key(p)) ?? [];
          const snap = snaps.get(key(p)) ?? { ownerId: null };
          return {
            id: Number(p.id),
            targetType: p.target_type,
            targetId: p.target_id,
            status: p.status,
            resolution: rs.find((r) => r.resolution)?.resolution ?? null,
            reporterCount: Number(p.reporters),
            categories: [...new Set(rs.map((r) => r.category))],
            notes: rs.filter((r) => r.note).slice(0, 20).map((r) => ({ note: r.note, reporter: summary(people.get(r.reporter_id)) })),
            snapshot: { title: snap.title ?? null, text: snap.text ?? null, link: snap.link ?? null, mediaUrl: snap.mediaUrl ?? null, owner: summary(snap.ownerId != null ? people.get(snap.ownerId) : null) },
            canRemove: Boolean(describers.get(p.target_type)?.remove),
            firstReportedAt: iso(p.first_at),
            lastReportedAt: iso(p.last_at),
            resolvedAt: isoOrNull(p.resolved_at),
          };
        }),
        total: Number(n),
        page: q.page,
        pageSize: q.pageSize,
      };
    },
  });

  ctx.routes.add<{ id: number }, unknown, { action: Action; reason?: string | null; expiresAt?: string | null }>({
    method: 'POST',
    path: '/api/admin/reports/:id/action',
    operationId: 'adminActOnReport',
    summary: "Act on a report and every open report on the same target: dismiss, remove the content (its owner's delete), warn, restrict or ban its author; audited",
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, body: ref('ReportActionBody'), response: { 200: ref('ReportActionResult'), 404: ERR, 409: ERR } },
    async handler(c) {
      const me = { id: c.user!.id, username: c.user!.username };
      const { action } = c.input.body;
      const reason = c.input.body.reason?.trim() || null;
      const id = c.input.params.id;
      const mod = MODERATION[action];
      if (mod && !reason) throw new HttpError(400, MESSAGES.reasonRequired, { errors: [{ path: '/reason', message: MESSAGES.reasonRequired }] });

      actions();
      const peek = await knex('reports').where({ id }).first('target_type', 'target_id', 'target_owner_id');
      if (!peek) throw new HttpError(404, MESSAGES.reportNotFound);
      const describer = describers.get(peek.target_type);
      if (action === 'remove_content' && !describer?.remove) throw new HttpError(409, MESSAGES.cannotRemove);
      if (mod && peek.target_owner_id == null) throw new HttpError(409, MESSAGES.noOwner);
      if (mod && peek.target_owner_id === me.id) throw new HttpError(400, 'You cannot moderate yourself');

      if (action === 'remove_content') {
        // The owner's delete emits its event; our listener resolves the open reports ('content_removed')
        // and tells the reporters. Then the Admin is recorded on them.
        const started = await knex.raw('select now() as t');
        const since = (started.rows ?? started)[0].t;
        const removed = await actions().audited(
          me,
          { action: REPORT_ACTIONS.removeContent, targetType: peek.target_type, targetId: peek.target_id, reason, details: { reportId: id } },
          () => describer!.remove!(peek.target_id, { ...me, role: c.user!.role }),
        );
        // Removed already (or by someone else meanwhile): the open reports still close.
        const n = removed ? 0 : await store.contentRemoved(peek.target_type, peek.target_id);
        const rows = await knex('reports')
          .where({ target_type: peek.target_type, target_id: peek.target_id, resolution: 'content_removed' })
          .whereNull('resolved_by')
          .where('resolved_at', '>=', since)
          .update({ resolved_by: me.id })
          .returning('id');
        return { resolved: Math.max(rows.length, n), status: 'resolved', resolution: 'content_removed' };
      }

      const status: ReportStatus = action === 'dismiss' ? 'dismissed' : 'resolved';
      const resolution: Resolution = action === 'dismiss' ? 'dismissed' : mod!.resolution;
      // Reserve first: a second Admin acting on the same target meanwhile gets 409 and does nothing.
      const claimed = await store.claim(id, status, resolution, me.id);
      const ids = claimed.rows.map((r) => Number(r.id));
      try {
        if (action === 'dismiss') {
          await actions().audited(
            me,
            { action: REPORT_ACTIONS.dismiss, targetType: peek.target_type, targetId: peek.target_id, reason, details: { reportIds: ids } },
            async () => undefined,
          );
        } else {
          await actions().moderateUser(me, {
            userId: peek.target_owner_id,
            type: mod!.type,
            reason: reason!,
            expiresAt: c.input.body.expiresAt ?? null,
            details: { reportIds: ids, reportedType: peek.target_type, reportedId: peek.target_id },
          });
        }
      } catch (err) {
        await store.reopen(ids);
        throw err;
      }
      await store.tellReporters(claimed.rows);
      await ctx.events.emit('reports.report.resolved', { reportIds: ids, resolution, adminId: me.id });
      return { resolved: ids.length, status, resolution };
    },
  });
}
