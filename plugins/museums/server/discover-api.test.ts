/**
 * Discover's combined filters over HTTP (issue 20): open now + free now + step-free + category +
 * near (with a radius) together, the "open now first" sort, and the statement budget that keeps
 * the combination one SQL pass plus one scan for the rules decided in code. Open-now itself
 * (zones, DST, closures, holidays) is tested in closures-api.test.ts and opening-hours.test.ts.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { countStatements, type StatementCounter } from '../../../core/testing/statements.ts';
import { isoDate, localDateTime } from '../shared/opening-hours.ts';

const allDay = { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
const week = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]));
const TZ = 'Europe/Paris';
const today = () => isoDate(localDateTime(new Date(), TZ));
const FREE = { currency: 'EUR', prices: [], freeRules: [{ kind: 'always' }] };
const PAYING = { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1200 }], freeRules: [] };
const STEP_FREE = { stepFreeEntrance: { value: 'yes' }, accessibleToilets: { value: 'yes' } };
const STAIRS = { stepFreeEntrance: { value: 'no' }, accessibleToilets: { value: 'yes' } };

let app: TestApp;
let member: SignedInClient;
let counter: StatementCounter;

describe('museums API: Discover filters combined (issue 20)', function () {
  this.timeout(60000);
  const city = uniqueName('Filterbourg');
  const ids: Record<string, number> = {};
  // Louvre-ish centre; "far" is Lyon, ~240 miles away
  const centre = { lat: 48.8606, lng: 2.3376 };
  const make = async (key: string, extra: Record<string, unknown>) => {
    const r = await member.post('/api/museums', {
      name: uniqueName(`${key} `),
      address: '1 Rue du Test',
      city,
      country: 'France',
      category: 'Art Museums',
      timezone: TZ,
      latitude: centre.lat,
      longitude: centre.lng,
      openingHours: { defaultHours: week },
      admission: FREE,
      accessibility: STEP_FREE,
      ...extra,
    });
    expect(r.status, r.text).to.equal(201);
    ids[key] = r.body.id;
  };

  before(async () => {
    app = await sharedApp();
    counter = countStatements(app);
    member = await app.user();
    await make('match', { latitude: 48.87, longitude: 2.34 }); // ~0.7 miles: open, free, step-free, art
    await make('matchFar', { latitude: 48.95, longitude: 2.4 }); // ~6.8 miles: the same facts
    await make('stairs', { accessibility: STAIRS });
    await make('paying', { admission: PAYING });
    await make('closed', { openingHours: { defaultHours: week, exceptions: [{ startDate: today(), closed: true, note: 'Closed for installation' }] } });
    await make('history', { category: 'History Museums' });
    await make('lyon', { latitude: 45.764, longitude: 4.8357 });
    await make('noFacts', { admission: null, accessibility: {}, openingHours: null });
  });

  const list = async (query: string, client: { get(path: string): Promise<any> } = app.client()) => {
    const r = await client.get(`/api/museums?q=${encodeURIComponent(city)}&pageSize=50${query}`);
    expect(r.status, r.text).to.equal(200);
    return r.body as { items: Array<{ id: number; distance?: number; isOpen: boolean }>; total: number };
  };
  const named = (body: { items: Array<{ id: number }> }) => body.items.map((m) => Object.keys(ids).find((k) => ids[k] === m.id));

  it('open now + free now + step-free keep only the museums that are all three, for visitors and members alike', async () => {
    const visitor = await list('&open=now&free=now&access=stepFreeEntrance');
    expect(named(visitor)).to.have.members(['match', 'matchFar', 'history', 'lyon']);
    expect(visitor.total).to.equal(4);
    expect(named(await list('&open=now&free=now&access=stepFreeEntrance', member))).to.deep.equal(named(visitor));
    // each filter alone leaves out its own museum only
    const without = async (query: string) => named(await list(query));
    expect(await without('&open=now')).to.have.members(['match', 'matchFar', 'stairs', 'paying', 'history', 'lyon']);
    expect(await without('&free=now')).to.have.members(['match', 'matchFar', 'stairs', 'closed', 'history', 'lyon']);
    expect(await without('&access=stepFreeEntrance')).to.have.members(['match', 'matchFar', 'paying', 'closed', 'history', 'lyon']);
    // two accessibility facts must both be yes
    expect(named(await list('&access=stepFreeEntrance,accessibleToilets'))).to.not.include('stairs');
    expect(named(await list('&access=accessibleToilets'))).to.include('stairs');
  });

  it('adds the category and near + radius: the nearest first, with their distance in miles', async () => {
    const r = await list(`&open=now&free=now&access=stepFreeEntrance&category=${encodeURIComponent('Art Museums')}&near=${centre.lat},${centre.lng}&radius=25`);
    expect(named(r)).to.deep.equal(['match', 'matchFar']);
    expect(r.items[0].distance).to.be.closeTo(0.7, 0.15);
    expect(r.items[1].distance).to.be.closeTo(6.8, 0.4);
    // the same without a radius: Lyon comes last, about 240 miles away
    const all = await list(`&open=now&free=now&access=stepFreeEntrance&category=${encodeURIComponent('Art Museums')}&near=${centre.lat},${centre.lng}`);
    expect(named(all)).to.deep.equal(['match', 'matchFar', 'lyon']);
    expect(all.items[2].distance).to.be.within(230, 250);
    // a radius around Lyon: the bounding box and the great circle agree
    expect(named(await list('&near=45.76,4.84&radius=5'))).to.deep.equal(['lyon']);
  });

  it('sort=open puts the museums open now first, then by distance (or by name without near)', async () => {
    const r = await list(`&sort=open&near=${centre.lat},${centre.lng}`);
    const flags = r.items.map((m) => m.isOpen);
    const firstClosed = flags.indexOf(false);
    expect(firstClosed, 'some museum is closed now').to.be.greaterThan(0);
    expect(flags.slice(firstClosed).every((f) => !f), 'the open ones come first').to.equal(true);
    const openOnes = r.items.slice(0, firstClosed).map((m) => m.distance!);
    expect(openOnes).to.deep.equal([...openOnes].sort((a, b) => a - b));
    expect(named(r).slice(firstClosed)).to.have.members(['closed', 'noFacts']);
    const byName = await list('&sort=open');
    expect(byName.items.map((m) => m.isOpen).indexOf(false)).to.equal(firstClosed);
    expect((await app.client().get('/api/museums?sort=sideways')).status).to.equal(400);
  });

  it('costs the same few statements however many filters are combined', async () => {
    const measure = async (query: string) => {
      const { res, log } = await counter.request(app.client(), 'GET', `/api/museums?q=${encodeURIComponent(city)}${query}`);
      expect(res.status).to.equal(200);
      return log.route;
    };
    const one = await measure('&open=now');
    const all = await measure(`&open=now&free=now&access=stepFreeEntrance,accessibleToilets&category=${encodeURIComponent('Art Museums')}&near=${centre.lat},${centre.lng}&radius=25&sort=open`);
    const plain = await measure('');
    // plain: count + page; with rules decided in code: one scan more, whatever the combination
    expect(all.length, all.join('\n')).to.equal(one.length);
    expect(all.length, all.join('\n')).to.equal(plain.length + 1);
    expect(plain.length, plain.join('\n')).to.be.at.most(2);
  });

  it('refuses unknown filters with a 400 and a message', async () => {
    for (const q of ['access=teleporter', 'free=sometimes', 'open=later', 'near=north', 'radius=-1']) {
      const r = await app.client().get(`/api/museums?${q}`);
      expect(r.status, q).to.equal(400);
      expect(r.body.message, q).to.be.a('string');
    }
  });
});
