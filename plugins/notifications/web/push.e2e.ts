/**
 * Web push in Chromium: Settings → Notifications offers "Enable on this device"; the service
 * worker (/sw.js) shows a pushed message (delivered through DevTools' ServiceWorker domain, as a
 * push service would) carrying the page its click opens.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { clickText, launchBrowser, signInPage, startE2EApp } from '../../../core/testing/browser.ts';
import type { TestApp } from '../../../core/testing/index.ts';

describe('web push in the browser', function () {
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
  });
  afterEach(async function () {
    await page?.browserContext().close();
  });

  it('settings offer push on this device', async function () {
    const u = await app.user();
    await signInPage(page, app, u);
    await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.acc-profile__header');
    await clickText(page, 'Edit profile');
    await clickText(page, 'Notifications', '[role="tab"]');
    await page.waitForSelector('#notif-push-device');
    await page.waitForFunction(() => !document.querySelector('#notif-push-device')!.textContent!.includes('Checking'));
    const text = await page.$eval('#notif-push-device', (e) => (e as HTMLElement).innerText);
    expect(text).to.match(/Enable on this device|cannot receive push|blocked/);
  });

  it('the service worker shows a pushed notification with the page to open on click', async function () {
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    const cdp = await page.createCDPSession();
    await cdp.send('ServiceWorker.enable');
    const versions = new Map<string, string>();
    const waiters: Array<() => void> = [];
    cdp.on('ServiceWorker.workerVersionUpdated', (e: any) => {
      for (const v of e.versions) if (v.status === 'activated') versions.set(v.registrationId, v.status);
      for (const w of waiters.splice(0)) w();
    });
    const activated = async (id: string) => {
      const until = Date.now() + 15000;
      while (!versions.has(id) && Date.now() < until) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 250)));
      expect(versions.has(id), 'the service worker activated').to.equal(true);
    };
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: any) => {
        const r = e.registrations.find((x: any) => x.scopeURL === `${app.url}/`);
        if (r) resolve(r.registrationId);
      }),
    );
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
    });
    const registrationId = await registered;
    // the push goes to the registration's active worker: wait until its version is activated.
    // In one full run (2026-11-28, under load) the only push delivered never showed within 15 s;
    // the cause is not known (a delivery racing the worker's start is the likely one)
    await activated(registrationId);
    const context = page.browserContext();
    await context.overridePermissions(app.url, ['notifications']);
    const notifications = () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, url: (n.data as any)?.url }));
      });
    let list: any[] = [];
    // delivered again if none shows within 5 s (at most 3 times): what is tested is the worker's
    // push handler (title, body and the page to open), not DevTools' delivery
    for (let attempt = 0; attempt < 3 && !list.length; attempt++) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId, data: JSON.stringify({ title: 'Starting in an hour: Orsay', body: 'Reminder', url: '/notifications' }) });
      const until = Date.now() + 5000;
      while (!list.length && Date.now() < until) {
        list = await notifications();
        if (!list.length) await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(list).to.deep.include({ title: 'Starting in an hour: Orsay', body: 'Reminder', url: '/notifications' });
  });
});
