/** Free-entry rule evaluation (issue 20): weekday windows, nth weekday of the month, date ranges, age rules, DST. */
import { expect } from 'chai';
import { freeStatusAt, normalizeAdmission, type Admission } from '../shared/admission.ts';

const adm = (freeRules: Admission['freeRules']): Admission => ({ currency: 'EUR', prices: [{ visitorType: 'adult', cents: 2200 }], freeRules });

describe('museums: admission and free entry', () => {
  it('first Sunday of the month (Louvre-style): free all day on the first Sunday only', () => {
    const a = adm([{ kind: 'nthWeekday', weekday: 'sunday', nth: 1, note: 'First Sunday' }]);
    expect(freeStatusAt(a, new Date('2026-11-01T12:00:00Z'), 'Europe/Paris')).to.include({ freeToday: true, freeNow: true }); // Sun 1 Nov
    expect(freeStatusAt(a, new Date('2026-11-08T12:00:00Z'), 'Europe/Paris').freeToday).to.equal(false); // second Sunday
    expect(freeStatusAt(a, new Date('2026-11-07T12:00:00Z'), 'Europe/Paris').freeToday).to.equal(false); // Saturday
  });
  it('last Friday of the month (nth = -1) in a 30- and a 31-day month', () => {
    const a = adm([{ kind: 'nthWeekday', weekday: 'friday', nth: -1 }]);
    expect(freeStatusAt(a, new Date('2026-11-27T12:00:00Z'), 'UTC').freeToday).to.equal(true);
    expect(freeStatusAt(a, new Date('2026-11-20T12:00:00Z'), 'UTC').freeToday).to.equal(false);
    expect(freeStatusAt(a, new Date('2026-07-31T12:00:00Z'), 'UTC').freeToday).to.equal(true);
  });
  it('free Thursdays after 17:00 in New York: free today all Thursday, free now only in the window', () => {
    const a = adm([{ kind: 'weekly', weekday: 'thursday', from: '17:00', to: '21:00' }]);
    const before = freeStatusAt(a, new Date('2026-11-26T21:59:00Z'), 'America/New_York'); // 16:59 EST
    expect(before).to.include({ freeToday: true, freeNow: false });
    expect(freeStatusAt(a, new Date('2026-11-26T22:00:00Z'), 'America/New_York').freeNow).to.equal(true); // 17:00 EST
    expect(freeStatusAt(a, new Date('2026-11-27T02:00:00Z'), 'America/New_York').freeNow).to.equal(false); // 21:00 EST
  });
  it('reads the window on the local clock across the DST change (Sunday 29 March 2026, Paris)', () => {
    const a = adm([{ kind: 'weekly', weekday: 'sunday', from: '10:00', to: '12:00' }]);
    expect(freeStatusAt(a, new Date('2026-03-29T07:30:00Z'), 'Europe/Paris').freeNow).to.equal(false); // 09:30 CEST
    expect(freeStatusAt(a, new Date('2026-03-29T08:00:00Z'), 'Europe/Paris').freeNow).to.equal(true); // 10:00 CEST
    expect(freeStatusAt(a, new Date('2026-03-29T10:00:00Z'), 'Europe/Paris').freeNow).to.equal(false); // 12:00 CEST
    expect(freeStatusAt(a, new Date('2026-10-25T10:30:00Z'), 'Europe/Paris').freeNow).to.equal(true); // 11:30 CET
  });
  it('a date range is inclusive on local dates; an age rule never makes the museum free for everyone', () => {
    const a = adm([{ kind: 'dateRange', startDate: '2026-09-19', endDate: '2026-09-20', note: 'Heritage Days' }, { kind: 'age', maxAge: 17 }]);
    expect(freeStatusAt(a, new Date('2026-09-20T21:30:00Z'), 'Europe/Paris').freeToday).to.equal(true); // 23:30 on the 20th
    expect(freeStatusAt(a, new Date('2026-09-20T22:30:00Z'), 'Europe/Paris').freeToday).to.equal(false); // 00:30 on the 21st
    expect(freeStatusAt(adm([{ kind: 'age', maxAge: 17 }]), new Date(), 'UTC')).to.include({ freeToday: false, freeNow: false });
    expect(freeStatusAt(adm([{ kind: 'always' }]), new Date(), 'UTC')).to.include({ freeToday: true, freeNow: true });
  });
  it('normalizes: currency upper-cased, one price per visitor type, unknown rules dropped', () => {
    expect(
      normalizeAdmission({ currency: 'usd', prices: [{ visitorType: 'adult', cents: 3000 }, { visitorType: 'adult', cents: 1 }, { visitorType: 'child', cents: 1.5 }], freeRules: [{ kind: 'weekly', weekday: 'friday', note: ' Pay what you wish ' }, { kind: 'bogus' }] }),
    ).to.deep.equal({ currency: 'USD', prices: [{ visitorType: 'adult', cents: 3000 }], freeRules: [{ kind: 'weekly', weekday: 'friday', note: 'Pay what you wish' }] });
    expect(normalizeAdmission({ currency: 'euro', prices: [], freeRules: [] })).to.equal(null);
  });
});
