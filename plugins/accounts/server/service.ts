import type { Knex } from 'knex';
import type { AccountsApi, LoginGuard, UserSummary } from '../public.ts';

export const SUMMARY_COLUMNS = {
  id: 'users.id',
  slug: 'users.slug',
  username: 'users.username',
  firstName: 'users.first_name',
  lastName: 'users.last_name',
  profileImageUrl: 'users.profile_image_url',
  role: 'users.role',
};

export function toSummary(row: any): UserSummary {
  return {
    id: row.id,
    slug: row.slug,
    username: row.username,
    firstName: row.firstName ?? row.first_name ?? '',
    lastName: row.lastName ?? row.last_name ?? '',
    profileImageUrl: row.profileImageUrl ?? row.profile_image_url ?? null,
    role: row.role,
  };
}

export function toOwnUser(row: any) {
  return {
    ...toSummary(row),
    email: row.email,
    bio: row.bio ?? '',
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
  };
}

export function createAccountsApi(knex: Knex, getPreferences: (id: number) => Promise<Record<string, unknown>>): AccountsApi {
  const guards: LoginGuard[] = [];
  return {
    summaryColumns: SUMMARY_COLUMNS,
    async getUserSummaries(ids) {
      const unique = [...new Set(ids.filter((i) => Number.isInteger(i)))];
      const map = new Map<number, UserSummary>();
      if (!unique.length) return map;
      const rows = await knex('users').whereIn('id', unique).select(SUMMARY_COLUMNS);
      for (const r of rows) map.set(r.id, toSummary(r));
      return map;
    },
    async getUserSummary(id) {
      const row = await knex('users').where({ id }).first(SUMMARY_COLUMNS);
      return row ? toSummary(row) : null;
    },
    async findUser(key) {
      const q = knex('users').select({ ...SUMMARY_COLUMNS, email: 'users.email' });
      const s = String(key);
      if (/^\d+$/.test(s) && Number(s) < 2147483648) q.where('id', Number(s)).orWhere('slug', s).orWhere('username', s);
      else q.where('slug', s).orWhere('username', s);
      const row = await q.first();
      return row ? { ...toSummary(row), email: row.email } : null;
    },
    async endSessions(userId, exceptSessionId) {
      const q = knex('user_sessions').where({ user_id: userId });
      if (exceptSessionId) q.whereNot('id', exceptSessionId);
      return Number(await q.del());
    },
    addLoginGuard(g) {
      guards.push(g);
    },
    async checkGuards(user) {
      for (const g of guards) {
        const m = await g(user);
        if (m) return m;
      }
      return null;
    },
    getPreferences,
  };
}
