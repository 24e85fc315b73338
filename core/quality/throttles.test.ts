/**
 * Throttles that hold under concurrency and behind a proxy (issue 14, findings 1, 4 and 11), on one
 * app process (PostgreSQL or the embedded database; the two-process versions are in
 * multiprocess.test.ts):
 *  - N ≥ 100 concurrent wrong passwords (sign-in, and the current-password check of a password
 *    change) are checked at most the limit's number of times, the rest answer 429, and afterwards
 *    even the right password is refused;
 *  - 100 concurrent sign-ups from one address create at most the hourly limit's accounts;
 *  - refused sign-ups ("An account with this email already exists") are limited per address too;
 *  - behind trusted proxies, the client address is counted from the right of X-Forwarded-For, so
 *    forged left-most entries do not escape the limits.
 */
import { expect } from 'chai';
import { ConfigError, loadConfig, proxyHops } from '../config.ts';
import { startTestApp, uniqueName, type TestApp, type TestResponse } from '../testing/index.ts';

const LOGIN_LIMITS = {
  failuresPerAccountAndIp: 5,
  accountAndIpBlockMinutes: 15,
  failuresPerIpPerDay: 10_000,
  failuresPerAccount: 8,
  accountWindowMinutes: 60,
  accountBlockMinutes: 5,
};
const SIGNUP_LIMITS = { perIpPerHour: 30, failuresPerIpPerHour: 200 };
const REFUSALS_LIMIT = 10;
const PASSWORD = 'correct-horse-42';
const INVALID_LOGIN = 'Invalid email or password';

function tally(rs: TestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

let n = 0;
/** A fresh client address for each call (documentation and private ranges). */
const nextIp = () => {
  n++;
  return `10.${(process.pid + Math.floor(n / 250)) % 250}.${n % 250}.${(Date.now() % 200) + 1}`;
};

async function startWith(trustProxy: boolean | number, loginThrottle = LOGIN_LIMITS, signupThrottle = SIGNUP_LIMITS): Promise<TestApp> {
  return startTestApp({ trustProxy, plugins: { disabled: [], config: { accounts: { loginThrottle, signupThrottle } } } });
}

describe('quality: throttles under concurrency (one process)', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => {
    app = await startWith(true);
  });
  after(async () => {
    await app?.close();
  });

  const post = (addr: string, path: string, body: unknown) => app.client().post(path, body, { 'x-forwarded-for': addr });
  const login = (addr: string, email: string, password: string) => post(addr, '/api/auth/login', { email, password });

  async function member() {
    const username = uniqueName('th');
    const email = `${username}@example.test`;
    const r = await post(nextIp(), '/api/auth/register', { email, password: PASSWORD, firstName: 'T', lastName: 'H', username });
    expect(r.status, r.text).to.equal(201);
    return { email, username };
  }

  it('100 concurrent wrong passwords for one account from one address: at most the limit are checked, the rest 429, then the right password is refused', async () => {
    const m = await member();
    const addr = nextIp();
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => login(addr, m.email, `wrong-password-${i}`)));
    const t = tally(rs);
    expect(Object.keys(t).sort(), JSON.stringify(t)).to.deep.equal(['401', '429'].filter((s) => t[Number(s)]));
    expect(t[401] ?? 0, `checked passwords (${JSON.stringify(t)})`).to.be.within(1, LOGIN_LIMITS.failuresPerAccountAndIp);
    expect(rs.filter((r) => r.status === 401).every((r) => r.body.message === INVALID_LOGIN)).to.equal(true);
    // refused while the last checks ran: told to wait the block (15 minutes) at most, not the day's window
    for (const r of rs.filter((x) => x.status === 429)) {
      expect(r.body.message).to.match(/^Too many failed sign-in attempts\. Please try again in (\d+) minutes?\.$/);
      expect(Number(r.headers.get('retry-after'))).to.be.within(1, LOGIN_LIMITS.accountAndIpBlockMinutes * 60);
    }
    const after = await login(addr, m.email, PASSWORD);
    expect(after.status, 'the right password after the limit').to.equal(429);
    expect(Number(after.headers.get('retry-after'))).to.be.above(0);
  });

  it('100 concurrent wrong passwords for one account from 100 addresses: at most the per-account limit are checked', async () => {
    const m = await member();
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => login(nextIp(), m.email, `wrong-password-${i}`)));
    const t = tally(rs);
    expect((t[401] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(100);
    expect(t[401] ?? 0, `checked passwords (${JSON.stringify(t)})`).to.be.within(1, LOGIN_LIMITS.failuresPerAccount);
    expect((await login(nextIp(), m.email, PASSWORD)).status, 'the right password from a new device after the limit').to.equal(429);
  });

  it('a success gives its point back: the limit counts failures only', async () => {
    const m = await member();
    const addr = nextIp();
    // 2 failures, 3 right passwords at once, 4 failures, 1 right password: 6 failures for the
    // account (limit 8) and 4 successes whose points are given back (spent, they would block it)
    for (let i = 0; i < 2; i++) expect((await login(addr, m.email, 'wrong-password')).status).to.equal(401);
    const ok = await Promise.all(Array.from({ length: 3 }, () => login(addr, m.email, PASSWORD)));
    expect(ok.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    for (let i = 0; i < 4; i++) expect((await login(addr, m.email, 'wrong-password')).status).to.equal(401);
    expect((await login(addr, m.email, PASSWORD)).status).to.equal(200);
    expect((await login(nextIp(), m.email, PASSWORD)).status, 'from another address too').to.equal(200);
  });

  it("100 concurrent wrong current passwords on PUT /api/user/password: at most the limit are checked, then the right one is refused", async () => {
    const u = await app.user();
    const addr = nextIp();
    const change = (currentPassword: string) => u.req('PUT', '/api/user/password', { currentPassword, newPassword: 'another-sturdy-phrase-81' }, { 'x-forwarded-for': addr });
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => change(`wrong-password-${i}`)));
    const t = tally(rs);
    expect((t[400] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(100);
    expect(t[400] ?? 0, `checked passwords (${JSON.stringify(t)})`).to.be.within(1, LOGIN_LIMITS.failuresPerAccountAndIp);
    expect(rs.filter((r) => r.status === 400).every((r) => r.body.message === 'Current password is incorrect.')).to.equal(true);
    const right = await change(u.me.password);
    expect(right.status, 'the right current password after the limit').to.equal(429);
    // the password did not change
    expect((await login(nextIp(), u.me.email, u.me.password)).status).to.equal(200);
  });

  it('100 concurrent sign-ups from one address create at most the hourly limit of accounts', async () => {
    const addr = nextIp();
    const prefix = uniqueName('sf');
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(addr, '/api/auth/register', { email: `${prefix}x${i}@example.test`, password: PASSWORD, firstName: 'S', lastName: 'F', username: `${prefix}x${i}` })),
    );
    const t = tally(rs);
    expect((t[201] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(100);
    expect(t[201] ?? 0, `accounts created (${JSON.stringify(t)})`).to.be.within(1, SIGNUP_LIMITS.perIpPerHour);
    const [{ c }] = await app.knex('users').where('username', 'like', `${prefix}x%`).count({ c: '*' });
    expect(Number(c), 'accounts in the database').to.equal(t[201]);
    const refused = rs.find((r) => r.status === 429)!;
    expect(refused.body.message).to.match(/^Too many accounts were created from your network\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
  });

  it('refused sign-ups count against a per-address limit: an email taken is told at most that many times', async () => {
    // an app of its own, whose limit on refusals is below the 40 attempts
    const own = await startWith(true, LOGIN_LIMITS, { ...SIGNUP_LIMITS, failuresPerIpPerHour: REFUSALS_LIMIT });
    try {
      const addr = nextIp();
      const register = (email: string, username: string, from = addr) =>
        own.client().post('/api/auth/register', { email, password: PASSWORD, firstName: 'E', lastName: 'N', username }, { 'x-forwarded-for': from });
      const taken = `${uniqueName('en')}@example.test`;
      expect((await register(taken, uniqueName('en'), nextIp())).status).to.equal(201);
      const sequential: TestResponse[] = [];
      for (let i = 0; i < 5; i++) sequential.push(await register(taken, uniqueName(`en${i}`)));
      expect(sequential.map((r) => r.status)).to.deep.equal([409, 409, 409, 409, 409]);
      expect(sequential[0].body.message).to.equal('An account with this email already exists');
      const rs = await Promise.all(Array.from({ length: 40 }, (_, i) => register(taken, uniqueName(`en${100 + i}`))));
      const t = tally(rs);
      expect((t[409] ?? 0) + (t[429] ?? 0), JSON.stringify(t)).to.equal(40);
      expect(t[409] ?? 0, `refusals told (${JSON.stringify(t)})`).to.be.within(1, REFUSALS_LIMIT - 5);
      const refused = rs.find((r) => r.status === 429)!;
      expect(refused.body.message).to.match(/^Too many sign-up attempts from your network\. Please try again in \d+ minutes?\.$/);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
      // another address is told as before
      expect((await register(taken, uniqueName('en'), nextIp())).status).to.equal(409);
    } finally {
      await own.close();
    }
  });
});

describe('quality: trusted proxy hops (TRUST_PROXY)', function () {
  this.timeout(300_000);

  it('TRUST_PROXY is a number of hops; true is one, false and 0 none; anything else stops the start', () => {
    const env = (v: string) => ({ NODE_ENV: 'test', TRUST_PROXY: v });
    expect(proxyHops(loadConfig({}, env('1')))).to.equal(1);
    expect(proxyHops(loadConfig({}, env('true')))).to.equal(1);
    expect(proxyHops(loadConfig({}, env('2')))).to.equal(2);
    expect(proxyHops(loadConfig({}, env('false')))).to.equal(0);
    expect(proxyHops(loadConfig({}, env('0')))).to.equal(0);
    expect(proxyHops(loadConfig({}, { NODE_ENV: 'test' }))).to.equal(0);
    expect(() => loadConfig({}, env('yes please'))).to.throw(ConfigError, /trustProxy/);
    expect(() => loadConfig({}, env('-1'))).to.throw(ConfigError, /trustProxy/);
  });

  for (const [hops, label] of [
    [true, 'TRUST_PROXY=true (one hop)'],
    [2, 'TRUST_PROXY=2'],
  ] as const) {
    it(`${label}: forged left-most X-Forwarded-For entries still hit the sign-in limit; other clients are counted apart`, async () => {
      // the default per-account limit (50) is above the 30 attempts: only the per-address limit can stop them
      const app = await startWith(hops, { ...LOGIN_LIMITS, failuresPerAccount: 50 });
      try {
        const username = uniqueName('px');
        const email = `${username}@example.test`;
        expect((await app.client().post('/api/auth/register', { email, password: PASSWORD, firstName: 'P', lastName: 'X', username })).status).to.equal(201);
        const client = '203.0.113.7';
        const proxies = hops === 2 ? ', 10.0.0.2' : ''; // what the trusted proxies append
        const statuses: number[] = [];
        for (let i = 0; i < 30; i++) {
          const xff = `198.51.100.${i + 1}, ${client}${proxies}`; // the client wrote the first entry
          statuses.push((await app.client().post('/api/auth/login', { email, password: `wrong-password-${i}` }, { 'x-forwarded-for': xff })).status);
        }
        const limit = LOGIN_LIMITS.failuresPerAccountAndIp;
        expect(statuses).to.deep.equal([...Array(limit).fill(401), ...Array(30 - limit).fill(429)]);
        // another client behind the same proxies is its own address
        const other = await app.client().post('/api/auth/login', { email, password: PASSWORD }, { 'x-forwarded-for': `203.0.113.8${proxies}` });
        expect(other.status, other.text).to.equal(200);
        // the sign-in's session records the address taken from the right
        const sessions = await app.knex('user_sessions').where({ user_id: other.body.id }).select('ip');
        expect(sessions.map((s) => s.ip)).to.include('203.0.113.8');
      } finally {
        await app.close();
      }
    });
  }
});
