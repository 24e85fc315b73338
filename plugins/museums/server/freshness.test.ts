/**
 * Facts that say how fresh they are (issue 20): edits confirm their fact groups with their source;
 * after a check-in a visitor is asked about the oldest group; yes refreshes it; two or more
 * disagreeing visitors make exactly one suggestion for the manager/admin queue, even at once.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt } from '../public.ts';

const closed = { isOpen: false, isByAppointment: false };
const HOURS = { defaultHours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, closed])) };

let app: TestApp;
let admin: SignedInClient;

async function newMuseum(by: SignedInClient) {
  const r = await by.post('/api/museums', { name: uniqueName('Fresh Museum '), address: '1 Road', city: uniqueName('Freshtown'), country: 'France', state: 'IDF', zipCode: '75001', category: 'Art Museums', latitude: 48.8606, longitude: 2.3376 });
  expect(r.status, r.text).to.equal(201);
  return r.body;
}

describe('museums API: fact freshness and "still right?"', function () {
  this.timeout(60000);
  before(async () => {
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  it('a new museum has no confirmation; an edit confirms the groups it covers, by role; an approved suggestion too', async () => {
    const member = await app.user();
    const m = await newMuseum(member);
    expect(m.freshness).to.deep.equal({ hours: null, admission: null, accessibility: null, contact: null });
    const before = Date.now() - 60_000;
    const e = await admin.patch(`/api/museums/${m.id}/edit`, { openingHours: HOURS });
    expect(e.status, e.text).to.equal(200);
    expect(e.body.freshness.hours.source).to.equal('admin');
    expect(Date.parse(e.body.freshness.hours.confirmedAt)).to.be.above(before);
    expect(e.body.freshness.contact).to.equal(null);
    const manager = await app.user({ role: 'Museum Manager' });
    await app.services.get(MuseumsService).setManager(m.id, manager.me.id, admin.me.id);
    const byManager = await manager.patch(`/api/museums/${m.id}/edit`, { phone: '+33 1 00 00 00 00' });
    expect(byManager.body.freshness.contact.source).to.equal('manager');
    const s = await member.post(`/api/museums/${m.id}/suggest-edit`, { suggestedChanges: { accessibility: { stepFreeEntrance: { value: 'yes' } } } });
    await app.services.get(MuseumsService).approveEditSuggestion(s.body.id, admin.me.id);
    expect((await app.client().get(`/api/museums/${m.id}`)).body.freshness.accessibility.source).to.equal('suggestion');
  });

  it('only a member who checked in today is asked, once, about the oldest fact; yes refreshes it as a visitor confirmation', async () => {
    const m = await newMuseum(admin);
    const saved = await admin.patch(`/api/museums/${m.id}/edit`, { openingHours: HOURS, admission: { currency: 'EUR', prices: [], freeRules: [] }, accessibility: {}, phone: '+33 1 00 00 00 01' });
    expect(saved.status, saved.text).to.equal(200);
    const visitor = await app.user();
    expect((await app.client().get(`/api/museums/${m.id}/fact-check`)).status).to.equal(401);
    expect((await visitor.get(`/api/museums/${m.id}/fact-check`)).body).to.deep.equal({ group: null });
    const early = await visitor.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: true });
    expect(early.status).to.equal(403);
    expect(early.body.message).to.equal('Check in at this museum first (from the museum itself): only visitors can confirm its facts');
    // a visit without a position (unverified) does not make a member a witness
    const away = await app.user();
    expect((await away.post(`/api/museums/${m.id}/checkin`, {})).body.checkIn.verified).to.equal(false);
    expect((await away.get(`/api/museums/${m.id}/fact-check`)).body).to.deep.equal({ group: null });
    expect((await away.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: true })).status).to.equal(403);
    expect((await visitor.post(`/api/museums/${m.id}/checkin`, positionAt(m))).status).to.equal(201);
    // all four groups were confirmed by the same save: the first in order is the oldest tie
    const q = await visitor.get(`/api/museums/${m.id}/fact-check`);
    expect(q.body.group).to.equal('hours');
    const yes = await visitor.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: true });
    expect(yes.status, yes.text).to.equal(201);
    expect(yes.body.freshness.hours.source).to.equal('member');
    expect(yes.body.suggestionId).to.equal(null);
    expect((await visitor.get(`/api/museums/${m.id}/fact-check`)).body).to.deep.equal({ group: null });
    expect((await visitor.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: true })).status).to.equal(409);
    expect((await visitor.post(`/api/museums/${m.id}/fact-check`, { group: 'prices', agrees: true })).status).to.equal(400);
  });

  it('two members disagreeing at once make exactly one suggestion in the queue, with their corrections', async () => {
    const m = await newMuseum(admin);
    const a = await app.user();
    const b = await app.user();
    const c = await app.user();
    for (const u of [a, b, c]) expect((await u.post(`/api/museums/${m.id}/checkin`, positionAt(m))).body.checkIn.verified).to.equal(true);
    const first = await a.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, correction: 'Closed on Mondays now' });
    expect(first.body.suggestionId).to.equal(null);
    const [r1, r2] = await Promise.all([
      b.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, correction: 'Opens at 11' }),
      c.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false }),
    ]);
    expect(r1.status, r1.text).to.equal(201);
    expect(r2.status, r2.text).to.equal(201);
    const ids = [r1.body.suggestionId, r2.body.suggestionId].filter((x) => x !== null);
    expect(ids).to.have.length(1);
    const pending = await app.services.get(MuseumsService).listEditSuggestions({ status: 'pending', museumId: m.id });
    expect(pending.items).to.have.length(1);
    expect(pending.items[0].id).to.equal(ids[0]);
    expect(pending.items[0].reason).to.include('visitors say the hours facts are not right');
    expect(pending.items[0].reason).to.include('Closed on Mondays now');
  });
});
