import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { fromCents, planFeatures, toCents, type PlanTier, type PlanType, CURRENCIES } from '../shared/monetization.ts';
import { iso, isoOrNull } from './moderation.ts';

/** A plan is in effect when active and its end date (if any) has not passed; an active plan past its end reads expired. */
export function effectiveStatus(r: any, now = Date.now()): 'active' | 'inactive' | 'expired' {
  if (r.status === 'active' && r.end_date && new Date(r.end_date).getTime() <= now) return 'expired';
  return r.status;
}

export function toPlan(r: any, people: Map<number, any>, museums: Map<number, any>) {
  const u = r.user_id != null ? people.get(r.user_id) : undefined;
  const m = r.museum_id != null ? museums.get(r.museum_id) : undefined;
  return {
    id: Number(r.id),
    type: r.type,
    plan: r.plan,
    amount: fromCents(Number(r.amount_cents)),
    currency: r.currency,
    status: effectiveStatus(r),
    features: typeof r.features === 'string' ? JSON.parse(r.features) : (r.features ?? {}),
    startDate: iso(r.start_date),
    endDate: isoOrNull(r.end_date),
    createdAt: iso(r.created_at),
    userId: r.user_id ?? null,
    museumId: r.museum_id ?? null,
    user: u ? { id: u.id, firstName: u.firstName ?? '', lastName: u.lastName ?? '', email: u.email ?? '', role: u.role } : null,
    museum: m ? { id: m.id, name: m.name, city: m.city ?? '', country: m.country ?? '' } : null,
  };
}

export interface PlanInput {
  type: PlanType;
  plan: PlanTier;
  amount: number;
  currency: string;
  features?: Record<string, boolean>;
  status?: 'active' | 'inactive';
  startDate?: string | null;
  endDate?: string | null;
  userId?: number | null;
  museumId?: number | null;
}

function parseDate(v: string | null | undefined, label: string): Date | null {
  if (v == null || v === '') return null;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new HttpError(400, `${label} is not a valid date`);
  return d;
}

/** Validates and turns an API plan into a row (amount → cents, features by the §9 rules). */
export function planRow(input: PlanInput) {
  const cents = toCents(input.amount);
  if (cents === null) throw new HttpError(400, 'Amount must have at most 2 decimal places', { errors: [{ path: '/amount', message: 'Amount must have at most 2 decimal places' }] });
  if (!(CURRENCIES as readonly string[]).includes(input.currency)) throw new HttpError(400, 'Currency must be USD, EUR or GBP');
  const start = parseDate(input.startDate, 'Start date') ?? new Date();
  const end = parseDate(input.endDate, 'End date');
  if (end && end.getTime() <= start.getTime()) throw new HttpError(400, 'End date must be after the start date');
  return {
    type: input.type,
    plan: input.plan,
    amount_cents: cents,
    currency: input.currency,
    status: input.status ?? 'active',
    features: JSON.stringify(planFeatures(input.type, input.plan, input.features ?? null)),
    start_date: start,
    end_date: end,
    user_id: input.userId ?? null,
    museum_id: input.museumId ?? null,
  };
}

/** SQL for "in effect now" on admin_monetization_plans. */
export function activeNow(q: Knex.QueryBuilder, knex: Knex) {
  return q.where('status', 'active').where((w) => w.whereNull('end_date').orWhere('end_date', '>', knex.fn.now()));
}

/** §9: per currency, the sum of active plans and the mean over all plans (decimals). */
export async function revenueStats(knex: Knex) {
  const rows = await knex('admin_monetization_plans')
    .select('currency')
    .count({ total: '*' })
    .select(
      knex.raw(`coalesce(sum(amount_cents) filter (where status = 'active' and (end_date is null or end_date > now())), 0)::bigint as active_cents`),
      knex.raw(`count(*) filter (where status = 'active' and (end_date is null or end_date > now()))::int as active_count`),
      knex.raw('coalesce(avg(amount_cents), 0)::float8 as avg_cents'),
    )
    .groupBy('currency')
    .orderBy('currency');
  const currencies = rows.map((r: any) => ({
    currency: r.currency,
    activeRevenue: fromCents(Number(r.active_cents)),
    averageRevenue: Math.round(Number(r.avg_cents)) / 100,
    activePlans: Number(r.active_count),
    totalPlans: Number(r.total),
  }));
  return {
    currencies,
    totalPlans: currencies.reduce((s, c) => s + c.totalPlans, 0),
    activePlans: currencies.reduce((s, c) => s + c.activePlans, 0),
  };
}

/**
 * Revenue of this calendar month (UTC) in USD cents: monthly plans (every type but event
 * promotion) in effect now, plus event promotions in effect that started this month (they are
 * paid per event, once). Other currencies are not converted (no exchange rates): they appear in
 * the per-currency statistics of the Monetization tab.
 */
export async function monthlyRevenueCents(knex: Knex, currency = 'USD'): Promise<number> {
  const [r] = await knex('admin_monetization_plans')
    .where('currency', currency)
    .where('status', 'active')
    .where((w) => w.whereNull('end_date').orWhere('end_date', '>', knex.fn.now()))
    .where((w) => w.whereNot('type', 'event_promotion').orWhere('start_date', '>=', knex.raw(`date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`)))
    .sum({ cents: 'amount_cents' });
  return Number(r?.cents ?? 0);
}
