/**
 * npm run images:variants: the one-off job making responsive variants (core/images.ts) of every
 * image stored before they existed — avatars, community images, meetup and message photos, video
 * posters. Queued as a job (any running app process may take it: its progress is in core_jobs) and
 * run here until done, with a progress bar. Images that have their variants are skipped, so it
 * can run again after an interruption.
 */
import cliProgress from 'cli-progress';
import { withApp } from './cli.ts';
import { IMAGE_VARIANTS_JOB } from '../core/images.ts';

await withApp(async (app) => {
  const job = await app.jobs.enqueue(IMAGE_VARIANTS_JOB, {}, { uniqueKey: IMAGE_VARIANTS_JOB, maxAttempts: 1 });
  const bar = process.stdout.isTTY ? new cliProgress.SingleBar({ format: ' image variants |{bar}| {value}/{total}', hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  let started = false;
  const timer = setInterval(async () => {
    const j = await app.jobs.get(job.id);
    if (!j?.progress) return;
    if (bar && !started) {
      bar.start(j.progress.total, j.progress.done);
      started = true;
    }
    if (bar) bar.update(j.progress.done);
    else console.log(`image variants: ${j.progress.done}/${j.progress.total}`);
  }, 1000);
  try {
    // run it here (this script starts no background worker); another process may hold it instead
    for (;;) {
      const j = await app.jobs.get(job.id);
      if (!j || j.status === 'done' || j.status === 'failed') break;
      if (!(await app.jobs.runDue())) await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    clearInterval(timer);
    bar?.stop();
  }
  const done = await app.jobs.get(job.id);
  if (done?.status === 'done') console.log(`Image variants: ${JSON.stringify(done.result)}`);
  else {
    console.error(`Image variants job ${done?.status ?? 'missing'}: ${done?.error ?? ''} (another process may be running it: see core_jobs id ${job.id})`);
    process.exitCode = 1;
  }
});
process.exit(process.exitCode ?? 0);
