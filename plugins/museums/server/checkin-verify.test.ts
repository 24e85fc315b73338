/**
 * Check-ins that mean something, over HTTP (issue 20): verified at the museum, unverified (and
 * no badge) without a position, too far, or after an impossible journey; five museums on three
 * continents in one second earn nothing; two at once on two continents cannot both be verified.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';
import { BadgesService } from '../../badges/public.ts';
import { MuseumsService, positionAt, type Museum } from '../public.ts';

let app: TestApp;
const places: Array<[string, number, number, string]> = [
  ['Paris', 48.8606, 2.3376, 'Europe/Paris'],
  ['New York', 40.7794, -73.9632, 'America/New_York'],
  ['Tokyo', 35.7188, 139.7765, 'Asia/Tokyo'],
  ['Cairo', 30.0478, 31.2336, 'Africa/Cairo'],
  ['Sydney', -33.8688, 151.2093, 'Australia/Sydney'],
];

async function museumIn(city: string, latitude: number, longitude: number, timezone: string): Promise<Museum> {
  return app.services.get(MuseumsService).createMuseum({ name: uniqueName(`Museum of ${city} `), address: '1 Main St', city, country: 'X', latitude, longitude, timezone } as any, null);
}

describe('museums API: verified check-ins', function () {
  this.timeout(60000);
  before(async () => {
    app = await sharedApp();
  });

  it('a position at the museum verifies; none, or 2 km away, records an unverified visit with the reason', async () => {
    const [c, lat, lng, tz] = places[0];
    const m = await museumIn(c, lat, lng, tz);
    const a = await app.user();
    const ok = await a.post(`/api/museums/${m.id}/checkin`, positionAt(m));
    expect(ok.status, ok.text).to.equal(201);
    expect(ok.body.checkIn).to.include({ verified: true, unverifiedReason: null, distanceMeters: 0 });
    const b = await app.user();
    const none = await b.post(`/api/museums/${m.id}/checkin`, {});
    expect(none.body.checkIn).to.include({ verified: false, unverifiedReason: 'no_position' });
    const far = await (await app.user()).post(`/api/museums/${m.id}/checkin`, { latitude: lat + 0.018, longitude: lng, accuracy: 20 });
    expect(far.body.checkIn).to.include({ verified: false, unverifiedReason: 'too_far' });
    expect(far.body.checkIn.distanceMeters).to.be.within(1900, 2100);
    const half = await (await app.user()).post(`/api/museums/${m.id}/checkin`, { latitude: lat });
    expect(half.status).to.equal(400);
    // every visit counts on the museum (visited), verified or not
    expect((await app.client().get(`/api/museums/${m.id}`)).body.checkInCount).to.equal(3);
  });

  it('five museums on three continents within a second: one verified, the rest impossible journeys, and no check-in badge for them', async () => {
    const badge = await app.services.get(BadgesService).createBadge({ name: uniqueName('Globetrotter '), description: 'Checked in twice.', icon: '🌍', color: '#0EA5E9', requirement: { type: 'check_ins', count: 2 } });
    const ms = await Promise.all(places.map(([c, lat, lng, tz]) => museumIn(c, lat, lng, tz)));
    const u = await app.user();
    const answers = [];
    for (const m of ms) answers.push(await u.post(`/api/museums/${m.id}/checkin`, positionAt(m)));
    expect(answers.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201]);
    expect(answers.map((r) => r.body.checkIn.verified)).to.deep.equal([true, false, false, false, false]);
    expect(answers.slice(1).map((r) => r.body.checkIn.unverifiedReason)).to.deep.equal(['impossible_journey', 'impossible_journey', 'impossible_journey', 'impossible_journey']);
    expect(answers.flatMap((r) => r.body.badges).map((b: any) => b.id)).not.to.include(badge.id);
    // the verified one counts, the four impossible journeys never do (the count is one statement,
    // retried when PostgreSQL picks it as a deadlock victim: issue 18)
    expect((await app.services.get(BadgesService).counts(u.me.id)).check_ins ?? 0).to.equal(1);
  });

  it('two check-ins sent at once from two continents: exactly one is verified', async () => {
    const paris = await museumIn(...places[0]);
    const tokyo = await museumIn(...places[2]);
    const u = await app.user();
    const [p, t] = await Promise.all([u.post(`/api/museums/${paris.id}/checkin`, positionAt(paris)), u.post(`/api/museums/${tokyo.id}/checkin`, positionAt(tokyo))]);
    expect([p.status, t.status]).to.deep.equal([201, 201]);
    expect([p.body.checkIn.verified, t.body.checkIn.verified].filter(Boolean)).to.have.length(1);
  });
});
