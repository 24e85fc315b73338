/**
 * Public GETs of the JSON API (issue 18): ETag with 304 on revalidation, short public caching for
 * visitors, private revalidation for members; the HTML pages' caching is the SSR's.
 */
import http from 'node:http';
import { expect } from 'chai';
import { sharedApp, uniqueName, type TestApp } from '../testing/index.ts';
import { MuseumsService, positionAt } from '../../plugins/museums/public.ts';

/** A revalidation as a browser sends it (fetch adds Cache-Control: no-cache to conditional requests). */
function revalidate(base: string, path: string, etag: string, cookie = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: { 'if-none-match': etag, ...(cookie ? { cookie } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
  });
}

describe('HTTP caching of public GETs (ETag, Cache-Control)', function () {
  this.timeout(60000);
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('a museum page: ETag and public max-age for visitors, 304 when unchanged, a new ETag when it changed', async () => {
    const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Cached museum '), address: '1 Main St', city: 'Lyon', country: 'France', latitude: 45.76, longitude: 4.83, timezone: 'Europe/Paris' } as any, null);
    const visitor = app.client();
    const first = await visitor.get(`/api/museums/${m.id}`);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"[\w-]{27}"$/);
    expect(first.headers.get('cache-control')).to.equal('public, max-age=30');
    expect(first.headers.get('vary')).to.contain('Cookie');
    const again = await revalidate(app.url, `/api/museums/${m.id}`, etag);
    expect(again.status).to.equal(304);
    expect(again.text).to.equal('');
    // the same answer by slug and in the list are cacheable too
    expect((await visitor.get(`/api/museums/slug/${m.slug}`)).headers.get('etag')).to.match(/^W\//);
    expect((await visitor.get('/api/museums?pageSize=5')).headers.get('cache-control')).to.equal('public, max-age=30');
    // a check-in changes the page: the old ETag no longer matches
    const u = await app.user();
    expect((await u.post(`/api/museums/${m.id}/checkin`, positionAt(m))).status).to.equal(201);
    expect((await revalidate(app.url, `/api/museums/${m.id}`, etag)).status).to.equal(200);
    const changed = await visitor.get(`/api/museums/${m.id}`);
    expect(changed.headers.get('etag')).to.not.equal(etag);
    expect(changed.body.checkInCount).to.equal(1);
  });

  it('members revalidate every time (private, no-cache), still with 304; personal routes carry no ETag', async () => {
    const m = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Member museum '), address: '2 Main St', city: 'Lyon', country: 'France', timezone: 'Europe/Paris' } as any, null);
    const u = await app.user();
    const r = await u.get(`/api/museums/${m.id}`);
    expect(r.headers.get('cache-control')).to.equal('private, no-cache');
    expect((await revalidate(app.url, `/api/museums/${m.id}`, r.headers.get('etag')!, u.cookieHeader())).status).to.equal(304);
    const me = await u.get('/api/auth/user');
    expect(me.headers.get('etag')).to.equal(null);
    expect((await app.client().get('/api/museum-events')).headers.get('cache-control')).to.equal('public, max-age=30');
  });
});
