/**
 * Closures and public holidays over HTTP: stored with the opening hours through create, edit and
 * suggestions; open-now, the museum answer's holidays and the Discover open-now filter use them.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService } from '../public.ts';
import type { WeeklyHours } from '../shared/catalog.ts';
import { isoDate, localDateTime } from '../shared/opening-hours.ts';
import { holidaysAround } from './holidays.ts';

const allDay = { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
const allWeek = (e: object): WeeklyHours => Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, e])) as WeeklyHours;

/** A local date at the museum, `n` days from today. */
function localDay(tz: string, n: number): string {
  const t = localDateTime(new Date(), tz);
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day + n));
  return isoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

let app: TestApp;
let member: SignedInClient;
let admin: SignedInClient;

describe('museums API: closures, special hours and public holidays', function () {
  this.timeout(60000);
  const city = uniqueName('Closureville');
  const tz = 'Europe/Paris';
  let openMuseum: any;
  let closedMuseum: any;

  before(async () => {
    app = await sharedApp();
    member = await app.user();
    admin = await app.user({ role: 'Admin' });
    const base = { address: '1 Rue de Test', city, country: 'France', category: 'Art Museums', timezone: tz, latitude: 48.86, longitude: 2.34 };
    const a = await member.post('/api/museums', { ...base, name: uniqueName('Always Open '), openingHours: { defaultHours: allWeek(allDay) } });
    expect(a.status, a.text).to.equal(201);
    openMuseum = a.body;
    const b = await member.post('/api/museums', {
      ...base,
      name: uniqueName('Closed For Works '),
      openingHours: { defaultHours: allWeek(allDay), exceptions: [{ startDate: localDay(tz, -1), endDate: localDay(tz, 1), closed: true, note: 'Closed for installation' }] },
    });
    expect(b.status, b.text).to.equal(201);
    closedMuseum = b.body;
  });

  it('stores the closure and answers closed now, with the note in the stored hours', async () => {
    expect(openMuseum.isOpen).to.equal(true);
    expect(closedMuseum.isOpen).to.equal(false);
    expect(closedMuseum.openStatus).to.equal('closed');
    expect(closedMuseum.openingHours.exceptions).to.deep.equal([{ startDate: localDay(tz, -1), endDate: localDay(tz, 1), closed: true, note: 'Closed for installation' }]);
    expect(closedMuseum.openingHours.publicHolidays).to.equal(null);
    expect(closedMuseum.holidays).to.deep.equal([]);
  });

  it('GET /api/museums?open=now keeps only the museums open now', async () => {
    const all = await app.client().get(`/api/museums?q=${encodeURIComponent(city)}`);
    expect(all.body.items.map((m: any) => m.id)).to.have.members([openMuseum.id, closedMuseum.id]);
    const r = await app.client().get(`/api/museums?q=${encodeURIComponent(city)}&open=now`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.items.map((m: any) => m.id)).to.deep.equal([openMuseum.id]);
    expect(r.body.total).to.equal(1);
    const bad = await app.client().get('/api/museums?open=later');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.be.a('string');
  });

  it('a holiday rule brings the holidays of the coming two weeks from date-holidays', async () => {
    const policy = { country: 'FR', mode: 'closed' as const };
    const r = await admin.patch(`/api/museums/${openMuseum.id}/edit`, { openingHours: { defaultHours: allWeek(allDay), publicHolidays: policy } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.openingHours.publicHolidays).to.deep.equal(policy);
    expect(r.body.holidays).to.deep.equal(holidaysAround(policy, new Date(), tz));
    const today = localDay(tz, 0);
    const isHoliday = r.body.holidays.some((h: any) => h.date === today);
    expect(r.body.isOpen).to.equal(!isHoliday);
  });

  it('refuses an unknown holiday country or region and holiday hours without times', async () => {
    const bad = await admin.patch(`/api/museums/${openMuseum.id}/edit`, { openingHours: { defaultHours: allWeek(allDay), publicHolidays: { country: 'XX', mode: 'closed' } } });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('Unknown country or region for public holidays');
    const region = await admin.patch(`/api/museums/${openMuseum.id}/edit`, { openingHours: { defaultHours: allWeek(allDay), publicHolidays: { country: 'US', region: 'ZZ', mode: 'closed' } } });
    expect(region.status).to.equal(400);
    const noTimes = await admin.patch(`/api/museums/${openMuseum.id}/edit`, { openingHours: { defaultHours: allWeek(allDay), publicHolidays: { country: 'FR', mode: 'hours' } } });
    expect(noTimes.status).to.equal(400);
    const noExTimes = await admin.patch(`/api/museums/${openMuseum.id}/edit`, { openingHours: { defaultHours: allWeek(allDay), exceptions: [{ startDate: '2026-12-31', closed: false }] } });
    expect(noExTimes.status).to.equal(400);
  });

  it('a suggested closure reaches the museum only when approved', async () => {
    const hours = { defaultHours: allWeek(allDay), exceptions: [{ startDate: localDay(tz, 0), closed: false, openTime: '00:00', closeTime: '00:30', note: 'Early closing today' }] };
    const s = await member.post(`/api/museums/${openMuseum.id}/suggest-edit`, { suggestedChanges: { openingHours: hours }, reason: 'Posted at the door' });
    expect(s.status, s.text).to.equal(201);
    expect((await app.client().get(`/api/museums/${openMuseum.id}`)).body.openingHours.exceptions).to.deep.equal([]);
    await app.services.get(MuseumsService).approveEditSuggestion(s.body.id, admin.me.id);
    const after = (await app.client().get(`/api/museums/${openMuseum.id}`)).body;
    expect(after.openingHours.exceptions).to.deep.equal([{ startDate: localDay(tz, 0), endDate: localDay(tz, 0), closed: false, openTime: '00:00', closeTime: '00:30', note: 'Early closing today' }]);
  });
});

describe('museums API: admission and free entry', function () {
  this.timeout(60000);
  it('stores prices in cents and free rules; answers isFreeToday / isFreeNow; refuses bad input with 400', async () => {
    const app = await sharedApp();
    const m = await app.user();
    const admission = { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 2200 }, { visitorType: 'child', cents: 0 }], freeRules: [{ kind: 'always', note: 'Free for everyone' }] };
    const r = await m.post('/api/museums', { name: uniqueName('Free Museum '), address: '1 Rue', city: 'Lyon', country: 'France', timezone: 'Europe/Paris', admission });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.admission).to.deep.equal(admission);
    expect(r.body).to.include({ isFreeToday: true, isFreeNow: true });
    const none = await m.post('/api/museums', { name: uniqueName('Paying Museum '), address: '1 Rue', city: 'Lyon', country: 'France' });
    expect(none.body).to.include({ admission: null, isFreeToday: false, isFreeNow: false });
    const bad = await m.post('/api/museums', { name: uniqueName('Bad '), address: '1 Rue', city: 'Lyon', country: 'France', admission: { ...admission, prices: [{ visitorType: 'adult', cents: 12.5 }] } });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.be.a('string');
    // ?free=now and ?free=today keep only the museums free for everyone (an age rule does not count)
    const city = uniqueName('Freeville');
    const base = { address: '2 Rue', city, country: 'France', timezone: 'Europe/Paris' };
    const always = (await m.post('/api/museums', { ...base, name: uniqueName('Always Free '), admission })).body;
    await m.post('/api/museums', { ...base, name: uniqueName('Kids Free '), admission: { currency: 'EUR', prices: [], freeRules: [{ kind: 'age', maxAge: 17 }] } });
    await m.post('/api/museums', { ...base, name: uniqueName('No Admission Known ') });
    for (const f of ['now', 'today']) {
      const list = await app.client().get(`/api/museums?q=${encodeURIComponent(city)}&free=${f}`);
      expect(list.status, list.text).to.equal(200);
      expect(list.body.items.map((x: any) => x.id)).to.deep.equal([always.id]);
    }
    expect((await app.client().get(`/api/museums?q=${encodeURIComponent(city)}`)).body.total).to.equal(3);
    expect((await app.client().get('/api/museums?free=sometimes')).status).to.equal(400);
    const noWeekday = await m.post('/api/museums', { name: uniqueName('Bad '), address: '1 Rue', city: 'Lyon', country: 'France', admission: { ...admission, freeRules: [{ kind: 'weekly' }] } });
    expect(noWeekday.status).to.equal(400);
  });
});

describe('museums API: accessibility facts', function () {
  this.timeout(60000);
  it('answers every fact (unknown unless reported), stores yes / limited / no with notes, filters on yes in SQL', async () => {
    const app = await sharedApp();
    const m = await app.user();
    const admin = await app.user({ role: 'Admin' });
    const city = uniqueName('Accessville');
    const base = { address: '3 Rue', city, country: 'France' };
    const plain = (await m.post('/api/museums', { ...base, name: uniqueName('Unknown Access ') })).body;
    expect(plain.accessibility.stepFreeEntrance).to.deep.equal({ value: 'unknown' });
    expect(Object.keys(plain.accessibility)).to.have.length(10);
    const stepFree = (
      await m.post('/api/museums', {
        ...base,
        name: uniqueName('Step Free '),
        accessibility: { stepFreeEntrance: { value: 'yes', note: ' Ramp at the side door ' }, accessibleToilets: { value: 'yes' }, liftsAllFloors: { value: 'limited', note: 'Not to the mezzanine' } },
      })
    ).body;
    expect(stepFree.accessibility.stepFreeEntrance).to.deep.equal({ value: 'yes', note: 'Ramp at the side door' });
    expect(stepFree.accessibility.liftsAllFloors).to.deep.equal({ value: 'limited', note: 'Not to the mezzanine' });
    expect(stepFree.accessibility.wheelchairLoan).to.deep.equal({ value: 'unknown' });
    const limited = (await m.post('/api/museums', { ...base, name: uniqueName('Limited '), accessibility: { stepFreeEntrance: { value: 'limited' }, accessibleToilets: { value: 'yes' } } })).body;
    const list = async (q: string) => (await app.client().get(`/api/museums?q=${encodeURIComponent(city)}${q}`)).body.items.map((x: any) => x.id);
    expect(await list('&access=stepFreeEntrance')).to.deep.equal([stepFree.id]);
    expect(await list('&access=accessibleToilets')).to.have.members([stepFree.id, limited.id]);
    expect(await list('&access=stepFreeEntrance,accessibleToilets')).to.deep.equal([stepFree.id]);
    const bad = await app.client().get('/api/museums?access=teleporter');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('Unknown accessibility fact: teleporter');
    expect((await m.post('/api/museums', { ...base, name: uniqueName('Bad '), accessibility: { stepFreeEntrance: { value: 'maybe' } } })).status).to.equal(400);
    // an approved suggestion changes a fact
    const s = await m.post(`/api/museums/${plain.id}/suggest-edit`, { suggestedChanges: { accessibility: { ...plain.accessibility, assistanceDogs: { value: 'yes' } } } });
    expect(s.status, s.text).to.equal(201);
    await app.services.get(MuseumsService).approveEditSuggestion(s.body.id, admin.me.id);
    expect((await app.client().get(`/api/museums/${plain.id}`)).body.accessibility.assistanceDogs).to.deep.equal({ value: 'yes' });
  });
});
