/**
 * Best time to visit (issue 20): verified check-ins by local weekday and hour, hidden below the
 * minimum, unverified visits left out, "now" relative to the museum's own busiest hour.
 */
import { expect } from 'chai';
import { startTestApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt } from '../public.ts';
import { localDateTime } from '../shared/opening-hours.ts';

describe('museums API: best time to visit', function () {
  this.timeout(90000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ plugins: { config: { museums: { busyMinCheckIns: 3 } } } });
  });
  after(() => app?.close());

  it('hides the histogram below the minimum, counts verified check-ins only, in the museum zone', async () => {
    const tz = 'Asia/Tokyo';
    const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Busy Museum '), address: '1 Ueno Park', city: 'Tokyo', country: 'Japan', latitude: 35.7188, longitude: 139.7765, timezone: tz } as any, null);
    const users = await Promise.all([0, 1, 2, 3].map(() => app.user()));
    await users[0].post(`/api/museums/${m.id}/checkin`, positionAt(m));
    await users[1].post(`/api/museums/${m.id}/checkin`, positionAt(m));
    await users[3].post(`/api/museums/${m.id}/checkin`, {}); // unverified: not crowd data
    const few = await app.client().get(`/api/museums/${m.id}/busy-times`);
    expect(few.status, few.text).to.equal(200);
    expect(few.body).to.deep.equal({ total: 2, minimum: 3, histogram: null, now: null });
    await users[2].post(`/api/museums/${m.id}/checkin`, positionAt(m));
    const r = await app.client().get(`/api/museums/${m.id}/busy-times`);
    expect(r.body.total).to.equal(3);
    expect(r.body.histogram).to.have.length(7);
    const here = localDateTime(new Date(), tz);
    const day = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].indexOf(here.weekday);
    const hour = Math.floor(here.minutes / 60);
    // all three were just now, at this local hour in Tokyo (a check-in at the turn of the hour may land in the next)
    expect(r.body.histogram[day][hour] + (r.body.histogram[day][hour - 1] ?? 0) + (r.body.histogram[(day + 1) % 7]?.[0] ?? 0)).to.be.at.least(1);
    expect(r.body.histogram.flat().reduce((a: number, b: number) => a + b, 0)).to.equal(3);
    expect(['busy', 'average', 'quiet']).to.include(r.body.now);
    expect((await app.client().get('/api/museums/2147480000/busy-times')).status).to.equal(404);
  });
});
