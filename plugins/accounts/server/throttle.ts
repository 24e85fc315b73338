import type Koa from 'koa';
import type { Knex } from 'knex';
import { RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../../../core/errors.ts';

export interface ThrottleConfig {
  failuresPerAccountAndIp: number;
  accountAndIpBlockMinutes: number;
  failuresPerIpPerDay: number;
  failuresPerAccount: number;
  accountWindowMinutes: number;
  accountBlockMinutes: number;
}

export const THROTTLE_DEFAULTS: ThrottleConfig = {
  failuresPerAccountAndIp: 10,
  accountAndIpBlockMinutes: 15,
  failuresPerIpPerDay: 100,
  failuresPerAccount: 50,
  accountWindowMinutes: 60,
  accountBlockMinutes: 15,
};

export const LIMITS_TABLE = 'accounts_login_limits';

/**
 * The client rate-limiter-flexible talks to. On PostgreSQL (pg) it is knex itself
 * (storeType 'knex': the library borrows a pooled connection). PGlite's driver has another query
 * signature (`query(text, params)` and `affectedRows`), so there the limiter gets a small client
 * that runs its statements through the same knex instance (and so the same single connection).
 */
function storeFor(knex: Knex): { storeClient: unknown; storeType: string } {
  const client = knex.client as any;
  if (!client.pglite) return { storeClient: knex, storeType: 'knex' };
  const adapter = {
    async query(q: { text: string; values?: unknown[] }) {
      const values = q.values ?? [];
      const bindings: unknown[] = [];
      // $n placeholders (possibly repeated, in any order) → knex's positional '?'
      const sql = q.text.replace(/\$(\d+)/g, (_, n) => {
        bindings.push(values[Number(n) - 1]);
        return '?';
      });
      const r: any = await knex.raw(sql, bindings as any);
      const rows = r.rows ?? [];
      // knex-pglite reports affectedRows as rowCount, which is 0 for a SELECT.
      const rowCount = /^\s*select/i.test(sql) ? rows.length : (r.affectedRows ?? r.rowCount ?? rows.length);
      return { rows, rowCount };
    },
  };
  return { storeClient: adapter, storeType: 'client' };
}

function limiter(knex: Knex, keyPrefix: string, points: number, durationSec: number): RateLimiterPostgres {
  return new RateLimiterPostgres({
    ...storeFor(knex),
    tableName: LIMITS_TABLE,
    tableCreated: true, // created by our migration
    clearExpiredByTimeout: false, // plugin stop() owns the cleanup timer
    keyPrefix,
    points,
    duration: durationSec,
  } as any);
}

const minutesText = (ms: number) => {
  const min = Math.max(1, Math.ceil(ms / 60000));
  if (min < 90) return `${min} minute${min === 1 ? '' : 's'}`;
  const h = Math.ceil(min / 60);
  return `${h} hours`;
};

export function throttledError(ctx: Koa.Context, ms: number): HttpError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  // Set on the response too: the error handler keeps headers already set.
  ctx.set('Retry-After', String(seconds));
  return new HttpError(429, `Too many failed sign-in attempts. Please try again in ${minutesText(ms)}.`, { headers: { 'Retry-After': String(seconds) } });
}

/**
 * Failed sign-ins are counted three ways (all in PostgreSQL, so every app process sees them):
 *  - per account and IP: N consecutive failures block that pair for a while (reset by a success);
 *  - per IP: failures on any account per day (credential stuffing from one address);
 *  - per account from any IP: a flood from many addresses blocks the account for a short time,
 *    except on devices that signed in to it before (a signed cookie), so the owner is not locked out.
 */
export class LoginThrottle {
  private accountIp: RateLimiterPostgres;
  private ip: RateLimiterPostgres;
  private account: RateLimiterPostgres;
  private lastCleanup = Date.now();

  constructor(private knex: Knex, readonly cfg: ThrottleConfig) {
    this.accountIp = limiter(knex, 'login_fail_account_ip', cfg.failuresPerAccountAndIp, 24 * 3600);
    this.ip = limiter(knex, 'login_fail_ip', cfg.failuresPerIpPerDay, 24 * 3600);
    this.account = limiter(knex, 'login_fail_account', cfg.failuresPerAccount, cfg.accountWindowMinutes * 60);
  }

  static accountKey(email: string): string {
    return email.trim().toLowerCase().slice(0, 200);
  }

  /** Throws 429 when any limit is reached for this attempt. */
  async check(ctx: Koa.Context, accountKey: string, ip: string, trustedDevice: boolean): Promise<void> {
    const [ai, i, a] = await Promise.all([
      this.accountIp.get(`${accountKey}|${ip}`),
      this.ip.get(ip),
      trustedDevice ? Promise.resolve(null) : this.account.get(accountKey),
    ]);
    const waits: number[] = [];
    if (ai && ai.consumedPoints >= this.cfg.failuresPerAccountAndIp) waits.push(ai.msBeforeNext);
    if (i && i.consumedPoints >= this.cfg.failuresPerIpPerDay) waits.push(i.msBeforeNext);
    if (a && a.consumedPoints >= this.cfg.failuresPerAccount) waits.push(a.msBeforeNext);
    if (waits.length) throw throttledError(ctx, Math.max(...waits));
  }

  /** Records a failure; blocks the keys that just reached their limit. */
  async fail(accountKey: string, ip: string, trustedDevice: boolean): Promise<void> {
    this.cleanupIfDue();
    const aiKey = `${accountKey}|${ip}`;
    const [ai, , a] = await Promise.all([
      this.accountIp.penalty(aiKey, 1),
      this.ip.penalty(ip, 1),
      trustedDevice ? Promise.resolve(null as RateLimiterRes | null) : this.account.penalty(accountKey, 1),
    ]);
    if (ai.consumedPoints === this.cfg.failuresPerAccountAndIp) await this.accountIp.block(aiKey, this.cfg.accountAndIpBlockMinutes * 60);
    if (a && a.consumedPoints === this.cfg.failuresPerAccount) await this.account.block(accountKey, this.cfg.accountBlockMinutes * 60);
  }

  /** A success ends the run of consecutive failures for this account from this IP. */
  async succeed(accountKey: string, ip: string): Promise<void> {
    await this.accountIp.delete(`${accountKey}|${ip}`);
  }

  /** Deletes rows expired for an hour, at most every 5 minutes, while failures happen (no timer). */
  private cleanupIfDue(): void {
    if (Date.now() - this.lastCleanup < 5 * 60_000) return;
    this.lastCleanup = Date.now();
    this.knex(LIMITS_TABLE)
      .where('expire', '<', Date.now() - 3600_000)
      .del()
      .catch(() => {});
  }
}

export interface SignupThrottleConfig {
  perIpPerHour: number;
}

export const SIGNUP_THROTTLE_DEFAULTS: SignupThrottleConfig = { perIpPerHour: 30 };

/**
 * Accounts created from one IP address per hour (mass registration by a script), counted in
 * PostgreSQL like the login limits so every app process sees them. Only created accounts count: a
 * form sent back with a mistake costs nothing.
 */
export class SignupThrottle {
  private perIp: RateLimiterPostgres;

  constructor(knex: Knex, readonly cfg: SignupThrottleConfig) {
    this.perIp = limiter(knex, 'signup_ip', cfg.perIpPerHour, 3600);
  }

  /** Throws 429 (with Retry-After) when this address has created its share of accounts this hour. */
  async check(ctx: Koa.Context, ip: string): Promise<void> {
    const r = await this.perIp.get(ip);
    if (r && r.consumedPoints >= this.cfg.perIpPerHour) {
      const ms = r.msBeforeNext;
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      ctx.set('Retry-After', String(seconds));
      throw new HttpError(429, `Too many accounts were created from your network. Please try again in ${minutesText(ms)}.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }

  /** Counts an account created from this address. */
  async created(ip: string): Promise<void> {
    await this.perIp.penalty(ip, 1);
  }
}
