import { expect } from 'chai';
import { sharedApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';
import { makeCommunity, makeMeetup, makeMuseum } from './test-helpers.ts';
import { vtimezone, transitions } from './calendar.ts';

/** Unfolds RFC 5545 content lines (CRLF + space continues a line). */
function unfold(text: string): string[] {
  return text.replace(/\r\n[ \t]/g, '').split('\r\n').filter((l) => l !== '');
}

function components(lines: string[], name: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | null = null;
  for (const l of lines) {
    if (l === `BEGIN:${name}`) cur = [];
    else if (l === `END:${name}` && cur) {
      out.push(cur);
      cur = null;
    } else cur?.push(l);
  }
  return out;
}

/** Every BEGIN has its END, in order. */
function balanced(lines: string[]): boolean {
  const stack: string[] = [];
  for (const l of lines) {
    if (l.startsWith('BEGIN:')) stack.push(l.slice(6));
    else if (l.startsWith('END:') && stack.pop() !== l.slice(4)) return false;
  }
  return stack.length === 0;
}

describe('events: calendars and search', () => {
  let app: TestApp;
  let organizer: SignedInClient;
  let member: SignedInClient;
  let communityId: number;

  before(async () => {
    app = await sharedApp();
    [organizer, member] = await Promise.all([app.user({ role: 'Ambassador' }), app.user()]);
    communityId = await makeCommunity(organizer, [member]);
  });

  it('GET /api/meetups/{id}/ics is one valid VEVENT with DTSTART in the meetup’s zone', async () => {
    const m = await makeMeetup(organizer, communityId, { title: 'Night; at, the museum', date: '2031-07-01', startTime: '19:30', endTime: '21:00', timeZone: 'Europe/Paris' });
    const r = await member.get(`/api/meetups/${m.id}/ics`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/calendar/);
    expect(r.headers.get('content-disposition')).to.match(/attachment; filename="meetup-\d+\.ics"/);
    expect(r.text).to.match(/\r\n/); // CRLF line endings
    for (const raw of r.text.split('\r\n')) expect(Buffer.byteLength(raw)).to.be.at.most(75);
    const lines = unfold(r.text);
    expect(lines[0]).to.equal('BEGIN:VCALENDAR');
    expect(lines.at(-1)).to.equal('END:VCALENDAR');
    expect(lines).to.include('VERSION:2.0');
    expect(lines.some((l) => l.startsWith('PRODID:'))).to.equal(true);
    expect(balanced(lines)).to.equal(true);
    const events = components(lines, 'VEVENT');
    expect(events).to.have.length(1);
    const ev = events[0];
    expect(ev).to.include('DTSTART;TZID=Europe/Paris:20310701T193000');
    expect(ev).to.include('DTEND;TZID=Europe/Paris:20310701T210000');
    expect(ev).to.include('SUMMARY:Night\\; at\\, the museum');
    expect(ev.some((l) => /^UID:meetup-\d+@/.test(l))).to.equal(true);
    expect(ev.some((l) => l.startsWith('DTSTAMP:'))).to.equal(true);
    const tz = components(lines, 'VTIMEZONE');
    expect(tz).to.have.length(1);
    expect(tz[0]).to.include('TZID:Europe/Paris');
    // the July date falls in summer time: an observance switching to +0200 before it
    const daylight = components(tz[0], 'DAYLIGHT');
    expect(daylight.some((d) => d.includes('TZOFFSETTO:+0200') && d.some((l) => l.startsWith('DTSTART:20310330')))).to.equal(true);
    // a meetup of an open community: visitors download it too (private ones: private-meetups.test.ts)
    expect((await app.client().get(`/api/meetups/${m.id}/ics`)).status).to.equal(200);
    expect((await member.get('/api/meetups/99999999/ics')).status).to.equal(404);
  });

  it('GET /api/museum-events/{id}/ics is open to visitors', async () => {
    const museum = await makeMuseum(app, { timezone: 'America/New_York', city: 'New York', country: 'United States' });
    const admin = await app.user({ role: 'Admin' });
    const ev = (await admin.post('/api/museum-events', { museumId: museum.id, title: 'Armor talk', description: 'Samurai', date: '2031-01-16', startTime: '14:00', endTime: '15:00' })).body;
    const r = await app.client().get(`/api/museum-events/${ev.id}/ics`);
    expect(r.status).to.equal(200);
    const lines = unfold(r.text);
    const [vevent] = components(lines, 'VEVENT');
    expect(vevent).to.include('DTSTART;TZID=America/New_York:20310116T140000');
    const [tz] = components(lines, 'VTIMEZONE');
    // January in New York: standard time, -0500
    expect(components(tz, 'STANDARD').some((s) => s.includes('TZOFFSETTO:-0500'))).to.equal(true);
  });

  it('VTIMEZONE observances match the zone’s real changes', () => {
    const changes = transitions('America/New_York', Date.UTC(2031, 0, 1), Date.UTC(2032, 0, 1));
    expect(changes.map((c) => new Date(c.at).toISOString())).to.deep.equal(['2031-03-09T07:00:00.000Z', '2031-11-02T06:00:00.000Z']);
    const tokyo = vtimezone('Asia/Tokyo', 2031, 2031);
    expect(tokyo).to.contain('TZOFFSETTO:+0900');
    expect(tokyo).not.to.contain('DAYLIGHT');
    const kathmandu = vtimezone('Asia/Kathmandu', 2031, 2031);
    expect(kathmandu).to.contain('TZOFFSETTO:+0545');
  });

  it('a private feed of the events I attend, by a secret address that can be rotated', async () => {
    const m = await makeMeetup(organizer, communityId, { title: 'Feed meetup', date: '2031-05-05', startTime: '10:00', endTime: '11:00', timeZone: 'Asia/Tokyo' });
    const other = await makeMeetup(organizer, communityId, { title: 'Not attending this one' });
    await member.post(`/api/meetups/${m.id}/join`, {});
    const t = await member.post('/api/calendar/token');
    expect(t.status).to.equal(200);
    expect(t.body.url).to.equal(`/api/calendar/${t.body.token}.ics`);
    expect((await member.get('/api/calendar/token')).body).to.deep.equal(t.body); // GET reads the same feed
    const feed = await app.client().get(t.body.url);
    expect(feed.status).to.equal(200);
    expect(feed.headers.get('content-type')).to.match(/^text\/calendar/);
    const lines = unfold(feed.text);
    const events = components(lines, 'VEVENT');
    expect(events.some((e) => e.includes('SUMMARY:Feed meetup') && e.includes('DTSTART;TZID=Asia/Tokyo:20310505T100000'))).to.equal(true);
    expect(events.some((e) => e.includes(`SUMMARY:${other.title}`))).to.equal(false);
    const rotated = await member.post('/api/calendar/token');
    expect(rotated.status).to.equal(200);
    expect(rotated.body.token).not.to.equal(t.body.token);
    expect((await app.client().get(t.body.url)).status).to.equal(404);
    expect((await app.client().get(rotated.body.url)).status).to.equal(200);
    expect((await app.client().get('/api/calendar/token')).status).to.equal(401);
  });

  it('GET /api/calendar/token only reads: nulls before any POST, nothing written; POST creates, then rotates', async () => {
    const fresh = await app.user();
    const rows = () => app.knex('events_calendar_tokens').where({ user_id: fresh.me.id }).count({ n: '*' }).then((x) => Number(x[0].n));
    const none = await fresh.get('/api/calendar/token');
    expect(none.status).to.equal(200);
    expect(none.body).to.deep.equal({ token: null, url: null, createdAt: null });
    expect((await fresh.get('/api/calendar/token')).body.token).to.equal(null); // still nothing after a second GET
    expect(await rows()).to.equal(0);

    const made = await fresh.post('/api/calendar/token');
    expect(made.status).to.equal(200);
    expect(made.body.token).to.be.a('string').with.length.above(15);
    expect(made.body.url).to.equal(`/api/calendar/${made.body.token}.ics`);
    expect(await rows()).to.equal(1);
    const read = await fresh.get('/api/calendar/token');
    expect(read.body).to.deep.equal(made.body);
    expect((await app.client().get(made.body.url)).status).to.equal(200);

    const rotated = await fresh.post('/api/calendar/token');
    expect(rotated.status).to.equal(200);
    expect(rotated.body.token).to.be.a('string').and.not.equal(made.body.token);
    expect((await fresh.get('/api/calendar/token')).body.token).to.equal(rotated.body.token);
    expect(await rows()).to.equal(1);
    expect((await app.client().get(made.body.url)).status).to.equal(404);
  });

  it('GET /api/search/events finds upcoming events by text, meetups of open communities for visitors too', async () => {
    const m = await makeMeetup(organizer, communityId, { title: 'Quetzalcoatl sketching morning' });
    const museum = await makeMuseum(app);
    const admin = await app.user({ role: 'Admin' });
    await app.services.get(MuseumsService).getMuseum(museum.id);
    const ev = (await admin.post('/api/museum-events', { museumId: museum.id, title: 'Quetzalcoatl lecture', description: 'Feathered serpent', date: '2031-02-02', startTime: '10:00' })).body;
    const r = await member.get('/api/search/events?q=quetzalcoatl');
    expect(r.status).to.equal(200);
    expect(r.body.map((x: any) => x.id)).to.include.members([m.id, ev.id]);
    // the all-in-one search lists them too (events registered as a search provider)
    const all = await member.get('/api/search?q=quetzalcoatl');
    expect(all.status).to.equal(200);
    expect((all.body.events as any[]).map((x) => x.id)).to.include.members([m.id, ev.id]);
    const anon = await app.client().get('/api/search/events?q=quetzalcoatl');
    expect(anon.body.map((x: any) => x.id)).to.have.members([m.id, ev.id]);
    expect((await member.get('/api/search/events?q=qu')).body).to.deep.equal([]);
    const byTag = await member.get('/api/search/events?q=zzuniquetag');
    expect(byTag.body).to.deep.equal([]);
    const tagged = await makeMeetup(organizer, communityId, { tags: ['zzuniquetag'] });
    expect((await member.get('/api/search/events?q=zzuniquetag')).body.map((x: any) => x.id)).to.deep.equal([tagged.id]);
  });
});
