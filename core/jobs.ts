import os from 'node:os';
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';

export interface JobRecord {
  id: number;
  name: string;
  payload: any;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
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
}

type JobHandler = (payload: any, helpers: JobHelpers) => Promise<unknown>;

/**
 * Background jobs kept in PostgreSQL (table core_jobs), claimed with FOR UPDATE SKIP LOCKED so
 * that with several app processes each job runs exactly once. Works on PGlite too. pg-boss and
 * graphile-worker need LISTEN/NOTIFY and a connection pool, which the embedded database lacks.
 */
export class Jobs {
  private handlers = new Map<string, JobHandler>();
  private periodic = new Map<string, { everyMs: number; timer: NodeJS.Timeout | null }>();
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopped = false;
  private idle: Array<() => void> = [];
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;

  constructor(private knex: Knex, private log: Logger, private opts: { pollMs?: number; concurrency?: number } = {}) {}

  define(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  /**
   * A job that runs about every `everyMs` (first an interval after start), once across all
   * processes: each process's timer queues it unless a run is queued, running or finished less
   * than half an interval ago; the queue's unique key keeps concurrent timers to one run.
   */
  every(name: string, everyMs: number, handler: JobHandler): void {
    this.define(name, handler);
    this.periodic.set(name, { everyMs, timer: null });
  }

  /** Queues a periodic job unless it ran recently (see every()); answers whether it queued it. */
  async schedulePeriodic(name: string): Promise<boolean> {
    const p = this.periodic.get(name);
    if (!p) throw new Error(`${name} is not a periodic job`);
    const recent = await this.knex('core_jobs')
      .where({ name })
      .where((q) =>
        q
          .whereIn('status', ['queued', 'running'])
          .orWhere('finished_at', '>', this.knex.raw(`now() - (? * interval '1 millisecond')`, [Math.floor(p.everyMs / 2)])),
      )
      .first('id');
    if (recent) return false;
    try {
      await this.enqueue(name, {}, { uniqueKey: `every:${name}`, maxAttempts: 1 });
      return true;
    } catch (err: any) {
      if (err?.code === '23505') return false; // another process queued it at the same moment
      throw err;
    }
  }

  /** Queues a job. With uniqueKey, an identical queued or running job is reused. */
  async enqueue(name: string, payload: unknown = {}, opts: { uniqueKey?: string; runAt?: Date; maxAttempts?: number } = {}): Promise<JobRecord> {
    if (opts.uniqueKey) {
      const existing = await this.knex('core_jobs').where({ unique_key: opts.uniqueKey }).whereIn('status', ['queued', 'running']).first();
      if (existing) return existing;
    }
    const [row] = await this.knex('core_jobs')
      .insert({
        name,
        payload: JSON.stringify(payload ?? {}),
        unique_key: opts.uniqueKey ?? null,
        run_at: opts.runAt ?? this.knex.fn.now(),
        max_attempts: opts.maxAttempts ?? 3,
      })
      .returning('*');
    this.kick();
    return row;
  }

  async get(id: number): Promise<JobRecord | undefined> {
    return this.knex('core_jobs').where({ id }).first();
  }

  start(): void {
    this.stopped = false;
    const poll = this.opts.pollMs ?? 1000;
    this.timer = setInterval(() => this.kick(), poll);
    this.timer.unref();
    for (const [name, p] of this.periodic) {
      if (p.timer) continue;
      p.timer = setInterval(() => {
        this.schedulePeriodic(name).catch((err) => this.log.error({ err, job: name }, 'could not schedule a periodic job'));
      }, p.everyMs);
      p.timer.unref();
    }
    this.kick();
  }

  private kick(): void {
    if (this.stopped || this.timer === null) return;
    const max = this.opts.concurrency ?? 1;
    if (this.running >= max) return;
    this.running++;
    this.runOne()
      .then((ran) => {
        this.running--;
        if (ran) this.kick();
        else if (this.running === 0) this.idle.splice(0).forEach((f) => f());
      })
      .catch((err) => {
        this.running--;
        this.log.error({ err }, 'job poll failed');
      });
  }

  private async runOne(): Promise<boolean> {
    if (this.stopped) return false;
    const names = [...this.handlers.keys()];
    if (names.length === 0) return false;
    const claimed = await this.knex.transaction(async (trx) => {
      const row = await trx('core_jobs')
        .whereIn('name', names)
        .where('status', 'queued')
        .where('run_at', '<=', trx.fn.now())
        .orderBy('id')
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
    try {
      const result = await handler(claimed.payload, {
        job: claimed,
        log,
        progress: async (done, total) => {
          await this.knex('core_jobs').where({ id: claimed.id }).update({ progress: JSON.stringify({ done, total }) });
        },
      });
      await this.knex('core_jobs')
        // still ours: not released back to the queue by a shutdown meanwhile
        .where({ id: claimed.id, locked_by: this.workerId })
        .update({ status: 'done', result: JSON.stringify(result ?? null), finished_at: this.knex.fn.now() });
    } catch (err: any) {
      log.error({ err }, 'job failed');
      const retry = claimed.attempts < (claimed as any).max_attempts;
      await this.knex('core_jobs')
        .where({ id: claimed.id, locked_by: this.workerId })
        .update({
          status: retry ? 'queued' : 'failed',
          error: String(err?.message ?? err),
          run_at: retry ? new Date(Date.now() + 1000 * 2 ** claimed.attempts) : undefined,
          finished_at: retry ? null : this.knex.fn.now(),
        });
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
    for (const p of this.periodic.values()) {
      if (p.timer) clearInterval(p.timer);
      p.timer = null;
    }
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
    return this.knex('core_jobs')
      .where({ status: 'running', locked_by: this.workerId })
      .update({ status: 'queued', locked_by: null, locked_at: null, attempts: this.knex.raw('greatest(attempts - 1, 0)') });
  }
}
