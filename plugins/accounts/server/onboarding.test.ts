/**
 * Issue 21: the member's interests, home city and onboarding progress (GET/PUT /api/user/onboarding).
 * The typed city goes through the museums plugin's geocoding client (OnboardingSources) to a small
 * Nominatim-style server of this test; the browser's position is stored rounded to ~1 km.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { AccountsService } from '../public.ts';
import { CITY_NOT_FOUND, CITY_OR_LOCATION, UNKNOWN_INTEREST } from './routes-onboarding.ts';

interface Geocoder {
  url: string;
  queries: string[];
  down: boolean;
  close(): Promise<void>;
}

/** Nominatim's /search: Lyon and Paris are known, anything else is not; `down` answers 500. */
async function startGeocoder(): Promise<Geocoder> {
  const g = { queries: [] as string[], down: false } as Geocoder;
  const places: Record<string, { lat: string; lon: string; display_name: string }> = {
    lyon: { lat: '45.757814', lon: '4.832011', display_name: 'Lyon, Métropole de Lyon, France' },
    paris: { lat: '48.8588897', lon: '2.3200410', display_name: 'Paris, Île-de-France, France' },
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = u.searchParams.get('q') ?? '';
    g.queries.push(q);
    if (g.down) {
      res.writeHead(500);
      return res.end('down');
    }
    const hit = places[q.trim().toLowerCase()];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(hit ? [hit] : []));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  g.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  g.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections?.();
    });
  return g;
}

describe('accounts: onboarding — interests and home city (issue 21)', function () {
  this.timeout(60000);
  let geo: Geocoder;
  let app: TestApp;
  let me: SignedInClient;
  before(async () => {
    geo = await startGeocoder();
    app = await startTestApp({ plugins: { config: { museums: { geocoderUrl: `${geo.url}/search`, geocoderMinIntervalMs: 0, geocoderTimeoutMs: 1000 } } } });
    me = await app.user();
  });
  after(async () => {
    await app?.close();
    await geo?.close();
  });

  it('starts empty, never offered, with the museum categories as choices', async () => {
    const r = await me.get('/api/user/onboarding');
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ status: null, step: 0, home: null });
    expect(r.body.interests).to.deep.equal([]);
    expect(r.body.choices.map((c: any) => c.key)).to.include.members(['Art Museums', 'History Museums', 'Science Museums']);
    expect(r.body.choices[0]).to.deep.equal({ key: 'Art Museums', label: 'Art Museums', labelKey: 'museums:categories.art_museums' });
  });

  it('stores interests from the choices only, and progress', async () => {
    let r = await me.put('/api/user/onboarding', { interests: ['History Museums', 'Art Museums'], status: 'started', step: 1 });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ status: 'started', step: 1 });
    expect(r.body.interests).to.deep.equal(['History Museums', 'Art Museums']);
    r = await me.put('/api/user/onboarding', { interests: ['Art Museums', 'Knitting'] });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.include({ message: UNKNOWN_INTEREST });
    expect(r.body.errors[0]).to.include({ path: '/interests/1' });
    // the schema: a list of unique strings, a known status, a step 0–3, nothing else
    for (const body of [{ interests: 'Art Museums' }, { interests: ['Art Museums', 'Art Museums'] }, { status: 'finished' }, { step: 4 }, { role: 'Admin' }, { location: { latitude: 91, longitude: 0 } }]) {
      const bad = await me.put('/api/user/onboarding', body);
      expect(bad.status, JSON.stringify(body)).to.equal(400);
      expect(bad.body.message).to.be.a('string');
    }
    expect((await me.get('/api/user/onboarding')).body.interests).to.deep.equal(['History Museums', 'Art Museums']);
  });

  it('geocodes a typed city on the server through the configured geocoder (cached), and refuses an unknown one', async () => {
    const before = geo.queries.length;
    let r = await me.put('/api/user/onboarding', { homeCity: '  Lyon ' });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.home).to.deep.equal({ city: 'Lyon', latitude: 45.76, longitude: 4.83 });
    expect(geo.queries.slice(before)).to.deep.equal(['Lyon']);
    // asked again: the geocoding cache answers
    const other = await app.user();
    expect((await other.put('/api/user/onboarding', { homeCity: 'lyon' })).body.home).to.include({ latitude: 45.76 });
    expect(geo.queries.length).to.equal(before + 1);
    r = await me.put('/api/user/onboarding', { homeCity: 'Atlantis' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal(CITY_NOT_FOUND);
    expect((await me.get('/api/user/onboarding')).body.home).to.include({ city: 'Lyon' });
  });

  it('answers 502 with a message when the geocoder fails, keeping the home as it was', async () => {
    geo.down = true;
    try {
      const r = await me.put('/api/user/onboarding', { homeCity: 'Marseille' });
      expect(r.status).to.equal(502);
      expect(r.body.message).to.match(/^Failed to look up the city/);
    } finally {
      geo.down = false;
    }
    expect((await me.get('/api/user/onboarding')).body.home).to.include({ city: 'Lyon' });
  });

  it("stores the browser's position rounded to about a kilometre, refuses a city and a position together, and clears the home", async () => {
    let r = await me.put('/api/user/onboarding', { location: { latitude: 48.856613, longitude: 2.352222 } });
    expect(r.body.home).to.deep.equal({ city: null, latitude: 48.86, longitude: 2.35 });
    r = await me.put('/api/user/onboarding', { homeCity: 'Paris', location: { latitude: 1, longitude: 2 } });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal(CITY_OR_LOCATION);
    r = await me.put('/api/user/onboarding', { homeCity: null, status: 'done', step: 2 });
    expect(r.body).to.include({ home: null, status: 'done', step: 2 });
  });

  it("is the member's own: signed out 401, another member sees their own row; AccountsApi.getMemberTaste reads it for recommendations", async () => {
    expect((await app.client().get('/api/user/onboarding')).status).to.equal(401);
    expect((await app.client().put('/api/user/onboarding', { step: 1 })).status).to.equal(401);
    const other = await app.user();
    expect((await other.get('/api/user/onboarding')).body).to.include({ status: null, home: null });
    await me.put('/api/user/onboarding', { interests: ['Science Museums'], homeCity: 'Paris' });
    const taste = await app.services.get(AccountsService).getMemberTaste(me.me.id);
    expect(taste).to.deep.equal({ interests: ['Science Museums'], home: { city: 'Paris', latitude: 48.86, longitude: 2.32 } });
    expect(await app.services.get(AccountsService).getMemberTaste(other.me.id)).to.deep.equal({ interests: [], home: null });
  });
});
