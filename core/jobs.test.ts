import { expect } from 'chai';
import pino from 'pino';
import { openDatabase } from './db.ts';
import { Jobs, every, hourlyAt, backoffMs } from './jobs.ts';
import { startTestApp, type TestApp } from './testing/index.ts';

const silent = pino({ level: 'silent' });

describe('core jobs: scheduled, de-duplicated, retried, exactly once', function () {
  let app: TestApp;
  let jobs: Jobs;
  const t0 = new Date('2030-03-04T10:00:00Z');
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });
  beforeEach(() => {
    // a worker of our own that only runs when told (runDue), on a clock we move
    jobs = new Jobs(app.knex, silent);
    jobs.setClock(t0);
  });

  it('runs a job only once its time has come (controllable clock)', async () => {
    const ran: string[] = [];
    jobs.define('test.at', async (p) => void ran.push(p.tag));
    await jobs.enqueue('test.at', { tag: 'later' }, { runAt: new Date(t0.getTime() + 3600_000) });
    expect(await jobs.runDue()).to.equal(0);
    jobs.setClock(new Date(t0.getTime() + 3599_000));
    expect(await jobs.runDue()).to.equal(0);
    jobs.setClock(new Date(t0.getTime() + 3600_000));
    expect(await jobs.runDue()).to.equal(1);
    expect(ran).to.deep.equal(['later']);
    expect(await jobs.runDue()).to.equal(0);
  });

  it('de-duplicates pending jobs by key, even when enqueued concurrently', async () => {
    const ran: number[] = [];
    jobs.define('test.dedupe', async (p) => void ran.push(p.n));
    const rows = await Promise.all(Array.from({ length: 8 }, (_, n) => jobs.enqueue('test.dedupe', { n }, { uniqueKey: 'dedupe:1' })));
    expect(new Set(rows.map((r) => Number(r.id))).size).to.equal(1);
    await jobs.runDue();
    expect(ran).to.have.length(1);
    // once done, the key may be used again
    await jobs.enqueue('test.dedupe', { n: 99 }, { uniqueKey: 'dedupe:1' });
    await jobs.runDue();
    expect(ran).to.have.length(2);
  });

  it('enqueueOnce uses a key once ever, and cancel() removes pending jobs by key prefix', async () => {
    const ran: string[] = [];
    jobs.define('test.once', async (p) => void ran.push(p.k));
    const results = await Promise.all([1, 2, 3, 4].map(() => jobs.enqueueOnce('test.once', { k: 'a' }, 'once:a')));
    expect(results.filter(Boolean)).to.have.length(1);
    await jobs.runDue();
    expect(await jobs.enqueueOnce('test.once', { k: 'a' }, 'once:a')).to.equal(null);
    await jobs.enqueueOnce('test.once', { k: 'b' }, 'once:b:1', { runAt: new Date(t0.getTime() + 60_000) });
    await jobs.enqueueOnce('test.once', { k: 'c' }, 'once:b:2', { runAt: new Date(t0.getTime() + 60_000) });
    expect(await jobs.reschedule('once:b:2', new Date(t0.getTime() + 120_000))).to.equal(true);
    expect(await jobs.cancel('once:b:1')).to.equal(1);
    jobs.setClock(new Date(t0.getTime() + 60_000));
    await jobs.runDue();
    expect(ran).to.deep.equal(['a']);
    jobs.setClock(new Date(t0.getTime() + 120_000));
    await jobs.runDue();
    expect(ran).to.deep.equal(['a', 'c']);
  });

  it('retries a failing job with growing delays, then marks it failed', async () => {
    let calls = 0;
    jobs.define('test.flaky', async () => {
      calls++;
      throw new Error('boom');
    });
    const job = await jobs.enqueue('test.flaky', {}, { maxAttempts: 3 });
    await jobs.runDue();
    expect(calls).to.equal(1);
    let row = (await jobs.get(Number(job.id)))!;
    expect(row.status).to.equal('queued');
    const delay1 = new Date(row.run_at).getTime() - t0.getTime();
    expect(delay1).to.be.within(1600, 2400); // 2 s ± 20 %
    // not yet due: nothing runs
    expect(await jobs.runDue()).to.equal(0);
    jobs.setClock(new Date(row.run_at));
    await jobs.runDue();
    row = (await jobs.get(Number(job.id)))!;
    const delay2 = new Date(row.run_at).getTime() - new Date(t0.getTime() + delay1).getTime();
    expect(delay2).to.be.within(3200, 4800);
    jobs.setClock(new Date(row.run_at));
    await jobs.runDue();
    row = (await jobs.get(Number(job.id)))!;
    expect(calls).to.equal(3);
    expect(row.status).to.equal('failed');
    expect(row.error).to.equal('boom');
    expect(backoffMs(20)).to.be.at.most(3600_000 * 1.2);
  });

  it('repeats a job on its schedule, one pending occurrence at a time', async () => {
    const seen: string[] = [];
    jobs.repeat('test.hourly', hourlyAt(5), async (_p, h) => void seen.push(h.now.toISOString()));
    await jobs.ensureSchedules();
    await jobs.ensureSchedules();
    expect(await app.knex('core_jobs').where({ name: 'test.hourly', status: 'queued' }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
    expect(await jobs.runDue()).to.equal(1); // the first occurrence at once (10:00), then on schedule: 10:05
    expect(await jobs.runDue()).to.equal(0);
    jobs.setClock(new Date('2030-03-04T10:05:00Z'));
    expect(await jobs.runDue()).to.equal(1);
    jobs.setClock(new Date('2030-03-04T10:30:00Z'));
    expect(await jobs.runDue()).to.equal(0);
    jobs.setClock(new Date('2030-03-04T11:05:00Z'));
    expect(await jobs.runDue()).to.equal(1);
    expect(seen).to.deep.equal(['2030-03-04T10:00:00.000Z', '2030-03-04T10:05:00.000Z', '2030-03-04T11:05:00.000Z']);
    const pending = await app.knex('core_jobs').where({ name: 'test.hourly', status: 'queued' }).select('run_at');
    expect(pending.map((r) => new Date(r.run_at).toISOString())).to.deep.equal(['2030-03-04T12:05:00.000Z']);
    expect(every(60_000).next(new Date('2030-03-04T10:00:30Z')).toISOString()).to.equal('2030-03-04T10:01:00.000Z');
  });

  it('runs each job exactly once with two workers on their own connections (PostgreSQL)', async function () {
    if (!app.config.databaseUrl) {
      // one embedded database is one connection in one process: two workers cannot compete
      this.test!.title += ' — PostgreSQL only';
      return;
    }
    const other = await openDatabase(app.config, { poolMax: 4 });
    try {
      const a = new Jobs(app.knex, silent);
      const b = new Jobs(other.knex, silent);
      const runs = new Map<number, number>();
      const handler = async (p: any) => {
        await new Promise((r) => setTimeout(r, 2));
        runs.set(p.i, (runs.get(p.i) ?? 0) + 1);
      };
      for (const j of [a, b]) {
        j.setClock(t0);
        j.define('test.race', handler);
      }
      for (let i = 0; i < 40; i++) await a.enqueue('test.race', { i });
      const [na, nb] = await Promise.all([a.runDue(), b.runDue()]);
      expect(na + nb).to.equal(40);
      expect(na).to.be.greaterThan(0);
      expect(nb).to.be.greaterThan(0);
      expect([...runs.values()].every((n) => n === 1)).to.equal(true);
      expect(runs.size).to.equal(40);
    } finally {
      await other.close();
    }
  });
});
