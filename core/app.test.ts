import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { expect } from 'chai';
import { serveWebBuild } from './app.ts';
import { sharedApp, startTestApp, type TestApp } from './testing/index.ts';
import { loadConfig } from './config.ts';

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
    // helmet's other headers, computed once at start (issue 18): the same on every answer
    for (const h of ['cross-origin-opener-policy', 'cross-origin-resource-policy', 'x-frame-options', 'x-dns-prefetch-control', 'x-permitted-cross-domain-policies', 'origin-agent-cluster']) {
      expect(r.headers.get(h), h).to.be.a('string');
    }
    const again = await app.client().post('/api/auth/login', { email: 'nobody@x.test', password: 'nope-nope' });
    for (const h of ['content-security-policy', 'cross-origin-opener-policy', 'x-frame-options', 'referrer-policy']) expect(again.headers.get(h), h).to.equal(r.headers.get(h));
    expect(again.headers.get('x-request-id')).to.not.equal(r.headers.get('x-request-id'));
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
    // the series are made once per route and status (issue 18): counts still exact
    const count = (text: string) => Number(/curio_http_requests_total\{method="POST",route="\/api\/auth\/login",status="401"\} (\d+)/.exec(text)?.[1]);
    const timed = (text: string) => Number(/curio_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/login"\} (\d+)/.exec(text)?.[1]);
    const before = (await c.get('/metrics')).text;
    for (let i = 0; i < 3; i++) await c.post('/api/auth/login', { email: 'nobody@x.test', password: 'nope-nope' });
    const after = (await c.get('/metrics')).text;
    expect(count(after) - count(before)).to.equal(3);
    expect(timed(after) - timed(before)).to.be.at.least(3);
  });
});

describe('/metrics access (issue 14 #9)', function () {
  this.timeout(60_000);
  // A client that is not on loopback, without sending traffic off loopback: the apps trust one proxy
  // hop, and the "proxy" (this test) appends the client's address to X-Forwarded-For, as nginx does.
  const REMOTE = { 'x-forwarded-for': '203.0.113.9' };
  const TOKEN = 'metrics-token-0123456789abcdef';
  const at = (app: TestApp, headers: Record<string, string> = {}) => fetch(`${app.url}/metrics`, { headers });

  it('is open in development and test, closed in production (config/<NODE_ENV>.json)', () => {
    expect(loadConfig({}, { NODE_ENV: 'production' }).metricsPublic).to.equal(false);
    expect(loadConfig({}, { NODE_ENV: 'development' }).metricsPublic).to.equal(true);
    expect(loadConfig({}, {}).metricsPublic, 'NODE_ENV unset is development').to.equal(true);
    expect(loadConfig({}, { NODE_ENV: 'test' }).metricsPublic).to.equal(true);
    expect(loadConfig({}, { NODE_ENV: 'production', METRICS_PUBLIC: 'true' }).metricsPublic).to.equal(true);
    expect(loadConfig({}, { NODE_ENV: 'production', METRICS_TOKEN: TOKEN }).metricsToken).to.equal(TOKEN);
  });

  it('in production answers loopback and the bearer token only; in development everyone', async () => {
    const production = loadConfig({}, { NODE_ENV: 'production' });
    const closed = await startTestApp({ trustProxy: 1, metricsPublic: production.metricsPublic, logLevel: 'silent' });
    const tokened = await startTestApp({ trustProxy: 1, metricsPublic: production.metricsPublic, metricsToken: TOKEN, logLevel: 'silent' });
    const open = await startTestApp({ trustProxy: 1, logLevel: 'silent' });
    try {
      // no token configured: loopback only
      expect((await at(closed)).status, 'no header: the socket (loopback)').to.equal(200);
      const refused = await at(closed, REMOTE);
      expect(refused.status).to.equal(403);
      expect((await refused.json()).message).to.match(/loopback/);
      // a token configured: loopback, or the right token from elsewhere
      expect((await at(tokened)).status).to.equal(200);
      const none = await at(tokened, REMOTE);
      expect(none.status).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.match(/^Bearer/);
      expect((await at(tokened, { ...REMOTE, authorization: `Bearer ${TOKEN}x` })).status).to.equal(401);
      expect((await at(tokened, { ...REMOTE, authorization: TOKEN })).status).to.equal(401);
      const ok = await at(tokened, { ...REMOTE, authorization: `Bearer ${TOKEN}` });
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.include('curio_http_requests_total');
      // the address the proxy appended counts, not one the client wrote
      expect((await at(closed, { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })).status, 'forged loopback on the left').to.equal(403);
      expect((await at(closed, { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' })).status, 'the proxy saw a loopback client').to.equal(200);
      // development and test: open
      expect((await at(open, REMOTE)).status).to.equal(200);
    } finally {
      await Promise.all([closed.close(), tokened.close(), open.close()]);
    }
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

describe('the built web app (serveWebBuild)', () => {
  const js = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
  let dir: string;
  let server: http.Server;
  let url: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-web-build-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Curio</title><div id="root"></div>');
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), js);
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.br'), zlib.brotliCompressSync(js));
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.gz'), zlib.gzipSync(js));
    const koa = new Koa();
    koa.use(serveWebBuild(dir));
    server = http.createServer(koa.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the precompressed copy the browser accepts, cached for a year when hashed', async () => {
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', null]] as const) {
      const res = await fetch(`${url}/assets/app-1a2b.js`, { headers: { 'accept-encoding': accept } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-encoding'), accept).to.equal(encoding);
      expect(res.headers.get('content-type')).to.match(/javascript/);
      expect(res.headers.get('vary')).to.match(/accept-encoding/i);
      expect(res.headers.get('cache-control')).to.equal('max-age=31536000,immutable');
      expect(await res.text()).to.equal(js);
    }
  });

  it("answers the web app's own routes with index.html, never cached", async () => {
    const res = await fetch(`${url}/museum/some-museum`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    expect(await res.text()).to.include('<div id="root">');
  });

  it('leaves /api to the routes', async () => {
    expect((await fetch(`${url}/api/nothing`)).status).to.equal(404);
  });
});

describe('behind trusted proxies: X-Forwarded-Proto and -Host from the trusted hop, not the left-most value', function () {
  this.timeout(60_000);
  const post = (app: TestApp, headers: Record<string, string>) =>
    fetch(`${app.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({}) });

  it('one hop: the right-most value (what our proxy wrote) decides the app’s own origin for the origin check', async () => {
    const app = await startTestApp({ trustProxy: 1, logLevel: 'silent' });
    try {
      // a client forged the left-most values; the proxy appended what it saw
      const forged = { 'x-forwarded-proto': 'http, https', 'x-forwarded-host': 'evil.example, curio.example' };
      expect((await post(app, { ...forged, origin: 'http://evil.example' })).status, 'the forged origin').to.equal(403);
      // passes the origin check: refused only for its empty body
      expect((await post(app, { ...forged, origin: 'https://curio.example' })).status, 'the proxy’s origin').to.equal(400);
      // a proxy that overwrites the headers: one value, used as is
      expect((await post(app, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'curio.example', origin: 'https://curio.example' })).status).to.equal(400);
    } finally {
      await app.close();
    }
  });

  it('two hops: the second value from the right; no proxy trusted: the headers are ignored', async () => {
    const two = await startTestApp({ trustProxy: 2, logLevel: 'silent' });
    const none = await startTestApp({ trustProxy: 0, logLevel: 'silent' });
    try {
      const chain = { 'x-forwarded-proto': 'http, https, http', 'x-forwarded-host': 'evil.example, curio.example, internal.lb' };
      expect((await post(two, { ...chain, origin: 'https://curio.example' })).status).to.equal(400);
      expect((await post(two, { ...chain, origin: 'http://internal.lb' })).status).to.equal(403);
      expect((await post(two, { ...chain, origin: 'http://evil.example' })).status).to.equal(403);
      expect((await post(none, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'curio.example', origin: 'https://curio.example' })).status).to.equal(403);
    } finally {
      await two.close();
      await none.close();
    }
  });
});
