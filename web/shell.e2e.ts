/**
 * The web shell in Debian's Chromium against the real app (built web app, fresh database):
 * it renders, unknown paths show 'Page Not Found', the locale switcher changes the texts,
 * the top bar follows the spec's visibility rule, and a signed-in member can sign out.
 */
import { expect } from 'chai';
import { AxePuppeteer } from '@axe-core/puppeteer';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickWhenReady, analyzeAxe, holdRequests } from '../core/testing/browser.ts';
import type { TestApp } from '../core/testing/index.ts';

describe('web shell', function () {
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
    await page.setViewport({ width: 1280, height: 800 });
  });

  afterEach(async function () {
    await page?.browserContext().close();
  });

  async function shellReady() {
    await page.waitForSelector('.curio-app', { timeout: 20000 });
    await page.waitForFunction(() => !document.querySelector('.curio-auth-spinner'), { timeout: 20000 });
  }

  it('renders the landing page with the app name', async function () {
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await shellReady();
    expect(await page.title()).to.include('Curio');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).to.include('Curio');
    expect(text).not.to.include('Something went wrong');
    expect(await page.evaluate(() => document.documentElement.lang)).to.equal('en');
  });

  it("shows 'Page Not Found' for an unknown path", async function () {
    await page.goto(`${app.url}/no/such/page-${Date.now()}`, { waitUntil: 'networkidle0' });
    await shellReady();
    await waitForText(page, 'Page Not Found');
    expect(await page.$eval('h1', (h) => h.textContent)).to.equal('Page Not Found');
    expect(await page.title()).to.equal('Page Not Found · Curio');
    // signed-out visitors get no top bar outside the public directory pages
    expect(await page.$('.curio-topbar')).to.equal(null);
  });

  it('switches the locale to fr, persists it and sets <html lang>', async function () {
    await page.goto(`${app.url}/unknown-${Date.now()}`, { waitUntil: 'networkidle0' });
    await shellReady();
    await waitForText(page, 'Page Not Found');
    await page.select('.curio-footer [data-testid="locale-switcher"]', 'fr');
    await waitForText(page, 'Page introuvable');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.to.include('Page Not Found');
    expect(await page.evaluate(() => document.documentElement.lang)).to.equal('fr');
    await page.reload({ waitUntil: 'networkidle0' });
    await shellReady();
    await waitForText(page, 'Page introuvable');
    expect(await page.evaluate(() => localStorage.getItem('curio.locale'))).to.equal('fr');
  });

  it('shows the top bar to signed-out visitors on /discover, /events and /museum pages', async function () {
    // Discover keeps the network busy (geolocation, map loader), so wait for the shell, not for idle.
    for (const path of ['/discover', '/events', '/museums/1']) {
      await page.goto(`${app.url}${path}`, { waitUntil: 'domcontentloaded' });
      await shellReady();
      await page.waitForSelector('.curio-topbar', { timeout: 20000 });
      expect(await page.$('.curio-topbar'), path).not.to.equal(null);
    }
  });

  it('matches routes case-insensitively and keeps the shell alive on every enabled page', async function () {
    await page.goto(`${app.url}/DISCOVER`, { waitUntil: 'domcontentloaded' });
    await shellReady();
    await page.waitForSelector('.curio-topbar', { timeout: 20000 });
    expect(await page.$('.curio-topbar')).not.to.equal(null);
  });

  it('keeps the top bar still while the envelope and the bell load: their places are held', async function () {
    if (!app.enabled.has('accounts') || !app.enabled.has('messages') || !app.enabled.has('notifications')) this.skip();
    const member = await app.user();
    await signInPage(page, app, member);
    // their code is held until the bar has been measured, as on a slow connection (a fixed delay
    // raced the shell's own loading on a busy machine)
    const code = await holdRequests(page, (u) => /\/assets\/(MessagesLink|NotificationBell)-[^/]*\.js$/.test(u.pathname));
    const bar = () =>
      page.evaluate(() => ({
        create: Math.round(document.querySelector('.curio-topbar .curio-create-button')?.getBoundingClientRect().left ?? -1),
        fit: document.querySelector('.curio-topbar__inner')?.className ?? '',
        icons: document.querySelectorAll('.curio-topbar .msg-nav, .curio-topbar .curio-bell').length,
      }));
    await page.goto(`${app.url}/discover`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.curio-topbar .curio-user-button', { timeout: 20000 });
    const before = await bar();
    expect(before.icons, 'measured before the icons arrived').to.equal(0);
    code.release();
    await page.waitForFunction(() => document.querySelectorAll('.curio-topbar .msg-nav, .curio-topbar .curio-bell').length === 2, { timeout: 20000 });
    const after = await bar();
    expect(after.create, 'the Create button did not move').to.equal(before.create);
    expect(after.fit).to.equal(before.fit);
  });

  it('shows a signed-in member the top bar and signs them out from the account menu', async function () {
    if (!app.enabled.has('accounts')) this.skip();
    const member = await app.user({ firstName: 'Ada', lastName: 'Lovelace' });
    await signInPage(page, app, member);
    await page.goto(`${app.url}/no-such-page`, { waitUntil: 'networkidle0' });
    await shellReady();
    await page.waitForSelector('.curio-topbar .curio-user-button');
    await clickWhenReady(page, '.curio-topbar .curio-user-button');
    await waitForText(page, `@${member.me.username}`);
    await page.evaluate(() => {
      const items = [...document.querySelectorAll<HTMLButtonElement>('.curio-user-menu__item')];
      items.find((b) => b.innerText.includes('Sign out'))!.click();
    });
    await waitForText(page, 'Signed out');
    await waitForText(page, 'You have been successfully signed out.');
    // with a toast showing, the toaster passes axe (it once nested <li role="status"> in an <ol>)
    const axe = await analyzeAxe(new AxePuppeteer(page).include('.curio-toaster').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']));
    expect(await page.$('.curio-toaster [role="status"]'), 'a toast is showing').to.not.equal(null);
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).to.deep.equal([]);
    await page.waitForFunction(() => location.pathname === '/');
    // the toast region is reachable with F8
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() => document.activeElement?.closest('[aria-label="Notifications"]') !== null);
    expect(focused).to.equal(true);
    // signed out: no account menu any more
    expect(await page.$('.curio-user-button')).to.equal(null);
    const me = await page.evaluate(async () => (await fetch('/api/auth/user', { credentials: 'include' })).status);
    expect(me).to.equal(401);
  });
});
