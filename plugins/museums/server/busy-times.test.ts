/**
 * Best time to visit (issue 20): verified check-ins by local weekday and hour, hidden below the
 * minimum, unverified visits left out, "now" relative to the museum's own busiest hour.
 */
import { expect } from 'chai';
import { startTestApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
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
    expect(few.body).to.deep.equal({ total: 2, minimum: 3, histogram: null, relative: null, now: null });
    expect((await app.client().get(`/api/museums/${m.id}`)).body.busyNow).to.equal(null);
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
    // the museum answer (cards, page) says the same about now
    expect((await app.client().get(`/api/museums/${m.id}`)).body.busyNow).to.equal(r.body.now);
    expect((await app.client().get('/api/museums/2147480000/busy-times')).status).to.equal(404);
  });

  it('is relative to the busiest local hour of the week (Tokyo: check-ins at set times), list answers carry busyNow', async () => {
    const tz = 'Asia/Tokyo';
    const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Relative Museum '), address: '2 Ueno Park', city: 'Tokyo', country: 'Japan', latitude: 35.7188, longitude: 139.7765, timezone: tz } as any, null);
    const users = await Promise.all(Array.from({ length: 8 }, () => app.user()));
    // Mondays of the last weeks: 01:00 UTC = 10:00 in Tokyo, 05:00 UTC = 14:00; Sunday 00:00 UTC = 09:00
    const now = new Date();
    const lastMonday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) - 7));
    const at = (weeksBack: number, dayShift: number, utcHour: number) => new Date(lastMonday.getTime() - weeksBack * 7 * 86400000 + dayShift * 86400000 + utcHour * 3600000);
    const rows: Array<{ user: SignedInClient; t: Date; verified?: boolean }> = [
      ...[0, 1, 2, 3].map((w, i) => ({ user: users[i], t: at(w, 0, 1) })), // 4 × Monday 10:00
      ...[0, 1].map((w, i) => ({ user: users[4 + i], t: at(w, 0, 5) })), // 2 × Monday 14:00
      { user: users[6], t: at(1, -1, 0) }, // Sunday 09:00
      { user: users[7], t: at(1, -1, 0), verified: false }, // unverified: left out
    ];
    for (const r of rows) {
      const local = localDateTime(r.t, tz);
      const localDate = `${local.year}-${String(local.month).padStart(2, '0')}-${String(local.day).padStart(2, '0')}`;
      await app.knex('museum_checkins').insert({ user_id: r.user.me.id, museum_id: m.id, local_date: localDate, created_at: r.t, verified: r.verified ?? true });
    }
    const b = (await app.client().get(`/api/museums/${m.id}/busy-times`)).body;
    expect(b.total).to.equal(7);
    expect(b.histogram[0][10]).to.equal(4);
    expect(b.relative[0][10]).to.equal(100);
    expect(b.relative[0][14]).to.equal(50);
    expect(b.relative[6][9]).to.equal(25);
    expect(b.relative.flat().filter((x: number) => x > 0)).to.have.length(3);
    const here = localDateTime(new Date(), tz);
    const share = b.relative[['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].indexOf(here.weekday)][Math.floor(here.minutes / 60)] / 100;
    const expected = share >= 2 / 3 ? 'busy' : share <= 1 / 3 ? 'quiet' : 'average';
    expect(b.now).to.equal(expected);
    const list = (await app.client().get(`/api/museums?q=${encodeURIComponent(m.name)}`)).body;
    expect(list.items.find((x: any) => x.id === m.id).busyNow).to.equal(expected);
  });
});
