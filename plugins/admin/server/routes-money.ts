import { HttpError } from '../../../core/errors.ts';
import { ACTIONS } from '../shared/actions.ts';
import { Deps } from './deps.ts';
import { effectiveStatus, planRow, revenueStats, toPlan, type PlanInput } from './monetization.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `admin/${n}` });
const PLAN_NOT_FOUND = 'Plan not found';

export function registerMoneyRoutes(d: Deps) {
  const { ctx, knex } = d;

  /** Plan answers with their member (name, email, role) or museum (name, city, country). */
  async function present(rows: any[]) {
    const userIds = [...new Set(rows.map((r) => r.user_id).filter((x) => x != null))] as number[];
    const museumIds = [...new Set(rows.map((r) => r.museum_id).filter((x) => x != null))] as number[];
    const people = new Map<number, any>();
    const accounts = d.accounts();
    for (const id of userIds) {
      const u = await accounts.findUser(id);
      if (u) people.set(id, u);
    }
    const museums = museumIds.length ? await d.museums().getMuseumSummaries(museumIds) : new Map();
    return rows.map((r) => toPlan(r, people, museums));
  }

  ctx.routes.add<unknown, { page: number; pageSize: number; status?: string; type?: string }>({
    method: 'GET',
    path: '/api/admin/monetization',
    operationId: 'adminListPlans',
    summary: 'Monetization plans, newest first',
    roles: ADMIN,
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
          pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          status: { type: 'string', enum: ['active', 'inactive', 'expired'] },
          type: { type: 'string', enum: ['premium_subscription', 'museum_partnership', 'event_promotion', 'advertisement'] },
        },
      },
      response: ref('MonetizationPlanPage'),
    },
    async handler(c) {
      const q = c.input.query;
      const base = knex('admin_monetization_plans');
      if (q.type) base.where('type', q.type);
      if (q.status === 'active') base.where('status', 'active').where((w) => w.whereNull('end_date').orWhere('end_date', '>', knex.fn.now()));
      if (q.status === 'inactive') base.where('status', 'inactive');
      if (q.status === 'expired') base.where((w) => w.where('status', 'expired').orWhere((x) => x.where('status', 'active').where('end_date', '<=', knex.fn.now())));
      const [{ n }] = await base.clone().count({ n: '*' });
      const rows = await base.clone().select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(q.pageSize).offset((q.page - 1) * q.pageSize);
      return { items: await present(rows), total: Number(n), page: q.page, pageSize: q.pageSize };
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/admin/monetization/stats',
    operationId: 'adminRevenueStats',
    summary: 'Revenue per currency: sum of active plans, mean amount over all plans',
    roles: ADMIN,
    schema: { response: ref('RevenueStats') },
    handler: () => revenueStats(knex),
  });

  ctx.routes.add<unknown, unknown, PlanInput>({
    method: 'POST',
    path: '/api/admin/monetization',
    operationId: 'adminCreatePlan',
    summary: 'Create a monetization plan (features follow the §9 rules of its type and tier)',
    roles: ADMIN,
    status: 201,
    schema: { body: ref('CreatePlanBody'), response: { 201: ref('MonetizationPlan') } },
    async handler(c) {
      const me = d.admin(c);
      const b = c.input.body;
      const values = planRow(b);
      if (b.userId != null && !(await d.accounts().getUserSummary(b.userId))) throw new HttpError(404, 'User not found');
      if (b.museumId != null && !(await d.museums().getMuseum(b.museumId))) throw new HttpError(404, 'Museum not found');
      const row = await knex.transaction(async (trx) => {
        const [p] = await trx('admin_monetization_plans').insert({ ...values, created_by: me.id }).returning('*');
        await d.audit.record(trx, {
          action: ACTIONS.createPlan,
          targetType: 'monetization_plan',
          targetId: Number(p.id),
          details: { type: p.type, plan: p.plan, amountCents: Number(p.amount_cents), currency: p.currency, status: p.status, userId: p.user_id, museumId: p.museum_id },
          admin: me,
        });
        return p;
      });
      return (await present([row]))[0];
    },
  });

  ctx.routes.add<{ id: number }, unknown, { status: 'active' | 'inactive' }>({
    method: 'PATCH',
    path: '/api/admin/monetization/:id',
    operationId: 'adminUpdatePlanStatus',
    summary: 'Activate or deactivate a plan (status only); activating an expired plan starts a new period from now',
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, body: ref('UpdatePlanStatusBody'), response: ref('MonetizationPlan') },
    async handler(c) {
      const me = d.admin(c);
      const id = c.input.params.id;
      const next = c.input.body.status;
      const row = await knex.transaction(async (trx) => {
        const p = await trx('admin_monetization_plans').where({ id }).forUpdate().first();
        if (!p) throw new HttpError(404, PLAN_NOT_FOUND);
        const current = effectiveStatus(p);
        if (current === next) throw new HttpError(409, `The plan is already ${next}`);
        const update: Record<string, unknown> = { status: next, updated_at: trx.fn.now() };
        if (next === 'active' && current === 'expired') {
          update.start_date = trx.fn.now();
          update.end_date = null;
        }
        const [u] = await trx('admin_monetization_plans').where({ id }).update(update).returning('*');
        await d.audit.record(trx, {
          action: next === 'active' ? ACTIONS.activatePlan : ACTIONS.deactivatePlan,
          targetType: 'monetization_plan',
          targetId: id,
          details: { before: { status: current }, after: { status: next }, type: p.type, plan: p.plan },
          admin: me,
        });
        return u;
      });
      return (await present([row]))[0];
    },
  });
}
