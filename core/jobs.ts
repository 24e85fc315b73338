import os from 'node:os';
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { likeEscape } from './util.ts';

export interface JobRecord {
  id: number;
  name: string;
  payload: any;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  unique_key: string | null;
  run_at: Date;
  progress: { done: number; total: number } | null;
  result: any;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface JobHelpers {
  job: JobRecord;
  progress(done: number, total: number): Promise<void>;
  log: Logger;
  /** The jobs clock when the job was claimed (the test clock when one is set). */
  now: Date;
  /**
   * Aborted when the process, shutting down, gives the job back to the queue (stopAndRelease):
   * a long job stops at its next step. `progress()` then throws too, so a job that reports its
   * progress stops without looking. The job runs again elsewhere: its steps must be safe to redo.
   */
  signal: AbortSignal;
}

/** Thrown by `progress()` once the job was given back to the queue at shutdown. */
export class JobReleasedError extends Error {
  constructor() {
    super('the job was given back to the queue: this process is shutting down');
    this.name = 'JobReleasedError';
  }
}

type JobHandler = (payload: any, helpers: JobHelpers) => Promise<unknown>;

/** When a repeating job runs next, strictly after `after`. */
export interface Schedule {
  next(after: Date): Date;
  describe: string;
}

/** Every `ms` milliseconds, aligned on multiples of `ms` since the epoch (every process agrees). */
export function every(ms: number): Schedule {
  return { next: (after) => new Date(Math.floor(after.getTime() / ms) * ms + ms), describe: `every ${ms} ms` };
}

/** Every hour at `minute` (UTC; member-local schedules scan hourly and pick who is due). */
export function hourlyAt(minute: number): Schedule {
  return {
    next(after) {
      const d = new Date(after);
      d.setUTCMinutes(minute, 0, 0);
      if (d <= after) d.setUTCHours(d.getUTCHours() + 1);
      return d;
    },
    describe: `hourly at :${String(minute).padStart(2, '0')}`,
  };
}

export interface EnqueueOptions {
  /** An identical queued or running job is reused (not a second one). */
  uniqueKey?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** The caller's transaction: the job exists only if it commits. */
  db?: Knex;
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 3600_000;
/** A job still 'running' this long after its claim lost its worker (crash): it is claimed again. */
const LEASE_MINUTES = 15;

/** Delay before attempt n+1 after n failed attempts: 2^n seconds (capped at an hour) with ±20 % jitter. */
export function backoffMs(attempts: number): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempts);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Background jobs kept in PostgreSQL (table core_jobs), claimed with FOR UPDATE SKIP LOCKED so
 * that with several app processes each job runs exactly once; a worker that died mid-job loses
 * its claim after LEASE_MINUTES. Jobs may run at a time (runAt), repeat on a schedule (repeat()),
 * be de-duplicated while pending (uniqueKey) or for ever (enqueueOnce, table core_job_keys), and
 * are retried with exponential backoff up to maxAttempts.
 *
 * Why not graphile-worker or pg-boss: both open their own pg.Pool from a connection string and
 * rely on LISTEN/NOTIFY and session-level advisory locks over several connections; the embedded
 * database (PGlite) is one in-process connection with no wire protocol, so neither can run on it,
 * and the app must work the same on both.
 *
 * The clock is controllable (setClock): tests move time forward and call runDue() to run what is
 * due "as of" then, in this process, with the same claim as the poller.
 */
export class Jobs {
  private handlers = new Map<string, JobHandler>();
  private schedules = new Map<string, Schedule>();
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopped = false;
  private idle: Array<() => void> = [];
  /** The running jobs' abort controllers (aborted when they are given back at shutdown). */
  private runningJobs = new Set<AbortController>();
  private clock: (() => Date) | null = null;
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

  constructor(
    private knex: Knex,
    private log: Logger,
    /** schedules: false leaves repeating jobs to runDue() (tests: nothing fires on the real clock mid-test) */
    private opts: { pollMs?: number; concurrency?: number; schedules?: boolean } = {},
  ) {}

  /** The jobs' notion of now (a test clock when set). */
  now(): Date {
    return this.clock ? this.clock() : new Date();
  }

  /** Tests: make every due-check and schedule use this clock (null: the real one). */
  setClock(clock: (() => Date) | Date | null): void {
    this.clock = clock instanceof Date ? () => clock : clock;
  }

  define(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  /**
   * A job that repeats on `schedule`: exactly one occurrence is pending at any time across every
   * process (unique key `repeat:<name>`); when it finishes, the next one is queued in the same
   * transaction.
   */
  repeat(name: string, schedule: Schedule, handler: JobHandler): void {
    this.handlers.set(name, handler);
    this.schedules.set(name, schedule);
  }

  /** Queues a job. With uniqueKey, an identical queued or running job is reused. */
  async enqueue(name: string, payload: unknown = {}, opts: EnqueueOptions = {}): Promise<JobRecord> {
    const db = opts.db ?? this.knex;
    const row = {
      name,
      payload: JSON.stringify(payload ?? {}),
      unique_key: opts.uniqueKey ?? null,
      run_at: opts.runAt ?? this.now(),
      max_attempts: opts.maxAttempts ?? 3,
    };
    let job: JobRecord | undefined;
    if (opts.uniqueKey) {
      // Atomic against concurrent enqueues (the partial unique index on pending unique keys).
      const r: any = await db.raw(
        `insert into core_jobs (name, payload, unique_key, run_at, max_attempts) values (?, ?::jsonb, ?, ?, ?)
         on conflict (unique_key) where unique_key is not null and status in ('queued','running') do nothing returning *`,
        [row.name, row.payload, row.unique_key, row.run_at, row.max_attempts],
      );
      job = r.rows?.[0];
      if (!job) job = await db('core_jobs').where({ unique_key: opts.uniqueKey }).whereIn('status', ['queued', 'running']).first();
      if (!job) return this.enqueue(name, payload, opts); // finished in between: queue a new one
    } else {
      [job] = await db('core_jobs').insert(row).returning('*');
    }
    if (!opts.db) this.kick();
    return job!;
  }

  /**
   * Queues a job whose key may be used only once, ever (a reminder, a given week's digest, an
   * email): answers null, queuing nothing, when the key was used before. The key and the job are
   * written in one transaction (the caller's when `db` is given).
   */
  async enqueueOnce(name: string, payload: unknown, key: string, opts: Omit<EnqueueOptions, 'uniqueKey'> = {}): Promise<JobRecord | null> {
    const work = async (trx: Knex): Promise<JobRecord | null> => {
      const r: any = await trx.raw('insert into core_job_keys (key) values (?) on conflict (key) do nothing returning key', [key]);
      if (!r.rows?.length) return null;
      const [job] = await trx('core_jobs')
        .insert({ name, payload: JSON.stringify(payload ?? {}), unique_key: key, run_at: opts.runAt ?? this.now(), max_attempts: opts.maxAttempts ?? 3 })
        .returning('*');
      await trx('core_job_keys').where({ key }).update({ job_id: job.id });
      return job;
    };
    const job = opts.db ? await work(opts.db) : await this.knex.transaction((trx) => work(trx));
    if (job && !opts.db) this.kick();
    return job;
  }

  /** Was this once-key used (queued, ran or cancelled)? */
  async keyUsed(key: string, db: Knex = this.knex): Promise<boolean> {
    return Boolean(await db('core_job_keys').where({ key }).first('key'));
  }

  /** Cancels queued (not yet running) jobs whose unique key starts with `prefix`; answers how many. */
  async cancel(prefix: string, db: Knex = this.knex): Promise<number> {
    const rows = await db('core_jobs')
      .where('status', 'queued')
      .where('unique_key', 'like', `${likeEscape(prefix)}%`)
      .del()
      .returning('id');
    return rows.length;
  }

  /** Moves a queued job (by unique key) to a new time; answers whether one was queued. */
  async reschedule(uniqueKey: string, runAt: Date, db: Knex = this.knex): Promise<boolean> {
    const rows = await db('core_jobs').where({ unique_key: uniqueKey, status: 'queued' }).update({ run_at: runAt }).returning('id');
    return rows.length > 0;
  }

  async get(id: number): Promise<JobRecord | undefined> {
    return this.knex('core_jobs').where({ id }).first();
  }

  /**
   * Queues each repeating job that has no occurrence pending, to run at once (a scan catches up
   * with what is due); later occurrences follow its schedule.
   */
  async ensureSchedules(): Promise<void> {
    const now = this.now();
    for (const name of this.schedules.keys()) {
      await this.enqueue(name, {}, { uniqueKey: `repeat:${name}`, runAt: now, maxAttempts: 1, db: this.knex });
    }
  }

  start(): void {
    this.stopped = false;
    const poll = this.opts.pollMs ?? 1000;
    this.timer = setInterval(() => this.kick(), poll);
    this.timer.unref();
    if (this.opts.schedules === false) {
      this.kick();
      return;
    }
    this.ensureSchedules()
      .catch((err) => this.log.error({ err }, 'could not queue the repeating jobs'))
      .finally(() => this.kick());
  }

  private kick(): void {
    if (this.stopped || this.timer === null) return;
    const max = this.opts.concurrency ?? 1;
    if (this.running >= max) return;
    this.running++;
    // Under a test clock (setClock), repeating jobs run only through runDue(): the background poller
    // would otherwise run, say, the hourly retention purge with a clock moved days ahead in the middle
    // of a test, ending sessions that test still uses.
    this.runOne(this.clock ? [...this.handlers.keys()].filter((n) => !this.schedules.has(n)) : undefined)
      .then((ran) => {
        this.running--;
        if (ran) this.kick();
        else if (this.running === 0) this.idle.splice(0).forEach((f) => f());
      })
      .catch((err) => {
        this.running--;
        if (this.running === 0) this.idle.splice(0).forEach((f) => f());
        this.log.error({ err }, 'job poll failed');
      });
  }

  /**
   * Runs, in this process, every job due as of the clock (repeating ones included), until none is
   * left that another worker has not claimed; answers how many ran here. Tests use it with setClock;
   * `only` limits it to those jobs (a test moving the clock days ahead for one feature, without the
   * retention jobs purging every session that would have expired by then).
   */
  async runDue(opts: { only?: string[] } = {}): Promise<number> {
    await this.ensureSchedules();
    let n = 0;
    this.running++;
    try {
      while (await this.runOne(opts.only)) n++;
    } finally {
      this.running--;
      if (this.running === 0) this.idle.splice(0).forEach((f) => f());
    }
    return n;
  }

  private async runOne(only?: string[]): Promise<boolean> {
    if (this.stopped) return false;
    const names = [...this.handlers.keys()].filter((n) => !only || only.includes(n));
    if (names.length === 0) return false;
    const now = this.now();
    const claimed = await this.knex.transaction(async (trx) => {
      const row = await trx('core_jobs')
        .whereIn('name', names)
        .where((q) =>
          q
            .where((q2) => q2.where('status', 'queued').where('run_at', '<=', now))
            .orWhere((q2) => q2.where('status', 'running').whereRaw(`locked_at < now() - interval '${LEASE_MINUTES} minutes'`)),
        )
        .orderBy([{ column: 'run_at' }, { column: 'id' }])
        .forUpdate()
        .skipLocked()
        .first();
      if (!row) return null;
      const [updated] = await trx('core_jobs')
        .where({ id: row.id })
        .update({ status: 'running', locked_by: this.workerId, locked_at: trx.fn.now(), attempts: row.attempts + 1 })
        .returning('*');
      return updated as JobRecord;
    });
    if (!claimed) return false;
    const handler = this.handlers.get(claimed.name)!;
    const log = this.log.child({ job: claimed.id, jobName: claimed.name });
    const schedule = this.schedules.get(claimed.name);
    const queueNext = async (trx: Knex) => {
      if (!schedule) return;
      const base = new Date(Math.max(now.getTime(), new Date(claimed.run_at).getTime()));
      await this.enqueue(claimed.name, {}, { uniqueKey: `repeat:${claimed.name}`, runAt: schedule.next(base), maxAttempts: 1, db: trx });
    };
    const abort = new AbortController();
    this.runningJobs.add(abort);
    try {
      const result = await handler(claimed.payload, {
        job: claimed,
        log,
        now,
        signal: abort.signal,
        progress: async (done, total) => {
          if (abort.signal.aborted) throw new JobReleasedError();
          await this.knex('core_jobs').where({ id: claimed.id }).update({ progress: JSON.stringify({ done, total }) });
        },
      });
      await this.knex.transaction(async (trx) => {
        await trx('core_jobs')
          .where({ id: claimed.id, locked_by: this.workerId })
          .update({ status: 'done', result: JSON.stringify(result ?? null), finished_at: trx.fn.now() });
        await queueNext(trx);
      });
    } catch (err: any) {
      if (abort.signal.aborted) {
        // given back at shutdown (stopAndRelease already put it back in the queue): not a failure
        log.info({ reason: String(err?.message ?? err) }, 'job stopped: given back to the queue at shutdown');
        return true;
      }
      const retry = claimed.attempts < claimed.max_attempts;
      log[retry ? 'warn' : 'error']({ err }, retry ? 'job failed; will retry' : 'job failed');
      await this.knex.transaction(async (trx) => {
        await trx('core_jobs')
          .where({ id: claimed.id, locked_by: this.workerId })
          .update({
            status: retry ? 'queued' : 'failed',
            error: String(err?.message ?? err).slice(0, 2000),
            run_at: retry ? new Date(now.getTime() + backoffMs(claimed.attempts)) : undefined,
            finished_at: retry ? null : trx.fn.now(),
          });
        if (!retry) await queueNext(trx);
      });
    } finally {
      this.runningJobs.delete(abort);
    }
    return true;
  }

  /** Resolves when no job is running in this process (tests, shutdown). */
  async drain(): Promise<void> {
    if (this.running === 0) return;
    await new Promise<void>((r) => this.idle.push(r));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.drain();
  }

  /**
   * Shutdown: stops claiming, lets running jobs finish for up to `waitMs`, then puts the jobs this
   * process still holds back in the queue (attempt not counted) so that another process runs them.
   * Answers how many were released.
   */
  async stopAndRelease(waitMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.stop(), new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    if (this.running === 0) return 0;
    const released = await this.knex('core_jobs')
      .where({ status: 'running', locked_by: this.workerId })
      .update({ status: 'queued', locked_by: null, locked_at: null, attempts: this.knex.raw('greatest(attempts - 1, 0)') });
    // and they stop here at their next step, rather than run on beside the process that takes them
    for (const abort of this.runningJobs) abort.abort(new JobReleasedError());
    return released;
  }
}
