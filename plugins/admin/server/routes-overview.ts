import { Deps } from './deps.ts';
import { monthlyRevenueCents } from './monetization.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `admin/${n}` });

export function registerOverviewRoutes(d: Deps) {
  const { ctx, knex } = d;

  ctx.routes.add<unknown, { page: number; pageSize: number; action?: string; targetType?: string; targetId?: number; adminId?: number }>({
    method: 'GET',
    path: '/api/admin/actions/all',
    operationId: 'adminListActions',
    summary: 'The audit log: every admin action, newest first, page-numbered',
    roles: ADMIN,
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 },
          pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
          action: { type: 'string', maxLength: 64 },
          targetType: { type: 'string', maxLength: 32 },
          targetId: { type: 'integer', minimum: 0 },
          adminId: { type: 'integer', minimum: 1, maximum: 2147483647 },
        },
      },
      response: ref('AdminActionPage'),
    },
    handler: (c) => d.audit.list(d.accounts(), c.input.query),
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/admin/analytics/overview',
    operationId: 'adminAnalyticsOverview',
    summary:
      'Metric/value pairs: total_users, total_museums, daily_active_users (members who made a request in the last 24 hours), monthly_revenue (USD cents of plans in effect this month)',
    roles: ADMIN,
    schema: { response: { type: 'array', items: ref('Metric') } },
    async handler() {
      const [users, museums, [{ n: dau }], revenue] = await Promise.all([
        d.accounts().countUsers(),
        d.museums().countMuseums(),
        knex('admin_user_activity').where('last_seen_at', '>', knex.raw(`now() - interval '24 hours'`)).count({ n: '*' }),
        monthlyRevenueCents(knex, 'USD'),
      ]);
      return [
        { metric: 'total_users', value: Number(users) },
        { metric: 'total_museums', value: Number(museums) },
        { metric: 'daily_active_users', value: Number(dau) },
        { metric: 'monthly_revenue', value: Number(revenue) },
      ];
    },
  });
}
