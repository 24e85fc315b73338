/**
 * Security suite (issue 10, ASVS level 2 as the reference): response headers on every kind of
 * answer, the session cookie, CSRF on every state-changing route of the registry, "no GET changes
 * state" by crawling every GET route as every role, and passwords.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp, type TestClient } from '../testing/index.ts';
import { buildWorld, ROLES, smallPng, type World } from './fixtures/world.ts';
import { startExternalStub, type ExternalStub } from './fixtures/external-stub.ts';
import { diffChecksums, jobsIdle, tableChecksums, EXCLUDED_COLUMNS, EXCLUDED_TABLES } from './fixtures/db-checksum.ts';
import { AUTHZ_TABLE } from './authz/index.ts';
import { buildPath, type ReqSpec } from './authz/types.ts';

const SESSION_COOKIE = 'curio.sid';

function cspDirectives(csp: string | null): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) m.set(name.toLowerCase(), values.join(' '));
  }
  return m;
}

/** The headers every answer must carry (ASVS V14.4). */
function headerProblems(what: string, h: Headers): string[] {
  const out: string[] = [];
  const csp = cspDirectives(h.get('content-security-policy'));
  const objectSrc = csp.get('object-src') ?? csp.get('default-src');
  if (objectSrc !== "'none'") out.push(`${what}: CSP object-src is ${objectSrc ?? 'missing'}`);
  if (csp.get('base-uri') !== "'none'") out.push(`${what}: CSP base-uri is ${csp.get('base-uri') ?? 'missing'}`);
  if (csp.get('frame-ancestors') !== "'none'") out.push(`${what}: CSP frame-ancestors is ${csp.get('frame-ancestors') ?? 'missing'}`);
  if (h.get('x-content-type-options') !== 'nosniff') out.push(`${what}: X-Content-Type-Options is ${h.get('x-content-type-options')}`);
  const rp = h.get('referrer-policy');
  if (!rp || !['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'].includes(rp)) out.push(`${what}: Referrer-Policy is ${rp}`);
  return out;
}

function sessionCookieOf(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
}

describe('quality: security', function () {
  this.timeout(600_000);
  let app: TestApp;
  let stub: ExternalStub;
  let w: World;

  before(async () => {
    stub = await startExternalStub();
    app = await startTestApp(stub.overrides());
    w = await buildWorld(app);
  });
  after(async () => {
    await app?.close();
    await stub?.close();
  });

  describe('response headers', () => {
    it('every kind of answer carries CSP (object-src, base-uri, frame-ancestors), nosniff and a strict referrer policy', async () => {
      const c = w.c.traveler;
      const up = await c.upload('/api/user/profile-image', [{ field: 'image', name: 'me.png', type: 'image/png', data: await smallPng() }]);
      expect(up.status, up.text).to.equal(200);
      const answers: Array<[string, TestClient, string, string?]> = [
        ['API JSON', c, '/api/config'],
        ['API 401', app.client(), '/api/user'],
        ['API 404', c, '/api/does-not-exist'],
        ['API 400', c, '/api/posts/not-a-number'],
        ['iCalendar', c, `/api/museum-events/${w.museumEvent.id}/ics`],
        ['redirect', c, '/api/google-maps-script'],
        ['web page', c, '/'],
        ['web page deep link', c, '/communities/1'],
        ['metrics', c, '/metrics'],
        ['upload', c, up.body.profileImageUrl],
        ['upload 404', c, '/uploads/avatars/0000000000000000000000000000000.jpg'],
      ];
      const problems: string[] = [];
      for (const [what, client, path] of answers) {
        const r = await client.get(path);
        problems.push(...headerProblems(`${what} (${path} → ${r.status})`, r.headers));
      }
      // a refused cross-origin write and a 413 are answers too
      const x = await c.post('/api/posts', { type: 'text', content: 'x' }, { origin: 'https://evil.example' });
      problems.push(...headerProblems('CSRF refusal', x.headers));
      const big = await c.post('/api/posts', { type: 'text', content: 'x'.repeat(1_100_000) });
      expect(big.status).to.equal(413);
      problems.push(...headerProblems('413', big.headers));

      expect(problems).to.deep.equal([]);
    });

    it('uploads are served with an allow-listed type, nosniff, a sandboxing CSP and no client-chosen name', async () => {
      const r = await w.c.traveler.get('/api/user');
      const url: string = r.body.profileImageUrl;
      expect(url).to.match(/^\/uploads\/avatars\/[0-9a-f]{32}\.jpg$/);
      const img = await app.client().get(url);
      expect(img.headers.get('content-type')).to.equal('image/jpeg');
      expect(img.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(img.headers.get('content-security-policy')).to.include('sandbox');
    });

    it('HSTS is sent behind a TLS proxy (trustProxy) and not on plain HTTP', async () => {
      const plain = await w.c.traveler.get('/api/config');
      expect(plain.headers.get('strict-transport-security')).to.equal(null);
    });
  });

  describe('session cookie', () => {
    it('is httpOnly, SameSite=Lax, signed, not Secure on plain HTTP, and carries at least 128 bits of randomness', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 12; i++) {
        const c = app.client();
        const res = await c.raw('POST', '/api/auth/login', { body: JSON.stringify({ email: w.u.member.email, password: w.u.member.password }), headers: { 'content-type': 'application/json' } });
        expect(res.status).to.equal(200);
        const cookie = sessionCookieOf(res)!;
        expect(cookie, 'session cookie').to.be.a('string');
        const attrs = cookie.split(';').map((s) => s.trim().toLowerCase());
        expect(attrs).to.include('httponly');
        expect(attrs).to.include('samesite=lax');
        expect(attrs).to.not.include('secure');
        expect(res.headers.getSetCookie().some((x) => x.startsWith(`${SESSION_COOKIE}.sig=`)), 'signed').to.equal(true);
        const value = decodeURIComponent(cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
        expect(value).to.match(/^[A-Za-z0-9_-]+$/);
        const bytes = Buffer.from(value, 'base64url');
        expect(bytes.length * 8, 'bits in the session id').to.be.at.least(128);
        ids.add(value);
      }
      expect(ids.size).to.equal(12);
      // the id is the key of a server-side row: nothing about the user is in the cookie
      const row = await app.knex('user_sessions').whereIn('id', [...ids]).count({ n: '*' });
      expect(Number(row[0].n)).to.equal(12);
    });

    it('is Secure behind a TLS-terminating proxy when trustProxy is on (X-Forwarded-Proto: https), with HSTS', async () => {
      const tls = await startTestApp({ trustProxy: true });
      try {
        const u = await tls.user();
        const c = tls.client();
        const origin = tls.url.replace('http://', 'https://');
        const res = await c.raw('POST', '/api/auth/login', {
          body: JSON.stringify({ email: u.me.email, password: u.me.password }),
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', origin },
        });
        expect(res.status).to.equal(200);
        const attrs = sessionCookieOf(res)!.split(';').map((s) => s.trim().toLowerCase());
        expect(attrs).to.include('secure');
        expect(attrs).to.include('httponly');
        expect(attrs).to.include('samesite=lax');
        expect(res.headers.get('strict-transport-security')).to.match(/max-age=\d+/);
      } finally {
        await tls.close();
      }
    });

    it('is rotated at sign-in, and the earlier id no longer works', async () => {
      const c = app.client();
      const first = await c.post('/api/auth/login', { email: w.u.moderator.email, password: w.u.moderator.password });
      expect(first.status).to.equal(200);
      const before = c.cookieHeader();
      const id1 = c.cookies.get(SESSION_COOKIE);
      const again = await c.post('/api/auth/login', { email: w.u.moderator.email, password: w.u.moderator.password });
      expect(again.status).to.equal(200);
      const id2 = c.cookies.get(SESSION_COOKIE);
      expect(id2).to.be.a('string').and.not.equal(id1);
      expect((await c.get('/api/auth/user')).status).to.equal(200);
      const replay = await app.client().get('/api/auth/user', { cookie: before });
      expect(replay.status).to.equal(401);
    });

    it('replaying the cookie after logout gives 401', async () => {
      const c = app.client();
      expect((await c.post('/api/auth/login', { email: w.u.member.email, password: w.u.member.password })).status).to.equal(200);
      const saved = c.cookieHeader();
      expect((await app.client().get('/api/auth/user', { cookie: saved })).status).to.equal(200);
      expect((await c.post('/api/logout')).status).to.equal(200);
      expect((await app.client().get('/api/auth/user', { cookie: saved })).status).to.equal(401);
      expect((await app.client().get('/api/auth/my-sessions', { cookie: saved })).status).to.equal(401);
    });

    it('a password change ends the other sessions and keeps this one', async () => {
      const a = await app.user();
      const b = app.client();
      expect((await b.post('/api/auth/login', { email: a.me.email, password: a.me.password })).status).to.equal(200);
      const r = await a.put('/api/user/password', { currentPassword: a.me.password, newPassword: 'An-entirely-new-passphrase-71' });
      expect(r.status, r.text).to.equal(200);
      expect((await b.get('/api/auth/user')).status).to.equal(401);
      expect((await a.get('/api/auth/user')).status).to.equal(200);
      expect((await app.client().post('/api/auth/login', { email: a.me.email, password: a.me.password })).status).to.equal(401);
      expect((await app.client().post('/api/auth/login', { email: a.me.email, password: 'An-entirely-new-passphrase-71' })).status).to.equal(200);
    });
  });

  describe('CSRF', () => {
    const stateChanging = () => app.routes.filter((r) => app.enabled.has(r.plugin) && r.method !== 'GET');

    it('every state-changing route of the registry refuses a cross-origin request (Origin, Referer only, Origin null) and changes nothing', async () => {
      const routes = stateChanging();
      expect(routes.length).to.be.above(80);
      await jobsIdle(app.knex);
      const before = await tableChecksums(app.knex);
      const admin = w.c.admin;
      const failures: string[] = [];
      for (const r of routes) {
        const path = r.path.replace(/:([A-Za-z0-9_]+)/g, () => String(w.community.id));
        const body = r.bodyType === 'multipart' ? undefined : JSON.stringify({});
        const headersFor = (extra: Record<string, string>) => ({ ...(body ? { 'content-type': 'application/json' } : {}), ...extra });
        for (const [label, extra] of [
          ['Origin', { origin: 'https://evil.example' }],
          ['Origin of a look-alike host', { origin: `${app.url}.evil.example` }],
          ['Referer only', { origin: '', referer: 'https://evil.example/page' }],
          ['Origin null', { origin: 'null' }],
        ] as const) {
          const h: Record<string, string> = headersFor(extra);
          if (h.origin === '') delete h.origin;
          const saved = admin.origin;
          admin.origin = null; // the client adds its own Origin otherwise
          let res: Response;
          try {
            res = await admin.raw(r.method, path, { body, headers: h });
          } finally {
            admin.origin = saved;
          }
          const text = await res.text();
          if (res.status !== 403 || !text.includes('Cross-origin request refused')) failures.push(`${r.method} ${r.path} (${label}): ${res.status} ${text.slice(0, 120)}`);
        }
      }
      expect(failures).to.deep.equal([]);
      await jobsIdle(app.knex);
      expect(diffChecksums(before, await tableChecksums(app.knex)), 'tables changed by refused requests').to.deep.equal([]);
    });

    it('a same-origin request still passes the check', async () => {
      const r = await w.c.traveler.post('/api/user/' + w.other.me.id + '/follow');
      expect(r.status).to.equal(200);
      await w.c.traveler.post('/api/user/' + w.other.me.id + '/follow'); // back as it was
    });
  });

  describe('no GET changes state', () => {
    it(`crawling every GET route as every role (${ROLES.length} roles, real ids) leaves every table as it was`, async () => {
      const gets = Object.values(AUTHZ_TABLE)
        .flat()
        .filter((row) => row.route.startsWith('GET '));
      const registeredGets = app.routes.filter((r) => app.enabled.has(r.plugin) && r.method === 'GET').map((r) => `GET ${r.path}`);
      expect(registeredGets.filter((r) => !gets.some((g) => g.route === r)), 'GET routes without a crawl entry').to.deep.equal([]);
      // Build every request first (some builders look objects up), then checksum, then crawl.
      const plan: Array<{ route: string; client: TestClient; path: string; as: string }> = [];
      for (const row of gets) {
        for (const as of ROLES) {
          for (const obj of row.objects ?? [null]) {
            if (obj === 'own' && as === 'anon') continue;
            const client = w.c[as];
            const req: ReqSpec | null = row.req ? await row.req({ w, as, obj, client }) : {};
            if (!req) continue;
            plan.push({ route: row.route, client: req.client ?? client, path: buildPath(row.route, req), as });
          }
        }
      }
      await jobsIdle(app.knex);
      const before = await tableChecksums(app.knex);
      const send = async (p: (typeof plan)[number]) => {
        const r = await p.client.get(p.path);
        expect(r.status, `${p.route} as ${p.as}: ${r.text.slice(0, 200)}`).to.be.below(500);
      };
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < plan.length) await send(plan[next++]);
      }));
      await jobsIdle(app.knex);
      const changed = diffChecksums(before, await tableChecksums(app.knex));
      expect(changed, `tables changed by GET requests (left out: ${[...EXCLUDED_TABLES].join(', ')}; columns ${JSON.stringify(EXCLUDED_COLUMNS)})`).to.deep.equal([]);
      expect(plan.length).to.be.above(500);
    });
  });

  describe('passwords', () => {
    it('are stored as argon2id with m ≥ 19456 KiB, t ≥ 2, p = 1', async () => {
      const rows = await app.knex('users').whereIn('id', [w.u.traveler.id, w.u.admin.id]).pluck('password_hash');
      for (const h of rows) {
        const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(h);
        expect(m, `stored hash ${h.slice(0, 30)}…`).to.not.equal(null);
        expect(Number(m![1])).to.be.at.least(19456);
        expect(Number(m![2])).to.be.at.least(2);
        expect(Number(m![3])).to.equal(1);
        expect(h).to.not.include(w.u.traveler.password);
      }
    });

    // Well-known entries of every public top-1000 list (and case variants): refused at sign-up and change.
    const COMMON = ['123456', 'password', '12345678', 'qwerty', '123456789', '1234567', '111111', '123123', 'abc123', 'iloveyou', 'qwertyuiop', '654321', 'dragon', 'monkey', 'letmein', 'football', 'baseball', 'sunshine', 'princess', 'welcome', 'trustno1', 'superman', 'password1', 'PASSWORD', 'Qwerty123', 'iloveyou1'];

    it('the most common passwords are refused at sign-up, the 6-character minimum stays', async () => {
      const accepted: string[] = [];
      for (const pw of COMMON) {
        const name = `cp${Math.random().toString(36).slice(2, 10)}`;
        const r = await app.client().post('/api/auth/register', { email: `${name}@example.test`, password: pw, firstName: 'C', lastName: 'P', username: name });
        if (r.status !== 400) accepted.push(`${pw} → ${r.status}`);
        else expect(r.body.errors?.some((e: any) => /password/i.test(e.path)), r.text).to.equal(true);
      }
      expect(accepted).to.deep.equal([]);
      const short = await app.client().post('/api/auth/register', { email: 'shortpw@example.test', password: 'Zx9!q', firstName: 'S', lastName: 'P', username: 'shortpw' });
      expect(short.status).to.equal(400);
      expect(short.body.message).to.include('Password must be at least 6 characters long.');
      const fine = await app.client().post('/api/auth/register', { email: 'finepw@example.test', password: 'Zx9!qK', firstName: 'F', lastName: 'P', username: 'finepw' });
      expect(fine.status, fine.text).to.equal(201);
    });

    it('the most common passwords are refused at password change', async () => {
      const u = await app.user();
      const accepted: string[] = [];
      for (const pw of COMMON.slice(0, 12)) {
        const r = await u.put('/api/user/password', { currentPassword: u.me.password, newPassword: pw });
        if (r.status !== 400) accepted.push(`${pw} → ${r.status}`);
      }
      expect(accepted).to.deep.equal([]);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(200);
    });

    it('an unknown email and a wrong password get identical answers, and both do the hashing work', async () => {
      const known = await app.user();
      const strip = (h: Headers) => [...h.entries()].filter(([k]) => !['date', 'x-request-id'].includes(k)).sort();
      const send = async (email: string) => {
        const t = process.hrtime.bigint();
        const r = await app.client().post('/api/auth/login', { email, password: 'Not-the-password-1' });
        return { r, ms: Number(process.hrtime.bigint() - t) / 1e6 };
      };
      const wrong = await send(known.me.email);
      const unknown = await send(`nobody-${Date.now()}@example.test`);
      expect(wrong.r.status).to.equal(401);
      expect(unknown.r.status).to.equal(401);
      expect(unknown.r.text).to.equal(wrong.r.text);
      expect(strip(unknown.r.headers)).to.deep.equal(strip(wrong.r.headers));
      // Timing: both verify an argon2 hash (medians of a few tries; loose bound, the machine is shared).
      const times = { wrong: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 5; i++) {
        times.wrong.push((await send(known.me.email)).ms);
        times.unknown.push((await send(`nobody-${i}-${Date.now()}@example.test`)).ms);
      }
      const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
      expect(median(times.unknown), `unknown ${times.unknown} vs wrong ${times.wrong} ms`).to.be.above(median(times.wrong) * 0.3);
    });
  });
});
