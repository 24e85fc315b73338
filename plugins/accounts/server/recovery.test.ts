import { expect } from 'chai';
import { startTestApp, uniqueName, type TestApp } from '../../../core/testing/index.ts';
import { startSmtpServer, type TestSmtp, type ReceivedMail } from '../../../core/testing/smtp.ts';
import { INVALID_RESET, INVALID_VERIFY, RESET_REQUESTED } from './routes-recovery.ts';
import { NOT_VERIFIED } from './recovery.ts';
import { makeCommunity, meetupBody } from '../../events/server/test-helpers.ts';

const tokenFrom = (m: ReceivedMail, path: string) => {
  const link = m.links().find((l) => new URL(l).pathname === path);
  expect(link, `a ${path} link in:\n${m.text}`).to.be.a('string');
  return new URL(link!).searchParams.get('token')!;
};

describe('accounts: password reset and email confirmation (real SMTP)', function () {
  let smtp: TestSmtp;
  let app: TestApp;
  before(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ smtpUrl: smtp.url, plugins: { disabled: [], config: { accounts: { signupThrottle: { perIpPerHour: 1000000 }, recoveryThrottle: { resetPerIpPerHour: 1000 } } } } });
  });
  after(async () => {
    await app?.close();
    await smtp?.close();
  });

  describe('password reset', () => {
    it('answers the same for a known and an unknown address, and emails only the known one', async () => {
      const u = await app.user();
      const anon = app.client();
      const known = await anon.post('/api/auth/password-reset', { email: u.me.email });
      const unknown = await anon.post('/api/auth/password-reset', { email: `${uniqueName('nobody')}@example.test` });
      expect(known.status).to.equal(200);
      expect(unknown.status).to.equal(200);
      expect(known.body).to.deep.equal(unknown.body);
      expect(known.body.message).to.equal(RESET_REQUESTED);
      const m = await smtp.waitFor(u.me.email, (x) => /reset/i.test(x.subject));
      expect(m.subject).to.equal('Reset your Curio password');
      expect(m.html).to.contain('/auth/reset?token=');
      const token = tokenFrom(m, '/auth/reset');
      expect(Buffer.from(token, 'base64url')).to.have.length(32);
      // only the hash is stored
      const stored = await app.knex('accounts_email_tokens').where({ user_id: u.me.id, purpose: 'reset' }).pluck('token_hash');
      expect(stored).to.have.length(1);
      expect(stored[0]).to.not.contain(token);
      expect(stored[0]).to.match(/^[0-9a-f]{64}$/);
    });

    it('sets the password once, ends every session and signs in; the old password stops working', async () => {
      const u = await app.user();
      const otherDevice = app.client();
      expect((await otherDevice.post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(200);
      await app.client().post('/api/auth/password-reset', { email: u.me.email });
      const token = tokenFrom(await smtp.waitFor(u.me.email, (x) => /reset/i.test(x.subject)), '/auth/reset');

      const browser = app.client();
      const weak = await browser.post('/api/auth/password-reset/confirm', { token, newPassword: 'password' });
      expect(weak.status).to.equal(400);
      expect(weak.body.errors[0].path).to.equal('/newPassword');

      const ok = await browser.post('/api/auth/password-reset/confirm', { token, newPassword: 'a-brand-new-passphrase-9' });
      expect(ok.status).to.equal(200);
      expect(ok.body.id).to.equal(u.me.id);
      expect((await browser.get('/api/auth/user')).status).to.equal(200);
      expect((await u.get('/api/auth/user')).status).to.equal(401);
      expect((await otherDevice.get('/api/auth/user')).status).to.equal(401);

      const again = await app.client().post('/api/auth/password-reset/confirm', { token, newPassword: 'yet-another-passphrase-3' });
      expect(again.status).to.equal(400);
      expect(again.body.message).to.equal(INVALID_RESET);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: u.me.password })).status).to.equal(401);
      expect((await app.client().post('/api/auth/login', { email: u.me.email, password: 'a-brand-new-passphrase-9' })).status).to.equal(200);
    });

    it('a new request ends the previous link; an expired link is refused; two uses at once succeed once', async () => {
      const u = await app.user();
      await app.client().post('/api/auth/password-reset', { email: u.me.email });
      const first = tokenFrom(await smtp.waitFor(u.me.email, (x) => /reset/i.test(x.subject)), '/auth/reset');
      await app.client().post('/api/auth/password-reset', { email: u.me.email });
      const second = tokenFrom(await smtp.waitFor(u.me.email, (x) => /reset/i.test(x.subject) && !x.text.includes(first)), '/auth/reset');
      expect(second).to.not.equal(first);
      expect((await app.client().post('/api/auth/password-reset/confirm', { token: first, newPassword: 'a-brand-new-passphrase-9' })).status).to.equal(400);

      const results = await Promise.all([1, 2, 3].map((i) => app.client().post('/api/auth/password-reset/confirm', { token: second, newPassword: `concurrent-passphrase-${i}x` })));
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 400, 400]);

      await app.client().post('/api/auth/password-reset', { email: u.me.email });
      const third = tokenFrom(await smtp.waitFor(u.me.email, (x) => /reset/i.test(x.subject) && !x.text.includes(first) && !x.text.includes(second)), '/auth/reset');
      await app.knex('accounts_email_tokens').where({ user_id: u.me.id, purpose: 'reset' }).whereNull('used_at').update({ expires_at: new Date(Date.now() - 1000) });
      expect((await app.client().post('/api/auth/password-reset/confirm', { token: third, newPassword: 'a-brand-new-passphrase-9' })).body.message).to.equal(INVALID_RESET);
    });

    it('throttles requests per address exactly, even concurrent ones, with Retry-After', async () => {
      const email = `${uniqueName('flood')}@example.test`;
      const results = await Promise.all(Array.from({ length: 9 }, () => app.client().post('/api/auth/password-reset', { email })));
      expect(results.filter((r) => r.status === 200)).to.have.length(5);
      const refused = results.filter((r) => r.status === 429);
      expect(refused).to.have.length(4);
      expect(Number(refused[0].headers.get('retry-after'))).to.be.within(1, 3600);
      expect(refused[0].body.message).to.match(/^Too many password reset requests for this address\. Please try again in \d+ minutes?\.$/);
    });

    it('throttles requests per IP address exactly (behind a trusted proxy), whatever the addresses asked for', async () => {
      const own = await startTestApp({ smtpUrl: smtp.url, trustProxy: 1, logLevel: 'silent', plugins: { disabled: [], config: { accounts: { recoveryThrottle: { resetPerIpPerHour: 4 } } } } });
      try {
        const from = (ip: string, i: number) => own.client().post('/api/auth/password-reset', { email: `${uniqueName(`ip${i}`)}@example.test` }, { 'x-forwarded-for': ip });
        const results = await Promise.all(Array.from({ length: 7 }, (_, i) => from('198.51.100.77', i)));
        expect(results.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 429, 429, 429]);
        expect(results.find((r) => r.status === 429)!.body.message).to.match(/^Too many password reset requests from your network\./);
        // another network is not held back
        expect((await from('198.51.100.78', 99)).status).to.equal(200);
      } finally {
        await own.close();
      }
    });

    it('refuses bad input with a clear message', async () => {
      const c = app.client();
      expect((await c.post('/api/auth/password-reset', { email: 'not-an-email' })).status).to.equal(400);
      expect((await c.post('/api/auth/password-reset/confirm', { token: 'x'.repeat(43) , newPassword: 'whatever-long-9' })).body.message).to.equal(INVALID_RESET);
      expect((await c.post('/api/auth/password-reset/confirm', { newPassword: 'whatever-long-9' })).status).to.equal(400);
    });
  });

  it('stores the member’s time zone and email language from the browser', async () => {
    const u = await app.user();
    expect((await u.put('/api/user/contact-settings', { timeZone: 'Mars/Olympus' })).status).to.equal(400);
    expect((await u.put('/api/user/contact-settings', { timeZone: 'Asia/Tokyo', locale: 'fr' })).status).to.equal(200);
    expect(await app.knex('users').where({ id: u.me.id }).first('time_zone', 'locale')).to.deep.equal({ time_zone: 'Asia/Tokyo', locale: 'fr' });
    expect((await app.client().put('/api/user/contact-settings', { locale: 'en' })).status).to.equal(401);
  });

  describe('email confirmation', () => {
    it('sends a link at sign-up (in the browser’s language); the address is confirmed once', async () => {
      const c = app.client();
      const username = uniqueName();
      const email = `${username}@example.test`;
      const r = await c.post('/api/auth/register', { email, password: 'correct-horse-42', firstName: 'Zoé', lastName: 'Test', username }, { 'accept-language': 'fr-FR,fr;q=0.9' });
      expect(r.status).to.equal(201);
      expect(r.body.emailVerified).to.equal(false);
      const m = await smtp.waitFor(email);
      expect(m.subject).to.equal('Confirmez votre adresse e-mail');
      expect(m.text).to.contain('Bonjour Zoé,');
      const token = tokenFrom(m, '/auth/verify');
      expect((await app.client().post('/api/auth/verify-email', { token })).status).to.equal(200);
      expect((await c.get('/api/auth/user')).body.emailVerified).to.equal(true);
      const again = await app.client().post('/api/auth/verify-email', { token });
      expect(again.status).to.equal(400);
      expect(again.body.message).to.equal(INVALID_VERIFY);
    });

    it('resends a link (the earlier one stops working); throttled', async () => {
      const u = await app.user({ verified: false });
      const first = tokenFrom(await smtp.waitFor(u.me.email), '/auth/verify');
      const r = await u.post('/api/user/email/verification');
      expect(r.status).to.equal(200);
      const second = tokenFrom(await smtp.waitFor(u.me.email, (m) => !m.text.includes(first)), '/auth/verify');
      expect((await app.client().post('/api/auth/verify-email', { token: first })).status).to.equal(400);
      expect((await app.client().post('/api/auth/verify-email', { token: second })).status).to.equal(200);
      expect((await u.post('/api/user/email/verification')).body.message).to.equal('Your email address is already confirmed.');
      const v = await app.user({ verified: false });
      const codes = [];
      for (let i = 0; i < 6; i++) codes.push((await v.post('/api/user/email/verification')).status);
      expect(codes).to.deep.equal([200, 200, 200, 200, 200, 429]);
    });

    it('changing the email needs the password, tells the old address and asks to confirm the new one', async () => {
      const u = await app.user();
      const newEmail = `${uniqueName('new')}@example.test`;
      const wrong = await u.put('/api/user/email', { email: newEmail, currentPassword: 'not-my-password' });
      expect(wrong.status).to.equal(400);
      expect(wrong.body.errors[0].path).to.equal('/currentPassword');
      const other = await app.user();
      expect((await u.put('/api/user/email', { email: other.me.email, currentPassword: u.me.password })).status).to.equal(409);

      const r = await u.put('/api/user/email', { email: newEmail, currentPassword: u.me.password });
      expect(r.status).to.equal(200);
      expect(r.body.email).to.equal(newEmail);
      expect(r.body.emailVerified).to.equal(false);
      const notice = await smtp.waitFor(u.me.email, (m) => m.subject === 'Your Curio email address was changed');
      expect(notice.subject).to.equal('Your Curio email address was changed');
      expect(notice.text).to.not.contain(newEmail); // masked
      // "not you?" leads to the forgot-password page (a web route), not the sign-in page
      expect(notice.text).to.match(/http:\/\/[^\s]+\/auth\/forgot\b/);
      const token = tokenFrom(await smtp.waitFor(newEmail), '/auth/verify');
      expect((await app.client().post('/api/auth/verify-email', { token })).status).to.equal(200);
      expect((await u.get('/api/auth/user')).body.emailVerified).to.equal(true);
    });

    it('an unconfirmed member may not create a community (403 with a clear message)', async () => {
      const u = await app.user({ verified: false, role: 'Ambassador' });
      const r = await u.post('/api/communities', { name: uniqueName('Club '), description: 'A community for tests' });
      expect(r.status).to.equal(403);
      expect(r.body.message).to.equal(NOT_VERIFIED);
    });

    it('nor a meetup: a creator whose new address is unconfirmed is refused until confirming it', async () => {
      const u = await app.user({ role: 'Ambassador' });
      const community = await makeCommunity(u);
      expect((await u.post(`/api/communities/${community}/meetups`, meetupBody())).status).to.equal(201);
      const newEmail = `${uniqueName('moved')}@example.test`;
      expect((await u.put('/api/user/email', { email: newEmail, currentPassword: u.me.password })).status).to.equal(200);
      const refused = await u.post(`/api/communities/${community}/meetups`, meetupBody());
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal(NOT_VERIFIED);
      const token = tokenFrom(await smtp.waitFor(newEmail), '/auth/verify');
      expect((await u.post('/api/auth/verify-email', { token })).status).to.equal(200);
      expect((await u.post(`/api/communities/${community}/meetups`, meetupBody())).status).to.equal(201);
    });
  });
});
