/**
 * Meetups checked against the museum's opening hours (issue 20), over HTTP: a meetup outside the
 * hours is saved with a warning (closed day, dated closure with its note, public holiday, before
 * opening or after closing), judged on the museum's clock in its zone — across the daylight-saving
 * changes of Europe/Paris and America/New_York, and when the meetup is entered in another zone —
 * and none inside the hours. The meetup page's answer carries it for everyone; the form's live
 * check (GET /api/meetup-hours-check) answers the same.
 *
 * Dates are in 2038, which has 2027's calendar and summer-time Sundays (Europe 28 March, United
 * States 14 March and 7 November) and lies well in the future: a meetup in the past is refused.
 */
import { expect } from 'chai';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { makeCommunity, makeMuseum, meetupBody } from './test-helpers.ts';

const open = (openTime: string, closeTime: string) => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const closed = { isOpen: false, isByAppointment: false };
/** Tuesday to Sunday 10:00–18:00, closed on Mondays. */
const week = (o = '10:00', c = '18:00') => ({
  monday: closed, tuesday: open(o, c), wednesday: open(o, c), thursday: open(o, c), friday: open(o, c), saturday: open(o, c), sunday: open(o, c),
});

describe('events: meetups checked against the museum’s opening hours', function () {
  this.timeout(60000);
  let app: TestApp;
  let organizer: SignedInClient;
  let communityId: number;
  let paris: { id: number };
  let newYork: { id: number };
  let noHours: { id: number };

  before(async () => {
    app = await sharedApp();
    organizer = await app.user({ role: 'Ambassador' });
    communityId = await makeCommunity(organizer);
    paris = await makeMuseum(app, {
      timezone: 'Europe/Paris',
      openingHours: {
        defaultHours: week(),
        seasonalHours: [],
        exceptions: [{ startDate: '2038-04-14', endDate: '2038-04-14', closed: true, note: 'Closed for installation' }],
        publicHolidays: { country: 'FR', mode: 'closed' },
      },
    });
    newYork = await makeMuseum(app, { city: 'New York', country: 'United States', timezone: 'America/New_York', openingHours: { defaultHours: week('10:00', '17:00'), seasonalHours: [] } });
    noHours = await makeMuseum(app);
  });

  const create = async (museumId: number, over: Record<string, unknown>) => {
    const r = await organizer.post(`/api/communities/${communityId}/meetups`, meetupBody({ museumId, ...over }));
    expect(r.status, r.text).to.equal(201);
    return r.body;
  };

  it('warns when the museum is closed that day, with no refusal: a Monday', async () => {
    const m = await create(paris.id, { date: '2038-03-22', startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' });
    expect(m.id).to.be.a('number');
    expect(m.hoursWarning).to.deep.equal({ status: 'closed_day', date: '2038-03-22', startTime: '11:00', endTime: '12:00', openTime: null, closeTime: null, note: null, holiday: null });
  });

  it('warns on a dated closure with its note, and on a public holiday with its name', async () => {
    const closure = await create(paris.id, { date: '2038-04-14', startTime: '11:00', endTime: '12:00' });
    expect(closure.hoursWarning).to.include({ status: 'closed_day', note: 'Closed for installation', holiday: null });
    // 1 May is a public holiday in France (date-holidays), a Saturday in 2038: the museum closes on holidays
    const holiday = await create(paris.id, { date: '2038-05-01', startTime: '11:00', endTime: '12:00' });
    expect(holiday.hoursWarning.status).to.equal('closed_day');
    expect(holiday.hoursWarning.holiday).to.be.a('string').and.not.equal('');
    // the Saturday after is an ordinary Saturday
    const saturday = await create(paris.id, { date: '2038-05-15', startTime: '11:00', endTime: '12:00' });
    expect(saturday.hoursWarning).to.equal(null);
  });

  it('Europe/Paris on its spring-forward day (28 March 2038): inside the hours no warning, before opening or past closing a warning', async () => {
    const inside = await create(paris.id, { date: '2038-03-28', startTime: '10:00', endTime: '18:00', timeZone: 'Europe/Paris' });
    expect(inside.dateTime).to.equal('2038-03-28T08:00:00.000Z'); // UTC+2 from 03:00 that night
    expect(inside.hoursWarning).to.equal(null);
    const early = await create(paris.id, { date: '2038-03-28', startTime: '09:30', endTime: '11:00', timeZone: 'Europe/Paris' });
    expect(early.hoursWarning).to.deep.equal({ status: 'outside_hours', date: '2038-03-28', startTime: '09:30', endTime: '11:00', openTime: '10:00', closeTime: '18:00', note: null, holiday: null });
    const late = await create(paris.id, { date: '2038-03-28', startTime: '17:00', endTime: '18:30', timeZone: 'Europe/Paris' });
    expect(late.hoursWarning).to.include({ status: 'outside_hours', endTime: '18:30' });
  });

  it('a meetup entered in New York time at the Paris museum is judged on the museum’s clock (5 hours apart between the two springs)', async () => {
    // 23 March 2038: New York is already on summer time (UTC-4), Paris not yet (UTC+1)
    const early = await create(paris.id, { date: '2038-03-23', startTime: '04:30', endTime: '06:00', timeZone: 'America/New_York' });
    expect(early.hoursWarning).to.include({ status: 'outside_hours', date: '2038-03-23', startTime: '09:30', endTime: '11:00' });
    const inside = await create(paris.id, { date: '2038-03-23', startTime: '05:00', endTime: '07:00', timeZone: 'America/New_York' });
    expect(inside.hoursWarning).to.equal(null);
  });

  it('America/New_York on its fall-back day (7 November 2038): 10:00–17:00 is inside, 16:00–17:30 is not', async () => {
    const inside = await create(newYork.id, { date: '2038-11-07', startTime: '10:00', endTime: '17:00', timeZone: null }); // the museum's zone
    expect(inside.timeZone).to.equal('America/New_York');
    expect(inside.dateTime).to.equal('2038-11-07T15:00:00.000Z'); // UTC-5 after 02:00 that night
    expect(inside.hoursWarning).to.equal(null);
    const late = await create(newYork.id, { date: '2038-11-07', startTime: '16:00', endTime: '17:30', timeZone: null });
    expect(late.hoursWarning).to.include({ status: 'outside_hours', openTime: '10:00', closeTime: '17:00' });
  });

  it('no warning without a museum or when the museum’s hours are unknown', async () => {
    const none = await organizer.post(`/api/communities/${communityId}/meetups`, meetupBody({ date: '2038-03-22' }));
    expect(none.body.hoursWarning).to.equal(null);
    const unknown = await create(noHours.id, { date: '2038-03-22', startTime: '03:00', endTime: '04:00' });
    expect(unknown.hoursWarning).to.equal(null);
  });

  it('the meetup page shows the warning to everyone, and an edit moves it in or out of the hours', async () => {
    const m = await create(paris.id, { date: '2038-03-23', startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' });
    expect(m.hoursWarning).to.equal(null);
    const moved = await organizer.put(`/api/meetups/${m.id}`, meetupBody({ museumId: paris.id, date: '2038-03-23', startTime: '19:00', endTime: '20:00', timeZone: 'Europe/Paris' }));
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.hoursWarning).to.include({ status: 'outside_hours', startTime: '19:00' });
    const visitor = await app.client().get(`/api/meetups/${m.id}`);
    expect(visitor.status).to.equal(200);
    expect(visitor.body.hoursWarning).to.include({ status: 'outside_hours', openTime: '10:00', closeTime: '18:00' });
    const back = await organizer.put(`/api/meetups/${m.id}`, meetupBody({ museumId: paris.id, date: '2038-03-23', startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' }));
    expect(back.body.hoursWarning).to.equal(null);
    expect((await app.client().get(`/api/meetups/${m.id}`)).body.hoursWarning).to.equal(null);
  });

  it('lists carry each meetup’s warning too (the community’s meetups, GET /api/meetups), for visitors as well', async () => {
    const c = await makeCommunity(organizer);
    const inside = await create(paris.id, { date: '2038-03-24', startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' });
    const monday = await create(paris.id, { date: '2038-03-22', startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' });
    const late = await create(newYork.id, { date: '2038-03-24', startTime: '16:30', endTime: '17:30', timeZone: 'America/New_York' });
    const noMuseum = await organizer.post(`/api/communities/${c}/meetups`, meetupBody({ date: '2038-03-24' }));
    expect(noMuseum.status).to.equal(201);
    const byId = (list: any[]) => new Map(list.map((e) => [e.id, e.hoursWarning]));
    const listed = await organizer.get(`/api/communities/${communityId}/meetups?from=2038-03-21T00:00:00Z&to=2038-03-26T00:00:00Z`);
    expect(listed.status, listed.text).to.equal(200);
    const w = byId(listed.body);
    expect(w.get(inside.id)).to.equal(null);
    expect(w.get(monday.id)).to.deep.equal(monday.hoursWarning).and.include({ status: 'closed_day' });
    expect(w.get(late.id)).to.deep.equal(late.hoursWarning).and.include({ status: 'outside_hours', openTime: '10:00', closeTime: '17:00' });
    const all = byId((await app.client().get('/api/meetups?from=2038-03-21T00:00:00Z&to=2038-03-26T00:00:00Z&limit=200')).body);
    expect(all.get(monday.id)).to.include({ status: 'closed_day' });
    expect(all.get(late.id)).to.include({ status: 'outside_hours' });
    expect(all.get(noMuseum.body.id)).to.equal(null);
  });

  it('GET /api/meetup-hours-check answers the form live, the same way, and saves nothing', async () => {
    const before = Number((await app.knex('events_events').count({ n: '*' }))[0].n);
    const q = (over: Record<string, string>) => new URLSearchParams({ museumId: String(paris.id), date: '2038-03-28', startTime: '09:30', endTime: '11:00', timeZone: 'Europe/Paris', ...over }).toString();
    const early = await organizer.get(`/api/meetup-hours-check?${q({})}`);
    expect(early.status, early.text).to.equal(200);
    expect(early.body.hoursWarning).to.include({ status: 'outside_hours', openTime: '10:00' });
    const inside = await organizer.get(`/api/meetup-hours-check?${q({ startTime: '10:00' })}`);
    expect(inside.body).to.deep.equal({ hoursWarning: null });
    const monday = await organizer.get(`/api/meetup-hours-check?${q({ date: '2038-03-22', startTime: '11:00', endTime: '' })}`);
    expect(monday.body.hoursWarning).to.include({ status: 'closed_day', endTime: null });
    // the museum's zone when none is given
    const museumZone = await organizer.get(`/api/meetup-hours-check?museumId=${paris.id}&date=2038-04-14&startTime=11:00`);
    expect(museumZone.body.hoursWarning).to.include({ status: 'closed_day', note: 'Closed for installation' });
    expect(Number((await app.knex('events_events').count({ n: '*' }))[0].n)).to.equal(before);

    expect((await app.client().get(`/api/meetup-hours-check?${q({})}`)).status).to.equal(401);
    const missing = await organizer.get(`/api/meetup-hours-check?${q({ museumId: '987654' })}`);
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('Museum not found');
    const bad = await organizer.get(`/api/meetup-hours-check?${q({ date: '2038-02-31' })}`);
    expect(bad.status).to.equal(400);
    const badEnd = await organizer.get(`/api/meetup-hours-check?${q({ endTime: '09:00' })}`);
    expect(badEnd.status).to.equal(400);
    expect(badEnd.body.message).to.equal('End time must be after start time');
  });
});
