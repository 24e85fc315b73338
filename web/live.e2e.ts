/**
 * The live stream's first connection in Chromium (web/src/lib/live.tsx): it waits for the page to
 * be quiet for a second, but a member acting on a busy page opens it at once — before, requests
 * coming less than a second apart kept it waiting until the 15 s ceiling.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage } from '../core/testing/browser.ts';
import { waitFor, type TestApp } from '../core/testing/index.ts';

describe('live stream: the first connection', function () {
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

  it('a busy page does not hold the stream back once the member acts on it', async function () {
    const member = await app.user();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await signInPage(page, app, member);
    await page.goto(`${app.url}/notifications`, { waitUntil: 'load' });
    await page.waitForSelector('.curio-app', { timeout: 20000 });
    // the page keeps requesting (as a member clicking around or lazy images do): never a quiet second
    await page.evaluate(() => {
      (window as any).__busy = setInterval(() => void fetch('/api/health', { cache: 'no-store' }).catch(() => {}), 250);
    });
    await new Promise((r) => setTimeout(r, 2500));
    expect(app.stream.openCount(), 'no quiet second yet: still waiting').to.equal(0);
    const t0 = Date.now();
    await page.click('#main-content');
    await waitFor(async () => app.stream.openCount() >= 1, { timeout: 5000 });
    expect(Date.now() - t0).to.be.below(5000);
    await page.evaluate(() => clearInterval((window as any).__busy));
    await page.close();
  });
});
