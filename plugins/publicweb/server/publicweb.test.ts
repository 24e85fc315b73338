/**
 * The public web over real HTTP against a real server and database (issue 19): what a crawler or
 * a link-preview bot sees without JavaScript (status, title, description, canonical, OpenGraph
 * image, JSON-LD, readable text), privacy of what is rendered, conditional GETs, the sitemap and
 * robots.txt, Atom feeds (parsed with fast-xml-parser) and ICS subscriptions (parsed with ical.js).
 * Needs the web build (npm run build:web): the pages are its index.html with the render put in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { startTestApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { WEB_DIST } from '../../../core/app.ts';
import { MuseumsService } from '../../museums/public.ts';
import { makeCommunity, makeMeetup, futureDate, weekendSlot } from '../../events/server/test-helpers.ts';
import { configuredPublicUrl } from './index.ts';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'url', 'sitemap', 'link'].includes(name) });

/** The head's tags of a page, read the way a link-preview bot reads them. */
function meta(html: string) {
  const attr = (re: RegExp) => html.match(re)?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'") ?? null;
  return {
    title: attr(/<title>([^<]*)<\/title>/),
    titles: (html.match(/<title>/g) ?? []).length,
    description: attr(/<meta name="description" content="([^"]*)"/),
    descriptions: (html.match(/<meta name="description"/g) ?? []).length,
    canonical: attr(/<link rel="canonical" href="([^"]*)"/),
    ogImage: attr(/<meta property="og:image" content="([^"]*)"/),
    ogTitle: attr(/<meta property="og:title" content="([^"]*)"/),
    twitterCard: attr(/<meta name="twitter:card" content="([^"]*)"/),
    robots: attr(/<meta name="robots" content="([^"]*)"/),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1])),
    primed: (() => {
      const m = html.match(/<script type="application\/json" id="curio-primed">([\s\S]*?)<\/script>/);
      return m ? JSON.parse(m[1]) : null;
    })(),
    /** the visible text of #root */
    text: (html.match(/<div id="root"[^>]*>([\s\S]*?)<\/div>\s*<noscript>/)?.[1] ?? '').replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' '),
  };
}

const week = (open: string, close: string) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { isOpen: d !== 'monday', isByAppointment: false, openTime: open, closeTime: close }]));

describe('publicweb: server-rendered public pages, feeds and sitemap', function () {
  this.timeout(120_000);
  let app: TestApp;
  let admin: SignedInClient;
  let museum: { id: number; slug: string; name: string; updatedAt: string };
  let event: any;
  before(async function () {
    if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('run npm run build:web first');
    app = await startTestApp({ plugins: { config: { publicweb: { sitemapPageSize: 2, sitemapCacheSeconds: 0 } } } });
    admin = await app.user({ role: 'Admin' });
    const m = await app.services.get(MuseumsService).createMuseum(
      {
        name: 'Musée des Arts & Métiers "Test"',
        description: 'Inventions, instruments and machines in a former priory. <script>alert(1)</script>',
        address: '60 rue Réaumur',
        city: 'Paris',
        zipCode: '75003',
        country: 'France',
        timezone: 'Europe/Paris',
        latitude: 48.8666,
        longitude: 2.3556,
        amenities: ['wheelchair_accessible', 'cafe'].filter(Boolean),
        openingHours: { defaultHours: week('10:00', '18:00'), seasonalHours: [{ name: 'Summer', startDate: '07-01', endDate: '08-31', hours: week('09:00', '20:00') }] },
      } as any,
      null,
    ).catch(async (e) => {
      // an amenity key this catalogue does not know: without amenities
      if (!/amenit/i.test(String(e?.message))) throw e;
      return app.services.get(MuseumsService).createMuseum({ name: 'Musée des Arts & Métiers "Test"', description: 'Inventions, instruments and machines in a former priory. <script>alert(1)</script>', address: '60 rue Réaumur', city: 'Paris', zipCode: '75003', country: 'France', timezone: 'Europe/Paris', latitude: 48.8666, longitude: 2.3556, openingHours: { defaultHours: week('10:00', '18:00'), seasonalHours: [{ name: 'Summer', startDate: '07-01', endDate: '08-31', hours: week('09:00', '20:00') }] } } as any, null);
    });
    museum = m as any;
    const e = await admin.post('/api/museum-events', { museumId: m.id, title: 'Night of the automatons', description: 'Machines wake up after dark.', location: 'Main hall', date: futureDate(20), startTime: '19:00', endTime: '22:00', timeZone: 'Europe/Paris', price: 12 });
    expect(e.status, e.text).to.equal(201);
    event = e.body;
  });
  after(async () => {
    await app?.close();
  });

  it('renders a museum page for a visitor without JavaScript: head, JSON-LD, text, 1200×630 preview image', async () => {
    const visitor = app.client();
    const r = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { accept: 'text/html' } });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/text\/html/);
    const html = await r.text();
    const h = meta(html);
    expect(h.titles, 'one <title>').to.equal(1);
    expect(h.descriptions, 'one description').to.equal(1);
    expect(h.title).to.equal(`${museum.name} · Curio`);
    expect(h.description).to.contain('Inventions, instruments');
    expect(h.canonical).to.equal(`${app.url}/museum/${museum.slug}`);
    expect(h.robots).to.equal(null);
    expect(h.twitterCard).to.equal('summary_large_image');
    expect(h.ogTitle).to.equal(`${museum.name} · Curio`);
    // the description's markup is text, never markup
    expect(html).not.to.contain('<script>alert(1)</script>');
    // visible text: name, description, address, hours with "open now" computed on the server, events
    expect(h.text).to.contain('Musée des Arts & Métiers "Test"');
    expect(h.text).to.contain('Inventions, instruments and machines');
    expect(h.text).to.contain('60 rue Réaumur');
    // the web app's own museum page, rendered by React on the server: status, hours at the museum
    expect(html).to.match(/<div id="root" data-ssr="">/);
    expect(h.text).to.match(/\b(Open|Closed)\b/);
    expect(h.text).to.contain('(Europe/Paris)');
    expect(h.text).to.match(/(10:00 AM – 6:00 PM|9:00 AM – 8:00 PM)/);
    // no inline script (the CSP allows none): the markup is complete as it is
    expect(html).not.to.match(/<script>/);
    expect(h.text).to.contain('Night of the automatons');
    // JSON-LD: a Museum with address, geo, hours (seasonal ones dated), and the upcoming event
    const ld = h.jsonLd.find((j) => j['@type'] === 'Museum');
    expect(ld['@context']).to.equal('https://schema.org');
    expect(ld.name).to.equal(museum.name);
    expect(ld.url).to.equal(h.canonical);
    expect(ld.address).to.include({ '@type': 'PostalAddress', streetAddress: '60 rue Réaumur', addressLocality: 'Paris', postalCode: '75003', addressCountry: 'France' });
    expect(ld.geo).to.deep.equal({ '@type': 'GeoCoordinates', latitude: 48.8666, longitude: 2.3556 });
    const specs = ld.openingHoursSpecification as any[];
    expect(specs.filter((s) => !s.validFrom)).to.have.length(6); // Monday closed
    expect(specs.find((s) => !s.validFrom)).to.include({ '@type': 'OpeningHoursSpecification', opens: '10:00', closes: '18:00' });
    const summer = specs.filter((s) => s.validFrom);
    expect(summer).to.have.length(6);
    expect(summer[0].validFrom).to.match(/^\d{4}-07-01$/);
    expect(summer[0].validThrough).to.match(/^\d{4}-08-31$/);
    expect(summer[0].opens).to.equal('09:00');
    for (const s of specs) expect(s.dayOfWeek).to.match(/^https:\/\/schema\.org\/(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/);
    const ev = h.jsonLd.find((j) => j['@type'] === 'Event');
    expect(ev).to.include({ name: 'Night of the automatons', startDate: event.dateTime, eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode' });
    // the preview image: absolute, a 1200×630 JPEG
    expect(h.ogImage).to.match(new RegExp(`^${app.url}/api/og/museum/${museum.id}\\.jpg`));
    const img = await fetch(h.ogImage!);
    expect(img.status).to.equal(200);
    expect(img.headers.get('content-type')).to.equal('image/jpeg');
    const metaImg = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
    expect([metaImg.format, metaImg.width, metaImg.height]).to.deep.equal(['jpeg', 1200, 630]);
    // the web app's first request is answered in the page: its cache starts with it
    expect(h.primed[`/api/museums/slug/${encodeURIComponent(museum.slug)}`].id).to.equal(museum.id);
  });

  it('gives the slug form as canonical for /museums/{id}, and 404 with noindex for an unknown museum', async () => {
    const visitor = app.client();
    const byId = await visitor.raw('GET', `/museums/${museum.id}`);
    expect(byId.status).to.equal(200);
    expect(meta(await byId.text()).canonical).to.equal(`${app.url}/museum/${museum.slug}`);
    for (const p of ['/museum/no-such-museum-here', '/museums/987654', '/events/987654', '/events/not-a-number', '/meetups/987654', '/insights/987654', '/profile/nobody-by-that-name']) {
      const r = await visitor.raw('GET', p);
      expect(r.status, p).to.equal(404);
      const h = meta(await r.text());
      expect(h.robots, p).to.equal('noindex, nofollow');
      expect(h.canonical, p).to.equal(null);
    }
  });

  // (fetch adds Cache-Control: no-cache to a request with If-None-Match unless it has one: the tests
  // send max-age=0, what a browser revalidating its copy sends)
  it('answers a page again with 304 when the ETag still matches, and caches HTML only briefly', async () => {
    const visitor = app.client();
    const first = await visitor.raw('GET', `/museum/${museum.slug}`);
    await first.text();
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"/);
    expect(first.headers.get('cache-control')).to.equal('public, max-age=60, must-revalidate');
    expect(first.headers.get('last-modified')).to.be.a('string');
    const again = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect(again.status).to.equal(304);
    // a change gives a new page
    await app.services.get(MuseumsService).updateMuseum(museum.id, { description: 'Now with a new description.' }, null);
    const changed = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect(changed.status).to.equal(200);
    expect(meta(await changed.text()).description).to.equal('Now with a new description.');
    // a signed-in member's page is theirs: not for shared caches, not for search engines
    const r = await admin.raw('GET', `/museum/${museum.slug}`);
    expect(r.headers.get('cache-control')).to.equal('private, no-cache');
    expect(meta(await r.text()).robots).to.equal('noindex, nofollow');
  });

  it("renders a page in the language the visitor chose in the app (curio-locale cookie) over their browser's, and says so to caches", async () => {
    const lang = (html: string) => html.match(/<html[^>]*\blang="([^"]+)"/)?.[1];
    const visitor = app.client();
    const english = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(lang(await english.text())).to.equal('en');
    const french = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'accept-language': 'en-US,en;q=0.9', cookie: 'curio-locale=fr' } });
    const html = await french.text();
    expect(lang(html)).to.equal('fr');
    expect(meta(html).primed['/api/config']).to.be.an('object');
    // the answer depends on both: a shared cache must not hand one visitor's language to another
    const vary = (french.headers.get('vary') ?? '').toLowerCase();
    expect(vary).to.contain('cookie');
    expect(vary).to.contain('accept-language');
    // a French browser that chose English in the app gets English; an unknown value is ignored
    const chosenEnglish = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'accept-language': 'fr-FR,fr;q=0.9', cookie: 'curio-locale=en' } });
    expect(lang(await chosenEnglish.text())).to.equal('en');
    const unknown = await visitor.raw('GET', `/museum/${museum.slug}`, { headers: { 'accept-language': 'fr', cookie: 'curio-locale=xx' } });
    expect(lang(await unknown.text())).to.equal('fr');
  });

  it('renders an event with its Event JSON-LD (dates, location, organizer, offers)', async () => {
    const r = await app.client().raw('GET', `/events/${event.id}`);
    expect(r.status).to.equal(200);
    const h = meta(await r.text());
    expect(h.title).to.equal('Night of the automatons · Curio');
    expect(h.canonical).to.equal(`${app.url}/events/${event.id}`);
    expect(h.ogImage).to.match(new RegExp(`/api/og/event/${event.id}\\.jpg`));
    const ld = h.jsonLd.find((j) => j['@type'] === 'Event');
    expect(ld).to.include({ name: 'Night of the automatons', startDate: event.dateTime, endDate: event.endDateTime, eventStatus: 'https://schema.org/EventScheduled' });
    expect(ld.location).to.include({ '@type': 'Museum', name: museum.name });
    expect(ld.organizer).to.include({ '@type': 'Museum', name: museum.name });
    expect(ld.offers).to.include({ '@type': 'Offer', price: 12 });
    expect(ld.offers.priceCurrency).to.be.a('string');
    expect(h.text).to.contain('Machines wake up after dark.');
    const img = await sharp(Buffer.from(await (await fetch(h.ogImage!)).arrayBuffer())).metadata();
    expect([img.width, img.height]).to.deep.equal([1200, 630]);
  });

  it("renders the events page's This weekend tab on the server: the weekend's events in the HTML, its answers primed", async () => {
    const slot = weekendSlot();
    const amb = await app.user({ role: 'Ambassador' });
    const open = await makeCommunity(amb, []);
    const walk = await makeMeetup(amb, open, { title: 'Weekend sketching walk', ...slot, endTime: null });
    const recital = await admin.post('/api/museum-events', { museumId: museum.id, title: 'Weekend organ recital', description: 'An hour of music.', ...slot });
    expect(recital.status, recital.text).to.equal(201);
    // three days later: a weekday, not this weekend
    const d = new Date(`${slot.date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 3);
    const lecture = await admin.post('/api/museum-events', { museumId: museum.id, title: 'Midweek lecture on clocks', description: 'Escapements.', ...slot, date: d.toISOString().slice(0, 10) });
    expect(lecture.status, lecture.text).to.equal(201);

    // (taken away after: the feeds' test counts this museum's events)
    try {
      const r = await app.client().raw('GET', '/events?tab=weekend', { headers: { accept: 'text/html' } });
      expect(r.status).to.equal(200);
      const html = await r.text();
      const h = meta(html);
      // React's own events page rendered on the server, This weekend selected, with its cards (not a spinner)
      expect(html).to.match(/<div id="root" data-ssr="">/);
      expect(html).to.match(/id="events-tab-weekend"[^>]*aria-selected="true"|aria-selected="true"[^>]*id="events-tab-weekend"/);
      expect(h.text).to.contain('Weekend sketching walk');
      expect(h.text).to.contain('Weekend organ recital');
      expect(h.text).not.to.contain('Midweek lecture on clocks');
      expect(h.canonical).to.equal(`${app.url}/events?tab=weekend`);
      // the answers the page asks for first, under the keys it asks them by (no zone in them)
      const meetups = h.primed['/api/meetups?limit=100&weekend=true'] as any[];
      const museumEvents = h.primed['/api/museum-events?limit=100&weekend=true'] as any[];
      expect(meetups.map((e) => e.id)).to.include(walk.id);
      expect(museumEvents.map((e) => e.id)).to.include(recital.body.id).and.not.include(lecture.body.id);
      // the API answers the same list to anyone: a member elsewhere gets the same weekend events
      const api = await amb.get('/api/museum-events?limit=100&weekend=true');
      expect(api.status).to.equal(200);
      expect(api.body.map((e: any) => e.id)).to.deep.equal(museumEvents.map((e) => e.id));
      // /meetups is the same page (canonical /events); the Museums tab renders its list too
      const other = await app.client().raw('GET', '/meetups?tab=museums');
      const oh = meta(await other.text());
      expect(oh.canonical).to.equal(`${app.url}/events?tab=museums`);
      expect(oh.text).to.contain('Midweek lecture on clocks');
      expect(oh.text).not.to.contain('Weekend sketching walk');
    } finally {
      for (const e of [recital.body, lecture.body]) expect((await admin.del(`/api/museum-events/${e.id}`)).status).to.equal(200);
    }
  });

  it('never renders private content for a visitor who may not see it', async () => {
    // a meetup of a private community
    const amb = await app.user({ role: 'Ambassador' });
    const priv = await makeCommunity(amb, [], { membershipType: 'private' });
    const meetup = await makeMeetup(amb, priv, { title: 'Secret gathering of the society' });
    const visitorMeetup = await app.client().raw('GET', `/meetups/${meetup.id}`);
    const vm = await visitorMeetup.text();
    expect(visitorMeetup.status).to.equal(404);
    expect(vm).not.to.contain('Secret gathering');
    const own = await amb.raw('GET', `/meetups/${meetup.id}`);
    expect(own.status).to.equal(200);
    expect(await own.text()).to.contain('Secret gathering');

    // a private member's insight and profile
    const shy = await app.user();
    expect((await shy.put('/api/user/preferences', { profileVisibility: 'private' })).status).to.equal(200);
    const bio = await shy.put('/api/user/profile', { bio: 'My hidden biography' });
    expect(bio.status, bio.text).to.be.oneOf([200, 204]);
    const post = await shy.post('/api/posts', { type: 'text', content: 'A private thought about machines' });
    expect(post.status, post.text).to.equal(201);
    const postId = post.body.id ?? post.body.post?.id;
    const vp = await app.client().raw('GET', `/insights/${postId}`);
    const vpText = await vp.text();
    expect(vp.status).to.equal(404);
    expect(vpText).not.to.contain('A private thought');
    const prof = await app.client().raw('GET', `/profile/${shy.me.slug}`);
    const profHtml = await prof.text();
    expect(meta(profHtml).robots).to.equal('noindex, nofollow');
    expect(profHtml).not.to.contain('My hidden biography');
    expect(profHtml).not.to.contain('A private thought');

    // a public member's insight
    const open = await app.user();
    await open.put('/api/user/profile', { bio: 'I love machines' });
    const p2 = await open.post('/api/posts', { type: 'text', content: 'The Foucault pendulum is mesmerising', museumId: museum.id });
    expect(p2.status, p2.text).to.equal(201);
    const id2 = p2.body.id ?? p2.body.post?.id;
    const r2 = await app.client().raw('GET', `/insights/${id2}`);
    expect(r2.status).to.equal(200);
    const h2 = meta(await r2.text());
    expect(h2.text).to.contain('The Foucault pendulum is mesmerising');
    expect(h2.jsonLd[0]['@type']).to.equal('SocialMediaPosting');
    expect(h2.canonical).to.equal(`${app.url}/insights/${id2}`);
    const pr = meta(await (await app.client().raw('GET', `/profile/${open.me.slug}`)).text());
    expect(pr.robots).to.equal(null);
    expect(pr.text).to.contain('I love machines');
    expect(pr.text).to.contain('The Foucault pendulum');

    // feeds: the public member's, not the private one's
    const feed = await app.client().raw('GET', `/api/feeds/members/${open.me.id}/insights.atom`);
    expect(feed.status).to.equal(200);
    const body = await feed.text();
    expect(XMLValidator.validate(body)).to.equal(true);
    const atom = xml.parse(body).feed;
    expect(atom['@xmlns']).to.equal('http://www.w3.org/2005/Atom');
    expect(atom.entry).to.have.length(1);
    expect(atom.entry[0].id).to.equal(`${app.url}/insights/${id2}`);
    expect(atom.entry[0].content['#text']).to.equal('The Foucault pendulum is mesmerising');
    expect((await app.client().raw('GET', `/api/feeds/members/${shy.me.id}/insights.atom`)).status).to.equal(404);

    const mf = await app.client().raw('GET', `/api/feeds/museums/${museum.id}/insights.atom`);
    const mfBody = await mf.text();
    expect(XMLValidator.validate(mfBody)).to.equal(true);
    const mAtom = xml.parse(mfBody).feed;
    expect(mAtom.title).to.contain(museum.name);
    expect(mAtom.entry.map((e: any) => e.id)).to.deep.equal([`${app.url}/insights/${id2}`]);
    expect(mAtom.entry[0].author.name).to.be.a('string');
    // the feed answers 304 to a reader that has it
    const again = await app.client().raw('GET', `/api/feeds/museums/${museum.id}/insights.atom`, { headers: { 'if-none-match': mf.headers.get('etag')!, 'cache-control': 'max-age=0' } });
    expect(again.status).to.equal(304);

    // the private community has no public calendar
    expect((await app.client().raw('GET', `/api/feeds/communities/${priv}/meetups.ics`)).status).to.equal(404);
  });

  it("puts the museum's latest insights and a public profile's insights into the server render and the page's data", async () => {
    // (the insight of the previous test: 'The Foucault pendulum is mesmerising', about this museum)
    const h = meta(await (await app.client().raw('GET', `/museum/${museum.slug}`)).text());
    expect(h.text).to.contain('The Foucault pendulum is mesmerising');
    const first = h.primed[`/api/posts/museum/${museum.id}?limit=10`];
    expect(first.items.map((p: any) => p.content)).to.deep.equal(['The Foucault pendulum is mesmerising']);
    const author = first.items[0].user;
    // the profile page: the React render of the public profile, with its first page of insights
    const r = await app.client().raw('GET', `/profile/${author.slug}`);
    expect(r.status).to.equal(200);
    const html = await r.text();
    expect(html).to.match(/<div id="root" data-ssr="">/);
    const pr = meta(html);
    expect(pr.primed[`/api/user/slug/${author.slug}`]).to.include({ id: author.id, limited: false });
    expect(pr.primed[`/api/user/${author.id}/posts?limit=12`].items).to.have.length(1);
    expect(pr.text).to.contain('I love machines');
    expect(pr.text).to.contain('The Foucault pendulum is mesmerising');
    // by id: the same member, the canonical slug form
    const byId = meta(await (await app.client().raw('GET', `/profile/${author.id}`)).text());
    expect(byId.canonical).to.equal(`${app.url}/profile/${author.slug}`);
    expect(byId.primed[`/api/user/${author.id}`].id).to.equal(author.id);
  });

  it('publishes ICS subscriptions with stable UIDs and a SEQUENCE that grows on change', async () => {
    const read = async (p: string) => {
      const r = await app.client().raw('GET', p);
      expect(r.status, p).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^text\/calendar/);
      const comp = new ICAL.Component(ICAL.parse(await r.text()));
      return comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    };
    const before = await read(`/api/feeds/museums/${museum.id}/events.ics`);
    expect(before.map((e) => e.summary)).to.deep.equal(['Night of the automatons']);
    const uid = before[0].uid;
    expect(before[0].startDate.toJSDate().toISOString()).to.equal(new Date(event.dateTime).toISOString());
    const seq0 = before[0].sequence;
    await new Promise((r) => setTimeout(r, 1100));
    const edited = await admin.put(`/api/museum-events/${event.id}`, { museumId: museum.id, title: 'Night of the automatons, extended', description: 'Machines wake up after dark.', location: 'Main hall', date: event.date, startTime: '19:00', endTime: '22:00', timeZone: 'Europe/Paris', price: 12 });
    expect(edited.status, edited.text).to.equal(200);
    const after = await read(`/api/feeds/museums/${museum.id}/events.ics`);
    expect(after[0].uid).to.equal(uid);
    expect(after[0].summary).to.equal('Night of the automatons, extended');
    expect(after[0].sequence).to.be.greaterThan(seq0);

    // a public community's meetups
    const amb = await app.user({ role: 'Ambassador' });
    const pub = await makeCommunity(amb);
    const m = await makeMeetup(amb, pub, { title: 'Open sketching morning' });
    const meetups = await read(`/api/feeds/communities/${pub}/meetups.ics`);
    expect(meetups.map((e) => e.summary)).to.deep.equal(['Open sketching morning']);
    expect(meetups[0].uid).to.match(new RegExp(`^meetup-${m.id}@`));
  });

  it('serves robots.txt and a paged sitemap with lastmod from the data', async () => {
    const robots = await app.client().raw('GET', '/robots.txt');
    expect(robots.status).to.equal(200);
    expect(await robots.text()).to.contain(`Sitemap: ${app.url}/sitemap.xml`);
    const svc = app.services.get(MuseumsService);
    for (let i = 0; i < 3; i++) await svc.createMuseum({ name: `Sitemap museum ${i}`, address: `${i} Map Road`, city: 'Lyon', country: 'France', timezone: 'Europe/Paris' } as any, null);
    const idx = await app.client().raw('GET', '/sitemap.xml');
    expect(idx.status).to.equal(200);
    const idxBody = await idx.text();
    expect(XMLValidator.validate(idxBody)).to.equal(true);
    const index = xml.parse(idxBody).sitemapindex;
    expect(index['@xmlns']).to.equal('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(index.sitemap.length).to.be.greaterThan(1); // 2 URLs a page in this test
    const locs: string[] = [];
    for (const s of index.sitemap) {
      const page = await app.client().raw('GET', new URL(s.loc).pathname);
      expect(page.status).to.equal(200);
      const set = xml.parse(await page.text()).urlset;
      expect(set.url.length).to.be.at.most(2);
      for (const u of set.url) {
        expect(u.lastmod).to.match(/^\d{4}-\d{2}-\d{2}T/);
        locs.push(u.loc);
      }
    }
    expect(locs).to.include(`${app.url}/museum/${museum.slug}`);
    expect(locs).to.include(`${app.url}/events/${event.id}`);
    expect(locs.filter((l) => l.includes('/museum/'))).to.have.length(4);
    expect(new Set(locs).size).to.equal(locs.length);
    const mine = await app.client().raw('GET', `/sitemaps/${index.sitemap.length + 1}.xml`);
    expect(mine.status).to.equal(404);
    // museums' keyset-paged list the sitemap walks (2 a call here: several calls, no museum twice)
    const all = await svc.listSitemapEntries({ limit: 50_000 });
    expect(all.map((m) => m.id)).to.deep.equal([...all.map((m) => m.id)].sort((a, b) => a - b));
    expect(all).to.have.length(4);
    const [a, b] = [await svc.listSitemapEntries({ limit: 2 }), await svc.listSitemapEntries({ afterId: all[1].id, limit: 2 })];
    expect([...a, ...b]).to.deep.equal(all);
    expect(await svc.listSitemapEntries({ afterId: all[3].id, limit: 2 })).to.deep.equal([]);
    expect(all[0]).to.have.all.keys('id', 'slug', 'updatedAt');
    expect(locs).to.include.members(all.map((m) => `${app.url}/museum/${m.slug}`));
  });

  it('renders a shared Discover link with its filters for a crawler without JavaScript, primed under the key the page asks', async () => {
    // (last: the sitemap test above counts the museums)
    const svc = app.services.get(MuseumsService);
    const allWeek = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' }]));
    const base = { address: '1 Rue Test', city: 'Lyon', country: 'France', category: 'Science Museums', timezone: 'Europe/Paris', latitude: 45.76, longitude: 4.835, openingHours: { defaultHours: allWeek }, accessibility: { stepFreeEntrance: { value: 'yes' } } };
    for (const [name, extra] of [
      ['Gyroscope Lyon Match', {}],
      ['Gyroscope Lyon Stairs', { accessibility: { stepFreeEntrance: { value: 'no' } } }],
      ['Gyroscope Lyon History', { category: 'History Museums' }],
      ['Gyroscope Paris Far', { city: 'Paris', latitude: 48.86, longitude: 2.34 }],
    ] as const) {
      await svc.createMuseum({ ...base, ...extra, name } as any, admin.me.id);
    }
    const link = `/discover?category=${encodeURIComponent('Science Museums')}&access=stepFreeEntrance&near=45.7578,4.832&radius=50km&place=Lyon`;
    for (const [lang, unit] of [['fr', 'km'], ['en', 'mi']] as const) {
      const r = await app.client().raw('GET', link, { headers: { accept: 'text/html', 'accept-language': lang } });
      expect(r.status).to.equal(200);
      const html = await r.text();
      const h = meta(html);
      // the museums of the link's filters, not the others, with their distance in the reader's unit
      expect(h.text).to.contain('Gyroscope Lyon Match');
      for (const other of ['Gyroscope Lyon Stairs', 'Gyroscope Lyon History', 'Gyroscope Paris Far']) expect(h.text).not.to.contain(other);
      expect(h.text).to.match(unit === 'km' ? /0,\d\s?km/ : /0\.\d\s?mi/);
      // the answer is handed to the page under the request it makes: 50 km is 31.0686 mi for the API
      const key = '/api/museums?page=1&pageSize=24&category=Science+Museums&access=stepFreeEntrance&near=45.7578%2C4.832&radius=31.0686&sort=distance';
      expect(Object.keys(h.primed).filter((k) => k.startsWith('/api/museums?'))).to.deep.equal([key]);
      expect(h.primed[key].items.map((m: any) => m.name)).to.deep.equal(['Gyroscope Lyon Match']);
      expect(h.canonical).to.equal(`${app.url}/discover`);
    }
    // the unfiltered list is still the default request
    const plain = meta(await (await app.client().raw('GET', '/discover', { headers: { accept: 'text/html' } })).text());
    expect(Object.keys(plain.primed).filter((k) => k.startsWith('/api/museums?'))).to.deep.equal(['/api/museums?page=1&pageSize=24&sort=name']);
  });
});

describe('publicweb: the configured public URL', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async function () {
    if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('run npm run build:web first');
    app = await startTestApp({ plugins: { config: { publicweb: { publicUrl: 'https://curio.example/', sitemapCacheSeconds: 0 } } } });
  });
  after(async () => {
    await app?.close();
  });

  it('gives canonical links, OpenGraph URLs, the sitemap, robots.txt and feeds on the public URL, whatever the Host', async () => {
    const m = await app.services.get(MuseumsService).createMuseum({ name: 'Public URL Museum', address: '1 Origin Street', city: 'Nantes', country: 'France', timezone: 'Europe/Paris' } as any, null);
    const h = meta(await (await app.client().raw('GET', `/museum/${m.slug}`, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' } })).text());
    expect(h.canonical).to.equal(`https://curio.example/museum/${m.slug}`);
    expect(h.ogImage).to.match(new RegExp(`^https://curio\\.example/api/og/museum/${m.id}\\.jpg`));
    expect(meta(await (await app.client().raw('GET', '/')).text()).canonical).to.equal('https://curio.example/');
    expect(await (await app.client().raw('GET', '/robots.txt')).text()).to.contain('Sitemap: https://curio.example/sitemap.xml');
    const index = xml.parse(await (await app.client().raw('GET', '/sitemap.xml')).text()).sitemapindex;
    expect(index.sitemap[0].loc).to.equal('https://curio.example/sitemaps/1.xml');
    const set = xml.parse(await (await app.client().raw('GET', '/sitemaps/1.xml')).text()).urlset;
    expect(set.url.map((u: any) => u.loc)).to.include(`https://curio.example/museum/${m.slug}`);
    for (const u of set.url) expect(u.loc).to.match(/^https:\/\/curio\.example\//);
    const feed = xml.parse(await (await app.client().raw('GET', `/api/feeds/museums/${m.id}/insights.atom`)).text()).feed;
    expect(feed.id).to.equal(`https://curio.example/museum/${m.slug}#insights`);
    expect(feed.link.map((l: any) => l['@href'])).to.include(`https://curio.example/api/feeds/museums/${m.id}/insights.atom`);
  });

  it('takes PUBLIC_URL, then PUBLIC_ORIGIN, and otherwise the request', () => {
    expect(configuredPublicUrl({}, null, { PUBLIC_URL: 'https://env.example/' })).to.equal('https://env.example');
    expect(configuredPublicUrl({ publicUrl: 'https://cfg.example' }, 'https://core.example', { PUBLIC_URL: 'https://env.example' })).to.equal('https://cfg.example');
    expect(configuredPublicUrl({}, 'https://core.example', {})).to.equal('https://core.example');
    expect(configuredPublicUrl({}, null, {})).to.equal(null);
    expect(() => configuredPublicUrl({}, null, { PUBLIC_URL: 'ftp://x.example' })).to.throw(/http/);
  });
});
