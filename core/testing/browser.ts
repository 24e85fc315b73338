/**
 * Browser-test helpers: Debian's Chromium driven by puppeteer against a real app serving the
 * built web app (`npm run build:web` must have run; `npm test` does it before the e2e tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer';
import { AxePuppeteer } from '@axe-core/puppeteer';
import { expect } from 'chai';
import { WEB_DIST } from '../app.ts';
import { startTestApp, type TestApp, type SignedInClient } from './index.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  const browser = await puppeteer.launch({
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
  // every page's requests counted from its first one, for waitForNetworkQuiet
  browser.on('targetcreated', (target) => {
    void target.page().then((page) => page && countRequests(page).catch(() => {}), () => {});
  });
  return browser;
}

interface Requests {
  /** requests not ended yet: the document (loader) each came from, and whether it counts */
  open: Map<string, { loaderId: string; counts: boolean }>;
  /** the main frame's current document */
  loaderId: string;
  /** when a request that counts last started or ended */
  changed: number;
}

/** Each page's requests, read on a DevTools session of our own (waitForNetworkQuiet). */
const requestsOf = new WeakMap<Page, Promise<Requests>>();

function countRequests(page: Page): Promise<Requests> {
  let p = requestsOf.get(page);
  if (!p) {
    p = (async () => {
      const state: Requests = { open: new Map(), loaderId: '', changed: performance.now() };
      const cdp = await page.createCDPSession();
      const end = (e: { requestId: string }) => {
        const r = state.open.get(e.requestId);
        if (!r) return;
        state.open.delete(e.requestId);
        if (r.counts) state.changed = performance.now();
      };
      cdp.on('Network.requestWillBeSent', (e) => {
        // a live-update stream stays open as long as the page; the tab's icon is fetched by the
        // browser for itself, and Chromium often never reports its end
        const counts = e.type !== 'EventSource' && !(e.type === 'Other' && new URL(e.request.url).pathname === '/favicon.svg');
        state.open.set(e.requestId, { loaderId: e.loaderId, counts });
        if (counts) state.changed = performance.now();
      });
      cdp.on('Network.loadingFinished', end);
      cdp.on('Network.loadingFailed', end);
      cdp.on('Page.frameNavigated', (e) => {
        if (!e.frame.parentId) state.loaderId = e.frame.loaderId;
      });
      await cdp.send('Network.enable');
      await cdp.send('Page.enable');
      if (!state.loaderId) state.loaderId = (await cdp.send('Page.getFrameTree')).frameTree.frame.loaderId;
      return state;
    })();
    requestsOf.set(page, p);
  }
  return p;
}

/**
 * Waits until the page's document has had no request in flight for `idleTime` ms; true when it did,
 * false when `timeout` passed first. Requests of a document the page has left do not count: the old
 * document's fetches are cancelled with it, and Chromium does not always report their end. Nor does
 * a live-update stream (open as long as the page) or the tab's icon. Puppeteer's waitForNetworkIdle
 * counted a request whose end it never saw as in flight for the rest of the page's life: once one
 * was lost, every later wait on that page ran to its timeout (8 s for each test on the interaction
 * tests' shared pages). Entries of documents left behind stay in `open`, ignored: a few per page. `DEBUG_QUIET=1` prints what was still in flight at a timeout.
 */
export async function waitForNetworkQuiet(page: Page, { idleTime = 300, timeout = 10_000 }: { idleTime?: number; timeout?: number } = {}): Promise<boolean> {
  const state = await countRequests(page);
  // the wait itself starts a quiet period: a request that ended just before it does not count
  const start = performance.now();
  for (;;) {
    const now = performance.now();
    let busy = false;
    for (const r of state.open.values()) if (r.counts && r.loaderId === state.loaderId) busy = true;
    // a request's end moves `changed`: quiet is measured from the last start or end, or the wait's start
    if (!busy && now - Math.max(start, state.changed) >= idleTime) return true;
    if (now - start >= timeout) {
      if (process.env.DEBUG_QUIET) console.log('QUIET TIMEOUT', state.loaderId, [...state.open.values()]);
      return false;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A page done loading for a test that looks at it: its requests quiet for 200 ms and no spinner or
 * busy region left in the main content. Gives up quietly after 8 s each (a slow machine): callers
 * wait for what they need next themselves.
 */
export async function settlePage(page: Page): Promise<void> {
  await waitForNetworkQuiet(page, { idleTime: 200, timeout: 8_000 });
  await page
    .waitForFunction(() => !document.querySelector('#main-content .curio-spinner, #main-content [aria-busy="true"]'), { timeout: 8_000, polling: 100 })
    .catch(() => {});
}

/**
 * Holds the page's requests that `matches` picks (a slow connection, made exact) until `release()`;
 * every other request goes on. A held file must not come from somewhere the interception cannot
 * see: the app's service worker answers the build files it keeps from its own cache, and Chromium
 * answers hashed files an earlier page loaded from its memory cache, both without a paused
 * request. So the service worker is bypassed and the cache off for this page from here on.
 */
export async function holdRequests(page: Page, matches: (url: URL) => boolean): Promise<{ held(): number; release(): void }> {
  const held: HTTPRequest[] = [];
  let holding = true;
  await page.setBypassServiceWorker(true);
  await page.setCacheEnabled(false);
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    if (req.isInterceptResolutionHandled()) return;
    if (holding && matches(new URL(req.url()))) held.push(req);
    else void req.continue().catch(() => {});
  });
  return {
    held: () => held.length,
    release() {
      holding = false;
      for (const req of held.splice(0)) void req.continue().catch(() => {});
    },
  };
}

export async function startE2EApp(overrides: Record<string, any> = {}): Promise<TestApp> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: run `npm run build:web` first');
  return startTestApp(overrides);
}

/**
 * A page in a fresh browser context emulating a phone (mobile viewport, touch: Chromium lays out
 * some rows differently than a narrow desktop window) in the given language. Close it with
 * `page.browserContext().close()`.
 */
export async function phonePage(browser: Browser, { width = 320, height = 740, locale = 'en' }: { width?: number; height?: number; locale?: string } = {}): Promise<Page> {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport({ width, height, isMobile: true, hasTouch: true });
  await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
  return page;
}

/** Copies a signed-in API client's session into the browser so a test can start signed in. */
export async function signInPage(page: Page, app: TestApp, client: SignedInClient): Promise<void> {
  const url = new URL(app.url);
  const cookies = [...client.cookies].map(([name, value]) => ({ name, value, domain: url.hostname, path: '/', httpOnly: true }));
  await page.setCookie(...cookies);
}

/**
 * Waits until React has hydrated what the selector finds: on a page rendered on the server, buttons
 * show before React listens to them, and a click before then is lost. `#root` (the default) waits
 * for React to take over the page; another selector, for that element's own handlers (React's props
 * on the node); with `text`, the first such element whose text includes it.
 */
export async function waitForHydrated(page: Page, selector = '#root', { text, timeout = 20000 }: { text?: string; timeout?: number } = {}): Promise<void> {
  await page.waitForFunction(
    (sel, t) =>
      [...document.querySelectorAll(sel)]
        .filter((e) => t === null || (e.textContent ?? '').includes(t))
        .some((e) => Object.keys(e).some((k) => k.startsWith('__reactProps') || k.startsWith('__reactContainer'))),
    { timeout },
    selector,
    text ?? null,
  );
}

/**
 * Clicks the element the selector finds once React listens to it, through the DOM rather than at
 * its coordinates: a lazily loaded part of the page (a slot's component, a hero credit) can move it
 * between puppeteer's reading of its position and the mouse's press, and that click lands elsewhere.
 */
export async function clickWhenReady(page: Page, selector: string, timeout = 20000): Promise<void> {
  await waitForHydrated(page, selector, { timeout });
  // focused first, as the mouse's press would: what follows may read or type from there
  await page.$eval(selector, (e) => {
    (e as HTMLElement).focus({ preventScroll: true });
    (e as HTMLElement).click();
  });
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

/** WCAG 2.0 and 2.1, levels A and AA: what every screen must pass. */
export const WCAG21 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** WCAG 2.2 AA and axe's best practices on top: what the newer screens are held to. */
export const WCAG22_BEST = [...WCAG21, 'wcag22aa', 'best-practice'];

/**
 * `axe.analyze()`, asked again when @axe-core/puppeteer gives up before it starts: it first asks
 * the page for its ready state and throws "Page/Frame is not ready" when no answer comes within
 * 1 s, which a loaded machine can take for a page that is ready. Other errors are not retried.
 *
 * In axe's legacy mode: one `axe.run()` in the page. The default runs axe in each frame, then opens
 * a new tab, loads axe's 580 kB again there and merges the frames' results in it, on every call:
 * our pages have no frames to merge, and each of the accessibility sweep's 385 analyses takes
 * about 40 % less time this way (idle machine: 0.5–0.7 s → 0.3–0.4 s), with the same findings
 * (the sweep's warnings for a role and locale compared line by line).
 */
export async function analyzeAxe(axe: AxePuppeteer): Promise<NonNullable<Awaited<ReturnType<AxePuppeteer['analyze']>>>> {
  axe.setLegacyMode(true);
  for (let attempt = 1; ; attempt++) {
    try {
      return await axe.analyze();
    } catch (err) {
      if (attempt >= 3 || !/Page\/Frame is not ready/.test(String((err as Error)?.message))) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * axe's serious and critical violations on the page (or the part `include` selects), one line
 * each: the rule, its help text and the offending elements.
 */
export async function axeSerious(page: Page, opts: { include?: string; tags?: string[] } = {}): Promise<string[]> {
  const axe = new AxePuppeteer(page).withTags(opts.tags ?? WCAG21).options({ resultTypes: ['violations'] });
  if (opts.include) axe.include(opts.include);
  const result = await analyzeAxe(axe);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`).join(' | ')}`);
}

/** Fails with the violations when axe finds a serious or critical one on `what`. */
export async function expectAxeClean(page: Page, what: string, opts: { include?: string; tags?: string[] } = {}): Promise<void> {
  expect(await axeSerious(page, opts), `axe on ${what}`).to.deep.equal([]);
}
