/**
 * The account journey in Chromium: register → sign out → sign in with Remember me → /sessions
 * shows a 30-day extended session → edit the profile → change the password → sign in again with
 * the new password → delete the account. Plus the landing page, the auth redirects and 'User not found'.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { clickText, launchBrowser, phonePage, startE2EApp, waitForText, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type TestApp } from '../../../core/testing/index.ts';

describe('accounts in the browser', function () {
  let app: TestApp;
  let browser: Browser;
  let page: Page;

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  beforeEach(async function () {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on('dialog', (d) => void d.accept());
  });

  afterEach(async function () {
    await page?.browserContext().close();
  });

  const path = () => page.evaluate(() => location.pathname + location.search);
  const waitPath = (p: string) => page.waitForFunction((x) => location.pathname === x, { timeout: 15000 }, p);
  const toast = (text: string) =>
    page.waitForFunction((t) => [...document.querySelectorAll('.curio-toast, [role="status"], [role="alert"]')].some((e) => (e as HTMLElement).innerText.includes(t)), { timeout: 15000 }, text);

  async function type(selector: string, text: string) {
    await page.waitForSelector(selector, { visible: true });
    await page.click(selector, { count: 3 });
    await page.keyboard.press('Backspace');
    await page.type(selector, text);
  }

  async function signOut() {
    await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.acc-profile__header');
    await clickText(page, 'Edit profile');
    await clickText(page, 'Account', '[role="tab"]');
    await clickText(page, 'Sign out');
    await toast('You have been successfully signed out.');
    await waitPath('/');
  }

  async function signIn(email: string, password: string, remember: boolean) {
    await page.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
    await type('#acc-signin-form-email', email);
    await type('#acc-signin-form-password', password);
    if (remember) await clickWhenReady(page, '#acc-signin-form-rememberMe');
    await clickWhenReady(page, '#acc-signin-form button[type="submit"]');
    await toast('Welcome back!');
    await waitPath('/');
  }

  it('the landing page for visitors, with Start Exploring and Join', async function () {
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Start Exploring');
    for (const text of ['Share Moments', 'Discover Museums', 'Earn Badges', 'Connect', 'Featured Museums', 'Sign In']) await waitForText(page, text);
    await clickText(page, 'Join');
    await page.waitForFunction(() => location.pathname === '/auth' && location.search.includes('tab=register'));
    await page.waitForSelector('[role="tab"][aria-selected="true"]');
    expect(await page.$eval('[role="tab"][aria-selected="true"]', (e) => (e as HTMLElement).innerText)).to.equal('Sign Up');
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Start Exploring');
    await waitPath('/discover');
    // Signed-out visitors asking for their profile are sent to sign in.
    await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
    await waitPath('/auth');
  });

  it('register → sign out → sign in with Remember me → sessions → edit profile → change password → sign in → delete', async function () {
    this.timeout(180_000);
    const username = uniqueName('e2e');
    const email = `${username}@example.test`;
    const password = 'first-pass-123';
    const newPassword = 'second-pass-456';

    // Register
    await page.goto(`${app.url}/auth?tab=register`, { waitUntil: 'networkidle0' });
    await type('#acc-register-form-firstName', 'Rosalind');
    await type('#acc-register-form-lastName', 'Franklin');
    await type('#acc-register-form-username', username);
    await type('#acc-register-form-email', email);
    await type('#acc-register-form-password', password);
    const submit = '#acc-register-form button[type="submit"]';
    await page.click(submit);
    await toast('Your account has been created successfully.');
    // a new member goes through the onboarding first (issue 21, onboarding.e2e.ts): skipped here
    await waitPath('/welcome');
    await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.innerText.trim() === 'Skip for now'), { timeout: 15000 });
    await page.evaluate(() => ([...document.querySelectorAll('button')].find((b) => b.innerText.trim() === 'Skip for now') as HTMLElement).click());
    await waitPath('/');
    // A signed-in member visiting /auth goes home.
    await page.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
    await waitPath('/');

    // Sign out, then sign in with Remember me
    await signOut();
    await signIn(email, password, true);

    // Sessions: the current one is extended (30 days)
    await page.goto(`${app.url}/sessions`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Session Management');
    await waitForText(page, 'Current Session');
    await waitForText(page, 'Extended (30 days)');
    await waitForText(page, ' (current)');
    await waitForText(page, 'Security Tips');
    expect(await page.evaluate(() => document.body.innerText.includes('Session Expiring Soon'))).to.equal(false);
    // Another device signs in: it is listed, and 'Logout All Others' ends it.
    const other = app.client();
    expect((await other.post('/api/auth/login', { email, password }, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' })).status).to.equal(200);
    await clickText(page, 'Refresh');
    await waitForText(page, 'Firefox · Linux');
    await waitForText(page, 'Regular (7 days)');
    const started = Date.now();
    await clickText(page, 'Logout All Others');
    await waitForText(page, 'Logging out...', 2000);
    await toast('Successfully logged out from 1 other sessions');
    expect(Date.now() - started).to.be.at.least(1000);
    expect((await other.get('/api/auth/user')).status).to.equal(401);
    await waitForText(page, 'No other active sessions.');

    // Edit the profile
    await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
    await waitForText(page, username);
    await waitForText(page, 'Rosalind Franklin');
    await waitForText(page, 'INSIGHTS');
    await waitForText(page, 'MUSEUMS');
    await waitForText(page, 'BADGES');
    await clickText(page, 'Edit profile');
    await page.waitForSelector('.acc-settings [role="tabpanel"] textarea');
    // Validation: a blank username is refused with the spec's text.
    const usernameInput = await page.$$('.acc-settings input[autocomplete="username"]');
    await usernameInput[0].click({ count: 3 });
    await page.keyboard.press('Backspace');
    await clickText(page, 'Save Changes');
    await waitForText(page, 'Please enter a username.');
    await usernameInput[0].type(username);
    await page.type('.acc-settings textarea', 'Crystallographer and museum lover.');
    await waitForText(page, '34/200');
    await clickText(page, 'Save Changes');
    await toast('Profile Updated');
    await waitForText(page, 'Crystallographer and museum lover.');

    // Change the password (the current one is required)
    await clickText(page, 'Edit profile');
    await clickText(page, 'Account', '[role="tab"]');
    const update = await page.waitForSelector('xpath/.//button[normalize-space()="Update Password"]');
    expect(await update!.evaluate((b) => (b as HTMLButtonElement).disabled)).to.equal(true);
    const inputs = await page.$$('.acc-settings input[type="password"]');
    await inputs[0].type(password);
    await inputs[1].type('12345');
    await inputs[2].type('12345');
    await clickText(page, 'Update Password');
    await waitForText(page, 'Password must be at least 6 characters long.');
    for (const i of [1, 2]) {
      await inputs[i].click({ count: 3 });
      await page.keyboard.press('Backspace');
    }
    await inputs[1].type(newPassword);
    await inputs[2].type('does-not-match');
    await clickText(page, 'Update Password');
    await waitForText(page, 'Please make sure passwords match.');
    await inputs[2].click({ count: 3 });
    await page.keyboard.press('Backspace');
    await inputs[2].type(newPassword);
    await clickText(page, 'Update Password');
    await toast('Password Updated');
    await page.keyboard.press('Escape');

    // Sign in again with the new password
    await signOut();
    await page.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
    await type('#acc-signin-form-email', email);
    await type('#acc-signin-form-password', password);
    await clickWhenReady(page, '#acc-signin-form button[type="submit"]');
    await toast('Sign in failed');
    expect(await path()).to.equal('/auth');
    await signIn(email, newPassword, false);

    // Delete the account
    await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Edit profile');
    await clickText(page, 'Account', '[role="tab"]');
    await clickText(page, 'Delete Account');
    // the app's confirm dialog (issue 21 #6)
    await page.waitForSelector('.curio-confirm .button.is-danger');
    await clickWhenReady(page, '.curio-confirm .button.is-danger');
    await toast('Account Deleted');
    await waitPath('/');
    await waitForText(page, 'Start Exploring');
    expect(await app.knex('users').where({ email }).first()).to.equal(undefined);
  });

  it('on a 320 px phone in French, both sign-in tabs show without scrolling the strip', async function () {
    const phone = await phonePage(browser, { locale: 'fr' });
    try {
      await phone.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
      await phone.waitForSelector('.acc-auth__card .curio-tabs [role="tab"]');
      const strip = await phone.$eval('.acc-auth__card .curio-tabs', (e) => ({
        scroll: e.scrollWidth,
        width: e.clientWidth,
        tabs: [...e.querySelectorAll('[role="tab"]')].map((t) => (t as HTMLElement).innerText.trim()),
      }));
      expect(strip.tabs).to.deep.equal(['Connexion', 'Inscription']);
      // (252 px of tabs in a 232 px strip before: Inscription was half hidden behind an arrow)
      expect(strip.scroll, JSON.stringify(strip)).to.be.at.most(strip.width);
    } finally {
      await phone.browserContext().close();
    }
  });

  it("shows another member's profile with Follow, and 'User not found' for an unknown one", async function () {
    const viewer = await app.user();
    const other = await app.user({ firstName: 'Ada', lastName: 'Byron' });
    const url = new URL(app.url);
    await page.setCookie(...[...viewer.cookies].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/', httpOnly: true })));
    await page.goto(`${app.url}/profile/${other.me.slug}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Ada Byron');
    await clickText(page, 'Follow');
    await page.waitForFunction(() => [...document.querySelectorAll('button[aria-pressed="true"]')].some((b) => (b as HTMLElement).innerText === 'Following'));
    expect((await other.get('/api/user')).body.followersCount).to.equal(1);
    // the top bar's Profile is the viewer's own: not lit on someone else's profile, lit on theirs
    // whichever address it is reached at; the More menu's button is as tall as Following beside it
    const profileLit = () => page.$$eval('.curio-topbar .curio-navlink', (ls) => ls.filter((l) => l.classList.contains('is-active')).map((l) => (l as HTMLElement).innerText.trim()));
    expect(await profileLit()).to.deep.equal([]);
    const heights = await page.$$eval('.acc-profile__actions .button', (bs) => bs.map((b) => Math.round(b.getBoundingClientRect().height)));
    expect(new Set(heights).size, `buttons' heights ${heights}`).to.equal(1);
    for (const own of [`/profile/${viewer.me.slug}`, `/profile/${viewer.me.id}`, '/profile']) {
      await page.goto(`${app.url}${own}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('.acc-profile__header');
      expect(await profileLit(), own).to.deep.equal(['Profile']);
    }
    await page.goto(`${app.url}/profile/no-such-member-${uniqueName()}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'User not found');
  });

  it("warns 'Session Expiring Soon' when under 24 hours remain", async function () {
    const member = await app.user();
    const url = new URL(app.url);
    await page.setCookie(...[...member.cookies].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/', httpOnly: true })));
    await app.knex('user_sessions').where({ user_id: member.me.id }).update({ expires_at: new Date(Date.now() + 5 * 3600_000), last_activity: new Date() });
    await page.goto(`${app.url}/sessions`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Session Expiring Soon');
    await waitForText(page, 'Regular (7 days)');
    await waitForText(page, 'No other active sessions.');
    expect(await page.evaluate(() => document.body.innerText.includes('Logout All Others'))).to.equal(false);
  });
});
