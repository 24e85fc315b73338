/**
 * npm run screenshots: the pictures in web/README.md, taken from the real app in Debian's Chromium.
 *
 * Starts the app as `npm start` runs it (the built web app, sample data from seeds/, on the embedded
 * database unless DATABASE_URL is set), signs up a brand-new member through the API and saves, at
 * 390 × 844 (a phone) and in English:
 *   web/docs/screenshots/home-new-member-390.png  the first screen of a member who follows nothing
 *   web/docs/screenshots/discover-390.png         Discover as a visitor (no maps key: the list)
 *   web/docs/screenshots/museum-390.png           a sample museum's page as a visitor
 * Needs `npm run build:web` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp } from '../core/testing/browser.ts';

const OUT = path.join(import.meta.dirname, '..', 'web', 'docs', 'screenshots');
const WIDTH = 390;
const HEIGHT = 844;

async function settle(page: Page) {
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 20_000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('#main-content .curio-spinner, #main-content [aria-busy="true"]'), { timeout: 20_000 }).catch(() => {});
  // images decoded, fonts ready: the picture shows the page as a visitor sees it after loading
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].filter((i) => !i.complete).map((i) => new Promise((r) => ((i.onload = r), (i.onerror = r)))));
  });
}

const app = await startE2EApp({ plugins: { config: { accounts: { signupThrottle: { perIpPerHour: 100 } } } } });
const browser = await launchBrowser();
try {
  process.stdout.write('loading the sample data… ');
  await app.seed({});
  console.log('done');
  const slug = (await app.knex('museums').whereNotNull('featured_image').orderBy('id').first('slug'))?.slug
    ?? (await app.knex('museums').orderBy('id').first('slug')).slug;
  fs.mkdirSync(OUT, { recursive: true });

  const shot = async (name: string, route: string, signedIn?: Awaited<ReturnType<typeof app.user>>) => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    await page.evaluateOnNewDocument(() => localStorage.setItem('curio.locale', 'en'));
    if (signedIn) await signInPage(page, app, signedIn);
    await page.goto(`${app.url}${route}`, { waitUntil: 'load' });
    await settle(page);
    const file = path.join(OUT, `${name}-${WIDTH}.png`);
    await page.screenshot({ path: file });
    console.log(`  ${path.relative(process.cwd(), file)}  (${route})`);
    await context.close();
  };

  const member = await app.user({ firstName: 'Nora', lastName: 'Lind', username: 'nora' });
  await shot('home-new-member', '/', member);
  await shot('discover', '/discover');
  await shot('museum', `/museum/${slug}`);
} finally {
  await browser.close();
  await app.close();
}
process.exit(0);
