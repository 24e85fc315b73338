import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import type { PluginContext, ApiContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { isPostgresServer } from '../../../core/db.ts';
import { AccountsService, type AccountsApi } from '../../accounts/public.ts';
import { MuseumsService, type MuseumsApi } from '../../museums/public.ts';
import { BadgesService, type BadgesApi } from '../../badges/public.ts';
import { NotificationsService, type NotificationsApi } from '../../notifications/public.ts';
import type { ModerationApi } from '../public.ts';
import type { AuditLog } from './audit.ts';
import { englishTexts } from '../../../core/texts.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** English text of one of our locale keys with {{param}} interpolation (stored notification text; the web app localizes by template). */
export const english = englishTexts(path.join(HERE, '..', 'locales'), 'admin');

export type Admin = { id: number; username: string };

export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const r = this.tail.then(fn, fn);
    this.tail = r.then(
      () => undefined,
      () => undefined,
    );
    return r;
  }
}

/** An arbitrary constant naming the admin-set lock (pg_advisory_xact_lock). */
const ADMIN_SET_LOCK = 0x41444d4e;

export class Deps {
  readonly knex: Knex;
  private mutex = new Mutex();
  constructor(
    readonly ctx: PluginContext,
    readonly audit: AuditLog,
    readonly moderation: ModerationApi,
  ) {
    this.knex = ctx.db;
  }

  accounts(): AccountsApi {
    return this.ctx.services.get(AccountsService);
  }

  museums(): MuseumsApi {
    const m = this.ctx.services.maybe(MuseumsService);
    if (!m) throw new HttpError(503, 'The museum directory is not available');
    return m;
  }

  badges(): BadgesApi {
    const b = this.ctx.enabled.has('badges') ? this.ctx.services.maybe(BadgesService) : undefined;
    if (!b) throw new HttpError(404, 'Badges are not enabled');
    return b;
  }

  notifications(): NotificationsApi | undefined {
    return this.ctx.enabled.has('notifications') ? this.ctx.services.maybe(NotificationsService) : undefined;
  }

  admin(c: ApiContext): Admin {
    return { id: c.user!.id, username: c.user!.username };
  }

  /**
   * Serializes the changes that could leave the platform without an Admin (role changes, deletions,
   * bans): one at a time in this process (the embedded database has a single connection), and on
   * PostgreSQL also across processes with a transaction-scoped advisory lock held while `fn` runs.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const isPg = isPostgresServer(this.knex);
    return this.mutex.run(() =>
      isPg
        ? this.knex.transaction(async (trx) => {
            await trx.raw('select pg_advisory_xact_lock(?)', [ADMIN_SET_LOCK]);
            return fn();
          })
        : fn(),
    );
  }

  /** Inside exclusive(): the acting admin must still be an Admin and not banned (their request passed the role check before waiting). */
  async assertStillAdmin(adminId: number): Promise<void> {
    const me = await this.accounts().getUserSummary(adminId);
    if (!me || me.role !== 'Admin') throw new HttpError(403, 'Access denied');
    if (await this.moderation.banMessage(adminId)) throw new HttpError(403, 'Access denied');
  }

  async countAdmins(): Promise<number> {
    return this.accounts().countUsers({ roles: ['Admin'] });
  }

  async notify(userIds: number[], n: Parameters<NotificationsApi['notify']>[1]): Promise<void> {
    const svc = this.notifications();
    if (!svc) return;
    try {
      await svc.notify(userIds, n);
    } catch (err) {
      this.ctx.log.error({ err, type: n.type }, 'admin notification failed');
    }
  }
}

export const LAST_ADMIN = 'The last Admin cannot be removed';
export const USER_NOT_FOUND = 'User not found';

export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string }): string {
  return `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username;
}
