/**
 * Closures, special hours and public holidays (issue 20): the rule order (exception → public
 * holiday → season → default week), holidays from date-holidays, the dated week view, and the
 * museum's own clock on the daylight-saving change days of Europe/Paris and America/New_York.
 */
import { expect } from 'chai';
import type { DayEntry, StructuredHours, WeeklyHours } from '../shared/catalog.ts';
import { calendarDays, normalizeHours, openStatusAt } from '../shared/opening-hours.ts';
import { holidaysAround, isKnownHolidayRegion, publicHolidaysOfYear } from './holidays.ts';

const C: DayEntry = { isOpen: false, isByAppointment: false };
const O = (openTime: string, closeTime: string): DayEntry => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const everyDay = (e: DayEntry): WeeklyHours => ({ monday: e, tuesday: e, wednesday: e, thursday: e, friday: e, saturday: e, sunday: e });

/** openStatusAt with the holidays the server would send for that instant. */
function statusAt(hours: StructuredHours, at: string, tz: string) {
  const h = normalizeHours(hours);
  return openStatusAt(h, new Date(at), tz, holidaysAround(h.publicHolidays, new Date(at), tz));
}

describe('museums: closures, special hours and public holidays', () => {
  describe('public holidays come from date-holidays, offline', () => {
    it('knows the French public holidays of 2026 (Easter Monday moves every year)', () => {
      const dates = publicHolidaysOfYear('FR', undefined, 2026).map((h) => h.date);
      expect(dates).to.include.members(['2026-01-01', '2026-04-06', '2026-05-01', '2026-07-14', '2026-12-25']);
      expect(dates).not.to.include('2026-04-05'); // Easter Sunday is a Sunday, not a public holiday of its own
      expect(publicHolidaysOfYear('FR', undefined, 2027).map((h) => h.date)).to.include('2027-03-29'); // Easter Monday 2027
    });
    it('knows US holidays by rule (Thanksgiving = fourth Thursday of November) and regions', () => {
      const us = publicHolidaysOfYear('US', 'NY', 2026);
      expect(us.find((h) => h.date === '2026-11-26')?.name).to.equal('Thanksgiving Day');
      expect(isKnownHolidayRegion('US', 'NY')).to.equal(true);
      expect(isKnownHolidayRegion('US', 'ZZ')).to.equal(false);
      expect(isKnownHolidayRegion('XX')).to.equal(false);
    });
  });

  describe('rule order', () => {
    const hours: StructuredHours = {
      defaultHours: everyDay(O('10:00', '18:00')),
      seasonalHours: [{ name: 'Winter', startDate: '12-01', endDate: '02-28', hours: everyDay(O('11:00', '16:00')) }],
      exceptions: [
        { startDate: '2026-12-24', endDate: '2026-12-26', closed: true, note: 'Closed for installation' },
        { startDate: '2026-12-25', closed: false, openTime: '12:00', closeTime: '14:00', note: 'never used: the first exception wins' },
        { startDate: '2027-01-01', closed: false, openTime: '14:00', closeTime: '17:00', note: 'New Year afternoon' },
      ],
      publicHolidays: { country: 'FR', mode: 'closed' },
    };
    it('a dated closure wins over the season, with its note, over every day of its range', () => {
      for (const at of ['2026-12-24T12:00:00Z', '2026-12-25T12:00:00Z', '2026-12-26T12:00:00Z']) {
        const s = statusAt(hours, at, 'Europe/Paris');
        expect(s.status, at).to.equal('closed');
        expect(s.special).to.deep.equal({ reason: 'exception', note: 'Closed for installation' });
      }
      const after = statusAt(hours, '2026-12-27T12:00:00Z', 'Europe/Paris');
      expect(after.status).to.equal('open');
      expect(after.season).to.equal('Winter');
      expect(after.special).to.equal(undefined);
    });
    it('the next opening skips the closure', () => {
      const s = statusAt(hours, '2026-12-24T12:00:00Z', 'Europe/Paris');
      expect(s.opensDate).to.equal('2026-12-27');
      expect(s.opensAt).to.equal('11:00');
      expect(s.opensOn).to.equal('sunday');
    });
    it('special hours on a public holiday win over the holiday rule', () => {
      expect(statusAt(hours, '2027-01-01T12:00:00Z', 'Europe/Paris').status).to.equal('closed'); // 13:00 Paris
      const s = statusAt(hours, '2027-01-01T14:00:00Z', 'Europe/Paris'); // 15:00 Paris
      expect(s.status).to.equal('open');
      expect(s.closesAt).to.equal('17:00');
      expect(s.special?.note).to.equal('New Year afternoon');
    });
    it('"closed on public holidays" closes on Easter Monday and Bastille Day, not the day before', () => {
      const easterMonday = statusAt(hours, '2026-04-06T12:00:00Z', 'Europe/Paris');
      expect(easterMonday.status).to.equal('closed');
      expect(easterMonday.special).to.deep.equal({ reason: 'holiday', holiday: "Easter Monday" });
      expect(statusAt(hours, '2026-07-14T12:00:00Z', 'Europe/Paris').status).to.equal('closed');
      expect(statusAt(hours, '2026-07-13T12:00:00Z', 'Europe/Paris').status).to.equal('open');
    });
    it('holiday hours replace the day; "normal" keeps the usual hours', () => {
      const h: StructuredHours = { defaultHours: everyDay(O('10:00', '18:00')), publicHolidays: { country: 'US', region: 'NY', mode: 'hours', openTime: '12:00', closeTime: '16:00' } };
      // Thanksgiving 2026-11-26, 11:00 in New York (16:00Z, EST)
      expect(statusAt(h, '2026-11-26T16:00:00Z', 'America/New_York').status).to.equal('closed');
      const s = statusAt(h, '2026-11-26T18:00:00Z', 'America/New_York');
      expect(s.status).to.equal('open');
      expect(s.closesAt).to.equal('16:00');
      expect(s.special).to.deep.equal({ reason: 'holiday', holiday: 'Thanksgiving Day' });
      const normal = { ...h, publicHolidays: { country: 'US', region: 'NY', mode: 'normal' as const } };
      expect(statusAt(normal, '2026-11-26T16:00:00Z', 'America/New_York').status).to.equal('open');
    });
    it('without the holidays list (a caller that does not know them) the holiday rule cannot apply', () => {
      expect(openStatusAt(hours, new Date('2026-07-14T12:00:00Z'), 'Europe/Paris').status).to.equal('open');
    });
    it('the holiday is the one of the local date at the museum, not of UTC', () => {
      // 2026-07-14 23:30 in Paris is 21:30Z: still Bastille Day at the museum
      const late = { ...hours, defaultHours: everyDay(O('10:00', '00:00')) };
      expect(statusAt(late, '2026-07-14T21:30:00Z', 'Europe/Paris').status).to.equal('closed');
      // 2026-07-15 00:30 in Paris is 2026-07-14T22:30Z: a normal day again (open until midnight means closed now)
      expect(statusAt(late, '2026-07-14T22:30:00Z', 'Europe/Paris').special).to.equal(undefined);
    });
  });

  describe('the dated week view', () => {
    it('lists seven local days, marking closures and holidays', () => {
      const hours: StructuredHours = {
        defaultHours: { ...everyDay(O('10:00', '18:00')), tuesday: C },
        exceptions: [{ startDate: '2026-12-23', closed: false, openTime: '10:00', closeTime: '15:00', note: 'Staff party' }],
        publicHolidays: { country: 'FR', mode: 'closed' },
      };
      const at = new Date('2026-12-21T08:00:00Z'); // Monday in Paris
      const days = calendarDays(hours, at, 'Europe/Paris', holidaysAround(hours.publicHolidays, at, 'Europe/Paris'));
      expect(days.map((d) => d.date)).to.deep.equal(['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24', '2026-12-25', '2026-12-26', '2026-12-27']);
      expect(days.map((d) => d.kind)).to.deep.equal(['open', 'closed', 'open', 'open', 'closed', 'open', 'open']);
      expect(days[2].entry.closeTime).to.equal('15:00');
      expect(days[2].special).to.deep.equal({ reason: 'exception', note: 'Staff party' });
      expect(days[4].special).to.deep.equal({ reason: 'holiday', holiday: 'Christmas Day' });
      expect(days[1].special).to.equal(undefined);
    });
  });

  describe('daylight-saving change days', () => {
    // Special hours 10:00–12:00 on the change days; a wrong offset shifts the window by an hour.
    const paris: StructuredHours = {
      defaultHours: everyDay(C),
      exceptions: [
        { startDate: '2026-03-29', closed: false, openTime: '10:00', closeTime: '12:00', note: 'spring forward' },
        { startDate: '2026-10-25', closed: false, openTime: '10:00', closeTime: '12:00', note: 'fall back' },
      ],
    };
    const cases: Array<[string, string, 'open' | 'closed']> = [
      // 2026-03-29 Europe/Paris: 02:00 CET → 03:00 CEST (UTC+2 from 01:00Z)
      ['2026-03-29T07:59:00Z', '09:59 CEST', 'closed'],
      ['2026-03-29T08:00:00Z', '10:00 CEST', 'open'],
      ['2026-03-29T09:59:00Z', '11:59 CEST', 'open'],
      ['2026-03-29T10:00:00Z', '12:00 CEST', 'closed'],
      // 2026-10-25 Europe/Paris: 03:00 CEST → 02:00 CET (UTC+1 from 01:00Z)
      ['2026-10-25T08:59:00Z', '09:59 CET', 'closed'],
      ['2026-10-25T09:00:00Z', '10:00 CET', 'open'],
      ['2026-10-25T10:59:00Z', '11:59 CET', 'open'],
      ['2026-10-25T11:00:00Z', '12:00 CET', 'closed'],
    ];
    for (const [at, local, status] of cases) it(`Europe/Paris ${at} (${local}) → ${status}`, () => expect(statusAt(paris, at, 'Europe/Paris').status).to.equal(status));

    const ny: StructuredHours = {
      defaultHours: everyDay(O('10:00', '17:00')),
      exceptions: [
        { startDate: '2026-03-08', closed: true, note: 'spring forward' },
        { startDate: '2026-11-01', closed: false, openTime: '01:00', closeTime: '03:00', note: 'night opening across the repeated hour' },
      ],
    };
    const nyCases: Array<[string, string, 'open' | 'closed']> = [
      // The closure covers the whole local day, 23 hours long: 05:00Z to 04:00Z next day.
      ['2026-03-08T05:00:00Z', '00:00 EST on the 8th', 'closed'],
      ['2026-03-08T15:00:00Z', '11:00 EDT', 'closed'],
      ['2026-03-09T03:59:00Z', '23:59 EDT on the 8th', 'closed'],
      ['2026-03-09T14:00:00Z', '10:00 EDT on the 9th', 'open'],
      ['2026-03-09T13:59:00Z', '09:59 EDT on the 9th', 'closed'],
      // 2026-11-01 America/New_York: 02:00 EDT → 01:00 EST; 01:00–03:00 local spans three real hours
      ['2026-11-01T04:59:00Z', '00:59 EDT', 'closed'],
      ['2026-11-01T05:00:00Z', '01:00 EDT', 'open'],
      ['2026-11-01T06:30:00Z', '01:30 EST (the repeated hour)', 'open'],
      ['2026-11-01T07:59:00Z', '02:59 EST', 'open'],
      ['2026-11-01T08:00:00Z', '03:00 EST', 'closed'],
    ];
    for (const [at, local, status] of nyCases) it(`America/New_York ${at} (${local}) → ${status}`, () => expect(statusAt(ny, at, 'America/New_York').status).to.equal(status));
  });

  describe('normalizing what editors send', () => {
    it('keeps readable exceptions, defaults endDate, turns special hours without times into a closure, drops bad dates', () => {
      const h = normalizeHours({
        defaultHours: {},
        exceptions: [
          { startDate: '2026-05-01', closed: true, note: '  Labour Day  ' },
          { startDate: '2026-05-02', endDate: '2026-04-01', closed: false },
          { startDate: '05-03', closed: true },
          'nonsense',
        ],
        publicHolidays: { country: 'fr', mode: 'hours' },
      });
      expect(h.exceptions).to.deep.equal([
        { startDate: '2026-05-01', endDate: '2026-05-01', closed: true, note: 'Labour Day' },
        { startDate: '2026-05-02', endDate: '2026-05-02', closed: true },
      ]);
      expect(h.publicHolidays).to.deep.equal({ country: 'FR', mode: 'closed' });
      expect(normalizeHours({ defaultHours: {}, publicHolidays: { country: 'France', mode: 'closed' } }).publicHolidays).to.equal(null);
    });
  });
});
