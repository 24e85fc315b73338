/**
 * Guessing the holiday country and region (issue 20): a holiday rule without a country uses the
 * one of the museum's address (ISO code, English or native name, aliases; else its coordinates;
 * the state as a date-holidays region), in the answer's holidays, open-now and the edit form's default
 * (`holidayRegion`).
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService } from '../public.ts';
import { guessHolidayRegion, holidaysAround, publicHolidaysOfYear } from './holidays.ts';
import { MuseumsDomain } from './service.ts';

const open = { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
const WEEK = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, open]));

describe('museums: the holiday country guess', function () {
  this.timeout(60_000);

  it('reads the country (code, English or native name, aliases) and the region (code or name) of an address', () => {
    expect(guessHolidayRegion('France')).to.deep.equal({ country: 'FR' });
    expect(guessHolidayRegion('fr')).to.deep.equal({ country: 'FR' });
    expect(guessHolidayRegion('Deutschland', 'Bayern')).to.deep.equal({ country: 'DE', region: 'BY' });
    expect(guessHolidayRegion('Germany', 'BY')).to.deep.equal({ country: 'DE', region: 'BY' });
    expect(guessHolidayRegion('United States', 'New York')).to.deep.equal({ country: 'US', region: 'NY' });
    expect(guessHolidayRegion('USA', 'Illinois')).to.deep.equal({ country: 'US', region: 'IL' });
    expect(guessHolidayRegion('The Netherlands')).to.deep.equal({ country: 'NL' });
    expect(guessHolidayRegion('UK', 'Nowhere')).to.deep.equal({ country: 'GB' });
    expect(guessHolidayRegion('Atlantis')).to.equal(null);
    expect(guessHolidayRegion('')).to.equal(null);
  });

  it('falls back on the coordinates when the country cannot be read (offline borders), the address winning otherwise', () => {
    expect(guessHolidayRegion('Atlantis', null, 48.8606, 2.3376)).to.deep.equal({ country: 'FR' });
    expect(guessHolidayRegion('', 'Bayern', 48.137, 11.575)).to.deep.equal({ country: 'DE', region: 'BY' });
    expect(guessHolidayRegion(null, null, 35.7188, 139.7765)).to.deep.equal({ country: 'JP' });
    expect(guessHolidayRegion('Spain', null, 48.8606, 2.3376)).to.deep.equal({ country: 'ES' });
    expect(guessHolidayRegion('Atlantis', null, 35, -45)).to.equal(null); // the middle of the North Atlantic
    expect(guessHolidayRegion('Atlantis', null, 91, 0)).to.equal(null);
  });

  it('a rule without a country closes the museum on the public holidays of its address (open-now on a Japanese holiday)', () => {
    const d = new MuseumsDomain(null as any, null as any, { recentCheckInDays: 30 });
    const year = new Date().getUTCFullYear();
    const holiday = publicHolidaysOfYear('JP', undefined, year)[0];
    // noon in Tokyo on the year's first public holiday
    const noon = (date: string) => new Date(`${date}T03:00:00Z`);
    const row = { id: 1, slug: 'x', name: 'X', timezone: 'Asia/Tokyo', country: 'Japan', state: null, accessibility: {}, opening_hours: { defaultHours: WEEK, publicHolidays: { mode: 'closed' } }, created_at: new Date(), updated_at: new Date() };
    const onHoliday = d.toMuseum(row, noon(holiday.date));
    expect(onHoliday.holidayRegion).to.deep.equal({ country: 'JP', guessed: true });
    expect(onHoliday.holidays.map((h) => h.date)).to.include(holiday.date);
    expect(onHoliday.isOpen).to.equal(false);
    // the same museum with normal hours on holidays is open then
    const normal = d.toMuseum({ ...row, opening_hours: { defaultHours: WEEK, publicHolidays: { mode: 'normal' } } }, noon(holiday.date));
    expect(normal.isOpen).to.equal(true);
    // its own country wins over the address
    const own = d.toMuseum({ ...row, opening_hours: { defaultHours: WEEK, publicHolidays: { country: 'FR', mode: 'closed' } } }, noon(holiday.date));
    expect(own.holidayRegion).to.deep.equal({ country: 'FR', guessed: false });
    // no rule at all: the guess is the form's default, nothing closes
    const none = d.toMuseum({ ...row, opening_hours: { defaultHours: WEEK } }, noon(holiday.date));
    expect(none.holidayRegion).to.deep.equal({ country: 'JP', guessed: true });
    expect(none.isOpen).to.equal(true);
  });

  describe('over HTTP', () => {
    let app: TestApp;
    let admin: SignedInClient;
    before(async () => {
      app = await sharedApp();
      admin = await app.user({ role: 'Admin' });
    });

    it('an edit may leave the country out; the answer carries the guessed calendar and its holidays; "open now" uses them', async () => {
      // a country with a public holiday in the next two weeks, so the answer's list is not empty
      const tz = 'UTC';
      const candidates: Array<[string, string]> = [['United States', 'US'], ['France', 'FR'], ['Germany', 'DE'], ['Japan', 'JP'], ['Brazil', 'BR'], ['United Kingdom', 'GB'], ['Spain', 'ES'], ['Italy', 'IT'], ['Mexico', 'MX'], ['India', 'IN'], ['China', 'CN'], ['Canada', 'CA']];
      const pick = candidates.find(([, code]) => holidaysAround({ country: code, mode: 'closed' }, new Date(), tz).length) ?? candidates[0];
      const expected = holidaysAround({ country: pick[1], mode: 'closed' }, new Date(), tz);
      const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Holiday Museum '), address: '1 Main', city: uniqueName('City'), country: pick[0], timezone: tz } as any, null);
      expect(m.holidayRegion).to.deep.include({ country: pick[1], guessed: true });
      const e = await admin.patch(`/api/museums/${m.id}/edit`, { openingHours: { defaultHours: WEEK, publicHolidays: { mode: 'closed' } } });
      expect(e.status, e.text).to.equal(200);
      expect(e.body.openingHours.publicHolidays).to.deep.equal({ country: '', mode: 'closed' });
      expect(e.body.holidayRegion).to.deep.include({ country: pick[1], guessed: true });
      expect(e.body.holidays).to.deep.equal(expected);
      const today = new Date().toISOString().slice(0, 10);
      const closedToday = expected.some((h) => h.date === today);
      expect(e.body.isOpen).to.equal(!closedToday);
      const list = (await app.client().get(`/api/museums?open=now&q=${encodeURIComponent(m.name)}`)).body;
      expect(list.items.some((x: any) => x.id === m.id)).to.equal(!closedToday);
      const bad = await admin.patch(`/api/museums/${m.id}/edit`, { openingHours: { defaultHours: WEEK, publicHolidays: { country: 'ZZ', mode: 'closed' } } });
      expect(bad.status).to.equal(400);
    });
  });
});
