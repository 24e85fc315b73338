import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AccountsApi } from '../../accounts/public.ts';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: number | null;
  reason?: string | null;
  details?: Record<string, unknown>;
  admin: { id: number; username: string };
}

const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());

function row(e: AuditEntry, outcome: 'pending' | 'done') {
  return {
    action: e.action,
    target_type: e.targetType,
    target_id: e.targetId ?? null,
    reason: e.reason?.trim() || null,
    details: JSON.stringify(e.details ?? {}),
    admin_id: e.admin.id,
    admin_username: e.admin.username,
    outcome,
  };
}

/**
 * The audit log. Two guarantees, depending on who owns the change:
 *  - `record(trx, …)`: the admin plugin's own changes (moderation, monetization) write their entry in
 *    the SAME transaction as the change: both happen or neither does.
 *  - `delegated(…, fn)`: a change made by another plugin's service (roles, deletion, museums, badges,
 *    notifications) cannot join our transaction (PGlite has one connection and the services use
 *    their own). The entry is committed as 'pending' BEFORE the call, completed ('done', with the
 *    result's details) right after it succeeds, and deleted if the call fails. So no delegated change
 *    happens without an entry; a crash between the call and the completion leaves a 'pending' entry
 *    (shown in the log) that says the change was attempted and its outcome was not confirmed.
 */
export class AuditLog {
  constructor(private knex: Knex, private log: Logger) {}

  async record(db: Knex | Knex.Transaction, e: AuditEntry): Promise<number> {
    const [r] = await db('admin_actions').insert(row(e, 'done')).returning('id');
    return Number(r.id ?? r);
  }

  async delegated<T>(
    e: AuditEntry,
    fn: () => Promise<T>,
    complete?: (result: T) => { targetId?: number | null; details?: Record<string, unknown> } | void,
  ): Promise<T> {
    const [r] = await this.knex('admin_actions').insert(row(e, 'pending')).returning('id');
    const id = Number(r.id ?? r);
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      await this.knex('admin_actions').where({ id }).del().catch((delErr) => this.log.error({ err: delErr, auditId: id }, 'could not remove the audit entry of a failed action'));
      throw err;
    }
    try {
      const extra = complete?.(result) ?? {};
      const update: Record<string, unknown> = { outcome: 'done' };
      if (extra.targetId !== undefined) update.target_id = extra.targetId;
      if (extra.details) update.details = JSON.stringify({ ...(e.details ?? {}), ...extra.details });
      await this.knex('admin_actions').where({ id }).update(update);
    } catch (err) {
      // The change happened; the entry stays 'pending' and the log line carries everything.
      this.log.error({ err, auditId: id, action: e.action, targetType: e.targetType, targetId: e.targetId, adminId: e.admin.id }, 'audit entry left pending');
    }
    return result;
  }

  async list(
    accounts: AccountsApi | undefined,
    q: { page: number; pageSize: number; action?: string; targetType?: string; targetId?: number; adminId?: number },
  ) {
    const base = this.knex('admin_actions');
    if (q.action) base.where('action', q.action);
    if (q.targetType) base.where('target_type', q.targetType);
    if (q.targetId !== undefined) base.where('target_id', q.targetId);
    if (q.adminId !== undefined) base.where('admin_id', q.adminId);
    const [{ n }] = await base.clone().count({ n: '*' });
    const rows = await base
      .clone()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const admins = accounts ? await accounts.getUserSummaries([...new Set(rows.map((r) => r.admin_id).filter((x) => x != null))]) : new Map();
    return {
      items: rows.map((r) => {
        const a = r.admin_id != null ? admins.get(r.admin_id) : undefined;
        const name = a ? `${a.firstName ?? ''} ${a.lastName ?? ''}`.trim() : '';
        return {
          id: Number(r.id),
          action: r.action,
          targetType: r.target_type,
          targetId: r.target_id == null ? null : Number(r.target_id),
          reason: r.reason,
          details: typeof r.details === 'string' ? JSON.parse(r.details) : (r.details ?? {}),
          adminId: r.admin_id,
          adminName: name || null,
          adminUsername: a?.username ?? r.admin_username ?? null,
          outcome: r.outcome,
          createdAt: iso(r.created_at),
        };
      }),
      total: Number(n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
