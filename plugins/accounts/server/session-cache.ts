/**
 * Issue 18: the sessions this process read in the last few seconds, so that a member's requests in
 * quick succession spend no statement before their route. What the session's statement answered
 * (the session's data, its user, the login guards' values) is kept `ttlMs` at most, `max` sessions
 * at most (the oldest go first).
 *
 * Forgotten in every process at once (the live-updates channel: LISTEN/NOTIFY on PostgreSQL, the
 * embedded database's own LISTEN on PGlite) when a session ends or changes, or its member is
 * deleted or changes role, username, slug or password — database triggers send these
 * (migrations/20261126100000_signal_session_changes.ts), whatever made the change — and when a
 * plugin says a member's login guards may answer otherwise (`AccountsApi.sessionsChanged`: bans,
 * restrictions). Used only while those signals are known to arrive (`signalsLive`); a read that
 * started before a signal is not kept.
 */
export const SESSIONS_SIGNAL = 'accounts.sessions';
/** beyond this many members in one change, every process forgets every session */
export const SIGNAL_ALL_ABOVE = 500;

export interface SessionCacheOptions {
  ttlMs: number;
  max: number;
}

export const SESSION_CACHE_DEFAULTS: SessionCacheOptions = { ttlMs: 5000, max: 10_000 };

interface Entry<T> {
  at: number;
  userId: number | null;
  value: T;
}

export class SessionCache<T> {
  private byKey = new Map<string, Entry<T>>();
  /** increases with every forgetting: a read older than the last one is not kept */
  private generation = 0;

  constructor(
    private readonly opts: SessionCacheOptions,
    private readonly live: () => boolean,
  ) {}

  get enabled(): boolean {
    return this.opts.ttlMs > 0 && this.opts.max > 0 && this.live();
  }

  /** the mark to give `put` for a read starting now */
  mark(): number {
    return this.generation;
  }

  get(key: string, now = Date.now()): T | undefined {
    if (!this.enabled) return undefined;
    const e = this.byKey.get(key);
    if (!e) return undefined;
    if (now - e.at > this.opts.ttlMs) {
      this.byKey.delete(key);
      return undefined;
    }
    return e.value;
  }

  put(key: string, userId: number | null, value: T, mark: number, now = Date.now()): void {
    if (!this.enabled || mark !== this.generation) return;
    this.byKey.delete(key);
    if (this.byKey.size >= this.opts.max) {
      // the oldest entry (a Map keeps insertion order)
      const first = this.byKey.keys().next();
      if (!first.done) this.byKey.delete(first.value);
    }
    this.byKey.set(key, { at: now, userId, value });
  }

  forgetKey(key: string): void {
    this.generation++;
    this.byKey.delete(key);
  }

  /** `null`: every session (notifications may have been missed, or too many members changed) */
  forgetUsers(userIds: readonly number[] | null): void {
    this.generation++;
    if (userIds === null) {
      this.byKey.clear();
      return;
    }
    if (!userIds.length || !this.byKey.size) return;
    const ids = new Set(userIds);
    for (const [k, e] of this.byKey) if (e.userId !== null && ids.has(e.userId)) this.byKey.delete(k);
  }

  /** a signal's data: `{ users: [ids] }` or `{ all: true }`; anything else forgets all */
  onSignal(data: unknown): void {
    const d = data as { users?: unknown; all?: unknown } | null;
    if (d && Array.isArray(d.users) && d.users.every((x) => Number.isInteger(x))) this.forgetUsers(d.users as number[]);
    else this.forgetUsers(null);
  }

  get size(): number {
    return this.byKey.size;
  }
}
