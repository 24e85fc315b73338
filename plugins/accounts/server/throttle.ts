import crypto from 'node:crypto';
import type Koa from 'koa';
import type { Knex } from 'knex';
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

/** One row per counter: `key` (`<prefix>:<subject>`), `points` used, `expire` (epoch ms) when it starts again. */
export const LIMITS_TABLE = 'accounts_login_limits';

/** A counter: at most `limit` points per window; optionally blocked for `blockMs` once the last point is spent on a failure. */
interface Counter {
  key: string;
  limit: number;
  windowMs: number;
  blockMs?: number;
}

type Taken = { ok: true; points: number } | { ok: false; msBeforeNext: number };

const DAY_MS = 24 * 3600_000;

/** Keys fit the column (255): a long subject is replaced by its hash. */
function keyOf(prefix: string, subject: string): string {
  const key = `${prefix}:${subject}`;
  return key.length <= 255 ? key : `${prefix}:sha256:${crypto.createHash('sha256').update(subject).digest('hex')}`;
}

/**
 * The counters, in PostgreSQL so that every app process shares them. Every change is one
 * statement, so that counting is exact however many requests race: a point is taken by one
 * upsert that refuses (returns no row) when the counter is at its limit, before the work it pays
 * for (a password check, an account creation) is done; it is given back when that work did not
 * count as a failure.
 */
class Counters {
  constructor(private knex: Knex) {}

  async take(c: Counter): Promise<Taken> {
    const now = Date.now();
    const r: any = await this.knex.raw(
      `insert into ${LIMITS_TABLE} as l (key, points, expire) values (?, 1, ?)
       on conflict (key) do update set
         points = case when coalesce(l.expire, 0) <= ? then 1 else l.points + 1 end,
         expire = case when coalesce(l.expire, 0) <= ? then excluded.expire else l.expire end
       where coalesce(l.expire, 0) <= ? or l.points < ?
       returning points`,
      [c.key, now + c.windowMs, now, now, now, c.limit],
    );
    const row = (r.rows ?? [])[0];
    if (row) return { ok: true, points: Number(row.points) };
    const cur = await this.knex(LIMITS_TABLE).where({ key: c.key }).first('expire');
    const untilExpire = Number(cur?.expire ?? now + c.windowMs) - Date.now();
    // At the limit with the last point's check still running, a blocking counter will be blocked
    // for blockMs at most (or free at once, when that check succeeds), not for the whole window.
    return { ok: false, msBeforeNext: Math.max(1000, Math.min(untilExpire, c.blockMs ?? Infinity)) };
  }

  /** Gives back a point taken earlier in this window (never below zero, never into a new window). */
  async giveBack(c: Counter): Promise<void> {
    await this.knex(LIMITS_TABLE).where({ key: c.key }).where('points', '>', 0).where('expire', '>', Date.now()).decrement('points', 1);
  }

  /** Holds the counter at its limit for blockMs (then it starts again). */
  async block(c: Counter): Promise<void> {
    await this.knex.raw(
      `insert into ${LIMITS_TABLE} as l (key, points, expire) values (?, ?, ?)
       on conflict (key) do update set points = greatest(l.points, excluded.points), expire = excluded.expire`,
      [c.key, c.limit, Date.now() + c.blockMs!],
    );
  }

  async reset(c: Counter): Promise<void> {
    await this.knex(LIMITS_TABLE).where({ key: c.key }).del();
  }

  /**
   * Takes a point on every counter (at once); when one refuses, the points taken on the others
   * are given back and the longest wait is returned.
   */
  async takeAll(counters: Counter[]): Promise<{ ok: true; points: number[] } | { ok: false; msBeforeNext: number; refused: Counter[] }> {
    const results = await Promise.all(counters.map((c) => this.take(c)));
    const refused = counters.filter((_, i) => !results[i].ok);
    if (!refused.length) return { ok: true, points: results.map((r) => (r as { points: number }).points) };
    await Promise.all(counters.filter((_, i) => results[i].ok).map((c) => this.giveBack(c)));
    const waits = results.filter((r): r is { ok: false; msBeforeNext: number } => !r.ok).map((r) => r.msBeforeNext);
    return { ok: false, msBeforeNext: Math.max(...waits), refused };
  }
}

const minutesText = (ms: number) => {
  const min = Math.max(1, Math.ceil(ms / 60000));
  if (min < 90) return `${min} minute${min === 1 ? '' : 's'}`;
  const h = Math.ceil(min / 60);
  return `${h} hours`;
};

function tooMany(ctx: Koa.Context, ms: number, message: (wait: string) => string): HttpError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  // Set on the response too: the error handler keeps headers already set.
  ctx.set('Retry-After', String(seconds));
  return new HttpError(429, message(minutesText(ms)), { headers: { 'Retry-After': String(seconds) } });
}

export function throttledError(ctx: Koa.Context, ms: number): HttpError {
  return tooMany(ctx, ms, (wait) => `Too many failed sign-in attempts. Please try again in ${wait}.`);
}

/** A password check paid for in advance: say how it went. */
export interface PasswordAttempt {
  /** The password was wrong: the points stay spent; a counter whose last point this was blocks. */
  failed(): Promise<void>;
  /** The password was right: the points are given back; `resetRun` also ends the run of failures for this account from this IP. */
  succeeded(opts?: { resetRun?: boolean }): Promise<void>;
}

/**
 * Failed sign-ins are counted three ways (all in PostgreSQL, so every app process sees them):
 *  - per account and IP: N consecutive failures block that pair for a while (reset by a success);
 *  - per IP: failures on any account per day (credential stuffing from one address);
 *  - per account from any IP: a flood from many addresses blocks the account for a short time,
 *    except on devices that signed in to it before (a signed cookie), so the owner is not locked out.
 * Each password check takes its point on every counter before it runs (`attempt`), so that
 * however many requests race, at most the limit's number of passwords are checked.
 */
export class LoginThrottle {
  private counters: Counters;
  private lastCleanup = Date.now();

  constructor(private knex: Knex, readonly cfg: ThrottleConfig) {
    this.counters = new Counters(knex);
  }

  static accountKey(email: string): string {
    return email.trim().toLowerCase().slice(0, 200);
  }

  private accountIp(accountKey: string, ip: string): Counter {
    return { key: keyOf('login_fail_account_ip', `${accountKey}|${ip}`), limit: this.cfg.failuresPerAccountAndIp, windowMs: DAY_MS, blockMs: this.cfg.accountAndIpBlockMinutes * 60_000 };
  }

  private ip(ip: string): Counter {
    return { key: keyOf('login_fail_ip', ip), limit: this.cfg.failuresPerIpPerDay, windowMs: DAY_MS };
  }

  private account(accountKey: string): Counter {
    return { key: keyOf('login_fail_account', accountKey), limit: this.cfg.failuresPerAccount, windowMs: this.cfg.accountWindowMinutes * 60_000, blockMs: this.cfg.accountBlockMinutes * 60_000 };
  }

  /**
   * Takes a point on every counter of this attempt before the password is checked; throws 429
   * (with Retry-After) when one of them is used up. The caller reports the outcome.
   */
  async attempt(ctx: Koa.Context, accountKey: string, ip: string, trustedDevice: boolean): Promise<PasswordAttempt> {
    this.cleanupIfDue();
    const accountIp = this.accountIp(accountKey, ip);
    const counters = [accountIp, this.ip(ip), ...(trustedDevice ? [] : [this.account(accountKey)])];
    const taken = await this.counters.takeAll(counters);
    if (!taken.ok) throw throttledError(ctx, taken.msBeforeNext);
    let done = false;
    return {
      failed: async () => {
        if (done) return;
        done = true;
        await Promise.all(counters.map((c, i) => (c.blockMs && taken.points[i] >= c.limit ? this.counters.block(c) : null)));
      },
      succeeded: async (opts = {}) => {
        if (done) return;
        done = true;
        await Promise.all(counters.map((c) => (c === accountIp && opts.resetRun ? this.counters.reset(c) : this.counters.giveBack(c))));
      },
    };
  }

  /** Deletes rows expired for an hour, at most every 5 minutes, while attempts happen (no timer). */
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
  failuresPerIpPerHour: number;
}

export const SIGNUP_THROTTLE_DEFAULTS: SignupThrottleConfig = { perIpPerHour: 30, failuresPerIpPerHour: 20 };

/** A sign-up paid for in advance: say how it went. */
export interface SignupAttempt {
  /** An account was created: it counts against the hourly accounts limit, not the refusals limit. */
  created(): Promise<void>;
  /** Refused (email or username taken, password refused): it counts against the refusals limit only. */
  refused(): Promise<void>;
  /** Neither (an unexpected error): both points are given back. */
  abandoned(): Promise<void>;
}

/**
 * Sign-ups from one IP address per hour, counted in PostgreSQL like the login limits so every
 * app process sees them: accounts created (mass registration by a script) and sign-ups refused
 * (asking which emails have accounts: "An account with this email already exists"). Each attempt
 * takes a point on both before it runs and gives back the one its outcome does not count against,
 * so that however many requests race, at most the limits' number of accounts are created and of
 * refusals told.
 */
export class SignupThrottle {
  private counters: Counters;

  constructor(knex: Knex, readonly cfg: SignupThrottleConfig) {
    this.counters = new Counters(knex);
  }

  async attempt(ctx: Koa.Context, ip: string): Promise<SignupAttempt> {
    const created: Counter = { key: keyOf('signup_ip', ip), limit: this.cfg.perIpPerHour, windowMs: 3600_000 };
    const refused: Counter = { key: keyOf('signup_fail_ip', ip), limit: this.cfg.failuresPerIpPerHour, windowMs: 3600_000 };
    const taken = await this.counters.takeAll([created, refused]);
    if (!taken.ok) {
      throw tooMany(ctx, taken.msBeforeNext, (wait) =>
        taken.refused.includes(created)
          ? `Too many accounts were created from your network. Please try again in ${wait}.`
          : `Too many sign-up attempts from your network. Please try again in ${wait}.`,
      );
    }
    let done = false;
    const settle = (giveBack: Counter[]) => async () => {
      if (done) return;
      done = true;
      await Promise.all(giveBack.map((c) => this.counters.giveBack(c)));
    };
    return { created: settle([refused]), refused: settle([created]), abandoned: settle([created, refused]) };
  }
}
