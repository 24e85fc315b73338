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
    const context = page.browserContext();
    await context.overridePermissions(app.url, ['notifications']);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId, data: JSON.stringify({ title: 'Starting in an hour: Orsay', body: 'Reminder', url: '/notifications' }) });
    const shown = await page.waitForFunction(
      async () => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications();
        return list.length ? list.map((n) => ({ title: n.title, body: n.body, url: n.data?.url })) : null;
      },
      { timeout: 15000, polling: 200 },
    );
    const list = (await shown.jsonValue()) as any[];
    expect(list).to.deep.include({ title: 'Starting in an hour: Orsay', body: 'Reminder', url: '/notifications' });
  });
});
