import { expect } from 'chai';
import { makeAjv } from '../../../core/schemas.ts';
import catalogSchema from '../schemas/museum-catalog.schema.json' with { type: 'json' };
import holidayPolicySchema from '../schemas/holiday-policy.schema.json' with { type: 'json' };
import hoursExceptionSchema from '../schemas/hours-exception.schema.json' with { type: 'json' };
import { AMENITY_GROUPS, AMENITY_KEYS, AMENITY_LABELS, CATEGORIES, DEFAULT_CATEGORY, PUBLIC_CATEGORIES, catalogRef, type DayEntry, type StructuredHours, type WeeklyHours } from '../shared/catalog.ts';
import {
  TIME_CHOICES,
  closedWeek,
  formatTime12,
  mergeDayRanges,
  newSeason,
  normalizeHours,
  openStatusAt,
  parseDayText,
  type OpenStatusKind,
} from './opening-hours.ts';

const C: DayEntry = { isOpen: false, isByAppointment: false };
const A: DayEntry = { isOpen: true, isByAppointment: true };
const O = (openTime: string, closeTime: string): DayEntry => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const week = (mon: DayEntry, tue: DayEntry, wed: DayEntry, thu: DayEntry, fri: DayEntry, sat: DayEntry, sun: DayEntry): WeeklyHours => ({
  monday: mon, tuesday: tue, wednesday: wed, thursday: thu, friday: fri, saturday: sat, sunday: sun,
});

interface Case {
  name: string;
  at: string;
  tz: string;
  status: OpenStatusKind;
  season?: string;
  closesAt?: string;
  opensAt?: string;
  opensOn?: string;
  day?: string;
  entryDay?: string;
}

function run(hours: unknown, cases: Case[]) {
  for (const c of cases) {
    it(`${c.name} → ${c.status}`, () => {
      const r = openStatusAt(hours, new Date(c.at), c.tz);
      expect(r.status, 'status').to.equal(c.status);
      expect(r.isOpen, 'isOpen').to.equal(c.status === 'open');
      expect(r.season, 'season').to.equal(c.season);
      if ('closesAt' in c) expect(r.closesAt, 'closesAt').to.equal(c.closesAt);
      if ('opensAt' in c) expect(r.opensAt, 'opensAt').to.equal(c.opensAt);
      if ('opensOn' in c) expect(r.opensOn, 'opensOn').to.equal(c.opensOn);
      if (c.day) expect(r.day, 'day').to.equal(c.day);
      if (c.entryDay) expect(r.entryDay, 'entryDay').to.equal(c.entryDay);
    });
  }
}

describe('museums: opening hours', () => {
  describe('weekdays, closed days and the museum time zone (Louvre-like week)', () => {
    // Closed Tuesdays, late on Fridays.
    const louvre: StructuredHours = { defaultHours: week(O('09:00', '18:00'), C, O('09:00', '18:00'), O('09:00', '18:00'), O('09:00', '21:00'), O('09:00', '18:00'), O('09:00', '18:00')), seasonalHours: [] };
    run(louvre, [
      { name: 'Paris Monday 10:30 (CET)', at: '2026-11-23T09:30:00Z', tz: 'Europe/Paris', status: 'open', closesAt: '18:00', day: 'monday' },
      { name: 'same instant in Tokyo is Monday 18:30', at: '2026-11-23T09:30:00Z', tz: 'Asia/Tokyo', status: 'closed', day: 'monday', opensAt: '09:00', opensOn: 'wednesday' },
      { name: 'same instant in New York is Monday 04:30', at: '2026-11-23T09:30:00Z', tz: 'America/New_York', status: 'closed', opensAt: '09:00', opensOn: 'monday' },
      { name: 'Paris Monday 08:59', at: '2026-11-23T07:59:00Z', tz: 'Europe/Paris', status: 'closed', opensAt: '09:00', opensOn: 'monday' },
      { name: 'Paris Monday 09:00 exactly', at: '2026-11-23T08:00:00Z', tz: 'Europe/Paris', status: 'open' },
      { name: 'Paris Monday 18:00 exactly (end is exclusive)', at: '2026-11-23T17:00:00Z', tz: 'Europe/Paris', status: 'closed', opensAt: '09:00', opensOn: 'wednesday' },
      { name: 'Paris Tuesday noon (closing day)', at: '2026-11-24T11:00:00Z', tz: 'Europe/Paris', status: 'closed', day: 'tuesday', opensAt: '09:00', opensOn: 'wednesday' },
      { name: 'Paris Friday 20:30 (late opening)', at: '2026-11-27T19:30:00Z', tz: 'Europe/Paris', status: 'open', closesAt: '21:00' },
      { name: 'Paris Saturday 20:30', at: '2026-11-28T19:30:00Z', tz: 'Europe/Paris', status: 'closed', opensAt: '09:00', opensOn: 'sunday' },
      { name: 'Sunday 23:30 UTC is Monday 08:30 in Tokyo', at: '2026-11-22T23:30:00Z', tz: 'Asia/Tokyo', status: 'closed', day: 'monday', opensAt: '09:00', opensOn: 'monday' },
      { name: 'Sunday 23:30 UTC is Sunday 23:30 in London', at: '2026-11-22T23:30:00Z', tz: 'Europe/London', status: 'closed', day: 'sunday', opensAt: '09:00', opensOn: 'monday' },
      { name: 'Sydney Sunday 11:00 (AEDT, +11)', at: '2026-11-22T00:00:00Z', tz: 'Australia/Sydney', status: 'open', day: 'sunday' },
      { name: 'Tuesday 06:00 UTC is Monday 20:00 in Honolulu', at: '2026-11-24T06:00:00Z', tz: 'Pacific/Honolulu', status: 'closed', day: 'monday', opensAt: '09:00', opensOn: 'wednesday' },
      { name: 'unknown zone falls back to UTC (Monday 09:30)', at: '2026-11-23T09:30:00Z', tz: 'Mars/Olympus_Mons', status: 'open', day: 'monday' },
    ]);
  });

  describe('daylight-saving change days', () => {
    const sundays: StructuredHours = { defaultHours: week(C, C, C, C, C, O('18:00', '02:00'), O('10:00', '17:00')) };
    run(sundays, [
      // New York springs forward on Sunday 2026-03-08 at 02:00 (UTC-5 → UTC-4).
      { name: 'NY spring-forward Sunday 10:30 EDT', at: '2026-03-08T14:30:00Z', tz: 'America/New_York', status: 'open', day: 'sunday' },
      { name: 'NY spring-forward Sunday 17:30 EDT', at: '2026-03-08T21:30:00Z', tz: 'America/New_York', status: 'closed' },
      { name: 'NY Saturday-night hours, Sunday 01:30 EST (before the jump)', at: '2026-03-08T06:30:00Z', tz: 'America/New_York', status: 'open', day: 'sunday', entryDay: 'saturday', closesAt: '02:00' },
      { name: 'NY Sunday 03:30 EDT (right after the jump)', at: '2026-03-08T07:30:00Z', tz: 'America/New_York', status: 'closed', opensAt: '10:00', opensOn: 'sunday' },
      // New York falls back on Sunday 2026-11-01 at 02:00 (UTC-4 → UTC-5).
      { name: 'NY fall-back Sunday 09:30 EST', at: '2026-11-01T14:30:00Z', tz: 'America/New_York', status: 'closed', opensAt: '10:00', opensOn: 'sunday' },
      { name: 'NY fall-back Sunday 16:30 EST', at: '2026-11-01T21:30:00Z', tz: 'America/New_York', status: 'open' },
      // London: BST starts Sunday 2026-03-29, ends Sunday 2026-10-25.
      { name: 'London BST-start Sunday 10:30 BST', at: '2026-03-29T09:30:00Z', tz: 'Europe/London', status: 'open' },
      { name: 'London BST-end Sunday 09:30 GMT', at: '2026-10-25T09:30:00Z', tz: 'Europe/London', status: 'closed', opensAt: '10:00' },
      { name: 'London BST-end Sunday 16:30 GMT', at: '2026-10-25T16:30:00Z', tz: 'Europe/London', status: 'open' },
      { name: 'London BST-end Sunday 17:30 GMT', at: '2026-10-25T17:30:00Z', tz: 'Europe/London', status: 'closed' },
    ]);
  });

  describe('seasons, including ranges across the new year and one-off periods', () => {
    const hours: StructuredHours = {
      defaultHours: week(C, O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00')),
      seasonalHours: [
        { name: 'Summer', startDate: '06-01', endDate: '08-31', hours: week(O('09:00', '19:00'), O('09:00', '19:00'), O('09:00', '19:00'), O('09:00', '19:00'), O('09:00', '19:00'), O('09:00', '19:00'), O('09:00', '19:00')) },
        { name: 'Winter', startDate: '11-15', endDate: '03-15', hours: week(C, O('11:00', '16:00'), O('11:00', '16:00'), O('11:00', '16:00'), O('11:00', '16:00'), O('11:00', '16:00'), A) },
        { name: 'Holiday closure', startDate: '2026-12-24', endDate: '2026-12-26', hours: closedWeek() },
        { name: 'New Season', startDate: '', endDate: '', hours: week(A, A, A, A, A, A, A) },
      ],
    };
    const tz = 'Europe/Rome';
    run(hours, [
      { name: 'summer Monday noon (Mondays open in summer)', at: '2026-07-06T10:00:00Z', tz, status: 'open', season: 'Summer', closesAt: '19:00' },
      { name: 'summer first day 06-01 08:30', at: '2026-06-01T06:30:00Z', tz, status: 'closed', season: 'Summer', opensAt: '09:00' },
      { name: 'summer last day 08-31 18:30', at: '2026-08-31T16:30:00Z', tz, status: 'open', season: 'Summer' },
      { name: 'default Monday noon in September', at: '2026-09-07T10:00:00Z', tz, status: 'closed', opensAt: '10:00', opensOn: 'tuesday' },
      { name: 'default Saturday 11-14 10:30', at: '2026-11-14T09:30:00Z', tz, status: 'open', closesAt: '17:00' },
      { name: 'winter starts 11-15: Sunday by appointment', at: '2026-11-15T11:00:00Z', tz, status: 'by_appointment', season: 'Winter' },
      { name: 'winter Tuesday 10:30 before opening', at: '2027-01-05T09:30:00Z', tz, status: 'closed', season: 'Winter', opensAt: '11:00', opensOn: 'tuesday' },
      { name: 'winter Tuesday 11:30 across the new year', at: '2027-01-05T10:30:00Z', tz, status: 'open', season: 'Winter', closesAt: '16:00' },
      { name: 'winter Tuesday 16:30 (default would be open)', at: '2027-01-05T15:30:00Z', tz, status: 'closed', season: 'Winter' },
      { name: 'one-off holiday closure wins over winter (Dec 25)', at: '2026-12-25T11:00:00Z', tz, status: 'closed', season: 'Holiday closure' },
      { name: 'winter Dec 27 after the holiday', at: '2026-12-27T11:00:00Z', tz, status: 'by_appointment', season: 'Winter' },
      { name: 'winter last day 03-15 (Monday) closed', at: '2027-03-15T11:00:00Z', tz, status: 'closed', season: 'Winter', opensAt: '10:00', opensOn: 'tuesday' },
      { name: 'default again 03-16 (Tuesday) 16:30', at: '2027-03-16T15:30:00Z', tz, status: 'open' },
      { name: 'winter on leap day 2028-02-29 (Tuesday) noon', at: '2028-02-29T11:00:00Z', tz, status: 'open', season: 'Winter' },
      { name: 'holiday closure is one-off: Dec 25 2027 (Saturday) falls back to winter', at: '2027-12-25T11:00:00Z', tz, status: 'open', season: 'Winter' },
    ]);

    it('a season boundary uses the previous day\'s season for an after-midnight closing', () => {
      const h: StructuredHours = {
        defaultHours: week(C, C, C, C, C, C, C),
        seasonalHours: [{ name: 'Festival', startDate: '07-01', endDate: '07-04', hours: week(O('20:00', '02:00'), O('20:00', '02:00'), O('20:00', '02:00'), O('20:00', '02:00'), O('20:00', '02:00'), O('20:00', '02:00'), O('20:00', '02:00')) }],
      };
      const r = openStatusAt(h, new Date('2027-07-05T00:30:00Z'), 'UTC'); // 07-05 00:30 is not in the season
      expect(r).to.include({ status: 'open', season: 'Festival', day: 'monday', entryDay: 'sunday', closesAt: '02:00' });
      expect(openStatusAt(h, new Date('2027-07-05T02:00:00Z'), 'UTC').status).to.equal('closed');
    });
  });

  describe('closing after midnight, midnight closings and 24 hours', () => {
    const hours: StructuredHours = { defaultHours: week(O('00:00', '00:00'), C, C, O('18:00', '00:00'), O('18:00', '01:00'), C, A) };
    const tz = 'Europe/Amsterdam'; // CET (+1) in late November
    run(hours, [
      { name: 'Thursday 23:59 (closes at midnight)', at: '2026-11-26T22:59:00Z', tz, status: 'open', closesAt: '00:00' },
      { name: 'Friday 00:00 (Thursday ended at midnight)', at: '2026-11-26T23:00:00Z', tz, status: 'closed', day: 'friday', opensAt: '18:00', opensOn: 'friday' },
      { name: 'Friday 17:59', at: '2026-11-27T16:59:00Z', tz, status: 'closed', opensAt: '18:00' },
      { name: 'Friday 23:00', at: '2026-11-27T22:00:00Z', tz, status: 'open', closesAt: '01:00', entryDay: 'friday' },
      { name: 'Saturday 00:30 (Friday hours)', at: '2026-11-27T23:30:00Z', tz, status: 'open', day: 'saturday', entryDay: 'friday', closesAt: '01:00' },
      { name: 'Saturday 01:00 exactly', at: '2026-11-28T00:00:00Z', tz, status: 'closed', day: 'saturday', opensAt: '00:00', opensOn: 'monday' },
      { name: 'Sunday by appointment', at: '2026-11-29T12:00:00Z', tz, status: 'by_appointment', day: 'sunday' },
      { name: 'Monday 03:00 (00:00–00:00 is 24 hours)', at: '2026-11-30T02:00:00Z', tz, status: 'open', day: 'monday' },
      { name: 'Tuesday 00:30 (Monday\'s 24 hours ended)', at: '2026-11-30T23:30:00Z', tz, status: 'closed', day: 'tuesday' },
    ]);
  });

  describe('text form', () => {
    const text = {
      monday: 'Closed',
      tuesday: '10:00-17:00',
      wednesday: '9:00 AM - 5:00 PM',
      thursday: '10am-6pm',
      friday: 'By appointment only',
      saturday: '10:00 – 22:00',
      sunday: '18:00-01:00',
    };
    const tz = 'Europe/Madrid'; // CET (+1)
    run(text, [
      { name: 'Monday closed', at: '2026-11-23T11:00:00Z', tz, status: 'closed', opensAt: '10:00', opensOn: 'tuesday' },
      { name: 'Tuesday 16:59', at: '2026-11-24T15:59:00Z', tz, status: 'open', closesAt: '17:00' },
      { name: 'Tuesday 17:00', at: '2026-11-24T16:00:00Z', tz, status: 'closed' },
      { name: 'Wednesday 08:30 with AM/PM text', at: '2026-11-25T07:30:00Z', tz, status: 'closed', opensAt: '09:00' },
      { name: 'Wednesday 16:30 with AM/PM text', at: '2026-11-25T15:30:00Z', tz, status: 'open', closesAt: '17:00' },
      { name: 'Thursday 17:30 with 10am-6pm', at: '2026-11-26T16:30:00Z', tz, status: 'open', closesAt: '18:00' },
      { name: 'Thursday 18:30 with 10am-6pm', at: '2026-11-26T17:30:00Z', tz, status: 'closed' },
      { name: 'Friday by appointment', at: '2026-11-27T11:00:00Z', tz, status: 'by_appointment' },
      { name: 'Saturday 21:30 with an en dash', at: '2026-11-28T20:30:00Z', tz, status: 'open' },
      { name: 'Monday 00:30 after Sunday 18:00-01:00', at: '2026-11-29T23:30:00Z', tz, status: 'open', day: 'monday', entryDay: 'sunday' },
    ]);

    const parses: Array<[string, DayEntry]> = [
      ['Closed', C],
      ['closed', C],
      ['', C],
      ['By appointment', A],
      ['Open by appointment only', A],
      ['10:00-17:00', O('10:00', '17:00')],
      ['10:00 - 17:00', O('10:00', '17:00')],
      ['9:00 AM - 5:00 PM', O('09:00', '17:00')],
      ['9:30 a.m. – 5:30 p.m.', O('09:30', '17:30')],
      ['10am-6pm', O('10:00', '18:00')],
      ['10 AM to 8 PM', O('10:00', '20:00')],
      ['12pm-12am', O('12:00', '00:00')],
      ['noon - midnight', O('12:00', '00:00')],
      ['1-5pm', O('13:00', '17:00')],
      ['9:00-5:00', O('09:00', '17:00')],
      ['10:00-02:00', O('10:00', '02:00')],
      ['18:00-24:00', O('18:00', '00:00')],
      ['10h30-18h', O('10:30', '18:00')],
      ['10:00-13:00, 14:00-18:00', O('10:00', '18:00')],
      ['Open 24 hours', O('00:00', '00:00')],
      ['whenever', C],
      ['25:00-26:00', C],
    ];
    for (const [input, expected] of parses) {
      it(`parses ${JSON.stringify(input)}`, () => expect(parseDayText(input)).to.deep.equal(expected));
    }

    it('normalizeHours converts the text form to the structured form', () => {
      expect(normalizeHours(text)).to.deep.equal({
        defaultHours: week(C, O('10:00', '17:00'), O('09:00', '17:00'), O('10:00', '18:00'), A, O('10:00', '22:00'), O('18:00', '01:00')),
        seasonalHours: [],
        exceptions: [],
        publicHolidays: null,
      });
    });
  });

  describe('normalizeHours', () => {
    it('turns nothing into an all-closed week', () => {
      expect(normalizeHours(null)).to.deep.equal({ defaultHours: closedWeek(), seasonalHours: [], exceptions: [], publicHolidays: null });
      expect(normalizeHours('not json')).to.deep.equal({ defaultHours: closedWeek(), seasonalHours: [], exceptions: [], publicHolidays: null });
    });
    it('parses a JSON string, fills missing days and drops inconsistent flags', () => {
      const r = normalizeHours(JSON.stringify({ defaultHours: { monday: O('10:00', '17:00'), tuesday: { isOpen: false, isByAppointment: true }, wednesday: { isOpen: true, isByAppointment: false } } }));
      expect(r.defaultHours.monday).to.deep.equal(O('10:00', '17:00'));
      expect(r.defaultHours.tuesday).to.deep.equal(C);
      expect(r.defaultHours.wednesday).to.deep.equal(C); // open without times cannot be placed
      expect(r.defaultHours.sunday).to.deep.equal(C);
      expect(r.seasonalHours).to.deep.equal([]);
    });
    it('accepts a bare week of day entries', () => {
      expect(normalizeHours({ monday: A }).defaultHours.monday).to.deep.equal(A);
    });
    it('a new season starts named New Season, with empty dates and every day closed, and never applies', () => {
      expect(newSeason()).to.deep.equal({ name: 'New Season', startDate: '', endDate: '', hours: closedWeek() });
      const r = openStatusAt({ defaultHours: week(A, A, A, A, A, A, A), seasonalHours: [newSeason()] }, new Date('2026-11-23T12:00:00Z'), 'UTC');
      expect(r.status).to.equal('by_appointment');
      expect(r.season).to.equal(undefined);
    });
  });

  describe('mergeDayRanges', () => {
    it('merges consecutive equal days, Monday first', () => {
      const r = mergeDayRanges({ defaultHours: week(O('09:00', '18:00'), C, O('09:00', '18:00'), O('09:00', '18:00'), O('09:00', '21:45'), O('09:00', '18:00'), O('09:00', '18:00')) });
      expect(r.map((x) => [x.label, x.text])).to.deep.equal([
        ['Monday', '9:00 AM – 6:00 PM'],
        ['Tuesday', 'Closed'],
        ['Wednesday – Thursday', '9:00 AM – 6:00 PM'],
        ['Friday', '9:00 AM – 9:45 PM'],
        ['Saturday – Sunday', '9:00 AM – 6:00 PM'],
      ]);
      expect(r[2]).to.include({ from: 'wednesday', to: 'thursday', kind: 'open', openTime: '09:00', closeTime: '18:00' });
      expect(r[2].days).to.deep.equal(['wednesday', 'thursday']);
    });
    it('treats closed days alike whatever times they keep, and shows by appointment', () => {
      const r = mergeDayRanges({ defaultHours: week({ ...C, openTime: '09:00', closeTime: '17:00' }, C, O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), A, A) });
      expect(r.map((x) => [x.from, x.to, x.kind, x.text])).to.deep.equal([
        ['monday', 'tuesday', 'closed', 'Closed'],
        ['wednesday', 'friday', 'open', '10:00 AM – 5:00 PM'],
        ['saturday', 'sunday', 'by_appointment', 'By appointment'],
      ]);
    });
    it('one range for a week with the same hours every day; 24 hours and midnight texts', () => {
      expect(mergeDayRanges({ defaultHours: week(...(Array(7).fill(O('10:00', '00:00')) as [DayEntry, DayEntry, DayEntry, DayEntry, DayEntry, DayEntry, DayEntry])) }).map((x) => [x.label, x.text])).to.deep.equal([['Monday – Sunday', '10:00 AM – 12:00 AM']]);
      expect(mergeDayRanges({ monday: 'open 24 hours' })[0].text).to.equal('Open 24 hours');
    });
    it('shows the season in force on a date, across the new year', () => {
      const h: StructuredHours = {
        defaultHours: week(C, O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00'), O('10:00', '17:00')),
        seasonalHours: [{ name: 'Winter', startDate: '12-01', endDate: '02-28', hours: week(C, C, O('11:00', '15:30'), O('11:00', '15:30'), O('11:00', '15:30'), O('11:00', '15:30'), C) }],
      };
      const winter = [['Monday – Tuesday', 'Closed'], ['Wednesday – Saturday', '11:00 AM – 3:30 PM'], ['Sunday', 'Closed']];
      expect(mergeDayRanges(h, '2027-01-10').map((x) => [x.label, x.text])).to.deep.equal(winter);
      expect(mergeDayRanges(h, '12-01').map((x) => [x.label, x.text])).to.deep.equal(winter);
      expect(mergeDayRanges(h, new Date('2026-11-30T23:30:00Z'), 'Asia/Tokyo').map((x) => [x.label, x.text])).to.deep.equal(winter); // Dec 1 in Tokyo
      expect(mergeDayRanges(h, new Date('2026-11-30T23:30:00Z'), 'America/Chicago').map((x) => [x.label, x.text])).to.deep.equal([['Monday', 'Closed'], ['Tuesday – Sunday', '10:00 AM – 5:00 PM']]);
      expect(mergeDayRanges(h).length).to.equal(2);
    });
  });

  describe('times', () => {
    const table: Array<[string, string]> = [
      ['00:00', '12:00 AM'], ['00:30', '12:30 AM'], ['09:00', '9:00 AM'], ['11:30', '11:30 AM'],
      ['12:00', '12:00 PM'], ['12:30', '12:30 PM'], ['13:30', '1:30 PM'], ['23:30', '11:30 PM'], ['9:05', '9:05 AM'],
    ];
    for (const [t, label] of table) it(`formatTime12(${t}) = ${label}`, () => expect(formatTime12(t)).to.equal(label));
    it('leaves unreadable times alone', () => expect(formatTime12('later')).to.equal('later'));
    it('TIME_CHOICES: 48 half-hour steps from 00:00 to 23:30', () => {
      expect(TIME_CHOICES).to.have.length(48);
      expect(TIME_CHOICES[0]).to.equal('00:00');
      expect(TIME_CHOICES[1]).to.equal('00:30');
      expect(TIME_CHOICES[27]).to.equal('13:30');
      expect(TIME_CHOICES[47]).to.equal('23:30');
      expect(new Set(TIME_CHOICES).size).to.equal(48);
    });
  });
});

describe('museums: catalogue schema', () => {
  const ajv = makeAjv();
  ajv.addSchema(catalogSchema);
  ajv.addSchema(hoursExceptionSchema);
  ajv.addSchema(holidayPolicySchema);
  const validate = (name: string, value: unknown) => ajv.validate(catalogRef(name as any), value);

  it('lists the amenity keys of the spec in 6 groups, in spec order', () => {
    expect(AMENITY_GROUPS.map((g) => g.label)).to.deep.equal(['Accessibility', 'Facilities', 'Services', 'Programs', 'Policies', 'Discounts & Memberships']);
    expect(AMENITY_GROUPS.map((g) => g.amenities)).to.deep.equal([
      ['restrooms', 'wheelchair_accessibility', 'stroller_accessibility', 'accessible_exhibits', 'changing_tables'],
      ['free_parking', 'rv_parking', 'onsite_parking_ev', 'bicycle_racks', 'public_wifi', 'coat_check', 'first_aid'],
      ['gift_shop', 'cafe_dining', 'event_rental'],
      ['guided_tours', 'self_guided_tours', 'audio_guides', 'family_friendly', 'interactive_exhibits', 'outdoor_exhibits', 'museum_app'],
      ['photography_allowed', 'service_animals', 'pet_friendly', 'multilingual'],
      ['group_discounts', 'military_discounts', 'membership_program', 'free_admission_days'],
    ]);
    expect(AMENITY_KEYS).to.deep.equal(AMENITY_GROUPS.flatMap((g) => g.amenities));
    expect(Object.keys(AMENITY_LABELS)).to.deep.equal([...AMENITY_KEYS]);
  });

  it('lists the directory and public categories', () => {
    expect(CATEGORIES).to.have.length(9);
    expect(CATEGORIES).to.include("Children's Museums");
    expect(DEFAULT_CATEGORY).to.equal('Art Museums');
    expect(PUBLIC_CATEGORIES).to.deep.equal(['art', 'history', 'science', 'natural_history', 'technology', 'archaeology', 'cultural', 'specialty', 'other']);
  });

  it('is referenced by $id from another schema', () => {
    const v = ajv.compile({ type: 'object', properties: { amenities: { type: 'array', items: { $ref: 'museums/Catalog#/definitions/AmenityKey' } }, category: { $ref: 'museums/Catalog#/definitions/Category' } } });
    expect(v({ amenities: ['restrooms', 'gift_shop'], category: 'Art Museums' })).to.equal(true);
    expect(v({ amenities: ['jacuzzi'] })).to.equal(false);
    expect(v({ category: 'Zoos' })).to.equal(false);
  });

  const validHours: StructuredHours = {
    defaultHours: week(C, O('10:00', '17:30'), O('10:00', '17:30'), O('10:00', '21:00'), O('10:00', '17:30'), A, O('18:00', '00:00')),
    seasonalHours: [
      { name: 'Winter', startDate: '11-15', endDate: '03-15', hours: closedWeek() },
      { name: 'Renovation', startDate: '2027-01-01', endDate: '2027-01-31', hours: closedWeek() },
    ],
  };
  const table: Array<[string, string, unknown, boolean]> = [
    ['structured hours', 'OpeningHours', validHours, true],
    ['text hours', 'OpeningHours', { monday: 'Closed', tuesday: '10:00-17:00', wednesday: '10am-6pm', thursday: 'By appointment', friday: '10:00-17:00', saturday: '10:00-17:00', sunday: 'Closed' }, true],
    ['text hours missing a day', 'TextHours', { monday: 'Closed' }, false],
    ['a time off the 30-minute steps', 'DayEntry', O('10:15', '17:00'), false],
    ['24:00', 'DayEntry', O('10:00', '24:00'), false],
    ['an open day without times', 'DayEntry', { isOpen: true, isByAppointment: false }, false],
    ['a by-appointment day without times', 'DayEntry', A, true],
    ['a closed day keeping its times', 'DayEntry', { ...C, openTime: '09:00', closeTime: '17:00' }, true],
    ['closed and by appointment at once', 'DayEntry', { isOpen: false, isByAppointment: true }, false],
    ['an unknown day-entry field', 'DayEntry', { ...C, note: 'x' }, false],
    ['a season mixing MM-DD and YYYY-MM-DD', 'Season', { name: 'X', startDate: '11-15', endDate: '2027-03-15', hours: closedWeek() }, false],
    ['a season with empty dates', 'Season', newSeason(), false],
    ['a season with month 13', 'Season', { name: 'X', startDate: '13-01', endDate: '01-05', hours: closedWeek() }, false],
    ['a season without a name', 'Season', { name: '', startDate: '01-01', endDate: '01-05', hours: closedWeek() }, false],
    ['structured hours without defaultHours', 'StructuredHours', { seasonalHours: [] }, false],
    ['the normalized text form', 'StructuredHours', normalizeHours({ monday: '10:00-17:00' }), true],
    ['a closure and a holiday rule', 'StructuredHours', { ...validHours, exceptions: [{ startDate: '2026-12-24', closed: true, note: 'Closed for installation' }, { startDate: '2026-12-31', endDate: '2026-12-31', closed: false, openTime: '10:00', closeTime: '15:45' }], publicHolidays: { country: 'FR', mode: 'closed' } }, true],
    ['special hours without times', 'StructuredHours', { ...validHours, exceptions: [{ startDate: '2026-12-31', closed: false }] }, false],
    ['an exception with a MM-DD date', 'StructuredHours', { ...validHours, exceptions: [{ startDate: '12-31', closed: true }] }, false],
    ['holiday hours without times', 'StructuredHours', { ...validHours, publicHolidays: { country: 'US', region: 'NY', mode: 'hours' } }, false],
    ['a three-letter holiday country', 'StructuredHours', { ...validHours, publicHolidays: { country: 'FRA', mode: 'closed' } }, false],
  ];
  for (const [name, def, value, ok] of table) {
    it(`${ok ? 'accepts' : 'rejects'} ${name} (${def})`, () => expect(validate(def, value), JSON.stringify(ajv.errors)).to.equal(ok));
  }
});
