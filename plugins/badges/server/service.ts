import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { HttpError } from '../../../core/errors.ts';
import type { FieldError } from '../../../core/shared/validation-messages.ts';
import type { AccountsApi } from '../../accounts/public.ts';
import type { Badge, BadgeInput, BadgesApi, BadgeStats, EarnedBadge, UserBadge } from '../public.ts';
import { REQUIREMENT_TYPES, iconProblem, type RequirementType } from '../shared/badge-rules.ts';

export const RETRO_JOB = 'badges.awardRetroactive';
export const NAME_TAKEN = 'A badge with this name already exists';
export const BADGE_NOT_FOUND = 'Badge not found';

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const intArray = (ids: number[]) => `{${ids.map((i) => Math.trunc(Number(i))).join(',')}}`;

function rowsOf(r: any): any[] {
  return Array.isArray(r) ? r : (r?.rows ?? []);
}

export function toBadge(r: any): Badge {
  return {
    id: Number(r.id),
    name: r.name,
    description: r.description,
    icon: r.icon,
    color: r.color,
    requirement: { type: r.requirement_type, count: Number(r.requirement_count) },
    earnedCount: Number(r.earned_count ?? 0),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

function badgeDetails(r: any) {
  return {
    id: Number(r.badge_id),
    name: r.name,
    description: r.description,
    icon: r.icon,
    color: r.color,
    requirement: { type: r.requirement_type as RequirementType, count: Number(r.requirement_count) },
  };
}

/** Trims and checks a badge definition; throws 400 with per-field errors (same texts as the admin form). */
export function normalizeInput(input: Partial<BadgeInput> | undefined): BadgeInput {
  const errors: FieldError[] = [];
  const name = String(input?.name ?? '').trim();
  const description = String(input?.description ?? '').trim();
  const icon = String(input?.icon ?? '').trim();
  let color = String(input?.color ?? '').trim();
  const type = input?.requirement?.type as RequirementType;
  const count = Number(input?.requirement?.count);
  if (!name) errors.push({ path: '/name', message: 'Name is required' });
  else if (name.length > 100) errors.push({ path: '/name', message: 'Name must be at most 100 characters' });
  if (!description) errors.push({ path: '/description', message: 'Description is required' });
  else if (description.length > 500) errors.push({ path: '/description', message: 'Description must be at most 500 characters' });
  const iconMsg = iconProblem(icon);
  if (iconMsg) errors.push({ path: '/icon', message: iconMsg });
  if (/^#[0-9a-f]{3}$/i.test(color)) color = `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}`;
  if (!color) errors.push({ path: '/color', message: 'Color is required' });
  else if (!/^#[0-9a-f]{6}$/i.test(color)) errors.push({ path: '/color', message: 'Color must be a hex colour such as #3B82F6' });
  if (!REQUIREMENT_TYPES.includes(type)) errors.push({ path: '/requirement/type', message: `Requirement type must be one of: ${REQUIREMENT_TYPES.join(', ')}` });
  if (!Number.isInteger(count) || count < 1) errors.push({ path: '/requirement/count', message: 'Requirement count must be at least 1' });
  else if (count > 1_000_000) errors.push({ path: '/requirement/count', message: 'Requirement count must be at most 1000000' });
  if (errors.length) throw new HttpError(400, [...new Set(errors.map((e) => e.message))].join(', '), { errors });
  return { name, description, icon, color: color.toUpperCase(), requirement: { type, count } };
}

export interface BadgesDeps {
  knex: Knex;
  log: Logger;
  accounts: () => AccountsApi | undefined;
  enqueue: (name: string, payload: unknown, opts?: { uniqueKey?: string }) => Promise<unknown>;
  /** after commit, for every award (notification, event) */
  onEarned: (awards: Array<{ userId: number; userBadgeId: number; badge: EarnedBadge; retroactive: boolean }>) => Promise<void>;
  retroBatchSize: number;
}

/** Runs again (up to 4 times) when PostgreSQL picks the statement as a deadlock victim or a serialization failure. */
async function retryTransient<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e: any) {
      if (attempt >= 4 || (e?.code !== '40P01' && e?.code !== '40001')) throw e;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}

export function createBadgesService(deps: BadgesDeps) {
  const { knex } = deps;

  const badgeQuery = (k: Knex | Knex.Transaction = knex) =>
    k('badges as b').select('b.*', k.raw('(select count(*) from user_badges ub where ub.badge_id = b.id)::int as earned_count'));

  async function userNames(ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const acc = deps.accounts();
    if (!acc || !ids.length) return out;
    const map = await acc.getUserSummaries(ids);
    for (const [id, u] of map) out.set(id, `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username);
    return out;
  }

  async function toUserBadges(rows: any[]): Promise<UserBadge[]> {
    const names = await userNames([...new Set(rows.map((r) => Number(r.user_id)))]);
    return rows.map((r) => ({
      id: Number(r.ub_id),
      userId: Number(r.user_id),
      userName: names.get(Number(r.user_id)) ?? `User ${r.user_id}`,
      badgeId: Number(r.badge_id),
      earnedAt: iso(r.earned_at),
      badge: badgeDetails(r),
    }));
  }

  const userBadgeQuery = () =>
    knex('user_badges as ub')
      .join('badges as b', 'b.id', 'ub.badge_id')
      .select('ub.id as ub_id', 'ub.user_id', 'ub.badge_id', 'ub.earned_at', 'b.name', 'b.description', 'b.icon', 'b.color', 'b.requirement_type', 'b.requirement_count');

  async function scheduleRetro(badgeId: number) {
    await deps.enqueue(RETRO_JOB, { badgeId }, { uniqueKey: `${RETRO_JOB}:${badgeId}` });
  }

  /**
   * Counts one fact (idempotent by type+ref) and awards every badge of that type whose count is
   * now reached, in one transaction. Answers the badges earned by this call only.
   */
  async function record(userId: number, type: RequirementType, ref: string, scope: number | null = null): Promise<EarnedBadge[]> {
    // One statement (issue 18: was BEGIN + 3 + COMMIT): the fact, its counter and the awards move
    // together or not at all, and no lock is held between statements. A deadlock or serialization
    // failure against another transaction is retried instead of losing the fact (a verified
    // check-in was once not counted under load: a handler's failure is only logged).
    const awards = await retryTransient(async () =>
      rowsOf(
        await knex.raw(
          `with act as (
             insert into badge_activity (user_id, type, ref, scope) values (?, ?, ?, ?) on conflict do nothing returning user_id
           ), cnt as (
             insert into badge_counters (user_id, type, count) select user_id, ?::varchar, 1 from act
             on conflict (user_id, type) do update set count = badge_counters.count + 1, updated_at = now()
             returning count
           ), ins as (
             insert into user_badges (user_id, badge_id)
             select ?::int, b.id from badges b, cnt where b.requirement_type = ? and b.requirement_count <= cnt.count
             on conflict do nothing
             returning id, badge_id, earned_at
           )
           select ins.id as ub_id, ins.badge_id, ins.earned_at, b.name, b.description, b.icon, b.color
           from ins join badges b on b.id = ins.badge_id order by b.requirement_count, b.id`,
          [userId, type, ref, scope, type, userId, type],
        ),
      ),
    );
    const earned = awards.map((r: any) => ({
      userId,
      userBadgeId: Number(r.ub_id),
      retroactive: false,
      badge: { id: Number(r.badge_id), name: r.name, description: r.description, icon: r.icon, color: r.color, earnedAt: iso(r.earned_at) },
    }));
    if (earned.length) await deps.onEarned(earned);
    return earned.map((e) => e.badge);
  }

  /** Takes back facts (unlike, unfollow, leave, deletion): by ref, or every fact of a scope. */
  async function undo(type: RequirementType, where: { ref: string } | { scope: number }): Promise<number> {
    const cond = 'ref' in where ? 'ref = ?' : 'scope = ?';
    const val = 'ref' in where ? where.ref : where.scope;
    const rows = rowsOf(
      await knex.raw(
        `with del as (delete from badge_activity where type = ? and ${cond} returning user_id),
              agg as (select user_id, count(*)::int as n from del group by user_id),
              upd as (update badge_counters c set count = greatest(c.count - agg.n, 0), updated_at = now()
                      from agg where c.user_id = agg.user_id and c.type = ? returning c.user_id)
         select coalesce((select sum(n) from agg), 0)::int as removed`,
        [type, val, type],
      ),
    );
    return Number(rows[0]?.removed ?? 0);
  }

  /** Retroactive awarding of one badge, in batches of members ordered by id (job handler). */
  async function awardRetroactive(badgeId: number, progress?: (done: number, total: number) => Promise<void>) {
    let cursor = 0;
    let version: string | null = null;
    let awarded = 0;
    for (;;) {
      const b = await knex('badges').where({ id: badgeId }).first();
      if (!b) return { awarded, deleted: true };
      const v = iso(b.updated_at);
      if (version !== null && v !== version) cursor = 0; // edited meanwhile: start over with the new rule
      version = v;
      const ids: number[] = (
        await knex('badge_counters')
          .where({ type: b.requirement_type })
          .where('count', '>=', b.requirement_count)
          .where('user_id', '>', cursor)
          .orderBy('user_id')
          .limit(deps.retroBatchSize)
          .pluck('user_id')
      ).map(Number);
      if (!ids.length) break;
      cursor = ids[ids.length - 1];
      let rows: any[];
      try {
        rows = rowsOf(
          await knex.raw(
            `insert into user_badges (user_id, badge_id) select u, ? from unnest(?::int[]) as u
             on conflict do nothing returning id, user_id, earned_at`,
            [badgeId, intArray(ids)],
          ),
        );
      } catch (e: any) {
        if (e?.code === '23503' && !(await knex('badges').where({ id: badgeId }).first())) return { awarded, deleted: true };
        throw e;
      }
      awarded += rows.length;
      if (rows.length) {
        await deps.onEarned(
          rows.map((r) => ({
            userId: Number(r.user_id),
            userBadgeId: Number(r.id),
            retroactive: true,
            badge: { id: badgeId, name: b.name, description: b.description, icon: b.icon, color: b.color, earnedAt: iso(r.earned_at) },
          })),
        );
      }
      await progress?.(awarded, awarded);
    }
    return { awarded, deleted: false };
  }

  const api: BadgesApi = {
    async listBadges() {
      return (await badgeQuery().orderBy([{ column: 'b.requirement_type' }, { column: 'b.requirement_count' }, { column: 'b.id' }])).map(toBadge);
    },
    async getBadge(id) {
      const r = await badgeQuery().where('b.id', id).first();
      return r ? toBadge(r) : null;
    },
    async createBadge(input) {
      const v = normalizeInput(input);
      const [row] = rowsOf(
        await knex.raw(
          `insert into badges (name, description, icon, color, requirement_type, requirement_count)
           values (?, ?, ?, ?, ?, ?) on conflict (name) do nothing returning id`,
          [v.name, v.description, v.icon, v.color, v.requirement.type, v.requirement.count],
        ),
      );
      if (!row) throw new HttpError(409, NAME_TAKEN);
      await scheduleRetro(Number(row.id));
      return (await api.getBadge(Number(row.id)))!;
    },
    async updateBadge(id, input) {
      const v = normalizeInput(input);
      const before = await knex('badges').where({ id }).first();
      if (!before) return null;
      try {
        const n: unknown[] = await knex('badges')
          .where({ id })
          .update({
            name: v.name,
            description: v.description,
            icon: v.icon,
            color: v.color,
            requirement_type: v.requirement.type,
            requirement_count: v.requirement.count,
            updated_at: knex.fn.now(),
          })
          .returning('id');
        if (!n.length) return null;
      } catch (e: any) {
        if (e?.code === '23505') throw new HttpError(409, NAME_TAKEN);
        throw e;
      }
      // Members who already qualify under an easier or different rule get it now (in the background).
      if (v.requirement.type !== before.requirement_type || v.requirement.count < Number(before.requirement_count)) await scheduleRetro(id);
      return api.getBadge(id);
    },
    async deleteBadge(id) {
      return (await knex('badges').where({ id }).del().returning('id')).length > 0;
    },
    async recentUserBadges(limit = 10) {
      const rows = await userBadgeQuery().orderBy([{ column: 'ub.earned_at', order: 'desc' }, { column: 'ub.id', order: 'desc' }]).limit(Math.max(1, Math.min(100, limit)));
      return toUserBadges(rows);
    },
    async listUserBadges({ page = 1, pageSize = 10, badgeId }) {
      const size = Math.max(1, Math.min(100, pageSize));
      const p = Math.max(1, page);
      const base = () => {
        const q = knex('user_badges as ub');
        if (badgeId) q.where('ub.badge_id', badgeId);
        return q;
      };
      const [{ n }] = await base().count({ n: '*' });
      const q = userBadgeQuery();
      if (badgeId) q.where('ub.badge_id', badgeId);
      const rows = await q.orderBy([{ column: 'ub.earned_at', order: 'desc' }, { column: 'ub.id', order: 'desc' }]).limit(size).offset((p - 1) * size);
      return { items: await toUserBadges(rows), total: Number(n), page: p, pageSize: size };
    },
    async stats(): Promise<BadgeStats> {
      const [r] = rowsOf(
        await knex.raw(
          `select (select count(*) from badges)::int as badges,
                  (select count(*) from user_badges)::int as earned,
                  (select count(distinct user_id) from user_badges)::int as members`,
        ),
      );
      const badgeCount = Number(r.badges);
      const earnedCount = Number(r.earned);
      return {
        badgeCount,
        earnedCount,
        membersWithBadges: Number(r.members),
        completionRate: badgeCount ? Math.round((earnedCount / badgeCount) * 1000) / 10 : 0,
      };
    },
    async userBadges(userId) {
      const rows = await userBadgeQuery().where('ub.user_id', userId).orderBy([{ column: 'ub.earned_at', order: 'desc' }, { column: 'ub.id', order: 'desc' }]);
      return toUserBadges(rows);
    },
    async counts(userId) {
      const rows = await knex('badge_counters').where({ user_id: userId }).select('type', 'count');
      const out = Object.fromEntries(REQUIREMENT_TYPES.map((t) => [t, 0])) as Record<RequirementType, number>;
      for (const r of rows) if (r.type in out) out[r.type as RequirementType] = Number(r.count);
      return out;
    },
  };

  return { api, record, undo, awardRetroactive, scheduleRetro };
}

export type BadgesService = ReturnType<typeof createBadgesService>;
