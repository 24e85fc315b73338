/**
 * Browser-test helpers: Debian's Chromium driven by puppeteer against a real app serving the
 * built web app (`npm run build:web` must have run; `npm test` does it before the e2e tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { WEB_DIST } from '../app.ts';
import { startTestApp, type TestApp, type SignedInClient } from './index.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  });
}

export async function startE2EApp(overrides: Record<string, any> = {}): Promise<TestApp> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: run `npm run build:web` first');
  return startTestApp(overrides);
}

/** Copies a signed-in API client's session into the browser so a test can start signed in. */
export async function signInPage(page: Page, app: TestApp, client: SignedInClient): Promise<void> {
  const url = new URL(app.url);
  const cookies = [...client.cookies].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/', httpOnly: true }));
  await page.setCookie(...cookies);
}

/** Waits until the page shows the given text somewhere in the body. */
export async function waitForText(page: Page, text: string, timeout = 15000): Promise<void> {
  await page.waitForFunction((t) => document.body && document.body.innerText.includes(t), { timeout }, text);
}

/** Clicks the first button or link whose visible text is exactly (or starts with) the given text. */
export async function clickText(page: Page, text: string, selector = 'button, a, [role="tab"], [role="menuitem"]'): Promise<void> {
  await page.waitForFunction(
    (sel, t) => [...document.querySelectorAll<HTMLElement>(sel)].some((e) => e.innerText.trim() === t || e.innerText.trim().startsWith(t)),
    { timeout: 15000 },
    selector,
    text,
  );
  await page.evaluate(
    (sel, t) => {
      const els = [...document.querySelectorAll<HTMLElement>(sel)];
      const el = els.find((e) => e.innerText.trim() === t) ?? els.find((e) => e.innerText.trim().startsWith(t));
      el!.click();
    },
    selector,
    text,
  );
}
