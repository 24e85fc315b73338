/**
 * Account recovery in Chromium, with a real SMTP server: "Forgot password?" on /auth → the email
 * arrives → its link opens the reset page → a new password signs in here and ends the other
 * sessions. And the email confirmation banner: Resend → the link confirms → the banner goes.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp } from '../../../core/testing/index.ts';
import { startSmtpServer, type TestSmtp } from '../../../core/testing/smtp.ts';

describe('account recovery in the browser (real SMTP)', function () {
  let app: TestApp;
  let smtp: TestSmtp;
  let browser: Browser;
  let page: Page;

  before(async function () {
    smtp = await startSmtpServer();
    app = await startE2EApp({ smtpUrl: smtp.url });
    browser = await launchBrowser();
  });

  after(async function () {
    await browser?.close();
    await app?.close();
    await smtp?.close();
  });

  beforeEach(async function () {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 390, height: 844 });
  });

  afterEach(async function () {
    await page?.browserContext().close();
  });

  async function type(selector: string, text: string) {
    await page.waitForSelector(selector, { visible: true });
    await page.type(selector, text);
  }

  it('resets a forgotten password from the email link; the other sessions end', async function () {
    const u = await app.user();
    expect((await u.get('/api/auth/user')).status).to.equal(200);

    await page.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
    await clickWhenReady(page, '#acc-forgot-link');
    await page.waitForFunction(() => location.pathname === '/auth/forgot');
    await type('#acc-forgot-form-email', u.me.email);
    await clickWhenReady(page, '#acc-forgot-form button[type="submit"]');
    await page.waitForSelector('#acc-reset-sent');

    const mail = await smtp.waitFor(u.me.email, (m) => m.subject === 'Reset your Curio password');
    const link = mail.links().find((l) => l.includes('/auth/reset?token='))!;
    expect(link.startsWith(app.url)).to.equal(true);

    await page.goto(link, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Choose a new password');
    await type('#acc-reset-form-newPassword', 'a-fresh-start-2026');
    await clickWhenReady(page, '#acc-reset-form button[type="submit"]');
    await page.waitForFunction(() => location.pathname === '/', { timeout: 15000 });
    await waitForText(page, 'Password changed');

    // signed in here; the session from before the reset is gone
    const me = await page.evaluate(async () => (await fetch('/api/auth/user')).status);
    expect(me).to.equal(200);
    expect((await u.get('/api/auth/user')).status).to.equal(401);
    expect((await app.client().post('/api/auth/login', { email: u.me.email, password: 'a-fresh-start-2026' })).status).to.equal(200);

    // the link works once
    await page.goto(link, { waitUntil: 'networkidle0' });
    await type('#acc-reset-form-newPassword', 'another-fresh-start-7');
    await clickWhenReady(page, '#acc-reset-form button[type="submit"]');
    await waitForText(page, 'This password reset link is invalid or has expired');
  });

  it('an unconfirmed member sees the banner, resends the link and confirms', async function () {
    const u = await app.user({ verified: false });
    const first = await smtp.waitFor(u.me.email);
    expect(first.subject).to.equal('Confirm your email address');
    await signInPage(page, app, u);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#acc-verify-banner');
    await waitForText(page, 'you cannot create communities or meetups');
    // below the fixed top bar at every width, not under it (its first line was hidden there)
    for (const width of [320, 390, 1280]) {
      await page.setViewport({ width, height: 800 });
      const box = await page.evaluate(() => {
        const bar = document.querySelector('.curio-topbar')!.getBoundingClientRect();
        const banner = document.getElementById('acc-verify-banner')!.getBoundingClientRect();
        return { barBottom: bar.bottom, top: banner.top };
      });
      expect(box.top, `banner at ${width} px`).to.be.at.least(box.barBottom);
    }
    // as wide as Home's content container at each desktop breakpoint (it was 72rem wide at all of them)
    for (const width of [1100, 1280, 1440]) {
      await page.setViewport({ width, height: 800 });
      const edges = await page.evaluate(() => {
        const banner = document.getElementById('acc-verify-banner')!.getBoundingClientRect();
        const page = document.querySelector('#main-content .container:not(.acc-verify-banner-wrap)')!.getBoundingClientRect();
        return { banner: [Math.round(banner.left), Math.round(banner.right)], page: [Math.round(page.left), Math.round(page.right)] };
      });
      expect(edges.banner, `banner edges at ${width} px`).to.deep.equal(edges.page);
    }
    await page.setViewport({ width: 390, height: 844 });
    const resend = await page.waitForSelector('#acc-verify-banner button');
    await resend!.click();
    const second = await smtp.waitFor(u.me.email, (m) => m !== first);
    const link = second.links().find((l) => l.includes('/auth/verify?token='))!;
    await page.goto(link, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#acc-verify-done');
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.curio-nav, nav', { timeout: 15000 });
    expect(await page.$('#acc-verify-banner')).to.equal(null);
  });
});
