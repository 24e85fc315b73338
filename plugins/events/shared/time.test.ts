import { expect } from 'chai';
import { formatDate, formatTime, instantToZoned, isThisWeekend, toCents, weekendRange, zonedToInstant } from './time.ts';

describe('events: local times in IANA zones', () => {
  it('turns a local date and time into the right instant', () => {
    expect(zonedToInstant('2031-07-01', '19:30', 'Europe/Paris').toISOString()).to.equal('2031-07-01T17:30:00.000Z');
    expect(zonedToInstant('2031-01-01', '19:30', 'Europe/Paris').toISOString()).to.equal('2031-01-01T18:30:00.000Z');
    expect(zonedToInstant('2031-01-01', '00:00', 'Asia/Kolkata').toISOString()).to.equal('2030-12-31T18:30:00.000Z');
    expect(zonedToInstant('2031-06-15', '09:00', 'UTC').toISOString()).to.equal('2031-06-15T09:00:00.000Z');
  });

  it('reads times in a spring-forward gap with the earlier offset, and repeated times as the first', () => {
    // New York, 2031-03-09: 02:00 → 03:00; 02:30 does not exist and is read as 03:30 EDT
    expect(zonedToInstant('2031-03-09', '02:30', 'America/New_York').toISOString()).to.equal('2031-03-09T07:30:00.000Z');
    // 2031-11-02: 01:30 happens twice; the first (EDT, -4) is taken
    expect(zonedToInstant('2031-11-02', '01:30', 'America/New_York').toISOString()).to.equal('2031-11-02T05:30:00.000Z');
  });

  it('gives the local date and time back', () => {
    expect(instantToZoned(new Date('2031-07-01T17:30:00Z'), 'Europe/Paris')).to.deep.equal({ date: '2031-07-01', time: '19:30' });
    expect(instantToZoned(new Date('2031-07-01T23:30:00Z'), 'Asia/Tokyo')).to.deep.equal({ date: '2031-07-02', time: '08:30' });
  });

  it('formats as h:mm a and MMM d, yyyy', () => {
    expect(formatTime('2031-07-01T17:30:00Z', 'Europe/Paris')).to.equal('7:30 PM');
    expect(formatDate('2031-07-01T17:30:00Z', 'Europe/Paris')).to.equal('Jul 1, 2031');
  });

  it('finds this weekend in the viewer’s zone', () => {
    // Wednesday 2031-05-14 in Los Angeles → Sat 17 00:00 PDT to Mon 19 00:00 PDT
    const w = weekendRange(new Date('2031-05-14T20:00:00Z'), 'America/Los_Angeles');
    expect([w.start.toISOString(), w.end.toISOString()]).to.deep.equal(['2031-05-17T07:00:00.000Z', '2031-05-19T07:00:00.000Z']);
    // Sunday morning in Tokyo is still this weekend (it began on Saturday)
    const s = weekendRange(new Date('2031-05-17T23:00:00Z'), 'Asia/Tokyo');
    expect([s.start.toISOString(), s.end.toISOString()]).to.deep.equal(['2031-05-16T15:00:00.000Z', '2031-05-18T15:00:00.000Z']);
  });

  it('decides "this weekend" on the clock of the place where the event happens, whoever asks', () => {
    const wednesday = new Date('2031-05-14T20:00:00Z');
    // Saturday 00:30 in Tokyo is Friday 15:30 UTC and Friday 08:30 in Los Angeles: a weekend event in Tokyo
    const tokyoSaturday = new Date('2031-05-16T15:30:00Z');
    expect(isThisWeekend(tokyoSaturday, 'Asia/Tokyo', wednesday)).to.equal(true);
    expect(isThisWeekend(tokyoSaturday, 'America/Los_Angeles', wednesday)).to.equal(false);
    // Sunday 23:30 in Los Angeles (Monday 06:30 UTC) is still its weekend; Monday 00:00 is not
    expect(isThisWeekend(new Date('2031-05-19T06:30:00Z'), 'America/Los_Angeles', wednesday)).to.equal(true);
    expect(isThisWeekend(new Date('2031-05-19T07:00:00Z'), 'America/Los_Angeles', wednesday)).to.equal(false);
    // the weekend after is not this one
    expect(isThisWeekend(new Date('2031-05-24T12:00:00Z'), 'UTC', wednesday)).to.equal(false);
    // on Sunday the weekend that began on Saturday is this one
    expect(isThisWeekend(new Date('2031-05-17T10:00:00Z'), 'UTC', new Date('2031-05-18T10:00:00Z'))).to.equal(true);
  });

  it('converts money to cents without float drift', () => {
    expect(toCents(19.99)).to.equal(1999);
    expect(toCents('12.50')).to.equal(1250);
    expect(toCents(0.07)).to.equal(7);
    expect(toCents(1.005)).to.equal(null);
    expect(toCents('1e3')).to.equal(null);
    expect(toCents(-1)).to.equal(null);
  });
});
