import { expect } from 'chai';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';
import { makeMuseum } from './test-helpers.ts';

describe('events: museum events', () => {
  let app: TestApp;
  let manager: SignedInClient;
  let otherManager: SignedInClient;
  let admin: SignedInClient;
  let traveler: SignedInClient;
  let second: SignedInClient;
  let museum: { id: number; slug: string };

  const body = (over: Record<string, unknown> = {}) => ({
    museumId: museum.id,
    title: 'Curator talk: Dutch still lifes',
    description: 'Flowers, fruit and what they meant.',
    date: '2031-09-12',
    startTime: '14:00',
    endTime: '15:00',
    ...over,
  });

  before(async () => {
    app = await sharedApp();
    [manager, otherManager, admin, traveler, second] = await Promise.all([
      app.user({ role: 'Museum Manager' }),
      app.user({ role: 'Museum Manager' }),
      app.user({ role: 'Admin' }),
      app.user(),
      app.user(),
    ]);
    museum = await makeMuseum(app, { timezone: 'Europe/Amsterdam', city: 'Amsterdam', country: 'Netherlands' });
    await app.services.get(MuseumsService).setManager(museum.id, manager.me.id);
  });

  it('the museum’s manager creates events, in the museum’s zone by default', async () => {
    const r = await manager.post('/api/museum-events', body({ price: 17.5, tags: 'painting, still life', maxAttendees: 30, category: 'lecture', ticketUrl: 'https://example.org/tickets' }));
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ kind: 'museum_event', museumId: museum.id, timeZone: 'Europe/Amsterdam', date: '2031-09-12', startTime: '14:00', endTime: '15:00', price: 17.5, maxAttendees: 30, category: 'lecture', canEdit: true });
    expect(r.body.dateTime).to.equal('2031-09-12T12:00:00.000Z'); // CEST is UTC+2
    expect(r.body.museum.slug).to.equal(museum.slug);
    expect(r.body.location).to.match(/Amsterdam/);
    expect(r.body.tags).to.deep.equal(['painting', 'still life']);
    expect(r.body.organizerId).to.equal(null);
    const row = await app.knex('events_events').where({ id: r.body.id }).first('price_cents');
    expect(row.price_cents).to.equal(1750);
  });

  it('are checked against the museum’s opening hours like meetups: saved with a warning (create, edit, page, lists), never refused', async () => {
    const day = { isOpen: true, isByAppointment: false, openTime: '10:00', closeTime: '17:00' };
    const closed = { isOpen: false, isByAppointment: false };
    const hours = { defaultHours: { monday: closed, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: day, sunday: day }, seasonalHours: [], exceptions: [{ startDate: '2031-09-17', endDate: '2031-09-17', closed: true, note: 'Closed for the new wing' }] };
    const hall = await makeMuseum(app, { timezone: 'Europe/Amsterdam', city: 'Amsterdam', country: 'Netherlands', openingHours: hours });
    await app.services.get(MuseumsService).setManager(hall.id, manager.me.id);
    // an evening talk after closing (Friday 2031-09-12, 19:00–20:30 in Amsterdam)
    const late = await manager.post('/api/museum-events', body({ museumId: hall.id, startTime: '19:00', endTime: '20:30' }));
    expect(late.status, late.text).to.equal(201);
    expect(late.body.hoursWarning).to.deep.equal({ status: 'outside_hours', date: '2031-09-12', startTime: '19:00', endTime: '20:30', openTime: '10:00', closeTime: '17:00', note: null, holiday: null });
    // entered in another zone, judged on the museum's clock: 08:00 in New York is 14:00 in Amsterdam
    const fromNy = await manager.post('/api/museum-events', body({ museumId: hall.id, startTime: '08:00', endTime: '09:00', timeZone: 'America/New_York' }));
    expect(fromNy.status, fromNy.text).to.equal(201);
    expect(fromNy.body.hoursWarning).to.equal(null);
    // a dated closure, with its note; a Monday (closed every week)
    const closure = await manager.post('/api/museum-events', body({ museumId: hall.id, date: '2031-09-17' }));
    expect(closure.body.hoursWarning).to.include({ status: 'closed_day', note: 'Closed for the new wing' });
    const monday = await manager.post('/api/museum-events', body({ museumId: hall.id, date: '2031-09-15' }));
    expect(monday.body.hoursWarning).to.include({ status: 'closed_day', note: null });
    // the event's page says so to everyone, and the lists carry it
    const page = await app.client().get(`/api/museum-events/${late.body.id}`);
    expect(page.body.hoursWarning).to.include({ status: 'outside_hours', closeTime: '17:00' });
    const list = await app.client().get(`/api/museum-events?museumId=${hall.id}&includePast=true`);
    const byId = new Map((list.body as any[]).map((e) => [e.id, e.hoursWarning]));
    expect(byId.get(late.body.id)).to.include({ status: 'outside_hours' });
    expect(byId.get(fromNy.body.id)).to.equal(null);
    expect(byId.get(monday.body.id)).to.include({ status: 'closed_day' });
    // an edit into the hours clears it, out of them brings it back
    const inside = await manager.put(`/api/museum-events/${late.body.id}`, body({ museumId: hall.id, startTime: '15:00', endTime: '16:00' }));
    expect(inside.status, inside.text).to.equal(200);
    expect(inside.body.hoursWarning).to.equal(null);
    const out = await manager.put(`/api/museum-events/${late.body.id}`, body({ museumId: hall.id, startTime: '16:30', endTime: '17:30' }));
    expect(out.body.hoursWarning).to.include({ status: 'outside_hours', endTime: '17:30' });
    // a museum without opening hours never warns
    expect((await manager.post('/api/museum-events', body({ startTime: '23:00', endTime: null }))).body.hoursWarning).to.equal(null);
  });

  it('Admins may create them; other managers, members and visitors may not', async () => {
    expect((await admin.post('/api/museum-events', body())).status).to.equal(201);
    const other = await otherManager.post('/api/museum-events', body());
    expect(other.status).to.equal(403);
    expect(other.body.message).to.equal("Only the museum's manager or an Admin can manage its events");
    expect((await traveler.post('/api/museum-events', body())).status).to.equal(403);
    expect((await app.client().post('/api/museum-events', body())).status).to.equal(401);
    const missing = await admin.post('/api/museum-events', body({ museumId: 99999999 }));
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.equal('Museum not found');
  });

  it('validates like the meetup form', async () => {
    const r = await manager.post('/api/museum-events', { museumId: museum.id });
    expect(r.status).to.equal(400);
    expect(r.body.errors.map((e: any) => e.message)).to.include.members(['Title is required', 'Description is required', 'Date is required', 'Start time is required']);
    const end = await manager.post('/api/museum-events', body({ endTime: '13:00' }));
    expect(end.body.message).to.equal('End time must be after start time');
    const price = await manager.post('/api/museum-events', body({ price: -1 }));
    expect(price.status).to.equal(400);
    expect(price.body.message).to.equal('Price must be an amount of at least 0 with at most 2 decimals');
    const url = await manager.post('/api/museum-events', body({ ticketUrl: 'not a url' }));
    expect(url.body.message).to.equal('Invalid URL');
  });

  it('is listed for everyone, visitors included, and filtered by museum', async () => {
    const created = (await manager.post('/api/museum-events', body({ title: 'Listed for visitors' }))).body;
    const anon = await app.client().get(`/api/museum-events?museumId=${museum.id}&limit=200`);
    expect(anon.status).to.equal(200);
    expect(anon.body.some((e: any) => e.id === created.id)).to.equal(true);
    expect(anon.body.every((e: any) => e.museumId === museum.id && e.kind === 'museum_event')).to.equal(true);
    expect(anon.body[0].userStatus).to.equal(null);
    expect(anon.body[0].canEdit).to.equal(false);
    const one = await app.client().get(`/api/museum-events/${created.id}`);
    expect(one.status).to.equal(200);
    expect(one.body.title).to.equal('Listed for visitors');
    // a museum event is not a meetup
    expect((await traveler.get(`/api/meetups/${created.id}`)).status).to.equal(404);
  });

  it('takes attending or interested; switching to interested frees the seat for the waitlist', async () => {
    const ev = (await manager.post('/api/museum-events', body({ maxAttendees: 1, enableWaitlist: true }))).body;
    const i = await traveler.post(`/api/museum-events/${ev.id}/join`, { status: 'interested' });
    expect(i.status, i.text).to.equal(200);
    expect(i.body).to.include({ userStatus: 'interested', currentAttendees: 0 });
    expect(i.body.attendees.map((a: any) => [a.userId, a.status])).to.deep.equal([[traveler.me.id, 'interested']]);
    const sameAgain = await traveler.post(`/api/museum-events/${ev.id}/join`, { status: 'interested' });
    expect(sameAgain.body.userStatus).to.equal('interested');
    const seat = await traveler.post(`/api/museum-events/${ev.id}/join`, { status: 'attending' });
    expect(seat.body).to.include({ userStatus: 'attending', currentAttendees: 1, isFull: true });
    const waiting = await second.post(`/api/museum-events/${ev.id}/join`, { status: 'attending' });
    expect(waiting.body).to.include({ userStatus: 'waitlisted', waitlistPosition: 1 });
    const back = await traveler.post(`/api/museum-events/${ev.id}/join`, { status: 'interested' });
    expect(back.body).to.include({ userStatus: 'interested', currentAttendees: 1 });
    expect((await second.get(`/api/museum-events/${ev.id}`)).body.userStatus).to.equal('attending');
    const cancel = await traveler.del(`/api/museum-events/${ev.id}/join`);
    expect(cancel.body.userStatus).to.equal(null);
    expect((await app.client().post(`/api/museum-events/${ev.id}/join`, {})).status).to.equal(401);
  });

  it('is edited and deleted by its manager only', async () => {
    const ev = (await manager.post('/api/museum-events', body({ title: 'Old title' }))).body;
    const put = await manager.put(`/api/museum-events/${ev.id}`, body({ title: 'New title', startTime: '16:00', endTime: '17:30' }));
    expect(put.status, put.text).to.equal(200);
    expect(put.body).to.include({ title: 'New title', startTime: '16:00', endTime: '17:30' });
    expect((await otherManager.put(`/api/museum-events/${ev.id}`, body())).status).to.equal(403);
    const move = await manager.put(`/api/museum-events/${ev.id}`, body({ museumId: museum.id + 100000 }));
    expect(move.status).to.equal(400);
    expect((await traveler.del(`/api/museum-events/${ev.id}`)).status).to.equal(403);
    expect((await manager.del(`/api/museum-events/${ev.id}`)).status).to.equal(200);
    expect((await app.client().get(`/api/museum-events/${ev.id}`)).status).to.equal(404);
  });

  it('discussion: any member may comment on a museum event; blank comments are refused', async () => {
    const ev = (await manager.post('/api/museum-events', body())).body;
    const c = await traveler.post(`/api/museum-events/${ev.id}/comments`, { content: '  Is there a cloakroom?  ' });
    expect(c.status, c.text).to.equal(201);
    expect(c.body).to.include({ content: 'Is there a cloakroom?', userId: traveler.me.id, canDelete: true });
    const blank = await traveler.post(`/api/museum-events/${ev.id}/comments`, { content: '   ' });
    expect(blank.status).to.equal(400);
    expect(blank.body.message).to.equal('Comment cannot be empty');
    const list = await app.client().get(`/api/museum-events/${ev.id}/comments`);
    expect(list.body.map((x: any) => x.content)).to.deep.equal(['Is there a cloakroom?']);
    expect((await second.del(`/api/museum-events/${ev.id}/comments/${c.body.id}`)).status).to.equal(403);
    expect((await manager.del(`/api/museum-events/${ev.id}/comments/${c.body.id}`)).status).to.equal(200);
  });
});

describe('events: seeds', () => {
  it('loads sample museum events once, at their local times, in the future', async () => {
    const app = await sharedApp();
    const museums = app.services.get(MuseumsService);
    if (!(await museums.getMuseum('louvre-museum'))) {
      await museums.createMuseum({ name: 'Louvre Museum', address: 'Rue de Rivoli', city: 'Paris', country: 'France', timezone: 'Europe/Paris' } as any, null);
    }
    expect((await museums.getMuseum('louvre-museum'))?.slug).to.equal('louvre-museum');
    const server = app.servers.get('events')!;
    const ctx = app.contexts.get('events')!;
    const progress = { start() {}, tick() {} };
    await server.seed!(ctx, progress);
    await server.seed!(ctx, progress);
    const rows = await app.knex('events_events').where({ seed_key: 'museum_event:louvre-after-hours-sketching' });
    expect(rows).to.have.length(1);
    const r = rows[0];
    expect(r.kind).to.equal('museum_event');
    expect(r.time_zone).to.equal('Europe/Paris');
    expect(new Date(r.date_time).getTime()).to.be.greaterThan(Date.now());
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(r.date_time));
    expect(local).to.equal('19:00');
    expect(r.price_cents).to.equal(1200);
    const listed = await app.client().get('/api/museum-events?limit=200');
    expect(listed.body.some((e: any) => e.id === r.id && e.startTime === '19:00' && e.price === 12)).to.equal(true);
  });
});
