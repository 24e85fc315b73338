/**
 * Museums tab: create, list with search and filters, edit with manager, verify, manager assignment
 * and search, edit-suggestion and new-museum review, and Update Museums (Wikidata, as a job).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { sharedApp, startTestApp, uniqueName, waitFor, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { auditOf } from './test-helpers.ts';

function museumBody(over: Record<string, unknown> = {}) {
  return {
    name: uniqueName('Museum '),
    address: '1 Main Street',
    city: uniqueName('City'),
    state: 'State',
    zipCode: '12345',
    country: 'Testland',
    category: 'Art Museums',
    ...over,
  };
}

describe('admin: museums', function () {
  let app: TestApp;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(120_000);
    app = await sharedApp();
    admin = await app.user({ role: 'Admin' });
  });

  it('creates a verified museum (state, zip code and category required) and records it', async () => {
    const missing = await admin.post('/api/admin/create-museum', { name: 'X', address: 'A', city: 'C', country: 'Y' });
    expect(missing.status).to.equal(400);
    expect(missing.body.message).to.match(/State is required|Zip code is required|Category is required/);
    const body = museumBody({ amenities: ['gift_shop', 'cafe_dining'], website: 'https://example.org' });
    const r = await admin.post('/api/admin/create-museum', body);
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ name: body.name, isVerified: true, city: body.city });
    expect(r.body.amenities).to.have.members(['gift_shop', 'cafe_dining']);
    const [entry] = await auditOf(admin, 'museum', r.body.id, 'create_museum');
    expect(entry).to.include({ outcome: 'done', targetId: r.body.id });
    const bad = await admin.post('/api/admin/create-museum', museumBody({ featuredImage: 'not a url' }));
    expect(bad.body.message).to.equal('Invalid image URL');
  });

  it('lists museums with search on name, city or country, the status filters and page numbers', async () => {
    const country = uniqueName('Country');
    const made = [];
    for (let i = 0; i < 6; i++) made.push((await admin.post('/api/admin/create-museum', museumBody({ country }))).body);
    await admin.post('/api/admin/verify-museum', { museumId: made[0].id, verified: false });
    const p1 = await admin.get(`/api/admin/museums?q=${country.toLowerCase()}`);
    expect(p1.status).to.equal(200);
    expect(p1.body).to.include({ total: 6, page: 1, pageSize: 5 });
    expect(p1.body.items).to.have.length(5);
    expect((await admin.get(`/api/admin/museums?q=${country}&page=2`)).body.items).to.have.length(1);
    const unverified = await admin.get(`/api/admin/museums?search=${country}&status=unverified`);
    expect(unverified.body.items.map((m: any) => m.id)).to.deep.equal([made[0].id]);
    expect((await admin.get(`/api/admin/museums?q=${made[1].city}`)).body.items.map((m: any) => m.id)).to.deep.equal([made[1].id]);
    const manager = await app.user({ role: 'Museum Manager' });
    await admin.post('/api/admin/assign-museum-manager', { museumId: made[2].id, managerId: manager.me.id });
    expect((await admin.get(`/api/admin/museums?q=${country}&status=with_manager`)).body.items.map((m: any) => m.id)).to.deep.equal([made[2].id]);
    expect((await admin.get(`/api/admin/museums?q=${country}&status=without_manager`)).body.total).to.equal(5);
    expect((await admin.get('/api/admin/museums?status=bogus')).status).to.equal(400);
  });

  it('edits a museum with a manager and removes the manager with null, recording what changed', async () => {
    const m = (await admin.post('/api/admin/create-museum', museumBody())).body;
    const manager = await app.user({ role: 'Museum Manager' });
    const r = await admin.put(`/api/admin/museums/${m.id}`, { name: m.name, address: m.address, city: m.city, country: m.country, phone: '+1 555 0100', managerId: manager.me.id });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ phone: '+1 555 0100', managerId: manager.me.id });
    const [entry] = await auditOf(admin, 'museum', m.id, 'update_museum');
    expect(entry.details.before).to.deep.include({ managerId: null });
    expect(entry.details.after).to.deep.include({ managerId: manager.me.id, phone: '+1 555 0100' });
    const cleared = await admin.put(`/api/admin/museums/${m.id}`, { name: m.name, address: m.address, city: m.city, country: m.country, managerId: null });
    expect(cleared.body.managerId).to.equal(null);
    const traveler = await app.user({});
    const refused = await admin.put(`/api/admin/museums/${m.id}`, { name: m.name, address: m.address, city: m.city, country: m.country, phone: '+1 555 0199', managerId: traveler.me.id });
    expect(refused.status).to.equal(400);
    // the answer names the manager field, and nothing else was changed by the refused edit
    expect(refused.body.errors).to.deep.equal([{ path: '/managerId', message: refused.body.message }]);
    expect((await admin.get(`/api/admin/museums?q=${encodeURIComponent(m.name)}`)).body.items[0].phone).to.equal('+1 555 0100');
    expect((await admin.put(`/api/admin/museums/${m.id}`, { name: '', address: m.address, city: m.city, country: m.country })).body.message).to.equal('Museum name is required');
    expect((await admin.put('/api/admin/museums/2147480000', { name: 'x', address: 'a', city: 'c', country: 'y' })).status).to.equal(404);
  });

  it('verifies and unverifies, recording each change once', async () => {
    const m = (await admin.post('/api/admin/create-museum', museumBody())).body;
    const off = await admin.post('/api/admin/verify-museum', { museumId: m.id, verified: false });
    expect(off.body.isVerified).to.equal(false);
    const on = await admin.post('/api/admin/verify-museum', { museumId: m.id, verified: true });
    expect(on.body.isVerified).to.equal(true);
    await admin.post('/api/admin/verify-museum', { museumId: m.id, verified: true }); // no change, no entry
    expect(await auditOf(admin, 'museum', m.id, 'verify_museum')).to.have.length(1);
    expect(await auditOf(admin, 'museum', m.id, 'unverify_museum')).to.have.length(1);
    expect((await admin.post('/api/admin/verify-museum', { museumId: 2147480000, verified: true })).status).to.equal(404);
  });

  it('assigns a manager (Museum Manager or Admin only) and finds candidates from 2 characters', async () => {
    const m = (await admin.post('/api/admin/create-museum', museumBody())).body;
    const tag = uniqueName('mgr');
    const manager = await app.user({ role: 'Museum Manager', username: `${tag}a` });
    const anotherAdmin = await app.user({ role: 'Admin', username: `${tag}b` });
    await app.user({ role: 'Traveler', username: `${tag}c` });
    const found = await admin.get(`/api/admin/museum-managers?q=${tag}`);
    expect(found.status).to.equal(200);
    expect(found.body.map((u: any) => u.id)).to.have.members([manager.me.id, anotherAdmin.me.id]);
    expect((await admin.get('/api/admin/museum-managers?q=a')).body).to.deep.equal([]);
    const r = await admin.post('/api/admin/assign-museum-manager', { museumId: m.id, managerId: manager.me.id });
    expect(r.body.managerId).to.equal(manager.me.id);
    const [entry] = await auditOf(admin, 'museum', m.id, 'assign_museum_manager');
    expect(entry.details).to.include({ managerUsername: manager.me.username });
    const removed = await admin.post('/api/admin/assign-museum-manager', { museumId: m.id, managerId: null });
    expect(removed.body.managerId).to.equal(null);
    expect(await auditOf(admin, 'museum', m.id, 'remove_museum_manager')).to.have.length(1);
  });

  describe('edit suggestions', () => {
    it('approval applies exactly the suggested changes, records the reviewer, notifies the suggester; a second review is 409', async () => {
      const m = (await admin.post('/api/admin/create-museum', museumBody({ phone: '+1 000' }))).body;
      const member = await app.user({});
      const s = await member.post(`/api/museums/${m.id}/suggest-edit`, { suggestedChanges: { phone: '+1 222 3333', description: 'A lovely place' }, reason: 'Phone changed' });
      expect(s.status).to.equal(201);
      const list = await admin.get('/api/admin/museum-edit-suggestions?status=pending&pageSize=100');
      expect(list.status).to.equal(200);
      expect(list.body.pendingCount).to.be.at.least(1);
      const pending = list.body.items.find((x: any) => x.id === s.body.id);
      expect(pending).to.include({ status: 'pending', reason: 'Phone changed' });
      expect(pending.user).to.include({ id: member.me.id, email: member.me.email });

      const ok = await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: s.body.id });
      expect(ok.status).to.equal(200);
      expect(ok.body.status).to.equal('approved');
      expect(ok.body.reviewer).to.include({ id: admin.me.id, username: admin.me.username });
      expect(ok.body.reviewedAt).to.be.a('string');
      const after = (await admin.get(`/api/admin/museums?q=${encodeURIComponent(m.name)}`)).body.items[0];
      expect(after).to.include({ phone: '+1 222 3333', description: 'A lovely place', address: m.address, city: m.city });

      await waitFor(async () => {
        const inbox = await member.get('/api/notifications');
        return inbox.body.items.some((n: any) => n.type === 'museum_update');
      });

      const twice = await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: s.body.id });
      expect(twice.status).to.equal(409);
      const rejectAfter = await admin.post('/api/admin/reject-museum-edit-suggestion', { suggestionId: s.body.id });
      expect(rejectAfter.status).to.equal(409);
      const entries = await auditOf(admin, 'edit_suggestion', s.body.id);
      expect(entries.map((e) => e.action)).to.deep.equal(['approve_museum_edit_suggestion']);
      expect(entries[0].details).to.deep.include({ museumId: m.id, suggesterId: member.me.id });
    });

    it('rejection changes nothing on the museum and notifies the suggester', async () => {
      const m = (await admin.post('/api/admin/create-museum', museumBody({ phone: '+1 000' }))).body;
      const member = await app.user({});
      const s = await member.post(`/api/museums/${m.id}/suggest-edit`, { suggestedChanges: { phone: '+1 999' } });
      const r = await admin.post('/api/admin/reject-museum-edit-suggestion', { suggestionId: s.body.id, note: 'Could not confirm' });
      expect(r.status).to.equal(200);
      expect(r.body.status).to.equal('rejected');
      const after = (await admin.get(`/api/admin/museums?q=${encodeURIComponent(m.name)}`)).body.items[0];
      expect(after.phone).to.equal('+1 000');
      await waitFor(async () => (await member.get('/api/notifications')).body.items.some((n: any) => n.type === 'museum_update'));
      expect((await admin.post('/api/admin/reject-museum-edit-suggestion', { suggestionId: s.body.id })).status).to.equal(409);
      expect((await admin.post('/api/admin/approve-museum-edit-suggestion', { suggestionId: 2147480000 })).status).to.equal(404);
    });

    it("reviews members' new museum suggestions: approval creates the museum, a second review is 409", async () => {
      const member = await app.user({});
      const name = uniqueName('Suggested Museum ');
      const s = await member.post('/api/museum-suggestions', { name, address: '5 Side St', city: 'Smallville', country: 'Testland' });
      expect(s.status).to.equal(201);
      const list = await admin.get('/api/admin/museum-suggestions?status=pending&pageSize=100');
      expect(list.body.items.map((x: any) => x.id)).to.include(s.body.id);
      const ok = await admin.post('/api/admin/approve-museum-suggestion', { suggestionId: s.body.id });
      expect(ok.status).to.equal(200);
      expect(ok.body.suggestion.status).to.equal('approved');
      expect(ok.body.museum).to.include({ name });
      expect((await admin.post('/api/admin/reject-museum-suggestion', { suggestionId: s.body.id })).status).to.equal(409);
      const [entry] = await auditOf(admin, 'museum_suggestion', s.body.id, 'approve_museum_suggestion');
      expect(entry.details).to.include({ museumId: ok.body.museum.id, name });

      const s2 = await member.post('/api/museum-suggestions', { name: uniqueName('Nope '), address: '6 Side St', city: 'Smallville', country: 'Testland' });
      const no = await admin.post('/api/admin/reject-museum-suggestion', { suggestionId: s2.body.id });
      expect(no.body.status).to.equal('rejected');
    });
  });
});

// ---- Update Museums against a local stand-in for Wikidata ----

const LOUVRE = {
  id: 'Q19675',
  label: 'Louvre Museum',
  description: 'art museum in Paris, France',
  facts: {
    website: { type: 'uri', value: 'https://www.louvre.fr/' },
    phone: { type: 'literal', value: '+33 1 40 20 50 50' },
    coord: { type: 'literal', value: 'Point(2.33625 48.86085)' },
    cityLabel: { type: 'literal', value: 'Paris' },
    countryLabel: { type: 'literal', value: 'France' },
  },
};

async function fakeWikidata(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    const json = (body: unknown, type = 'application/json') => {
      res.writeHead(200, { 'content-type': type });
      res.end(JSON.stringify(body));
    };
    if (u.pathname === '/w/api.php') {
      const q = (u.searchParams.get('search') ?? '').toLowerCase();
      const hit = q.includes('louvre') ? [{ id: LOUVRE.id, title: LOUVRE.id, label: LOUVRE.label, description: LOUVRE.description, match: { type: 'label', language: 'en', text: LOUVRE.label } }] : [];
      return json({ searchinfo: { search: q }, search: hit, success: 1 });
    }
    if (u.pathname === '/sparql') {
      const query = u.searchParams.get('query') ?? '';
      const bindings = query.includes(`wd:${LOUVRE.id}`)
        ? [{ item: { type: 'uri', value: `http://www.wikidata.org/entity/${LOUVRE.id}` }, itemLabel: { type: 'literal', value: LOUVRE.label }, itemDescription: { type: 'literal', value: LOUVRE.description }, ...LOUVRE.facts }]
        : [];
      return json({ head: { vars: ['item'] }, results: { bindings } }, 'application/sparql-results+json');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('admin: Update Museums (a background job with progress)', function () {
  let app: TestApp;
  let fake: Awaited<ReturnType<typeof fakeWikidata>>;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(120_000);
    fake = await fakeWikidata();
    app = await startTestApp({
      plugins: {
        disabled: [],
        config: {
          museums: { wikidataApiUrl: `${fake.url}/w/api.php`, wikidataSparqlUrl: `${fake.url}/sparql`, wikidataTimeoutMs: 2000 },
          admin: { updateMuseumsWaitMs: 10000, updateMuseumsBatch: 1 },
        },
      },
    });
    admin = await app.user({ role: 'Admin' });
  });
  after(async () => {
    await app?.close();
    await fake?.close();
  });

  it('fills missing fields from Wikidata, answers stats.updated, reports progress and records the run', async () => {
    const louvre = (await admin.post('/api/admin/create-museum', museumBody({ name: 'Louvre Museum', address: 'Rue de Rivoli', city: 'Paris', country: 'France' }))).body;
    const other = (await admin.post('/api/admin/create-museum', museumBody({ name: 'Nowhere Gallery' }))).body;
    const r = await admin.post('/api/admin/update-museums', {});
    expect(r.status).to.equal(200);
    expect(r.body.status).to.equal('done');
    expect(r.body.stats.updated).to.equal(1);
    expect(r.body.stats.checked).to.equal(2);
    expect(r.body.progress).to.deep.equal({ done: 2, total: 2 });
    const updated = (await admin.get('/api/admin/museums?q=Louvre')).body.items[0];
    expect(updated).to.include({ website: 'https://www.louvre.fr/', phone: '+33 1 40 20 50 50' });
    expect((await admin.get('/api/admin/museums?q=Nowhere')).body.items[0].website).to.equal(null);
    const job = await admin.get(`/api/admin/jobs/${r.body.jobId}`);
    expect(job.body).to.deep.equal(r.body);
    const [entry] = await auditOf(admin, 'museum', null, 'update_museums');
    expect(entry).to.include({ outcome: 'done' });
    expect(entry.details).to.include({ updated: 1, checked: 2 });
    expect(louvre.id).to.not.equal(other.id);
  });

  it('without waiting answers the job at once; polling GET /api/admin/jobs/{id} reaches done', async () => {
    const r = await admin.post('/api/admin/update-museums', { wait: false });
    expect(r.status).to.equal(200);
    expect(['queued', 'running', 'done']).to.include(r.body.status);
    const done = await waitFor(async () => {
      const j = await admin.get(`/api/admin/jobs/${r.body.jobId}`);
      return j.body.status === 'done' ? j.body : null;
    }, { timeout: 15000 });
    expect(done.stats).to.include({ updated: 0 });
    expect((await admin.get('/api/admin/jobs/2147480000')).status).to.equal(404);
  });
});
