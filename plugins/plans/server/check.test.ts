/** The plan check (issue 20, plan a visit): pure rules on museums' checkVisit, no database. */
import { expect } from 'chai';
import type { VisitFacts } from '../../museums/public.ts';
import { checkPlan, type StopRow } from './check.ts';

const day = (openTime: string, closeTime: string) => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const closed = { isOpen: false, isByAppointment: false };
const week = (o: any, mondayClosed = true) => ({
  monday: mondayClosed ? closed : o, tuesday: o, wednesday: o, thursday: o, friday: o, saturday: o, sunday: o,
});

function museum(id: number, over: Partial<VisitFacts> = {}): VisitFacts {
  return {
    id, slug: `m-${id}`, name: `Museum ${id}`, city: 'Paris', country: 'FR', featuredImage: null, timezone: 'Europe/Paris',
    latitude: 48.8606, longitude: 2.3376, admission: null, holidays: [],
    openingHours: { defaultHours: week(day('10:00', '18:00')) as any },
    ...over,
  };
}
const facts = (...ms: VisitFacts[]) => new Map(ms.map((m) => [m.id, m]));
const opts = (date: string) => ({ date, walkingSpeedKmh: 4.5, minVisitMinutes: 30 });
const stop = (id: number, museumId: number, arrival: string, durationMinutes = 90): StopRow => ({ id, museumId, arrival, durationMinutes });

describe('plans: the plan check', () => {
  it('warns about a stop on its weekly closing day, not about an open one', () => {
    // Monday 30 November 2026: museum 1 closed on Mondays, museum 2 open every day
    const m1 = museum(1);
    const m2 = museum(2, { latitude: 48.8600, longitude: 2.3266, openingHours: { defaultHours: week(day('09:00', '18:00'), false) as any } });
    const c = checkPlan([stop(1, 2, '10:00'), stop(2, 1, '12:00')], facts(m1, m2), opts('2026-11-30'));
    expect(c.stops[0].warnings).to.deep.equal([]);
    expect(c.stops[1].warnings).to.include('closed');
    expect(c.stops[1].visit!.hours).to.equal('closed');
    // the same plan on Tuesday: both open
    expect(checkPlan([stop(1, 2, '10:00'), stop(2, 1, '12:00')], facts(m1, m2), opts('2026-12-01')).summary.warnings).to.equal(0);
  });

  it('a dated closure (exception) closes the museum that day, with its note', () => {
    const m = museum(1, { openingHours: { defaultHours: week(day('10:00', '18:00')) as any, exceptions: [{ startDate: '2026-12-02', closed: true, note: 'Closed for installation' }] } });
    const c = checkPlan([stop(1, 1, '11:00')], facts(m), opts('2026-12-02'));
    expect(c.stops[0].warnings).to.deep.equal(['closed']);
    expect(c.stops[0].visit!.special).to.deep.equal({ reason: 'exception', note: 'Closed for installation' });
    expect(checkPlan([stop(1, 1, '11:00')], facts(m), opts('2026-12-03')).stops[0].warnings).to.deep.equal([]);
  });

  it('a public holiday with the rule "closed on public holidays" closes it (holidays given by the museum)', () => {
    const m = museum(1, {
      openingHours: { defaultHours: week(day('10:00', '18:00')) as any, publicHolidays: { country: 'FR', mode: 'closed' } },
      holidays: [{ date: '2026-12-25', name: 'Christmas Day' }],
    });
    const c = checkPlan([stop(1, 1, '11:00')], facts(m), opts('2026-12-25'));
    expect(c.stops[0].warnings).to.deep.equal(['closed']);
    expect(c.stops[0].visit!.special).to.deep.equal({ reason: 'holiday', holiday: 'Christmas Day' });
  });

  it('too short, before opening and after closing', () => {
    const m = museum(1);
    const late = checkPlan([stop(1, 1, '17:45', 60)], facts(m), opts('2026-12-01')).stops[0];
    expect(late.warnings).to.include.members(['after_closing', 'too_short']);
    expect(late.visit!.openMinutes).to.equal(15);
    const early = checkPlan([stop(1, 1, '09:30', 120)], facts(m), opts('2026-12-01')).stops[0];
    expect(early.warnings).to.deep.equal(['before_opening']);
    expect(early.visit!.opensAt).to.equal('10:00');
    expect(checkPlan([stop(1, 1, '10:00', 480)], facts(m), opts('2026-12-01')).stops[0].warnings).to.deep.equal([]);
  });

  it('warns when the next arrival leaves less time than the walk (haversine at 4.5 km/h)', () => {
    // Louvre → Musée d'Orsay: about 0.8 km, 11 minutes on foot
    const louvre = museum(1, { latitude: 48.8606, longitude: 2.3376 });
    const orsay = museum(2, { latitude: 48.8600, longitude: 2.3266 });
    const tight = checkPlan([stop(1, 1, '10:00', 90), stop(2, 2, '11:35', 90)], facts(louvre, orsay), opts('2026-12-01'));
    expect(tight.stops[1].walk!.distanceMeters).to.be.within(780, 840);
    expect(tight.stops[1].walk!.minutes).to.equal(Math.ceil(tight.stops[1].walk!.distanceMeters / 75));
    expect(tight.stops[1].walk!.gapMinutes).to.equal(5);
    expect(tight.stops[1].warnings).to.deep.equal(['walk_overlap']);
    const fine = checkPlan([stop(1, 1, '10:00', 90), stop(2, 2, '11:45', 90)], facts(louvre, orsay), opts('2026-12-01'));
    expect(fine.stops[1].warnings).to.deep.equal([]);
  });

  it('shows free entry when the arrival falls in a free window (Thursday evenings), not before it', () => {
    const m = museum(1, {
      openingHours: { defaultHours: week(day('10:00', '21:00')) as any },
      admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1600 }], freeRules: [{ kind: 'weekly', weekday: 'thursday', from: '18:00', to: '21:00', note: 'Free Thursday evenings' }] },
    });
    const c = checkPlan([stop(1, 1, '18:30', 90)], facts(m), opts('2026-12-03'));
    expect(c.stops[0].visit!.free).to.deep.equal({ applies: true, note: 'Free Thursday evenings', from: '18:00', to: '21:00' });
    expect(c.summary.freeStops).to.equal(1);
    expect(checkPlan([stop(1, 1, '16:00', 90)], facts(m), opts('2026-12-03')).stops[0].visit!.free.applies).to.equal(false);
    expect(checkPlan([stop(1, 1, '18:30', 90)], facts(m), opts('2026-12-02')).stops[0].visit!.free.applies).to.equal(false); // Wednesday
  });

  it('counts real time on the DST day: 2 hours from 01:00 on 29 March 2026 in Paris end at 04:00, after a 03:00 closing', () => {
    // a late-night venue open 18:00–03:00: Saturday's hours run into Sunday morning
    const m = museum(1, { openingHours: { defaultHours: week(day('18:00', '03:00'), false) as any } });
    const c = checkPlan([stop(1, 1, '01:00', 120)], facts(m), opts('2026-03-29'));
    const s = c.stops[0];
    expect(s.visit!.startsAt.toISOString()).to.equal('2026-03-29T00:00:00.000Z'); // 01:00 CET
    expect(s.visit!.endsAt.toISOString()).to.equal('2026-03-29T02:00:00.000Z'); // 04:00 CEST
    expect(s.visit!.hours).to.equal('open');
    expect(s.warnings).to.include('after_closing');
    expect(s.visit!.openMinutes).to.equal(60); // 01:00 CET → 03:00 CEST is one hour
    // the same visit a week earlier fits exactly
    expect(checkPlan([stop(1, 1, '01:00', 120)], facts(m), opts('2026-03-22')).stops[0].warnings).to.deep.equal([]);
    // New York's spring forward (8 March 2026): 10:00 EDT is 14:00 UTC
    const ny = museum(2, { timezone: 'America/New_York' });
    expect(checkPlan([stop(1, 2, '10:00', 60)], facts(ny), opts('2026-03-08')).stops[0].visit!.startsAt.toISOString()).to.equal('2026-03-08T14:00:00.000Z');
  });

  it('suggests a nearest-neighbour order that avoids the closed door, with arrival times', () => {
    // Tuesday: museum 3 closes at 12:00, so it should come first
    const a = museum(1, { latitude: 48.8606, longitude: 2.3376 });
    const b = museum(2, { latitude: 48.8600, longitude: 2.3266 });
    const morning = museum(3, { latitude: 48.8611, longitude: 2.3500, openingHours: { defaultHours: week(day('09:00', '12:00')) as any } });
    const stops = [stop(11, 1, '10:00', 60), stop(12, 2, '11:30', 60), stop(13, 3, '13:00', 60)];
    const c = checkPlan(stops, facts(a, b, morning), opts('2026-12-01'));
    expect(c.stops[2].warnings).to.include('closed');
    expect(c.suggestion).to.not.equal(null);
    expect(c.suggestion!.stopIds[0]).to.equal(13);
    expect(c.suggestion!.warnings).to.equal(0);
    expect(c.suggestion!.arrivals[0]).to.equal('10:00');
    // applying it leaves nothing to suggest
    const applied = c.suggestion!.stopIds.map((id, i) => ({ ...stops.find((s) => s.id === id)!, arrival: c.suggestion!.arrivals[i] }));
    const after = checkPlan(applied, facts(a, b, morning), opts('2026-12-01'));
    expect(after.summary.warnings).to.equal(0);
    expect(after.suggestion).to.equal(null);
  });
});
