/**
 * Structured corrections and the badge for confirmations that help (issue 20): a visitor's "no"
 * carries the change (today's hours, prices, an accessibility fact, phone/website); two or more
 * disagreeing visitors still make one suggestion, which now carries the change most of them asked
 * for and is approved into the museum's data in one call; the `fact_confirmations` badge counts
 * yes answers that matched the consensus and no answers whose suggestion was approved, exactly.
 */
import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt } from '../public.ts';
import { BadgesService } from '../../badges/public.ts';
import { localDateTime } from '../shared/opening-hours.ts';

const open = { isOpen: true, isByAppointment: false, openTime: '09:00', closeTime: '18:00' };
const HOURS = { defaultHours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, open])) };

let app: TestApp;
let admin: SignedInClient;

async function museumWithFacts() {
  const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Right Museum '), address: '5 Rue', city: uniqueName('Town'), country: 'France', latitude: 48.85, longitude: 2.35, timezone: 'Europe/Paris' } as any, null);
  const r = await admin.patch(`/api/museums/${m.id}/edit`, {
    openingHours: HOURS,
    admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1200 }, { visitorType: 'child', cents: 0 }], freeRules: [] },
    accessibility: { stepFreeEntrance: { value: 'yes' } },
    phone: '+33 1 00 00 00 00',
  });
  expect(r.status, r.text).to.equal(200);
  return r.body;
}

async function visitors(m: any, n: number) {
  const list = await Promise.all(Array.from({ length: n }, () => app.user()));
  for (const u of list) expect((await u.post(`/api/museums/${m.id}/checkin`, positionAt(m))).body.checkIn.verified).to.equal(true);
  return list;
}

const todayAt = (tz: string) => {
  const d = localDateTime(new Date(), tz);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
};

describe('museums API: structured corrections and the fact_confirmations badge', function () {
  this.timeout(90_000);
  before(async () => {
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  it('"closed today" from two visitors → one suggestion with a dated exception → approved in one call, the museum is closed today', async () => {
    const m = await museumWithFacts();
    const [a, b] = await visitors(m, 2);
    const first = await a.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, correction: 'Door shut', change: { hours: { closed: true } } });
    expect(first.status, first.text).to.equal(201);
    expect(first.body.suggestionId).to.equal(null);
    const second = await b.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, change: { hours: { closed: true } } });
    expect(second.body.suggestionId).to.be.a('number');
    const [s] = (await app.services.get(MuseumsService).listEditSuggestions({ status: 'pending', museumId: m.id })).items;
    expect(s.id).to.equal(second.body.suggestionId);
    expect(s.reason).to.include('Door shut');
    const today = todayAt('Europe/Paris');
    expect((s.suggestedChanges as any).openingHours.exceptions).to.deep.equal([{ startDate: today, endDate: today, closed: true, note: 'Reported by visitors' }]);
    expect((s.suggestedChanges as any).openingHours.defaultHours.monday).to.deep.include({ isOpen: true, openTime: '09:00' });
    await app.services.get(MuseumsService).approveEditSuggestion(s.id, admin.me.id);
    const after = (await app.client().get(`/api/museums/${m.id}`)).body;
    expect(after.openingHours.exceptions[0]).to.deep.include({ startDate: today, closed: true });
    expect(after.isOpen).to.equal(false);
    expect(after.freshness.hours.source).to.equal('suggestion');
  });

  it('the change most visitors asked for wins; prices, an accessibility fact and the contact are structured too', async () => {
    const m = await museumWithFacts();
    const [a, b, c] = await visitors(m, 3);
    await a.post(`/api/museums/${m.id}/fact-check`, { group: 'admission', agrees: false, change: { admission: { adult: 1500 } } });
    await b.post(`/api/museums/${m.id}/fact-check`, { group: 'admission', agrees: false, change: { admission: { adult: 1400 } } });
    const third = await c.post(`/api/museums/${m.id}/fact-check`, { group: 'admission', agrees: false, change: { admission: { adult: 1500 } } });
    expect(third.status, third.text).to.equal(201);
    // the first two made the suggestion (latest breaks the 1–1 tie), the third starts a new count
    const pending = (await app.services.get(MuseumsService).listEditSuggestions({ status: 'pending', museumId: m.id })).items;
    expect(pending).to.have.length(1);
    expect((pending[0].suggestedChanges as any).admission.prices).to.deep.equal([{ visitorType: 'adult', cents: 1400 }, { visitorType: 'child', cents: 0 }]);
    await app.services.get(MuseumsService).approveEditSuggestion(pending[0].id, admin.me.id);
    expect((await app.client().get(`/api/museums/${m.id}`)).body.admission.prices[0]).to.deep.equal({ visitorType: 'adult', cents: 1400 });

    // the conversions, checked on answers that make no suggestion yet (one visitor each)
    const m2 = await museumWithFacts();
    const [x, y, z, v] = await visitors(m2, 4);
    const acc = await x.post(`/api/museums/${m2.id}/fact-check`, { group: 'accessibility', agrees: false, change: { accessibility: { fact: 'stepFreeEntrance', value: 'limited', note: 'Ramp is steep' } } });
    expect(acc.status, acc.text).to.equal(201);
    const contact = await y.post(`/api/museums/${m2.id}/fact-check`, { group: 'contact', agrees: false, change: { contact: { website: 'not a url' } } });
    expect(contact.status).to.equal(400);
    const wrongGroup = await y.post(`/api/museums/${m2.id}/fact-check`, { group: 'contact', agrees: false, change: { hours: { closed: true } } });
    expect(wrongGroup.status).to.equal(400);
    expect(wrongGroup.body.message).to.equal('The correction must be about the contact asked about');
    expect((await y.post(`/api/museums/${m2.id}/fact-check`, { group: 'hours', agrees: false, change: { hours: { closed: false, openTime: '10:00' } } })).status).to.equal(400);
    expect((await y.post(`/api/museums/${m2.id}/fact-check`, { group: 'hours', agrees: true, change: { hours: { closed: true } } })).status).to.equal(400);
    const same = await z.post(`/api/museums/${m2.id}/fact-check`, { group: 'contact', agrees: false, change: { contact: { phone: '+33 1 00 00 00 00' } } });
    expect(same.status).to.equal(400);
    expect(same.body.message).to.equal('No changes detected');
    const ok = await v.post(`/api/museums/${m2.id}/fact-check`, { group: 'contact', agrees: false, change: { contact: { phone: '+33 9 99 99 99 99', website: 'https://museum.example' } } });
    expect(ok.status, ok.text).to.equal(201);
    const stored = await app.knex('museum_fact_answers').where({ museum_id: m2.id }).orderBy('id').select('fact_group', 'changes');
    expect(stored.map((r: any) => r.changes)).to.deep.equal([
      { accessibility: { ...m2.accessibility, stepFreeEntrance: { value: 'limited', note: 'Ramp is steep' } } },
      { phone: '+33 9 99 99 99 99', website: 'https://museum.example' },
    ]);
  });

  it('counts helpful confirmations exactly: a consensus yes, an approved no; not a disputed yes, nor twice for one approval; retroactive for a new badge', async () => {
    const badges = app.services.get(BadgesService);
    const badge = await badges.createBadge({ name: uniqueName('Fact Keeper '), description: 'Helped', icon: '🔎', color: '#0EA5E9', requirement: { type: 'fact_confirmations', count: 2 } });
    const m = await museumWithFacts();
    const [keeper, critic1, critic2, late] = await visitors(m, 4);
    const count = async (u: SignedInClient) => {
      await app.events.settled();
      return (await badges.counts(u.me.id)).fact_confirmations;
    };
    // a yes nobody disputes: helps
    expect((await keeper.post(`/api/museums/${m.id}/fact-check`, { group: 'contact', agrees: true })).status).to.equal(201);
    expect(await count(keeper)).to.equal(1);
    // two no on hours at once → one suggestion; a yes while hours are disputed does not count
    const [r1, r2] = await Promise.all([
      critic1.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, change: { hours: { closed: false, openTime: '11:00', closeTime: '17:00' } } }),
      critic2.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: false, change: { hours: { closed: false, openTime: '11:00', closeTime: '17:00' } } }),
    ]);
    expect([r1.status, r2.status]).to.deep.equal([201, 201]);
    const sid = r1.body.suggestionId ?? r2.body.suggestionId;
    expect(sid).to.be.a('number');
    expect(await count(critic1)).to.equal(0);
    // the disputes were turned into a suggestion: the group is no longer disputed by open answers
    expect((await late.post(`/api/museums/${m.id}/fact-check`, { group: 'hours', agrees: true })).status).to.equal(201);
    expect(await count(late)).to.equal(1);
    // approval credits both critics once, even approved twice at once (the second is 409)
    const svc = app.services.get(MuseumsService);
    const both = await Promise.allSettled([svc.approveEditSuggestion(sid, admin.me.id), svc.approveEditSuggestion(sid, admin.me.id)]);
    expect(both.filter((x) => x.status === 'fulfilled')).to.have.length(1);
    expect(await count(critic1)).to.equal(1);
    expect(await count(critic2)).to.equal(1);
    const hours = (await app.client().get(`/api/museums/${m.id}`)).body.openingHours;
    expect(hours.exceptions[0]).to.deep.include({ closed: false, openTime: '11:00', closeTime: '17:00' });
    // a disputed yes: another member said no since the last confirmation
    const m2 = await museumWithFacts();
    const [doubter, yes] = await visitors(m2, 2);
    await doubter.post(`/api/museums/${m2.id}/fact-check`, { group: 'admission', agrees: false });
    await yes.post(`/api/museums/${m2.id}/fact-check`, { group: 'admission', agrees: true });
    expect(await count(yes)).to.equal(0);
    // the keeper's second helpful answer (another museum) earns the badge
    const m3 = await museumWithFacts();
    expect((await keeper.post(`/api/museums/${m3.id}/checkin`, positionAt(m3))).status).to.equal(201);
    await keeper.post(`/api/museums/${m3.id}/fact-check`, { group: 'accessibility', agrees: true });
    expect(await count(keeper)).to.equal(2);
    const mine = await badges.userBadges(keeper.me.id);
    expect(mine.map((b) => b.badgeId)).to.include(badge.id);
    // a member who has two counted before a new badge exists gets it retroactively (the counters' job)
    const later = await badges.createBadge({ name: uniqueName('Fact Keeper II '), description: 'Helped', icon: '🔎', color: '#0EA5E9', requirement: { type: 'fact_confirmations', count: 2 } });
    for (let i = 0; i < 100 && !(await badges.userBadges(keeper.me.id)).some((b) => b.badgeId === later.id); i++) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await badges.userBadges(keeper.me.id)).map((b) => b.badgeId)).to.include(later.id);
  });

  it('the badge admin form accepts the type; progress lists the count', async () => {
    const r = await admin.post('/api/admin/badges', { name: uniqueName('Checker '), description: 'Confirm facts', icon: '✅', color: '#22C55E', requirement: { type: 'fact_confirmations', count: 3 } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.requirement).to.deep.equal({ type: 'fact_confirmations', count: 3 });
    const u = await app.user();
    const p = await u.get('/api/badges/progress');
    expect(p.status).to.equal(200);
    expect(p.body.counts.fact_confirmations).to.equal(0);
  });
});
