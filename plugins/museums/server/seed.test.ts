import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../../core/config.ts';
import { startTestApp, type TestApp } from '../../../core/testing/index.ts';
import { seedMuseums } from './index.ts';

describe('museums: seeds', function () {
  this.timeout(60000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  it('loads seeds/museums/museums.json once, with progress ticks; a second run adds nothing', async () => {
    const list = JSON.parse(fs.readFileSync(path.join(ROOT, 'seeds/museums/museums.json'), 'utf8'));
    const ticks: Array<[string, number]> = [];
    const progress = { start: (n: number, label: string) => ticks.push([label, n]), tick: (n = 1) => ticks.push(['tick', n]) };
    const added = await seedMuseums(app.contexts.get('museums')!, progress);
    expect(added).to.equal(list.length);
    expect(list.length).to.be.at.least(60);
    expect(ticks[0]).to.deep.equal(['museums', list.length]);
    expect(ticks.filter(([l]) => l === 'tick')).to.have.length(list.length);
    expect(await seedMuseums(app.contexts.get('museums')!, { start() {}, tick() {} })).to.equal(0);
    const [{ n }] = await app.knex('museums').count({ n: '*' });
    expect(Number(n)).to.equal(list.length);

    // every seeded museum answers through the API with its zone, hours and open-now
    const met = await app.client().get('/api/museums/slug/the-metropolitan-museum-of-art');
    expect(met.status).to.equal(200);
    expect(met.body).to.include({ timezone: 'America/New_York', city: 'New York', isVerified: true });
    expect(met.body.openingHours.defaultHours.wednesday).to.deep.equal({ isOpen: false, isByAppointment: false });
    // issue 20 facts travel from the seed file: closures, admission, accessibility
    expect(met.body.openingHours.exceptions.map((e: any) => e.note)).to.include('Thanksgiving Day');
    expect(met.body.admission.prices.find((p: any) => p.visitorType === 'adult')).to.deep.equal({ visitorType: 'adult', cents: 3000 });
    expect(met.body.accessibility.stepFreeEntrance.value).to.equal('yes');
    const bm = (await app.client().get('/api/museums/slug/british-museum')).body;
    expect(bm).to.include({ isFreeToday: true, isFreeNow: true });
    const stepFree = await app.client().get('/api/museums?access=stepFreeEntrance&free=now&pageSize=100');
    expect(stepFree.body.items.map((m: any) => m.slug)).to.include.members(['british-museum', 'national-gallery-of-art']);
    const page = await app.client().get('/api/museums?pageSize=100');
    expect(page.body.total).to.equal(list.length);
    const zones = new Set(page.body.items.map((m: any) => m.timezone));
    expect(zones.size).to.be.at.least(10);
    // Nearby from New York: the 4 nearest are in New York
    const near = await app.client().get('/api/museums?near=40.78,-73.97&pageSize=4');
    expect(near.body.items).to.have.length(4);
    for (const m of near.body.items) expect(m.distance).to.be.below(10);
  });
});
