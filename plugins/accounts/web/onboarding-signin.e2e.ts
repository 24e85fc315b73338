/**
 * Issue 21, the onboarding and signing in again (after-sign-in.ts), in Chromium: a member who left
 * the onboarding at step 2 signs out, signs in (with the keyboard alone) and is back on /welcome at
 * step 2, told so, the focus on the step's heading; a member who finished or skipped it lands on
 * Home; a sign-in carrying a page to go to (`/auth?next=/museum/x`) lands there, and Home's notice
 * still offers the rest; a password reset (real SMTP, in French) is a sign-in too.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, waitForText, expectAxeClean, WCAG21, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { startSmtpServer, type TestSmtp } from '../../../core/testing/smtp.ts';
import { MuseumsService } from '../../museums/public.ts';

describe('accounts: signing in again resumes an unfinished onboarding (issue 21)', function () {
  this.timeout(180000);
  let app: TestApp;
  let smtp: TestSmtp;
  let browser: Browser;
  let museum: { slug: string; name: string };

  before(async () => {
    smtp = await startSmtpServer();
    app = await startE2EApp({ smtpUrl: smtp.url });
    browser = await launchBrowser();
    const m = await app.services
      .get(MuseumsService)
      .createMuseum({ name: 'Musée Carnavalet', address: '23 Rue de Sévigné', city: 'Paris', country: 'France', description: 'The history of Paris', category: 'History Museums', latitude: 48.857, longitude: 2.362 } as any, null);
    museum = { slug: m.slug, name: m.name };
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
  });

  async function newPage(locale: 'en' | 'fr' = 'en', width = 1366): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height: width < 500 ? 844 : 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    return page;
  }
  const waitPath = (page: Page, p: string) => page.waitForFunction((x) => location.pathname === x, { timeout: 20000 }, p);
  const onboardingOf = (page: Page) => page.evaluate(() => fetch('/api/user/onboarding').then((r) => r.json()));

  /** The sign-in form, filled and sent with the keyboard alone. */
  async function signIn(page: Page, email: string, password: string, path = '/auth') {
    await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#acc-signin-form-email', { visible: true });
    await page.focus('#acc-signin-form-email');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
  }

  const axe = (page: Page, what: string) => expectAxeClean(page, what, { tags: [...WCAG21, 'wcag22aa'] });

  it('left at step 2, signed out, signed in again: back on /welcome at step 2, told so, the focus on the heading', async function () {
    const page = await newPage('en', 1366);
    const username = uniqueName('onbr');
    const email = `${username}@example.com`;
    const password = 'Quiet-museum-walks-42';
    await page.goto(`${app.url}/auth?tab=register`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#acc-register-form-firstName', { visible: true });
    await page.type('#acc-register-form-firstName', 'Rita');
    await page.type('#acc-register-form-lastName', 'Returner');
    await page.type('#acc-register-form-username', username);
    await page.type('#acc-register-form-email', email);
    await page.type('#acc-register-form-password', password);
    await clickWhenReady(page, '#acc-register-form button[type="submit"]');
    await waitPath(page, '/welcome');
    await waitForText(page, 'Step 1 of 3');
    // no "welcome back" for a new member
    expect(await page.$('[data-testid="acc-onb-resumed"]')).to.equal(null);
    await page.waitForSelector('[data-testid="acc-onb-next"]:not([disabled])');
    await page.$eval('[data-testid="acc-onb-next"]', (b) => (b as HTMLElement).click());
    await waitForText(page, 'Step 2 of 3');
    await page.waitForFunction(async () => (await fetch('/api/user/onboarding').then((r) => r.json())).step === 1, { timeout: 20000 });

    // signs out from the top bar's menu, half-way
    await page.waitForSelector('.curio-user-button', { visible: true });
    await clickWhenReady(page, '.curio-user-button');
    await page.waitForFunction(() => [...document.querySelectorAll('.curio-user-menu__item')].some((b) => (b as HTMLElement).innerText.trim() === 'Sign out'), { timeout: 20000 });
    await page.evaluate(() => ([...document.querySelectorAll('.curio-user-menu__item')].find((b) => (b as HTMLElement).innerText.trim() === 'Sign out') as HTMLElement).click());
    await waitForText(page, 'You have been successfully signed out.');
    await waitPath(page, '/');

    await signIn(page, email, password);
    await waitPath(page, '/welcome');
    await waitForText(page, 'Step 2 of 3');
    await waitForText(page, 'Your home city');
    await page.waitForSelector('[data-testid="acc-onb-resumed"]');
    expect(await page.$eval('[data-testid="acc-onb-resumed"]', (e) => (e as HTMLElement).innerText.trim())).to.equal(
      'Welcome back! You were setting up your account: pick up where you left off, or skip for now.',
    );
    // a screen reader hears the step's heading and why it is here
    await page.waitForFunction(() => document.activeElement?.id === 'acc-onb-heading', { timeout: 10000 });
    expect(await page.$eval('#acc-onb-heading', (h) => h.getAttribute('aria-describedby'))).to.equal('acc-onb-resumed');
    expect(await page.$eval('.acc-onboarding-steps [aria-current="step"]', (e) => (e as HTMLElement).innerText.trim())).to.equal('Your home city');
    expect(await onboardingOf(page)).to.include({ status: 'started', step: 1 });
    await axe(page, '/welcome after signing in');

    // finishing from here goes Home, and the next sign-in stays there
    await page.waitForSelector('[data-testid="acc-onb-next"]:not([disabled])');
    await page.$eval('[data-testid="acc-onb-next"]', (b) => (b as HTMLElement).click());
    await page.waitForSelector('[data-testid="acc-onb-finish"]:not([disabled])', { timeout: 20000 });
    await page.$eval('[data-testid="acc-onb-finish"]', (b) => (b as HTMLElement).click());
    await waitPath(page, '/');
    expect((await onboardingOf(page)).status).to.equal('done');
    await page.browserContext().close();
  });

  for (const status of ['done', 'skipped'] as const) {
    it(`a member who ${status === 'done' ? 'finished' : 'skipped'} the onboarding lands on Home`, async function () {
      const me: SignedInClient = await app.user();
      expect((await me.put('/api/user/onboarding', { status, step: 1 })).status).to.equal(200);
      const page = await newPage('en', 390);
      await signIn(page, me.me.email, me.me.password);
      await waitForText(page, 'Welcome back!');
      await waitPath(page, '/');
      // Home itself (its feed), not a stop on the way
      await waitForText(page, 'Welcome to');
      expect(await page.evaluate(() => location.pathname)).to.equal('/');
      expect(await page.$('[data-testid="acc-onboarding-resume"]')).to.equal(null);
      expect((await onboardingOf(page)).status).to.equal(status);
      await page.browserContext().close();
    });
  }

  it('a sign-in from /auth?next=/museum/x lands on the museum; Home still offers to finish', async function () {
    const me: SignedInClient = await app.user();
    expect((await me.put('/api/user/onboarding', { status: 'started', step: 1 })).status).to.equal(200);
    const page = await newPage('en', 1366);
    await signIn(page, me.me.email, me.me.password, `/auth?next=${encodeURIComponent(`/museum/${museum.slug}`)}`);
    await waitPath(page, `/museum/${museum.slug}`);
    await waitForText(page, museum.name);
    expect(await page.evaluate(() => location.pathname)).to.equal(`/museum/${museum.slug}`);
    // Home: the notice, whose Continue resumes at step 2
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="acc-onboarding-resume"] a', { timeout: 20000 });
    await page.$eval('[data-testid="acc-onboarding-resume"] a', (a) => (a as HTMLElement).click());
    await waitPath(page, '/welcome');
    await waitForText(page, 'Step 2 of 3');
    expect(await page.$('[data-testid="acc-onb-resumed"]')).to.equal(null);
    await page.browserContext().close();
  });

  it('a password reset signs in too: back on /welcome at the step left (in French)', async function () {
    const me: SignedInClient = await app.user();
    expect((await me.put('/api/user/onboarding', { status: 'started', step: 2 })).status).to.equal(200);
    expect((await app.client().post('/api/auth/password-reset', { email: me.me.email })).status).to.equal(200);
    const mail = await smtp.waitFor(me.me.email, (m) => m.links().some((l) => l.includes('/auth/reset?token=')));
    const link = mail.links().find((l) => l.includes('/auth/reset?token='))!;
    const page = await newPage('fr', 390);
    await page.goto(link, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#acc-reset-form-newPassword', { visible: true });
    await page.type('#acc-reset-form-newPassword', 'a-fresh-start-2026');
    await page.keyboard.press('Enter');
    await waitPath(page, '/welcome');
    await waitForText(page, 'Étape 3 sur 3');
    await waitForText(page, "Bon retour ! Vous configuriez votre compte : reprenez où vous en étiez, ou passez pour l'instant.");
    await page.waitForFunction(() => document.activeElement?.id === 'acc-onb-heading', { timeout: 10000 });
    await axe(page, '/welcome after a password reset (fr)');
    await page.browserContext().close();
  });
});
