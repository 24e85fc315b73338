/**
 * Jobs across two real OS processes: two `core/bin/start.ts` children on one PostgreSQL database
 * (what two machines run), each with its own poller and connections. Mail jobs queued in the
 * shared table are each claimed by one process and sent once over real SMTP (120 of them: enough
 * for both pollers, every 200 ms in tests, to take some).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { waitFor } from './testing/index.ts';
import { startSmtpServer, type TestSmtp } from './testing/smtp.ts';
import { createRunDatabase, startChild, type Child } from './quality/fixtures/child.ts';
import { MAIL_JOB } from './mail.ts';

describe('core jobs: exactly once across two OS processes on one PostgreSQL', function () {
  this.timeout(300_000);
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  let smtp: TestSmtp | null = null;
  const children: Child[] = [];
  const dirs: string[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) {
      console.log('    skipped: two processes need PostgreSQL (set DATABASE_URL)');
      return this.skip();
    }
    db = await createRunDatabase('jobs2');
    smtp = await startSmtpServer();
    const dir = () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-jobs2-'));
      dirs.push(d);
      return d;
    };
    const env = { SMTP_URL: smtp.url, LOG_LEVEL: 'error' };
    // one after the other: the first applies the migrations
    children.push(await startChild({ databaseUrl: db.url, dataDir: dir(), env }));
    children.push(await startChild({ databaseUrl: db.url, dataDir: dir(), env }));
  });
  after(async () => {
    await Promise.all(children.map((c) => c.kill('SIGTERM')));
    await db?.drop();
    await smtp?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('120 queued mail jobs: each claimed once, by both processes between them, each email received once', async () => {
    const n = 120;
    const rows = Array.from({ length: n }, (_, i) => ({
      name: MAIL_JOB,
      payload: JSON.stringify({ key: `two-processes:${i}`, message: { to: `twoproc${i}@example.test`, subject: `Job ${i}`, text: `job ${i}`, html: `<p>job ${i}</p>` } }),
      status: 'queued',
      run_at: db!.knex.fn.now(),
      max_attempts: 6,
    }));
    const ids: number[] = (await db!.knex('core_jobs').insert(rows).returning('id')).map((r: any) => r.id);
    const done = await waitFor(
      async () => {
        const list = await db!.knex('core_jobs').whereIn('id', ids).select('id', 'status', 'attempts', 'locked_by');
        return list.every((r: any) => r.status === 'done') ? list : null;
      },
      { timeout: 120_000, interval: 250 },
    );
    // a duplicate would arrive after the job is marked done: give it time
    await new Promise((r) => setTimeout(r, 1500));
    expect(done.map((r: any) => r.attempts).filter((a: number) => a !== 1), 'claimed more than once').to.deep.equal([]);
    for (let i = 0; i < n; i++) expect(smtp!.to(`twoproc${i}@example.test`), `email ${i}`).to.have.length(1);
    const workers = new Set(done.map((r: any) => String(r.locked_by)));
    const pids = new Set([...workers].map((w) => w.split(':')[1]));
    expect([...pids].sort(), 'both processes took jobs').to.deep.equal(children.map((c) => String(c.proc.pid)).sort());
  });
});
