import type { Knex } from 'knex';
import type { ActiveModeration, ModerationApi, ModerationType } from '../public.ts';

export const MODERATION_TYPES: ModerationType[] = ['warning', 'temporary_ban', 'permanent_ban', 'content_restriction'];
export const BAN_TYPES: ModerationType[] = ['temporary_ban', 'permanent_ban'];
/** Types that stop posting, commenting and uploading (a ban too: for checks about other members and jobs). */
export const RESTRICTING_TYPES: ModerationType[] = ['content_restriction', 'temporary_ban', 'permanent_ban'];
export const SEVERITY: Record<ModerationType, number> = { permanent_ban: 4, temporary_ban: 3, content_restriction: 2, warning: 1 };
/** A temporary ban sent without an expiry lasts this long. */
export const DEFAULT_TEMPORARY_BAN_MS = 7 * 24 * 3600 * 1000;

export const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());
export const isoOrNull = (d: unknown): string | null => (d == null ? null : iso(d));

/** Rows in effect now: active and not expired (the database clock decides, the same for every process). */
export function effective(db: Knex | Knex.Transaction, table = 'admin_moderations') {
  return db(table)
    .where(`${table}.status`, 'active')
    .where((w) => w.whereNull(`${table}.expires_at`).orWhere(`${table}.expires_at`, '>', db.fn.now()));
}

export function toActive(r: any): ActiveModeration {
  return { id: Number(r.id), userId: r.user_id, type: r.type, reason: r.reason, expiresAt: isoOrNull(r.expires_at), createdAt: iso(r.created_at) };
}

/** 'active' | 'expired' | 'revoked' as of `now`. */
export function statusOf(r: any, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (r.status === 'revoked') return 'revoked';
  if (r.expires_at && new Date(r.expires_at).getTime() <= now) return 'expired';
  return 'active';
}

/** A human date for refusal messages: "1 December 2026, 14:00 UTC". */
export function humanDate(d: Date): string {
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}

export function banMessageFor(r: { type: string; expires_at: Date | string | null; reason: string }): string {
  const reason = r.reason ? ` Reason: ${r.reason}` : '';
  if (r.type === 'permanent_ban' || !r.expires_at) return `Your account has been permanently banned.${reason}`;
  return `Your account is suspended until ${humanDate(new Date(r.expires_at))}.${reason}`;
}

/** The ban that lasts longest speaks: permanent first, then the latest expiry. */
function longest<T extends { type: string; expires_at: Date | string | null }>(bans: T[]): T {
  const end = (b: T) => (b.type === 'permanent_ban' || !b.expires_at ? Infinity : new Date(b.expires_at).getTime());
  return bans.reduce((best, b) => (end(b) > end(best) ? b : best));
}

/** `status` as a scalar subquery over a user id column: the effective restricting rows as JSON. */
export function statusSql(db: Knex, userId: string): Knex.Raw {
  return db.raw(
    `select json_agg(json_build_object('type', m.type, 'expires_at', m.expires_at, 'reason', m.reason)) from admin_moderations m
      where m.user_id = ?? and m.status = 'active' and (m.expires_at is null or m.expires_at > now()) and m.type in (${RESTRICTING_TYPES.map(() => '?').join(', ')})`,
    [userId, ...RESTRICTING_TYPES],
  );
}

/** What statusSql read, as `status` answers it. */
export function statusFrom(value: unknown): { banMessage: string | null; restricted: boolean } {
  const rows = (typeof value === 'string' ? JSON.parse(value) : value ?? []) as Array<{ type: string; expires_at: string | null; reason: string }>;
  const bans = rows.filter((r) => BAN_TYPES.includes(r.type as ModerationType));
  return { banMessage: bans.length ? banMessageFor(longest(bans)) : null, restricted: rows.length > 0 };
}

export function createModerationApi(knex: Knex): ModerationApi {
  return {
    async isRestricted(userId) {
      if (!Number.isInteger(userId)) return false;
      const r = await effective(knex).where('user_id', userId).whereIn('type', RESTRICTING_TYPES).first('id');
      return Boolean(r);
    },
    async restrictedIds(userIds) {
      const ids = [...new Set(userIds.filter((i) => Number.isInteger(i)))];
      if (!ids.length) return new Set();
      const rows = await effective(knex).whereIn('user_id', ids).whereIn('type', RESTRICTING_TYPES).distinct('user_id');
      return new Set(rows.map((r: any) => r.user_id));
    },
    async activeModerations(userId) {
      const rows = await effective(knex).where('user_id', userId).orderBy('created_at', 'desc');
      return rows.map(toActive).sort((a, b) => SEVERITY[b.type] - SEVERITY[a.type]);
    },
    async banMessage(userId) {
      return (await status(userId)).banMessage;
    },
    status,
    banMessages,
  };

  /** The ban message of each banned member among `userIds`, in one statement (lists of people). */
  async function banMessages(userIds: number[]): Promise<Map<number, string>> {
    const ids = [...new Set(userIds.filter((i) => Number.isInteger(i)))];
    const out = new Map<number, string>();
    if (!ids.length) return out;
    const rows = await effective(knex).whereIn('user_id', ids).whereIn('type', BAN_TYPES).select('user_id', 'type', 'expires_at', 'reason', 'created_at');
    const byUser = new Map<number, any[]>();
    for (const r of rows as any[]) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
    for (const [id, list] of byUser) out.set(id, banMessageFor(longest(list)));
    return out;
  }

  /** Ban message and restriction of one member, from one statement (asked on every signed-in request). */
  async function status(userId: number): Promise<{ banMessage: string | null; restricted: boolean }> {
    if (!Number.isInteger(userId)) return { banMessage: null, restricted: false };
    const rows = await effective(knex).where('user_id', userId).whereIn('type', RESTRICTING_TYPES).select('type', 'expires_at', 'reason', 'created_at');
    const bans = rows.filter((r: any) => BAN_TYPES.includes(r.type));
    return { banMessage: bans.length ? banMessageFor(longest(bans)) : null, restricted: rows.length > 0 };
  }
}
