/**
 * visitHoursAt (shared/visit-hours.ts): a visit must fit one opening span on the museum's wall
 * clock — yesterday's running past midnight included, touching spans joined — with exceptions and
 * holidays from dayScheduleFor, and instants read in the museum's zone on daylight-saving days.
 * checkVisit (shared/visit.ts, a plan's stops) answers from the same spans (visitFit).
 */
import { expect } from 'chai';
import { visitHolidayDates, visitHoursAt } from '../shared/visit-hours.ts';
import { checkVisit, visitDates } from '../shared/visit.ts';

const day = (openTime: string, closeTime: string) => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const every = (e: object) => ({ defaultHours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, e])), seasonalHours: [] });
const at = (iso: string) => new Date(iso);

describe('museums: visits against the opening hours (visitHoursAt)', () => {
  it('a late-night span runs past midnight: 00:30–01:30 is inside yesterday’s 18:00–02:00, 01:30–02:30 is not', () => {
    const h = every(day('18:00', '02:00'));
    expect(visitHoursAt(h, at('2027-06-02T00:30:00Z'), at('2027-06-02T01:30:00Z'), 'UTC').status).to.equal('open');
    const late = visitHoursAt(h, at('2027-06-02T01:30:00Z'), at('2027-06-02T02:30:00Z'), 'UTC');
    expect(late).to.include({ status: 'outside_hours', openTime: '18:00', closeTime: '02:00', startTime: '01:30', endTime: '02:30' });
    // 23:00 to 01:00 the next morning, one span
    expect(visitHoursAt(h, at('2027-06-01T23:00:00Z'), at('2027-06-02T01:00:00Z'), 'UTC').status).to.equal('open');
  });

  it('open around the clock: days touching at midnight make one span', () => {
    const h = every(day('00:00', '00:00'));
    expect(visitHoursAt(h, at('2027-06-01T22:00:00Z'), at('2027-06-02T03:00:00Z'), 'UTC').status).to.equal('open');
  });

  it('by appointment, a closure with its note, holiday hours with the holiday’s name', () => {
    expect(visitHoursAt(every({ isOpen: true, isByAppointment: true }), at('2027-06-01T12:00:00Z'), null, 'UTC').status).to.equal('by_appointment');
    const h = { ...every(day('10:00', '18:00')), exceptions: [{ startDate: '2027-06-01', endDate: '2027-06-03', closed: true, note: 'Floor works' }], publicHolidays: { country: 'FR', mode: 'hours', openTime: '13:00', closeTime: '17:00' } };
    expect(visitHoursAt(h, at('2027-06-02T12:00:00Z'), null, 'UTC')).to.include({ status: 'closed_day' });
    expect(visitHoursAt(h, at('2027-06-02T12:00:00Z'), null, 'UTC').special).to.deep.equal({ reason: 'exception', note: 'Floor works' });
    const holidays = [{ date: '2027-07-14', name: 'Bastille Day' }];
    const morning = visitHoursAt(h, at('2027-07-14T09:00:00Z'), at('2027-07-14T10:00:00Z'), 'Europe/Paris', holidays);
    expect(morning).to.include({ status: 'outside_hours', startTime: '11:00', openTime: '13:00', closeTime: '17:00' });
    expect(morning.special).to.deep.equal({ reason: 'holiday', holiday: 'Bastille Day' });
    expect(visitHoursAt(h, at('2027-07-14T11:00:00Z'), at('2027-07-14T14:00:00Z'), 'Europe/Paris', holidays).status).to.equal('open');
  });

  it('Europe/Paris falling back (31 October 2027): 17:00–18:00 local is inside 10:00–18:00, 17:30–18:30 is not', () => {
    const h = every(day('10:00', '18:00'));
    // UTC+1 after 03:00 that night
    expect(visitHoursAt(h, at('2027-10-31T16:00:00Z'), at('2027-10-31T17:00:00Z'), 'Europe/Paris').status).to.equal('open');
    expect(visitHoursAt(h, at('2027-10-31T16:30:00Z'), at('2027-10-31T17:30:00Z'), 'Europe/Paris').status).to.equal('outside_hours');
    // 09:30 local (08:30 UTC): before opening, even though 09:30 UTC would be inside
    expect(visitHoursAt(h, at('2027-10-31T08:30:00Z'), null, 'Europe/Paris')).to.include({ status: 'outside_hours', startTime: '09:30' });
  });

  it('the holidays needed run from the day before the start to the end’s date, at the museum', () => {
    expect(visitHolidayDates(at('2027-01-01T00:30:00Z'), at('2027-01-01T02:00:00Z'), 'America/New_York')).to.deep.equal({ from: { year: 2026, month: 12, day: 30 }, to: { year: 2026, month: 12, day: 31 } });
  });

  it('checkVisit (plans) reads the same spans: days touching at midnight join, a visit past midnight sees the next day', () => {
    const paris = (openingHours: unknown, date: string, arrival: string, durationMinutes: number) => checkVisit({ openingHours, admission: null, timezone: 'Europe/Paris' }, [], { date, arrival, durationMinutes });
    const always = every(day('00:00', '00:00'));
    const night = paris(always, '2027-06-01', '22:00', 240);
    expect(night).to.include({ hours: 'open', afterClosing: false, openMinutes: 240 });
    expect(visitHoursAt(always, night.startsAt, night.endsAt, 'Europe/Paris').status).to.equal('open');
    // closed on Tuesday 1 June, open from midnight on Wednesday: 23:00 for 2 hours is open for the last hour
    const h = { ...every(day('00:00', '12:00')), exceptions: [{ startDate: '2027-06-01', closed: true }] };
    const late = paris(h, '2027-06-01', '23:00', 120);
    expect(late).to.include({ hours: 'open', beforeOpening: true, afterClosing: false, openMinutes: 60, opensAt: '00:00', closesAt: '12:00' });
    expect(visitHoursAt(h, late.startsAt, late.endsAt, 'Europe/Paris').status).to.equal('closed_day');
    // so a plan's holidays run from the day before to the day after its date
    expect(visitDates('2027-01-01')).to.deep.equal({ from: '2026-12-31', to: '2027-01-02' });
  });
});
