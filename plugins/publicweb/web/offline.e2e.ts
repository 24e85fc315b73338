/**
 * The installable app offline (issue 19), in Debian's Chromium: the manifest and its icons are
 * served; a museum page viewed online is read again offline (Puppeteer's network emulation) after a
 * reload, rendered; a page never viewed gets the offline page; a signed-in member's page is kept in
 * its signed-out version only (nothing of theirs in the cache).
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage } from '../../../core/testing/browser.ts';
import type { TestApp } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';

describe('publicweb: installable app, offline reading', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let museum: { id: number; slug: string };
  let other: { id: number; slug: string };

  before(async () => {
    app = await startE2EApp();
    browser = await launchBrowser();
    const svc = app.services.get(MuseumsService);
    museum = (await svc.createMuseum({ name: 'Offline Observatory', description: 'Telescopes you can read about on a train.', address: '9 Star Lane', city: 'Nice', country: 'France', timezone: 'Europe/Paris' } as any, null)) as any;
    other = (await svc.createMuseum({ name: 'Never Seen Museum', address: '1 Nowhere', city: 'Nice', country: 'France', timezone: 'Europe/Paris' } as any, null)) as any;
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function saved(page: Page, path: string): Promise<void> {
    await page.waitForFunction(async (p) => Boolean(await caches.match(p, { cacheName: 'curio-pages-v1' })), { timeout: 30000, polling: 250 }, path);
  }

  it('serves a manifest with installable icons', async () => {
    const r = await fetch(`${app.url}/manifest.webmanifest`);
    expect(r.status).to.equal(200);
    const m = await r.json();
    expect(m).to.include({ name: 'Curio', start_url: '/', display: 'standalone' });
    for (const size of ['192x192', '512x512']) {
      const icon = m.icons.find((i: any) => i.sizes === size && i.type === 'image/png');
      expect(icon, size).to.not.equal(undefined);
      expect((await fetch(app.url + icon.src)).status).to.equal(200);
    }
    const html = await (await fetch(`${app.url}/discover`)).text();
    expect(html).to.contain('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  it('reads a museum page viewed online again offline; an unseen page gets the offline page', async () => {
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready, { timeout: 20000 });
    await saved(page, `/museum/${museum.slug}`);
    // offline: the page and its service worker (a target of its own, with its own network)
    await page.setOfflineMode(true);
    const swTarget = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(app.url), { timeout: 10000 });
    const sw = await swTarget.createCDPSession();
    await sw.send('Network.enable');
    await sw.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => document.body.innerText.includes('Offline Observatory'), { timeout: 20000 });
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).to.contain('Telescopes you can read about on a train.');
    expect(text).to.contain('9 Star Lane');
    // hydrated or not, the page stays: no error screen replaced it
    await new Promise((r) => setTimeout(r, 1500));
    expect(await page.evaluate(() => document.body.innerText)).to.contain('Offline Observatory');
    expect(await page.evaluate(() => document.body.innerText)).not.to.contain('Something went wrong');

    await page.goto(`${app.url}/museum/${other.slug}`, { waitUntil: 'load' }).catch(() => undefined);
    await page.waitForFunction(() => document.body.innerText.includes('You are offline'), { timeout: 20000 });
    await sw.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.setOfflineMode(false);
    await ctx.close();
  });

  it('keeps only the signed-out version of a page a member viewed', async () => {
    const member = await app.user({ firstName: 'Priya', lastName: 'Secretname' });
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    await signInPage(page, app, member);
    await page.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'networkidle0' });
    await saved(page, `/museum/${museum.slug}`);
    const cached = await page.evaluate(async (p) => (await (await caches.match(p, { cacheName: 'curio-pages-v1' }))!.text()), `/museum/${museum.slug}`);
    expect(cached).to.contain('Offline Observatory');
    expect(cached).not.to.contain(member.me.username);
    expect(cached).not.to.contain('Secretname');
    expect(cached).to.contain('"/api/auth/user":null');
    // and no API answer is cached by the service worker
    const apiCached = await page.evaluate(async () => {
      const out: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) if (new URL(req.url).pathname.startsWith('/api/')) out.push(req.url);
      return out;
    });
    expect(apiCached).to.deep.equal([]);
    await ctx.close();
  });
});
