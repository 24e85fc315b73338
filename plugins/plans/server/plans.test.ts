/**
 * Day plans over HTTP (issue 20, plan a visit): every route, the checked answer with the real
 * holiday calendar, limits under concurrent requests, who may read a plan (owner, public plans
 * under accounts' privacy rule, shared links, blocks) and the ICS file parsed with ical.js.
 */
import { expect } from 'chai';
import ICAL from 'ical.js';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { makeCommunity, makeMeetup } from '../../events/server/test-helpers.ts';

const day = (openTime: string, closeTime: string) => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const closed = { isOpen: false, isByAppointment: false };
const week = (o: object, monday: object = closed) => ({ monday, tuesday: o, wednesday: o, thursday: o, friday: o, saturday: o, sunday: o });

const MONDAY = '2037-11-30';
const TUESDAY = '2037-12-01';

describe('plans API', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: SignedInClient;
  let louvre: any; // closed on Mondays, closed on French public holidays
  let orsay: any; // open every day, free on Thursday evenings

  before(async () => {
    app = await sharedApp();
    owner = await app.user();
    const base = { address: '1 Rue de Test', city: 'Paris', country: 'France', category: 'Art Museums', timezone: 'Europe/Paris' };
    const a = await owner.post('/api/museums', {
      ...base, name: uniqueName('Plan Louvre '), latitude: 48.8606, longitude: 2.3376,
      openingHours: { defaultHours: week(day('09:00', '18:00')), publicHolidays: { country: 'FR', mode: 'closed' } },
    });
    expect(a.status, a.text).to.equal(201);
    louvre = a.body;
    const b = await owner.post('/api/museums', {
      ...base, name: uniqueName('Plan Orsay '), latitude: 48.86, longitude: 2.3266,
      openingHours: { defaultHours: week(day('09:30', '21:00'), day('09:30', '18:00')) },
      admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1600 }], freeRules: [{ kind: 'weekly', weekday: 'thursday', from: '18:00', to: '21:00', note: 'Thursday evenings' }] },
    });
    expect(b.status, b.text).to.equal(201);
    orsay = b.body;
  });

  const newPlan = (u: SignedInClient, body: object = {}) => u.post('/api/plans', { title: 'Paris day', date: MONDAY, ...body });

  it('creates, reads, edits and deletes a plan; each stop is checked (the Monday closing)', async () => {
    const r = await newPlan(owner, { stops: [{ museumId: orsay.id, arrival: '10:00', durationMinutes: 120 }, { museumId: louvre.id, arrival: '12:30', durationMinutes: 90 }] });
    expect(r.status, r.text).to.equal(201);
    const p = r.body;
    expect(p).to.include({ title: 'Paris day', date: MONDAY, visibility: 'private', isOwner: true, walkingSpeedKmh: 4.5, shareToken: null });
    expect(p.stops.map((s: any) => s.museumId)).to.deep.equal([orsay.id, louvre.id]);
    expect(p.stops[0].warnings).to.deep.equal([]);
    expect(p.stops[1]).to.include({ hours: 'closed' });
    expect(p.stops[1].warnings).to.deep.equal(['closed']);
    expect(p.stops[1].walk.distanceMeters).to.be.within(750, 900);
    expect(p.stops[0].startsAt).to.equal('2037-11-30T09:00:00.000Z'); // 10:00 CET
    expect(p.summary.warnings).to.equal(1);

    expect((await owner.get('/api/plans')).body.map((x: any) => x.id)).to.include(p.id);
    const mine = (await owner.get('/api/plans')).body.find((x: any) => x.id === p.id);
    expect(mine).to.include({ stopCount: 2, title: 'Paris day' });
    expect(mine.stopNames).to.deep.equal([orsay.name, louvre.name]);

    // the same plan on Tuesday: no warning
    const moved = await owner.patch(`/api/plans/${p.id}`, { date: TUESDAY, title: 'Tuesday in Paris' });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body.summary.warnings).to.equal(0);
    expect(moved.body.sequence).to.equal(p.sequence + 1);
    expect((await owner.get(`/api/plans/${p.id}`)).body.title).to.equal('Tuesday in Paris');

    const del = await owner.del(`/api/plans/${p.id}`);
    expect(del.status).to.equal(200);
    expect((await owner.get(`/api/plans/${p.id}`)).status).to.equal(404);
    expect((await owner.del(`/api/plans/${p.id}`)).status).to.equal(404);
  });

  it('adds, updates, removes and reorders stops; a too-short visit, the walk and free entry', async () => {
    const p = (await newPlan(owner, { date: '2037-12-03' })).body; // a Thursday
    const a = await owner.post(`/api/plans/${p.id}/stops`, { museumId: louvre.id, arrival: '14:00', durationMinutes: 180 });
    expect(a.status, a.text).to.equal(201);
    // no arrival: after the last stop and the walk, rounded up to 5 minutes (17:00 + 11 min → 17:15)
    const b = await owner.post(`/api/plans/${p.id}/stops`, { museumId: orsay.id });
    expect(b.status, b.text).to.equal(201);
    const [s1, s2] = b.body.stops;
    expect(s2).to.include({ arrival: '17:15', durationMinutes: 90 });
    expect(s2.warnings).to.deep.equal([]);
    // too short and after closing at the Louvre; free entry at Orsay after 18:00
    const u = await owner.patch(`/api/plans/${p.id}/stops/${s1.id}`, { arrival: '17:40', durationMinutes: 60 });
    expect(u.status, u.text).to.equal(200);
    expect(u.body.stops[0].warnings).to.have.members(['after_closing', 'too_short']);
    expect(u.body.stops[1].warnings).to.deep.equal(['walk_overlap']); // leaves 18:40, arrives 17:15
    const f = await owner.patch(`/api/plans/${p.id}/stops/${s2.id}`, { arrival: '18:30' });
    expect(f.body.stops[1].free).to.deep.equal({ applies: true, note: 'Thursday evenings', from: '18:00', to: '21:00' });
    expect(f.body.stops[1].warnings).to.deep.equal(['walk_overlap']); // 18:40 + 11 min > 18:30
    // the suggestion: Orsay first? No: reorder explicitly, with times
    const o = await owner.put(`/api/plans/${p.id}/order`, { stopIds: [s2.id, s1.id], arrivals: ['10:00', '13:00'] });
    expect(o.status, o.text).to.equal(200);
    expect(o.body.stops.map((s: any) => s.id)).to.deep.equal([s2.id, s1.id]);
    expect(o.body.stops.map((s: any) => s.arrival)).to.deep.equal(['10:00', '13:00']);
    expect(o.body.summary.warnings).to.equal(0);
    expect((await owner.put(`/api/plans/${p.id}/order`, { stopIds: [s2.id] })).status).to.equal(400);
    expect((await owner.put(`/api/plans/${p.id}/order`, { stopIds: [s2.id, s1.id], arrivals: ['10:00'] })).status).to.equal(400);
    const rm = await owner.del(`/api/plans/${p.id}/stops/${s2.id}`);
    expect(rm.status).to.equal(200);
    expect(rm.body.stops.map((s: any) => s.id)).to.deep.equal([s1.id]);
    expect((await owner.del(`/api/plans/${p.id}/stops/${s2.id}`)).status).to.equal(404);
  });

  it('"Use suggested order": the suggestion avoids the closed door and applies through the order route', async () => {
    // Monday: the Louvre is closed all day, so nothing helps it; on Christmas both are checked with the real holiday calendar
    const xmas = (await newPlan(owner, { date: '2037-12-25', stops: [{ museumId: louvre.id, arrival: '10:00' }] })).body;
    expect(xmas.stops[0].warnings).to.deep.equal(['closed']);
    expect(xmas.stops[0].special).to.deep.equal({ reason: 'holiday', holiday: 'Christmas Day' });
    // Tuesday: a morning-only museum planned last gets suggested first
    const morning = (await owner.post('/api/museums', { name: uniqueName('Morning Museum '), address: '2 Rue', city: 'Paris', country: 'France', category: 'Art Museums', timezone: 'Europe/Paris', latitude: 48.8611, longitude: 2.35, openingHours: { defaultHours: week(day('09:00', '12:00')) } })).body;
    const p = (await newPlan(owner, { date: TUESDAY, stops: [{ museumId: louvre.id, arrival: '10:00', durationMinutes: 60 }, { museumId: orsay.id, arrival: '11:30', durationMinutes: 60 }, { museumId: morning.id, arrival: '13:00', durationMinutes: 60 }] })).body;
    expect(p.stops[2].warnings).to.deep.equal(['closed']);
    expect(p.suggestion).to.not.equal(null);
    const use = await owner.put(`/api/plans/${p.id}/order`, { stopIds: p.suggestion.stopIds, arrivals: p.suggestion.arrivals });
    expect(use.status, use.text).to.equal(200);
    expect(use.body.stops[0].museumId).to.equal(morning.id);
    expect(use.body.summary.warnings).to.equal(0);
    expect(use.body.suggestion).to.equal(null);
  });

  it('validates input with clear messages and refuses unknown museums', async () => {
    const bad = await owner.post('/api/plans', { title: '', date: 'tomorrow' });
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.be.a('string');
    const p = (await newPlan(owner)).body;
    const t = await owner.post(`/api/plans/${p.id}/stops`, { museumId: louvre.id, arrival: '25:00' });
    expect(t.status).to.equal(400);
    expect(t.body.message).to.contain('Arrival must be a time');
    const u = await owner.post(`/api/plans/${p.id}/stops`, { museumId: 2147483000 });
    expect(u.status).to.equal(404);
    expect(u.body.message).to.equal('Museum not found');
    expect((await owner.post('/api/plans', { title: 'x', date: MONDAY, stops: [{ museumId: 2147483000 }] })).status).to.equal(404);
  });

  it('at most 12 stops and 20 plans, exact under concurrent requests', async () => {
    const u = await app.user();
    const p = (await newPlan(u)).body;
    const adds = await Promise.all(Array.from({ length: 16 }, (_, i) => u.post(`/api/plans/${p.id}/stops`, { museumId: i % 2 ? louvre.id : orsay.id, arrival: '10:00' })));
    expect(adds.filter((r) => r.status === 201)).to.have.length(12);
    const refused = adds.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).to.deep.equal([409, 409, 409, 409]);
    expect(refused[0].body.message).to.equal('A plan can have at most 12 stops');
    expect((await u.get(`/api/plans/${p.id}`)).body.stops).to.have.length(12);
    expect((await newPlan(u, { stops: Array.from({ length: 13 }, () => ({ museumId: louvre.id })) })).status).to.equal(400);

    const creates = await Promise.all(Array.from({ length: 24 }, () => newPlan(u)));
    expect(creates.filter((r) => r.status === 201)).to.have.length(19); // 20 with the first one
    const no = creates.find((r) => r.status !== 201)!;
    expect(no.status).to.equal(409);
    expect(no.body.message).to.equal('You can have at most 20 plans');
    expect((await u.get('/api/plans')).body).to.have.length(20);
  });

  it("only the owner sees or changes a private plan (others 404, signed out 401 on changes)", async () => {
    const p = (await newPlan(owner, { stops: [{ museumId: louvre.id }] })).body;
    const other = await app.user();
    const anon = app.client();
    const admin = await app.user({ role: 'Admin' });
    for (const c of [other, anon, admin]) {
      expect((await c.get(`/api/plans/${p.id}`)).status).to.equal(404);
      expect((await c.get(`/api/plans/${p.id}/ics`)).status).to.equal(404);
    }
    for (const c of [other, admin]) {
      expect((await c.patch(`/api/plans/${p.id}`, { title: 'mine now' })).status).to.equal(404);
      expect((await c.post(`/api/plans/${p.id}/stops`, { museumId: orsay.id })).status).to.equal(404);
      expect((await c.patch(`/api/plans/${p.id}/stops/${p.stops[0].id}`, { arrival: '11:00' })).status).to.equal(404);
      expect((await c.del(`/api/plans/${p.id}/stops/${p.stops[0].id}`)).status).to.equal(404);
      expect((await c.put(`/api/plans/${p.id}/order`, { stopIds: [p.stops[0].id] })).status).to.equal(404);
      expect((await c.del(`/api/plans/${p.id}`)).status).to.equal(404);
    }
    expect((await anon.get('/api/plans')).status).to.equal(401);
    expect((await anon.post('/api/plans', { title: 'x', date: MONDAY })).status).to.equal(401);
    expect((await anon.del(`/api/plans/${p.id}`)).status).to.equal(401);
    // a stop of another plan is not reachable through this one
    const q = (await newPlan(other, { stops: [{ museumId: orsay.id }] })).body;
    expect((await owner.del(`/api/plans/${p.id}/stops/${q.stops[0].id}`)).status).to.equal(404);
    expect((await owner.get(`/api/plans/${p.id}`)).body.title).to.equal('Paris day');
  });

  it('public plans follow the owner\'s profile privacy; shared links work for anyone but across a block', async () => {
    const priv = await app.user();
    expect((await priv.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    const follower = await app.user();
    const stranger = await app.user();
    const anon = app.client();
    const p = (await newPlan(priv, { visibility: 'public', stops: [{ museumId: orsay.id }] })).body;
    expect(p.shareToken).to.match(/^[A-Za-z0-9_-]{24}$/);
    // a private profile's public plan: only approved followers (and the owner) read it
    expect((await stranger.get(`/api/plans/${p.id}`)).status).to.equal(404);
    expect((await anon.get(`/api/plans/${p.id}`)).status).to.equal(404);
    expect((await stranger.get(`/api/users/${priv.me.id}/plans`)).body).to.deep.equal([]);
    expect((await follower.post(`/api/user/${priv.me.id}/follow`)).body.requested).to.equal(true);
    const req = (await priv.get('/api/follow-requests')).body.items[0];
    expect((await priv.post(`/api/follow-requests/${req.id}/authorize`)).status).to.equal(200);
    const seen = await follower.get(`/api/plans/${p.id}`);
    expect(seen.status, seen.text).to.equal(200);
    expect(seen.body).to.include({ isOwner: false, shareToken: null });
    expect(seen.body.owner.id).to.equal(priv.me.id);
    expect((await follower.get(`/api/users/${priv.me.id}/plans`)).body.map((x: any) => x.id)).to.deep.equal([p.id]);
    // a public profile's public plan: everyone
    const open = await app.user();
    const q = (await newPlan(open, { visibility: 'public' })).body;
    expect((await anon.get(`/api/plans/${q.id}`)).status).to.equal(200);
    expect((await anon.get(`/api/users/${open.me.id}/plans`)).body.map((x: any) => x.id)).to.deep.equal([q.id]);
    // a member the viewer muted: their plans leave the viewer's lists as their insights do (a plan opened by id still reads)
    const muter = await app.user();
    expect((await muter.post(`/api/user/${open.me.id}/mute`, {})).status).to.be.oneOf([200, 201]);
    expect((await muter.get(`/api/users/${open.me.id}/plans`)).body).to.deep.equal([]);
    expect((await muter.get(`/api/plans/${q.id}`)).status).to.equal(200);
    expect((await muter.del(`/api/user/${open.me.id}/mute`)).status).to.equal(200);
    expect((await muter.get(`/api/users/${open.me.id}/plans`)).body.map((x: any) => x.id)).to.deep.equal([q.id]);

    // link: not by id, but by its token, even signed out and for a private profile
    const l = (await priv.patch(`/api/plans/${p.id}`, { visibility: 'link' })).body;
    expect((await follower.get(`/api/plans/${p.id}`)).status).to.equal(404);
    expect((await follower.get(`/api/users/${priv.me.id}/plans`)).body).to.deep.equal([]);
    const byLink = await anon.get(`/api/shared-plans/${l.shareToken}`);
    expect(byLink.status, byLink.text).to.equal(200);
    expect(byLink.body).to.include({ id: p.id, isOwner: false, shareToken: null });
    expect((await stranger.get(`/api/shared-plans/${l.shareToken}/ics`)).status).to.equal(200);
    // across a block: 404
    expect((await priv.post(`/api/user/${stranger.me.id}/block`)).status).to.be.oneOf([200, 201]);
    expect((await stranger.get(`/api/shared-plans/${l.shareToken}`)).status).to.equal(404);
    expect((await stranger.get(`/api/shared-plans/${l.shareToken}/ics`)).status).to.equal(404);
    // a new link retires the old one; private retires every link
    const n = (await priv.patch(`/api/plans/${p.id}`, { newShareLink: true })).body;
    expect(n.shareToken).to.not.equal(l.shareToken);
    expect((await anon.get(`/api/shared-plans/${l.shareToken}`)).status).to.equal(404);
    expect((await anon.get(`/api/shared-plans/${n.shareToken}`)).status).to.equal(200);
    await priv.patch(`/api/plans/${p.id}`, { visibility: 'private' });
    expect((await anon.get(`/api/shared-plans/${n.shareToken}`)).status).to.equal(404);
    expect((await anon.get('/api/shared-plans/not-a-token')).status).to.equal(400);
  });

  it('meetups as stops: their own times, walks to and from their museum, hidden from viewers who may not see a private meetup', async () => {
    const organizer = await app.user({ role: 'Ambassador' });
    const open = await makeCommunity(organizer, [owner]);
    const meetup = await makeMeetup(organizer, open, { title: 'Sketching at Orsay', date: TUESDAY, startTime: '14:00', endTime: '15:30', museumId: orsay.id });
    const priv = await makeCommunity(organizer, [], { membershipType: 'private' });
    const secret = await makeMeetup(organizer, priv, { title: 'Members-only tour', date: TUESDAY, startTime: '17:00', endTime: '18:00' });

    const p = (await newPlan(owner, { date: TUESDAY, visibility: 'public', stops: [{ museumId: louvre.id, arrival: '10:00', durationMinutes: 120 }, { eventId: meetup.id }] })).body;
    expect(p.stops[1]).to.include({ museumId: orsay.id, arrival: '14:00', durationMinutes: 90, startsAt: '2037-12-01T13:00:00.000Z', endsAt: '2037-12-01T14:30:00.000Z' });
    expect(p.stops[1].event).to.deep.equal({ id: meetup.id, kind: 'meetup', title: 'Sketching at Orsay', location: meetup.location });
    expect(p.stops[1].warnings).to.deep.equal([]);
    expect(p.stops[1].walk.distanceMeters).to.be.within(750, 900);
    expect(p.suggestion).to.equal(null); // events keep their times: no reordering offered
    // its times come from the meetup
    expect((await owner.patch(`/api/plans/${p.id}/stops/${p.stops[1].id}`, { arrival: '09:00' })).status).to.equal(400);
    // on another day: a warning
    const moved = (await owner.patch(`/api/plans/${p.id}`, { date: '2037-12-02' })).body;
    expect(moved.stops[1].warnings).to.include('event_other_day'); // and the walk from a stop the next day fails too
    await owner.patch(`/api/plans/${p.id}`, { date: TUESDAY });
    // a private community's meetup: only members may add it
    expect((await owner.post(`/api/plans/${p.id}/stops`, { eventId: secret.id })).status).to.equal(404);
    const both = await owner.post(`/api/plans/${p.id}/stops`, { museumId: orsay.id, eventId: meetup.id });
    expect(both.status).to.equal(400);
    const ownerOfSecret = (await newPlan(organizer, { date: TUESDAY, visibility: 'public', stops: [{ museumId: louvre.id, arrival: '10:00' }, { eventId: secret.id }] })).body;
    expect(ownerOfSecret.stops).to.have.length(2);
    const outsider = await app.user();
    const seen = (await outsider.get(`/api/plans/${ownerOfSecret.id}`)).body;
    expect(seen.stops.map((s: any) => s.museumId)).to.deep.equal([louvre.id]); // the private meetup is left out
    expect((await outsider.get(`/api/users/${organizer.me.id}/plans`)).body[0].stopNames).to.deep.equal([louvre.name]);
    const ics = await outsider.get(`/api/plans/${ownerOfSecret.id}/ics`);
    expect(ics.text).to.not.contain('Members-only tour');
    // ICS of the owner's plan names the meetup
    const mine = await owner.get(`/api/plans/${p.id}/ics`);
    const events = new ICAL.Component(ICAL.parse(mine.text)).getAllSubcomponents('vevent').map((v: any) => new ICAL.Event(v));
    expect(events.map((e: any) => e.summary)).to.deep.equal([louvre.name, 'Sketching at Orsay']);
  });

  it('ICS: one VEVENT per stop at its instants, stable UIDs, SEQUENCE bumped by a change', async () => {
    const p = (await newPlan(owner, { date: TUESDAY, stops: [{ museumId: louvre.id, arrival: '10:00', durationMinutes: 120 }, { museumId: orsay.id, arrival: '13:00', durationMinutes: 90 }] })).body;
    const read = async () => {
      const r = await owner.get(`/api/plans/${p.id}/ics`);
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.contain('text/calendar');
      const comp = new ICAL.Component(ICAL.parse(r.text));
      return comp.getAllSubcomponents('vevent').map((v: any) => ({ ev: new ICAL.Event(v), seq: Number(v.getFirstPropertyValue('sequence')) }));
    };
    const first = await read();
    expect(first).to.have.length(2);
    expect(first[0].ev.summary).to.equal(louvre.name);
    expect(first[0].ev.startDate.toJSDate().toISOString()).to.equal('2037-12-01T09:00:00.000Z');
    expect(first[0].ev.endDate.toJSDate().toISOString()).to.equal('2037-12-01T11:00:00.000Z');
    expect(first[1].ev.uid).to.equal(`plan-${p.id}-stop-${p.stops[1].id}@${new URL(app.url).hostname}`);
    await owner.patch(`/api/plans/${p.id}/stops/${p.stops[1].id}`, { arrival: '14:00' });
    const second = await read();
    expect(second.map((x) => x.ev.uid)).to.deep.equal(first.map((x) => x.ev.uid));
    expect(second[1].seq).to.be.greaterThan(first[1].seq);
    expect(second[1].ev.startDate.toJSDate().toISOString()).to.equal('2037-12-01T13:00:00.000Z');
  });
  it('a deleted museum or meetup takes its stop away and bumps the SEQUENCE of every plan that had it, once each', async () => {
    const base = { address: '2 Rue de Test', city: 'Paris', country: 'France', category: 'Art Museums', timezone: 'Europe/Paris', latitude: 48.861, longitude: 2.335 };
    const doomed = (await owner.post('/api/museums', { ...base, name: uniqueName('Plan Doomed ') })).body;
    const organizer = await app.user({ role: 'Ambassador' });
    const meetup = await makeMeetup(organizer, await makeCommunity(organizer, [owner]), { title: 'Gone soon', date: TUESDAY, startTime: '16:00', endTime: '17:00' });
    const a = (await newPlan(owner, { date: TUESDAY, stops: [{ museumId: doomed.id, arrival: '10:00' }, { museumId: orsay.id, arrival: '12:00' }, { museumId: doomed.id, arrival: '14:00' }, { eventId: meetup.id }] })).body;
    const b = (await newPlan(owner, { date: TUESDAY, stops: [{ museumId: doomed.id, arrival: '10:00' }] })).body;
    const c = (await newPlan(owner, { date: TUESDAY, stops: [{ museumId: orsay.id, arrival: '10:00' }] })).body;
    const sequences = async () => {
      const out: number[] = [];
      for (const p of [a, b, c]) {
        const r = await owner.get(`/api/plans/${p.id}/ics`);
        expect(r.status).to.equal(200);
        const seqs = new ICAL.Component(ICAL.parse(r.text)).getAllSubcomponents('vevent').map((v: any) => Number(v.getFirstPropertyValue('sequence')));
        out.push(seqs.length ? seqs[0] : -1);
      }
      return out;
    };
    const [sa, , sc] = await sequences();
    const before = (await owner.get(`/api/plans/${b.id}`)).body;
    // no route deletes a museum: whatever does (an admin's script, a future route) cascades to the stops
    await app.knex('museums').where({ id: doomed.id }).del();
    const afterMuseum = (await owner.get(`/api/plans/${a.id}`)).body;
    expect(afterMuseum.stops.map((s: any) => s.museumId ?? s.event?.id)).to.deep.equal([orsay.id, meetup.id]);
    expect(afterMuseum.sequence).to.equal(a.sequence + 1); // two stops gone in one deletion: one bump
    const bAfter = (await owner.get(`/api/plans/${b.id}`)).body;
    expect(bAfter.stops).to.deep.equal([]);
    expect(bAfter.sequence).to.equal(before.sequence + 1);
    expect(new Date(bAfter.updatedAt).getTime()).to.be.greaterThan(new Date(before.updatedAt).getTime());
    const [sa2, , sc2] = await sequences();
    expect(sa2).to.equal(sa + 1);
    expect(sc2).to.equal(sc); // a plan without the museum is untouched
    // a deleted meetup (over HTTP) does the same
    expect((await organizer.del(`/api/meetups/${meetup.id}`)).status).to.equal(200);
    const afterMeetup = (await owner.get(`/api/plans/${a.id}`)).body;
    expect(afterMeetup.stops.map((s: any) => s.museumId)).to.deep.equal([orsay.id]);
    expect(afterMeetup.sequence).to.equal(a.sequence + 2);
    // the service's own removal still bumps once (the trigger leaves it alone)
    expect((await owner.del(`/api/plans/${c.id}/stops/${c.stops[0].id}`)).status).to.equal(200);
    expect((await owner.get(`/api/plans/${c.id}`)).body.sequence).to.equal(c.sequence + 1);
  });
});
