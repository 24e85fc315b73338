/**
 * Retention (issue 24, PRIVACY.md): the scheduled purges delete exactly what is past its time —
 * expired sessions, ended throttle windows, old email tokens, archives past 7 days, read
 * notifications older than 180 days, finished job rows older than 14 days, once-keys of jobs 30
 * days after their job ended (never while it waits), records of emails sent after 14 days (never
 * while their send job may retry) — and nothing else.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../../core/testing/index.ts';

const DAY = 86400_000;

describe('retention: scheduled purges (issue 24)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.close());

  it('delete exactly the rows past their time', async () => {
    const k = app.knex;
    // a clock a year ahead, so every row written below is placed relative to it
    const now = new Date(Date.now() + 365 * DAY);
    const at = (ms: number) => new Date(now.getTime() + ms);
    const u = await app.user();
    const uid = u.me.id;

    await k('user_sessions').insert([
      { id: 'ret-expired', user_id: uid, data: '{}', expires_at: at(-1000) },
      { id: 'ret-live', user_id: uid, data: '{}', expires_at: at(3600_000) },
    ]);
    await k('accounts_login_limits').insert([
      { key: 'ret:past', points: 3, expire: at(-1).getTime() },
      { key: 'ret:future', points: 3, expire: at(60_000).getTime() },
    ]);
    await k('accounts_recovery_limits').insert([
      { key: 'ret:old', count: 1, window_start: at(-3600_000 - 1000) },
      { key: 'ret:current', count: 1, window_start: at(-600_000) },
    ]);
    const [oldToken] = await k('accounts_email_tokens').insert({ user_id: uid, purpose: 'reset', token_hash: 'ret-old', email: u.me.email, expires_at: at(-DAY - 1000) }).returning('id');
    const [freshToken] = await k('accounts_email_tokens').insert({ user_id: uid, purpose: 'reset', token_hash: 'ret-fresh', email: u.me.email, expires_at: at(-3600_000) }).returning('id');
    const n = (read: boolean, readAt: Date | null, created: Date) => ({ user_id: uid, type: 'admin', title: 't', message: 'm', priority: 'normal', read, read_at: readAt, created_at: created });
    const [oldRead, recentRead, oldUnread] = await k('notifications')
      .insert([n(true, at(-181 * DAY), at(-200 * DAY)), n(true, at(-179 * DAY), at(-200 * DAY)), n(false, null, at(-400 * DAY))])
      .returning('id');
    const job = (status: string, finished: Date | null) => ({ name: 'ret.test', payload: '{}', status, run_at: at(-30 * DAY), finished_at: finished, max_attempts: 1 });
    const [oldDone, oldFailed, recentDone, queued] = await k('core_jobs')
      .insert([job('done', at(-15 * DAY)), job('failed', at(-15 * DAY)), job('done', at(-13 * DAY)), job('queued', null)])
      .returning('id');

    // once-keys (core_job_keys): kept while their job is pending or ended within 30 days; records of
    // emails sent (core_mail_sent): 14 days, longer while their send job is still pending
    const [keyJobOld, keyJobRecent, keyJobPending] = await k('core_jobs')
      .insert([job('done', at(-31 * DAY)), job('done', at(-2 * DAY)), { ...job('queued', null), run_at: at(20 * DAY) }])
      .returning('id');
    const key = (name: string, created: Date, jobId: number | null) => ({ key: `ret:${name}`, job_id: jobId, created_at: created });
    await k('core_job_keys').insert([
      key('ended-long-ago', at(-40 * DAY), keyJobOld.id),
      key('no-job', at(-31 * DAY), null),
      key('waiting', at(-40 * DAY), keyJobPending.id), // e.g. an event reminder queued weeks ahead
      key('ended-lately', at(-40 * DAY), keyJobRecent.id), // the reminder scan may still ask for it
      key('young', at(-29 * DAY), null),
    ]);
    const sent = (name: string, at_: Date) => ({ key: `ret:${name}`, message_id: `<${name}@curio>`, recipient: u.me.email, sent_at: at_ });
    await k('core_mail_sent').insert([sent('old', at(-15 * DAY)), sent('recent', at(-13 * DAY)), sent('retrying', at(-15 * DAY))]);
    await k('core_jobs').insert({ name: 'core.mail.send', payload: '{}', unique_key: 'mail:ret:retrying', status: 'queued', run_at: at(3600_000), max_attempts: 6 });

    app.jobs.setClock(now);
    try {
      await app.jobs.runDue();
    } finally {
      app.jobs.setClock(null);
    }

    expect((await k('core_job_keys').where('key', 'like', 'ret:%').orderBy('key').pluck('key'))).to.deep.equal(['ret:ended-lately', 'ret:waiting', 'ret:young']);
    expect((await k('core_mail_sent').where('key', 'like', 'ret:%').orderBy('key').pluck('key'))).to.deep.equal(['ret:recent', 'ret:retrying']);
    expect(await k('user_sessions').whereIn('id', ['ret-expired', 'ret-live']).pluck('id')).to.deep.equal(['ret-live']);
    expect(await k('accounts_login_limits').whereIn('key', ['ret:past', 'ret:future']).pluck('key')).to.deep.equal(['ret:future']);
    expect(await k('accounts_recovery_limits').whereIn('key', ['ret:old', 'ret:current']).pluck('key')).to.deep.equal(['ret:current']);
    expect(await k('accounts_email_tokens').whereIn('id', [oldToken.id, freshToken.id]).pluck('id')).to.deep.equal([freshToken.id]);
    expect((await k('notifications').whereIn('id', [oldRead.id, recentRead.id, oldUnread.id]).orderBy('id').pluck('id')).map(Number)).to.deep.equal([Number(recentRead.id), Number(oldUnread.id)]);
    expect(await k('core_jobs').whereIn('id', [oldDone.id, oldFailed.id, recentDone.id, queued.id]).orderBy('id').pluck('id')).to.deep.equal([recentDone.id, queued.id]);
    // the purges ran as jobs and logged what they removed
    const runs = await k('core_jobs').whereIn('name', ['accounts.retention', 'notifications.retention', 'core.jobs.purge']).where('status', 'done').select('name', 'result');
    const acc = runs.find((r: any) => r.name === 'accounts.retention').result;
    // (the sign-up's own session and throttle rows also end within that year: at least ours)
    for (const f of ['sessions', 'loginLimits', 'recoveryLimits', 'tokens']) expect(acc[f], f).to.be.at.least(1);
    expect(runs.find((r: any) => r.name === 'notifications.retention').result.deleted).to.be.at.least(1);
    const core = runs.find((r: any) => r.name === 'core.jobs.purge').result;
    expect(core.deleted).to.be.at.least(3);
    expect(core.jobKeys).to.be.at.least(2);
    expect(core.mailSent).to.be.at.least(1);
  });
});

describe('retention windows from config (issue 24)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      retention: { jobKeysDays: 5, mailSentDays: 3 },
      plugins: { config: { accounts: { retention: { emailTokenDays: 3 } }, notifications: { retention: { readNotificationsDays: 30 } } } },
    });
  });
  after(async () => app?.close());

  it('keep email tokens and read notifications for the configured days', async () => {
    const k = app.knex;
    const now = new Date(Date.now() + 365 * DAY);
    const at = (ms: number) => new Date(now.getTime() + ms);
    const u = await app.user();
    const uid = u.me.id;
    // expired 2 days ago: kept with 3 days (gone with the default 1); 4 days ago: gone
    const [twoDays] = await k('accounts_email_tokens').insert({ user_id: uid, purpose: 'reset', token_hash: 'cfg-2d', email: u.me.email, expires_at: at(-2 * DAY) }).returning('id');
    const [fourDays] = await k('accounts_email_tokens').insert({ user_id: uid, purpose: 'reset', token_hash: 'cfg-4d', email: u.me.email, expires_at: at(-4 * DAY) }).returning('id');
    const n = (readAt: Date) => ({ user_id: uid, type: 'admin', title: 't', message: 'm', priority: 'normal', read: true, read_at: readAt, created_at: at(-40 * DAY) });
    // read 31 days ago: gone with 30 days (kept with the default 180); 29 days ago: kept
    const [old, recent] = await k('notifications').insert([n(at(-31 * DAY)), n(at(-29 * DAY))]).returning('id');
    // a once-key 6 days old goes with 5 days (kept with the default 30), one 4 days old stays; an email record 4 days old goes with 3 (kept with 14), one 2 days old stays
    await k('core_job_keys').insert([
      { key: 'cfg:6d', created_at: at(-6 * DAY) },
      { key: 'cfg:4d', created_at: at(-4 * DAY) },
    ]);
    await k('core_mail_sent').insert([
      { key: 'cfg:4d', message_id: '<cfg4@curio>', recipient: u.me.email, sent_at: at(-4 * DAY) },
      { key: 'cfg:2d', message_id: '<cfg2@curio>', recipient: u.me.email, sent_at: at(-2 * DAY) },
    ]);
    app.jobs.setClock(now);
    try {
      await app.jobs.runDue({ only: ['accounts.retention', 'notifications.retention', 'core.jobs.purge'] });
    } finally {
      app.jobs.setClock(null);
    }
    expect(await k('core_job_keys').where('key', 'like', 'cfg:%').pluck('key')).to.deep.equal(['cfg:4d']);
    expect(await k('core_mail_sent').where('key', 'like', 'cfg:%').pluck('key')).to.deep.equal(['cfg:2d']);
    expect(await k('accounts_email_tokens').whereIn('id', [twoDays.id, fourDays.id]).pluck('id')).to.deep.equal([twoDays.id]);
    expect((await k('notifications').whereIn('id', [old.id, recent.id]).pluck('id')).map(Number)).to.deep.equal([Number(recent.id)]);
  });
});
