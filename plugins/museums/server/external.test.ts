/**
 * The Wikidata and geocoding clients against a local HTTP server that answers like the real
 * services (wbsearchentities, SPARQL JSON results, Nominatim jsonv2), including their failures
 * and a server that never answers; and the maps key routes with a configured key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startTestApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService } from '../public.ts';
import { createWikidataClient } from './wikidata.ts';

interface FakeItem {
  id: string;
  label: string;
  description: string;
  museum: boolean;
  facts: Record<string, { type: string; value: string }>;
}

const ITEMS: FakeItem[] = [
  {
    id: 'Q19675',
    label: 'Louvre Museum',
    description: 'art museum in Paris, France',
    museum: true,
    facts: {
      website: { type: 'uri', value: 'https://www.louvre.fr/' },
      phone: { type: 'literal', value: '+33 1 40 20 50 50' },
      email: { type: 'uri', value: 'mailto:info@louvre.fr' },
      coord: { type: 'literal', value: 'Point(2.33625 48.86085)' },
      image: { type: 'uri', value: 'http://commons.wikimedia.org/wiki/Special:FilePath/Louvre%20Museum%20Wikimedia%20Commons.jpg' },
      street: { type: 'literal', value: 'Rue de Rivoli' },
      postal: { type: 'literal', value: '75001' },
      cityLabel: { type: 'literal', value: 'Paris' },
      stateLabel: { type: 'literal', value: 'Île-de-France' },
      countryLabel: { type: 'literal', value: 'France' },
    },
  },
  { id: 'Q1075988', label: 'Louvre Palace', description: 'palace in Paris, France', museum: false, facts: {} },
  {
    id: 'Q160236',
    label: 'Metropolitan Museum of Art',
    description: 'art museum in New York City, United States',
    museum: true,
    facts: {
      website: { type: 'uri', value: 'https://www.metmuseum.org/' },
      coord: { type: 'literal', value: 'Point(-73.963 40.779)' },
      cityLabel: { type: 'literal', value: 'New York City' },
      countryLabel: { type: 'literal', value: 'United States of America' },
    },
  },
];

interface Fake {
  url: string;
  hits: Record<string, number>;
  userAgents: string[];
  mode: { search?: 'ok' | 'error-body' | '500' | 'hang'; sparql?: 'ok' | '429' | 'html' | 'hang'; geo?: 'ok' | '503' | 'hang' };
  close(): Promise<void>;
}

async function startFake(): Promise<Fake> {
  const fake = { hits: {} as Record<string, number>, userAgents: [] as string[], mode: {} as Fake['mode'] };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    fake.hits[u.pathname] = (fake.hits[u.pathname] ?? 0) + 1;
    fake.userAgents.push(String(req.headers['user-agent']));
    const json = (status: number, body: unknown, type = 'application/json; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const hang = () => hanging.add(res);
    if (u.pathname === '/w/api.php') {
      const mode = fake.mode.search ?? 'ok';
      if (mode === 'hang') return hang();
      if (mode === '500') return json(500, '<html>Internal error</html>', 'text/html');
      if (u.searchParams.get('action') !== 'wbsearchentities' || !u.searchParams.get('search')) {
        return json(200, { error: { code: 'missingparam', info: 'The "search" parameter must be set.' } });
      }
      if (mode === 'error-body') return json(200, { error: { code: 'ratelimited', info: 'You have exceeded your rate limit.' } });
      const q = u.searchParams.get('search')!.toLowerCase();
      const found = ITEMS.filter((i) => i.label.toLowerCase().includes(q) || q.includes(i.label.toLowerCase().split(' ')[0]));
      return json(200, {
        searchinfo: { search: q },
        search: found.map((i) => ({ id: i.id, title: i.id, pageid: 1, label: i.label, description: i.description, match: { type: 'label', language: 'en', text: i.label } })),
        success: 1,
      });
    }
    if (u.pathname === '/sparql') {
      const mode = fake.mode.sparql ?? 'ok';
      if (mode === 'hang') return hang();
      if (mode === '429') return json(429, 'Too Many Requests', 'text/plain');
      if (mode === 'html') return json(200, '<html>maintenance</html>', 'text/html');
      const query = u.searchParams.get('query') ?? '';
      const values = /VALUES \?item \{([^}]*)\}/.exec(query)?.[1] ?? '';
      const ids = [...values.matchAll(/wd:(Q\d+)/g)].map((m) => m[1]);
      if (!/wdt:P31/.test(query) || !/P279\*/.test(query)) return json(400, 'bad query', 'text/plain');
      const bindings = ITEMS.filter((i) => ids.includes(i.id) && i.museum).map((i) => ({
        item: { type: 'uri', value: `http://www.wikidata.org/entity/${i.id}` },
        itemLabel: { 'xml:lang': 'en', type: 'literal', value: i.label },
        itemDescription: { 'xml:lang': 'en', type: 'literal', value: i.description },
        typeLabel: { 'xml:lang': 'en', type: 'literal', value: 'art museum' },
        ...i.facts,
      }));
      return json(200, { head: { vars: ['item', 'itemLabel'] }, results: { bindings } }, 'application/sparql-results+json');
    }
    if (u.pathname === '/search') {
      const mode = fake.mode.geo ?? 'ok';
      if (mode === 'hang') return hang();
      if (mode === '503') return json(503, 'Service Unavailable', 'text/plain');
      if (u.searchParams.get('format') !== 'jsonv2') return json(400, { error: 'format' });
      const q = (u.searchParams.get('q') ?? '').toLowerCase();
      if (q.includes('rue de rivoli') && q.includes('paris')) {
        return json(200, [{ place_id: 1, licence: 'Data © OpenStreetMap contributors, ODbL 1.0.', osm_type: 'way', lat: '48.8606111', lon: '2.337644', category: 'tourism', type: 'museum', display_name: 'Louvre, Rue de Rivoli, Paris, France' }]);
      }
      if (q === 'lyon') {
        return json(200, [{ place_id: 2, licence: 'Data © OpenStreetMap contributors, ODbL 1.0.', osm_type: 'relation', lat: '45.7578137', lon: '4.8320114', category: 'boundary', type: 'administrative', display_name: 'Lyon, Métropole de Lyon, Rhône, France' }]);
      }
      return json(200, []);
    }
    json(404, 'not found', 'text/plain');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

describe('museums: external services', function () {
  this.timeout(60000);
  let fake: Fake;
  let app: TestApp;
  let member: SignedInClient;

  before(async () => {
    fake = await startFake();
    app = await startTestApp({
      googleMapsApiKey: 'test-key-123',
      plugins: {
        disabled: [],
        config: {
          museums: {
            wikidataApiUrl: `${fake.url}/w/api.php`,
            wikidataSparqlUrl: `${fake.url}/sparql`,
            wikidataTimeoutMs: 400,
            geocoderUrl: `${fake.url}/search`,
            geocoderTimeoutMs: 400,
            geocoderMinIntervalMs: 0,
            userAgent: 'CurioTest/1.0 (tests)',
          },
        },
      },
    });
    member = await app.user();
  });
  after(async () => {
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.mode = {};
  });

  describe('POST /api/museums/auto-populate (Wikidata)', () => {
    it('answers the museum facts of the first candidate that is a museum', async () => {
      const r = await member.post('/api/museums/auto-populate', { museumName: 'Louvre' });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.found).to.equal(true);
      expect(r.body.data).to.deep.include({
        name: 'Louvre Museum',
        description: 'art museum in Paris, France',
        website: 'https://www.louvre.fr/',
        phone: '+33 1 40 20 50 50',
        email: 'info@louvre.fr',
        address: 'Rue de Rivoli',
        zipCode: '75001',
        city: 'Paris',
        state: 'Île-de-France',
        country: 'France',
        category: 'art',
        latitude: 48.86085,
        longitude: 2.33625,
        wikidataId: 'Q19675',
        openingHours: null,
      });
      expect(r.body.data.featuredImage).to.equal('https://commons.wikimedia.org/wiki/Special:FilePath/Louvre%20Museum%20Wikimedia%20Commons.jpg?width=1200');
      expect(fake.userAgents.at(-1)).to.equal('CurioTest/1.0 (tests)');
    });

    it('answers found: false when nothing matches or no candidate is a museum', async () => {
      expect((await member.post('/api/museums/auto-populate', { museumName: 'Nothing Like This' })).body).to.deep.equal({ found: false });
      expect((await member.post('/api/museums/auto-populate', { museumName: 'Louvre Palace' })).body.data?.wikidataId).to.not.equal('Q1075988');
    });

    it('validates, needs sign-in', async () => {
      expect((await app.client().post('/api/museums/auto-populate', { museumName: 'Louvre' })).status).to.equal(401);
      const r = await member.post('/api/museums/auto-populate', { museumName: ' ' });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('Museum name is required');
    });

    it('a refused search, a failing SPARQL endpoint or a non-JSON answer is a 502; no answer in time is a 504', async () => {
      fake.mode = { search: 'error-body' };
      let r = await member.post('/api/museums/auto-populate', { museumName: 'Louvre' });
      expect(r.status).to.equal(502);
      expect(r.body.message).to.match(/^Failed to fetch museum data: Wikidata refused the search: You have exceeded/);
      fake.mode = { search: '500' };
      expect((await member.post('/api/museums/auto-populate', { museumName: 'Louvre' })).status).to.equal(502);
      fake.mode = { sparql: '429' };
      r = await member.post('/api/museums/auto-populate', { museumName: 'Louvre' });
      expect(r.status).to.equal(502);
      expect(r.body.message).to.include('Wikidata answered 429');
      fake.mode = { sparql: 'html' };
      expect((await member.post('/api/museums/auto-populate', { museumName: 'Louvre' })).body.message).to.include('not JSON');
      fake.mode = { sparql: 'hang' };
      const started = Date.now();
      r = await member.post('/api/museums/auto-populate', { museumName: 'Louvre' });
      expect(r.status).to.equal(504);
      expect(r.body.message).to.include('did not answer within 400 ms');
      expect(Date.now() - started).to.be.below(3000);
    });

    it('a closed port is a network error', async () => {
      const client = createWikidataClient({ apiUrl: 'http://127.0.0.1:1/w/api.php', sparqlUrl: 'http://127.0.0.1:1/sparql', timeoutMs: 1000, userAgent: 'x', language: 'en' });
      let err: any;
      try {
        await client.findMuseum('Louvre');
      } catch (e) {
        err = e;
      }
      expect(err?.kind).to.equal('network');
    });

    it('Update Museums fills only missing fields from the matching item', async () => {
      const svc = app.services.get(MuseumsService);
      const m = await svc.createMuseum({ name: 'Metropolitan Museum of Art', address: '1000 Fifth Avenue', city: 'New York', country: 'United States', description: 'Our own words.' }, member.me.id);
      const other = await svc.createMuseum({ name: `Louvre Outpost ${uniqueName()}`, address: '1 High St', city: 'Leeds', country: 'United Kingdom' }, member.me.id);
      const r = await svc.enrichFromKnowledgeBase({ museumIds: [m.id, other.id] });
      expect(r).to.deep.equal({ checked: 2, updated: 1, failed: 0 });
      const after = await svc.getMuseums([m.id, other.id]);
      expect(after[0]).to.include({ description: 'Our own words.', website: 'https://www.metmuseum.org/', latitude: 40.779, longitude: -73.963, wikidataId: 'Q160236' });
      expect(after[1]).to.include({ website: null, wikidataId: null }); // the Louvre is not in Leeds
    });
  });

  describe('GET /api/geocode', () => {
    it('answers coordinates and caches them (the provider is asked once)', async () => {
      const before = fake.hits['/search'] ?? 0;
      const r = await member.get('/api/geocode?address=99%20Rue%20de%20Rivoli&city=Paris&country=France');
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.equal({ found: true, latitude: 48.8606111, longitude: 2.337644, displayName: 'Louvre, Rue de Rivoli, Paris, France', timezone: 'Europe/Paris' });
      const again = await member.get('/api/geocode?address=99%20rue%20de%20RIVOLI%20&city=paris&country=France');
      expect(again.body.latitude).to.equal(48.8606111);
      expect(fake.hits['/search']).to.equal(before + 1);
      const row = await app.knex('museum_geocode_cache').where('query_key', 'like', '%rivoli%').first();
      expect(row.found).to.equal(true);
    });

    it('answers found: false when the address is unknown (and caches the miss)', async () => {
      const before = fake.hits['/search'] ?? 0;
      expect((await member.get('/api/geocode?address=Nowhere%201&city=Atlantis')).body).to.deep.equal({ found: false });
      expect((await member.get('/api/geocode?address=Nowhere%201&city=Atlantis')).body).to.deep.equal({ found: false });
      expect(fake.hits['/search']).to.equal(before + 1);
    });

    it('needs both address and city, and a signed-in member', async () => {
      const r = await member.get('/api/geocode?address=&city=Paris');
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('Please enter both address and city to lookup coordinates.');
      expect((await app.client().get('/api/geocode?address=a&city=b')).status).to.equal(401);
    });

    it('a failing provider is a 502, a silent one a 504, and neither is cached', async () => {
      fake.mode = { geo: '503' };
      const r = await member.get('/api/geocode?address=1%20Rue%20de%20Rivoli&city=Paris');
      expect(r.status).to.equal(502);
      expect(r.body.message).to.equal('Failed to lookup coordinates: The geocoding service answered 503');
      fake.mode = { geo: 'hang' };
      const t = await member.get('/api/geocode?address=1%20Rue%20de%20Rivoli&city=Paris');
      expect(t.status).to.equal(504);
      fake.mode = {};
      const ok = await member.get('/api/geocode?address=1%20Rue%20de%20Rivoli&city=Paris');
      expect(ok.body.found).to.equal(true);
    });
  });

  describe("GET /api/geocode/place (Discover's typed place)", () => {
    it('answers a visitor with the coordinates of a typed place, cached apart from addresses', async () => {
      const before = fake.hits['/search'] ?? 0;
      const r = await app.client().get('/api/geocode/place?q=Lyon');
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.equal({ found: true, latitude: 45.7578137, longitude: 4.8320114, displayName: 'Lyon, Métropole de Lyon, Rhône, France' });
      expect((await member.get('/api/geocode/place?q=%20lyon%20')).body.latitude).to.equal(45.7578137);
      expect(fake.hits['/search']).to.equal(before + 1);
      expect((await app.client().get('/api/geocode/place?q=Atlantis%20Lost')).body).to.deep.equal({ found: false });
    });

    it('needs a place: 400 with a message for a blank or missing one', async () => {
      for (const q of ['', '?q=', '?q=%20%20%20', `?q=${'x'.repeat(121)}`]) {
        const r = await app.client().get(`/api/geocode/place${q}`);
        expect(r.status, q).to.equal(400);
        expect(r.body.message, q).to.be.a('string');
      }
    });

    it('a failing provider is a 502 with a message, not cached', async () => {
      fake.mode = { geo: '503' };
      const r = await app.client().get('/api/geocode/place?q=Grenoble');
      expect(r.status).to.equal(502);
      expect(r.body.message).to.equal('Failed to look up the place: The geocoding service answered 503');
      fake.mode = {};
      expect((await app.client().get('/api/geocode/place?q=Grenoble')).status).to.equal(200);
    });
  });

  describe('maps key routes with GOOGLE_MAPS_API_KEY set', () => {
    it('redirects to the Maps JavaScript API with the key and the asked libraries', async () => {
      const res = await app.client().raw('GET', '/api/google-maps-script?libraries=places&v=weekly&callback=initMap');
      expect(res.status).to.equal(302);
      const loc = new URL(res.headers.get('location')!);
      expect(loc.origin + loc.pathname).to.equal('https://maps.googleapis.com/maps/api/js');
      expect(Object.fromEntries(loc.searchParams)).to.deep.equal({ key: 'test-key-123', libraries: 'places', v: 'weekly', callback: 'initMap' });
      expect((await app.client().get('/api/google-maps-script?callback=alert(1)')).status).to.equal(400);
      expect((await app.client().get('/api/google-maps-config')).body).to.deep.equal({ apiKey: 'test-key-123' });
    });
  });
});
