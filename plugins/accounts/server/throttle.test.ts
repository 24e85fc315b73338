import { expect } from 'chai';
import { startTestApp, uniqueName, type TestApp, type TestClient } from '../../../core/testing/index.ts';
import { LIMITS_TABLE } from './throttle.ts';

/**
 * Login throttling on an app of its own (so its blocks never reach other tests), behind a trusted
 * proxy so that each client can come from its own address (X-Forwarded-For), with small limits.
 */
describe('accounts: login throttling', function () {
  this.timeout(90_000);
  let app: TestApp;
  let origin: string;
  before(async () => {
    app = await startTestApp({
      trustProxy: true,
      plugins: {
        disabled: [],
        config: {
          accounts: {
            loginThrottle: {
              failuresPerAccountAndIp: 4,
              accountAndIpBlockMinutes: 15,
              failuresPerIpPerDay: 12,
              failuresPerAccount: 8,
              accountWindowMinutes: 60,
              accountBlockMinutes: 5,
            },
            signupThrottle: { perIpPerHour: 3 },
          },
        },
      },
    });
    origin = app.url.replace('http:', 'https:');
  });
  after(async () => {
    await app?.close();
  });

  /** A client behind the proxy at address `ip` (TLS ended at the proxy). */
  function from(ip: string): TestClient & { login(email: string, password: string): Promise<any> } {
    const c = app.client() as any;
    c.origin = origin;
    c.login = (email: string, password: string) => c.post('/api/auth/login', { email, password }, { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' });
    return c;
  }

  let n = 0;
  const ip = () => `10.${Math.floor(++n / 250) % 250}.${n % 250}.${(Date.now() % 200) + 1}`;

  async function member() {
    const c = from(ip());
    const username = uniqueName();
    const email = `${username}@example.test`;
    const password = 'correct-horse-42';
    const r = await c.post('/api/auth/register', { email, password, firstName: 'T', lastName: 'U', username }, { 'x-forwarded-for': ip(), 'x-forwarded-proto': 'https' });
    expect(r.status, r.text).to.equal(201);
    return { email, password, id: r.body.id as number };
  }

  it('sets a Secure session cookie behind TLS', async () => {
    const m = await member();
    const c = from(ip());
    const res = await c.raw('POST', '/api/auth/login', {
      body: JSON.stringify({ email: m.email, password: m.password }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip(), 'x-forwarded-proto': 'https' },
    });
    expect(res.status).to.equal(200);
    const cookie = res.headers.getSetCookie().find((s) => s.startsWith('curio.sid='))!;
    expect(cookie).to.match(/;\s*secure/i).and.match(/httponly/i).and.match(/samesite=lax/i);
  });

  it('blocks an account from one address after N consecutive failures, with 429 and Retry-After', async () => {
    const m = await member();
    const c = from(ip());
    const addr = ip();
    c.login = (email: string, password: string) => c.post('/api/auth/login', { email, password }, { 'x-forwarded-for': addr, 'x-forwarded-proto': 'https' });
    for (let i = 0; i < 4; i++) expect((await c.login(m.email, 'wrong-password')).status).to.equal(401);
    const blocked = await c.login(m.email, m.password); // even the right password waits
    expect(blocked.status).to.equal(429);
    expect(blocked.body.message).to.match(/^Too many failed sign-in attempts\. Please try again in 15 minutes\.$/);
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).to.be.within(14 * 60, 15 * 60);
    // Another address is not affected; the owner can still sign in from it.
    expect((await from(ip()).login(m.email, m.password)).status).to.equal(200);
    // When the block ends, the owner signs in from the first address too.
    await app.knex(LIMITS_TABLE).where('key', 'like', `login_fail_account_ip:${m.email}|${addr}`).update({ expire: Date.now() - 1000 });
    expect((await c.login(m.email, m.password)).status).to.equal(200);
  });

  it('counts only consecutive failures: a success starts again', async () => {
    const m = await member();
    const addr = ip();
    const c = from(addr);
    c.login = (email: string, password: string) => c.post('/api/auth/login', { email, password }, { 'x-forwarded-for': addr, 'x-forwarded-proto': 'https' });
    for (let i = 0; i < 3; i++) expect((await c.login(m.email, 'wrong-password')).status).to.equal(401);
    expect((await c.login(m.email, m.password)).status).to.equal(200);
    for (let i = 0; i < 3; i++) expect((await c.login(m.email, 'wrong-password')).status).to.equal(401);
    expect((await c.login(m.email, m.password)).status).to.equal(200);
  });

  it('throttles unknown emails the same way (no enumeration through the limiter)', async () => {
    const addr = ip();
    const c = from(addr);
    c.login = (email: string, password: string) => c.post('/api/auth/login', { email, password }, { 'x-forwarded-for': addr, 'x-forwarded-proto': 'https' });
    const ghost = `${uniqueName()}@example.test`;
    for (let i = 0; i < 4; i++) expect((await c.login(ghost, 'wrong-password')).status).to.equal(401);
    expect((await c.login(ghost, 'wrong-password')).status).to.equal(429);
  });

  it('limits failures per address across accounts (per day)', async () => {
    const addr = ip();
    const c = from(addr);
    c.login = (email: string, password: string) => c.post('/api/auth/login', { email, password }, { 'x-forwarded-for': addr, 'x-forwarded-proto': 'https' });
    for (let i = 0; i < 12; i++) expect((await c.login(`${uniqueName()}@example.test`, 'wrong-password')).status).to.equal(401);
    const m = await member();
    const r = await c.login(m.email, m.password);
    expect(r.status).to.equal(429);
    expect(Number(r.headers.get('retry-after'))).to.be.within(23 * 3600, 24 * 3600);
  });

  it('a flood from many addresses blocks new devices briefly, never the owner’s own device', async () => {
    const m = await member();
    // The owner signed in on this device before: it carries the signed device cookie.
    const owner = from(ip());
    const ownerAddr = ip();
    owner.login = (email: string, password: string) => owner.post('/api/auth/login', { email, password }, { 'x-forwarded-for': ownerAddr, 'x-forwarded-proto': 'https' });
    expect((await owner.login(m.email, m.password)).status).to.equal(200);
    await owner.post('/api/logout', undefined, { 'x-forwarded-proto': 'https' });
    // 8 failures from 8 addresses (each below its own limit).
    for (let i = 0; i < 8; i++) expect((await from(ip()).login(m.email, 'wrong-password')).status).to.equal(401);
    const stranger = await from(ip()).login(m.email, m.password);
    expect(stranger.status, 'a new device waits').to.equal(429);
    expect(Number(stranger.headers.get('retry-after'))).to.be.within(4 * 60, 5 * 60);
    expect((await owner.login(m.email, m.password)).status, 'the owner is not locked out').to.equal(200);
    // After the short block, everyone can sign in again.
    await app.knex(LIMITS_TABLE).where('key', `login_fail_account:${m.email}`).update({ expire: Date.now() - 1000 });
    expect((await from(ip()).login(m.email, m.password)).status).to.equal(200);
  });

  it('keeps its counters in PostgreSQL', async () => {
    const m = await member();
    await from(ip()).login(m.email, 'wrong-password');
    const rows = await app.knex(LIMITS_TABLE).where('key', 'like', `%${m.email}%`);
    expect(rows.map((r) => r.key.split(':')[0]).sort()).to.deep.equal(['login_fail_account', 'login_fail_account_ip']);
    expect(rows.every((r) => r.points === 1)).to.equal(true);
  });
  it('limits the accounts created from one address per hour; mistakes cost nothing; other addresses go on', async () => {
    const addr = `192.0.2.${(Date.now() % 200) + 1}`;
    const c = from(addr);
    const register = (username: string, email = `${username}@example.test`) =>
      c.post('/api/auth/register', { email, password: 'correct-horse-42', firstName: 'S', lastName: 'U', username }, { 'x-forwarded-for': addr, 'x-forwarded-proto': 'https' });
    const first = uniqueName();
    expect((await register(first)).status).to.equal(201);
    // a refused form (the email is taken) is not an account created
    const dup = await register(uniqueName(), `${first}@example.test`);
    expect(dup.status, dup.text).to.equal(409);
    expect((await register(uniqueName())).status).to.equal(201);
    expect((await register(uniqueName())).status).to.equal(201);
    const refused = await register(uniqueName());
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.body.message).to.match(/^Too many accounts were created from your network\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
    // another address is not affected
    const other = from(ip());
    const ok = await other.post('/api/auth/register', { email: `${uniqueName()}@example.test`, password: 'correct-horse-42', firstName: 'S', lastName: 'U', username: uniqueName() }, { 'x-forwarded-for': ip(), 'x-forwarded-proto': 'https' });
    expect(ok.status, ok.text).to.equal(201);
  });
});
