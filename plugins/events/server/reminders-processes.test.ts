/**
 * Event reminders across two real OS processes (two `core/bin/start.ts` children on one
 * PostgreSQL, real SMTP): each reminder is its own job queued for its time, run by one of the
 * processes, in app and by email, once; a cancelled meetup gets none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startSmtpServer, type TestSmtp } from '../../../core/testing/smtp.ts';
import { createRunDatabase, sameSessionOn, signUp, startChild, type Child } from '../../../core/quality/fixtures/child.ts';
import { futureDate, makeCommunity, makeMeetup } from './test-helpers.ts';

const HOUR = 3600_000;

describe('events: reminders sent once at their time across two OS processes (one PostgreSQL, real SMTP)', function () {
  this.timeout(300_000);
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  let smtp: TestSmtp | null = null;
  let a: Child;
  let b: Child;
  const dirs: string[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) {
      console.log('    skipped: two processes need PostgreSQL (set DATABASE_URL)');
      return this.skip();
    }
    db = await createRunDatabase('remind2');
    smtp = await startSmtpServer();
    const dir = () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-remind2-'));
      dirs.push(d);
      return d;
    };
    const env = { SMTP_URL: smtp.url, LOG_LEVEL: 'error' };
    a = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
    b = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
    await smtp?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('the hour-before reminder: at its time, once per attendee (in app and by email), none for a cancelled meetup', async () => {
    const knex = db!.knex;
    const member = async (child: Child, prefix: string) => {
      const u: any = await signUp(child, prefix);
      // a confirmed address, in UTC
      await knex('users').where({ id: u.me.id }).update({ email_verified_at: knex.fn.now(), time_zone: 'UTC' });
      return u;
    };
    const organizer = await member(a, 'rorg');
    await knex('users').where({ id: organizer.me.id }).update({ role: 'Ambassador' });
    const community = await makeCommunity(organizer);
    const kept = await makeMeetup(organizer, community, { date: futureDate(10), startTime: '10:00', timeZone: 'UTC', title: 'Reminded across processes' });
    const dropped = await makeMeetup(organizer, community, { date: futureDate(10), startTime: '11:00', timeZone: 'UTC', title: 'Cancelled before its reminder' });
    const attendees: any[] = [];
    const sessions: any[] = [];
    for (let i = 0; i < 4; i++) {
      const via = i % 2 ? b : a;
      const u = await member(via, `ratt${i}`);
      const on = sameSessionOn(via, u);
      expect((await on.put('/api/user/preferences', { emailNotifications: true, eventReminders: true })).status).to.equal(200);
      expect((await on.post(`/api/communities/${community}/join`, {})).status).to.equal(200);
      attendees.push(u);
      sessions.push(on);
    }
    // both start an hour and 30 s from now (set in the table: the API takes whole minutes), so
    // the hour-before reminder is due in 30 s; the RSVPs queue it
    const start = new Date(Math.ceil((Date.now() + HOUR + 30_000) / 1000) * 1000);
    const due = start.getTime() - HOUR;
    await knex('events_events').whereIn('id', [kept.id, dropped.id]).update({ date_time: start });
    await Promise.all(
      sessions.map(async (on) => {
        for (const m of [kept, dropped]) {
          const r = await on.post(`/api/meetups/${m.id}/join`, { status: 'attending' });
          expect(r.status, r.text).to.equal(200);
        }
      }),
    );
    expect((await organizer.del(`/api/meetups/${dropped.id}`)).status).to.equal(200);
    expect(Date.now(), 'the RSVPs took longer than the 30 s before the reminder').to.be.below(due);

    const subject = `Starting in an hour: ${kept.title}`;
    for (const u of attendees) {
      const mail = await smtp!.waitFor(u.me.email, (m) => m.subject === subject, 90_000);
      expect(mail.receivedAt, 'not before its time').to.be.at.least(due - 1000);
      expect(mail.header('list-unsubscribe-post')).to.equal('List-Unsubscribe=One-Click');
    }
    // a second send would come right after the first: give it time
    await new Promise((r) => setTimeout(r, 3000));
    for (const u of attendees) {
      const mine = smtp!.to(u.me.email);
      expect(mine.filter((m) => m.subject === subject), u.me.email).to.have.length(1);
      expect(mine.filter((m) => m.subject.includes(dropped.title)), 'the cancelled meetup').to.deep.equal([]);
      const inApp = ((await sameSessionOn(a, u).get('/api/notifications?limit=100')).body.items as any[]).filter((n) => n.type === 'event_reminder' && n.title.startsWith('Starting in an hour'));
      expect(inApp.map((n) => n.title)).to.deep.equal([subject]);
    }
    const sends = await knex('core_jobs').where({ name: 'events.reminder.send' }).whereRaw(`payload->>'kind' = 'hour'`).select('status', 'attempts', 'locked_by', knex.raw(`payload->>'eventId' as event_id`));
    expect(sends.filter((s: any) => Number(s.event_id) === kept.id).map((s: any) => [s.status, s.attempts])).to.deep.equal(attendees.map(() => ['done', 1]));
  });
});
