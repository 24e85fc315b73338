import { expect } from 'chai';
import { sharedApp, type TestApp } from './testing/index.ts';

describe('core HTTP behaviour', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('answers unknown /api paths with 404 JSON', async () => {
    const r = await app.client().get('/api/does-not-exist');
    expect(r.status).to.equal(404);
    expect(r.body.message).to.match(/No route/);
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const r = await app.client().post('/api/auth/login', '{"email": ', { 'content-type': 'application/json' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('Malformed JSON body');
  });

  it('validates bodies against the route schema with field errors', async () => {
    const r = await app.client().post('/api/auth/register', { email: 'not-an-email', password: '123', firstName: '', lastName: 'X', username: 'ok_name' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.include('Password must be at least 6 characters long.');
    expect(r.body.errors).to.deep.include({ path: '/body/password', message: 'Password must be at least 6 characters long.' });
    expect(r.body.errors.map((e: any) => e.path)).to.include.members(['/body/email', '/body/firstName']);
  });

  it('refuses state-changing requests from another origin, by Origin or Referer', async () => {
    const c = app.client();
    c.origin = null;
    expect((await c.post('/api/logout', undefined, { origin: 'https://evil.example' })).status).to.equal(403);
    expect((await c.post('/api/logout', undefined, { referer: 'https://evil.example/page' })).status).to.equal(403);
    expect((await c.post('/api/logout', undefined, { origin: app.url })).status).to.equal(200);
  });

  it('sets security headers on every answer', async () => {
    const r = await app.client().get('/api/config');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).to.include("object-src 'none'").and.include("base-uri 'none'").and.include("frame-ancestors 'none'");
    expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(r.headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
    expect(r.headers.get('x-request-id')).to.be.a('string');
  });

  it('serves an OpenAPI 3.1 document of the registered routes', async () => {
    const r = await app.client().get('/api/openapi.json');
    expect(r.body.openapi).to.equal('3.1.0');
    expect(r.body.paths['/api/auth/login'].post.operationId).to.equal('login');
    expect(Object.keys(r.body.paths).length).to.equal(new Set(app.routes.filter((x) => app.enabled.has(x.plugin)).map((x) => x.path)).size);
  });

  it('reports health', async () => {
    const r = await app.client().get('/api/health');
    expect(r.status).to.equal(200);
    expect(r.body.status).to.equal('ok');
  });
});

describe('operations', () => {
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it('exposes Prometheus metrics with per-route request counts and latency', async () => {
    const c = app.client();
    await c.get('/api/config');
    await c.post('/api/auth/login', { email: 'nobody@x.test', password: 'nope-nope' });
    const r = await c.get('/metrics');
    expect(r.status).to.equal(200);
    expect(r.text).to.match(/curio_http_requests_total\{method="POST",route="\/api\/auth\/login",status="401"\} \d+/);
    expect(r.text).to.include('curio_http_request_duration_seconds_bucket');
    expect(r.text).to.match(/curio_db_pool_connections\{state="used"\}/);
    expect(r.text).to.match(/curio_jobs\{status="queued"\}/);
  });
});

describe('request bodies', () => {
  it('parses a JSON body on DELETE', async () => {
    const app = await sharedApp();
    const r = await app.client().req('DELETE', '/api/does-not-exist', '{"broken": ', { 'content-type': 'application/json' });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('Malformed JSON body');
  });
});

describe('NUL characters', () => {
  it('are refused with 400 in params, query and body instead of failing in PostgreSQL', async () => {
    const app = await sharedApp();
    const c = app.client();
    expect((await c.post('/api/auth/login', { email: 'a\u0000b@x.test', password: 'whatever1' })).status).to.equal(400);
    const r = await c.post('/api/auth/login', { email: 'a\u0000b@x.test', password: 'whatever1' });
    expect(r.body.message).to.equal('Input must not contain NUL characters');
  });
});

describe('compression', () => {
  it('compresses JSON answers over 1 KB for clients that accept it', async () => {
    const app = await sharedApp();
    const res = await fetch(`${app.url}/api/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).to.equal('gzip');
    expect((await res.json()).openapi).to.equal('3.1.0');
  });
});
