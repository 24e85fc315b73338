/** The check-in verification rule (issue 20): distance with accuracy, the speed check, bad fixes. */
import { expect } from 'chai';
import { distanceMeters, verifyCheckIn } from '../shared/verify.ts';

const louvre = { latitude: 48.8606, longitude: 2.3376 };
const orsay = { latitude: 48.86, longitude: 2.3266 };
const met = { latitude: 40.7794, longitude: -73.9632 };
const at = new Date('2026-11-24T12:00:00Z');
const later = (min: number) => new Date(at.getTime() + min * 60_000);

describe('museums: check-in verification', () => {
  it('measures great-circle distances (Louvre–Orsay ≈ 0.8 km, Paris–New York ≈ 5 840 km)', () => {
    expect(distanceMeters(louvre, orsay)).to.be.within(750, 900);
    expect(distanceMeters(louvre, met) / 1000).to.be.within(5800, 5880);
  });
  it('verifies a position inside the radius, allowing for the reported accuracy', () => {
    expect(verifyCheckIn({ position: { ...louvre, accuracy: 10 }, museum: louvre, previous: null, at })).to.deep.equal({ verified: true, reason: null, distanceM: 0 });
    const off = { latitude: louvre.latitude + 0.0036, longitude: louvre.longitude, accuracy: 20 }; // ≈ 400 m north
    expect(verifyCheckIn({ position: off, museum: louvre, previous: null, at }).reason).to.equal('too_far');
    expect(verifyCheckIn({ position: { ...off, accuracy: 150 }, museum: louvre, previous: null, at }).verified).to.equal(true); // 400 − 150 ≤ 300
  });
  it('refuses a fix too imprecise to say anything, and check-ins without a position or museum location', () => {
    expect(verifyCheckIn({ position: { ...louvre, accuracy: 5000 }, museum: louvre, previous: null, at }).reason).to.equal('inaccurate');
    expect(verifyCheckIn({ position: null, museum: louvre, previous: null, at }).reason).to.equal('no_position');
    expect(verifyCheckIn({ position: { ...louvre, accuracy: 10 }, museum: null, previous: null, at }).reason).to.equal('no_museum_location');
  });
  it('flags an impossible journey from the previous verified check-in, not a possible one', () => {
    const fromParis = { museum: louvre, at };
    expect(verifyCheckIn({ position: { ...met, accuracy: 10 }, museum: met, previous: fromParis, at: later(1) }).reason).to.equal('impossible_journey');
    expect(verifyCheckIn({ position: { ...met, accuracy: 10 }, museum: met, previous: fromParis, at: later(9 * 60) }).verified).to.equal(true); // a flight
    expect(verifyCheckIn({ position: { ...orsay, accuracy: 10 }, museum: orsay, previous: fromParis, at: later(15) }).verified).to.equal(true); // a walk across the Seine
    // neighbours in one museum quarter, the same second
    const next = { latitude: louvre.latitude + 0.0002, longitude: louvre.longitude };
    expect(verifyCheckIn({ position: { ...next, accuracy: 10 }, museum: next, previous: fromParis, at }).verified).to.equal(true);
  });
});
