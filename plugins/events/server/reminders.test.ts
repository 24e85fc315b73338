import { expect } from 'chai';
import type { CurioApp } from '../../../core/app.ts';
import { startTestApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { dueReminders, eveningBefore, REMINDER_SCAN_JOB, REMINDER_SEND_JOB } from './reminders.ts';
import { futureDate, makeCommunity, makeMeetup, meetupBody } from './test-helpers.ts';

const HOUR = 3600_000;

describe('events: reminders the evening before (18:00, member’s zone) and an hour before, once', function () {
  let app: TestApp;
  let organizer: SignedInClient;
  let community: number;

  before(async () => {
    app = await startTestApp();
    organizer = await app.user({ role: 'Ambassador' });
    community = await makeCommunity(organizer);
  });
  after(async () => {
    app?.jobs.setClock(null);
    await app?.close();
  });

  const reminders = async (u: SignedInClient) =>
    ((await u.get('/api/notifications?limit=100')).body.items as any[]).filter((n) => n.type === 'event_reminder' && /^(Tomorrow|Starting in an hour)/.test(n.title)).map((n) => n.title.split(':')[0]);
  const at = async (a: CurioApp, t: number) => {
    a.jobs.setClock(new Date(t));
    // only the reminders' jobs: days ahead, the hourly retention would end the test members' sessions
    await a.jobs.runDue({ only: [REMINDER_SCAN_JOB, REMINDER_SEND_JOB] });
    await a.jobs.drain();
  };
  async function attendee(tz: string, meetupId: number) {
    const u = await app.user();
    await app.knex('users').where({ id: u.me.id }).update({ time_zone: tz });
    expect((await u.post(`/api/communities/${community}/join`, {})).status).to.equal(200);
    expect((await u.post(`/api/meetups/${meetupId}/join`, { status: 'attending' })).status).to.equal(200);
    await app.events.settled(); // the reminders are queued after the RSVP's answer
    return u;
  }

  it('computes the evening before in the member’s zone', () => {
    const start = new Date('2031-06-10T08:00:00Z'); // 10:00 in Paris, 04:00 in New York
    expect(eveningBefore(start, 'Europe/Paris').toISOString()).to.equal('2031-06-09T16:00:00.000Z');
    expect(eveningBefore(start, 'America/New_York').toISOString()).to.equal('2031-06-09T22:00:00.000Z');
    expect(dueReminders(start, 'Europe/Paris', new Date('2031-06-09T15:59:00Z'))).to.deep.equal([]);
    expect(dueReminders(start, 'Europe/Paris', new Date('2031-06-09T16:00:00Z'))).to.deep.equal(['evening']);
    expect(dueReminders(start, 'Europe/Paris', new Date('2031-06-10T07:00:00Z'))).to.deep.equal(['hour']);
    expect(dueReminders(start, 'Europe/Paris', new Date('2031-06-10T08:00:00Z'))).to.deep.equal([]);
  });

  it('sends each reminder once, at its time, in the member’s time zone', async () => {
    const m = await makeMeetup(organizer, community, { date: futureDate(20), startTime: '10:00', timeZone: 'Europe/Paris' });
    const start = new Date(m.dateTime).getTime();
    const paris = await attendee('Europe/Paris', m.id);
    const ny = await attendee('America/New_York', m.id);
    const evParis = eveningBefore(new Date(start), 'Europe/Paris').getTime();
    const evNy = eveningBefore(new Date(start), 'America/New_York').getTime();

    await at(app, evParis - 60_000);
    expect(await reminders(paris)).to.deep.equal([]);
    await at(app, evParis);
    expect(await reminders(paris)).to.deep.equal(['Tomorrow']);
    expect(await reminders(ny)).to.deep.equal([]);
    await at(app, evNy);
    expect(await reminders(ny)).to.deep.equal(['Tomorrow']);
    await at(app, start - HOUR);
    await at(app, start - HOUR + 10 * 60_000);
    expect((await reminders(paris)).sort()).to.deep.equal(['Starting in an hour', 'Tomorrow']);
    expect((await reminders(ny)).sort()).to.deep.equal(['Starting in an hour', 'Tomorrow']);
  });

  it('a moved meetup is reminded at its new time only; a cancelled one not at all', async () => {
    const moved = await makeMeetup(organizer, community, { date: futureDate(30), startTime: '10:00', timeZone: 'UTC' });
    const cancelled = await makeMeetup(organizer, community, { date: futureDate(30), startTime: '11:00', timeZone: 'UTC' });
    const u = await attendee('UTC', moved.id);
    expect((await u.post(`/api/meetups/${cancelled.id}/join`, { status: 'attending' })).status).to.equal(200);
    await app.events.settled();
    const oldStart = new Date(moved.dateTime).getTime();
    // queued, then just before the evening-before reminder is due the meetup moves two days later and
    // the other one is cancelled (a minute early: at the due time itself, the background poller may
    // send it before the change, as it should)
    app.jobs.setClock(new Date(eveningBefore(new Date(oldStart), 'UTC').getTime() - 60_000));
    const put = await organizer.put(`/api/meetups/${moved.id}`, meetupBody({ date: futureDate(32), startTime: '10:00', timeZone: 'UTC' }));
    expect(put.status, put.text).to.equal(200);
    expect((await organizer.del(`/api/meetups/${cancelled.id}`)).status).to.equal(200);
    await at(app, eveningBefore(new Date(oldStart), 'UTC').getTime());
    await at(app, oldStart - HOUR);
    expect(await reminders(u)).to.deep.equal([]);
    const newStart = new Date(put.body.dateTime).getTime();
    expect(newStart).to.equal(oldStart + 2 * 24 * HOUR);
    await at(app, eveningBefore(new Date(newStart), 'UTC').getTime());
    expect(await reminders(u)).to.deep.equal(['Tomorrow']);
  });
  // Two real OS processes: reminders-processes.test.ts.
});
