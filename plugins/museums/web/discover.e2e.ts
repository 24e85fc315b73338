/**
 * Discover in Chromium at 390 and 1366 px, in en and fr (issues 20 and 21 #2): the category chips
 * and "open now + free now + step-free" leave only the matching museums and go into the URL; the
 * URL pasted into a new page shows the same, back undoes a filter; near me (Puppeteer's geolocation
 * override) and a typed place (geocoded on the server through a local stand-in for Nominatim) sort
 * by distance, in km (fr) or miles (en), within a radius in that unit; blocked location says so; without a maps key a visitor gets the list and a small note, an admin the setup
 * hint; with a key the list / map toggle is there. No sideways scroll at 320 px; axe clean. A
 * museum card's image offers exactly the variant widths the API says exist, sized, with its
 * BlurHash placeholder while it loads (issue 23).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import sharp from 'sharp';
import type { Browser, HTTPRequest, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForHydrated, waitForText, axeSerious, clickWhenReady, waitForNetworkQuiet } from '../../../core/testing/browser.ts';
import { uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService } from '../public.ts';
import { makeCommunity } from '../../events/server/test-helpers.ts';
import { isoDate, localDateTime } from '../shared/opening-hours.ts';

const allDay = { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
const week = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]));
const TZ = 'Europe/Paris';
const CATEGORY = 'Science Museums';
const FREE = { currency: 'EUR', prices: [], freeRules: [{ kind: 'always' }] };
const STEP_FREE = { stepFreeEntrance: { value: 'yes' } };
const LYON = { lat: 45.7578, lng: 4.832 };

/** A local stand-in for the Nominatim search endpoint: knows Lyon. */
async function startGeocoder() {
  const server = http.createServer((req, res) => {
    const q = (new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '').toLowerCase();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(q === 'lyon' ? [{ lat: String(LYON.lat), lon: String(LYON.lng), display_name: 'Lyon, Rhône, France' }] : []));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`,
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}

describe('Discover in the browser: combined filters in the URL, near me, list without a maps key', function () {
  this.timeout(240000);
  let app: TestApp;
  let browser: Browser;
  let geocoder: Awaited<ReturnType<typeof startGeocoder>>;
  let admin: SignedInClient;
  const word = `Orrery${uniqueName('').slice(0, 5)}`;
  const name = (k: string) => `${word} ${k}`;

  before(async () => {
    geocoder = await startGeocoder();
    app = await startE2EApp({ plugins: { config: { museums: { geocoderUrl: geocoder.url, geocoderMinIntervalMs: 0, geocoderTimeoutMs: 3000 } } } });
    browser = await launchBrowser();
    admin = await app.user({ role: 'Admin' });
    const svc = app.services.get(MuseumsService);
    const today = isoDate(localDateTime(new Date(), TZ));
    const base = { address: '1 Rue Test', city: 'Paris', country: 'France', category: CATEGORY, timezone: TZ, latitude: 48.86, longitude: 2.34, openingHours: { defaultHours: week } as any, admission: FREE, accessibility: STEP_FREE };
    const museums: Array<Record<string, unknown>> = [
      { name: name('Match'), latitude: 48.853, longitude: 2.349 },
      { name: name('Lyon'), city: 'Lyon', latitude: 45.76, longitude: 4.835 },
      { name: name('Stairs'), accessibility: { stepFreeEntrance: { value: 'no' } }, latitude: 48.88, longitude: 2.3 },
      { name: name('Paying'), admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1400 }], freeRules: [] }, latitude: 48.9, longitude: 2.25 },
      { name: name('Works'), openingHours: { defaultHours: week, exceptions: [{ startDate: today, closed: true, note: 'Closed for installation' }] }, latitude: 48.84, longitude: 2.36 },
      { name: name('History'), category: 'History Museums', latitude: 48.861, longitude: 2.336 },
    ];
    for (const m of museums) await svc.createMuseum({ ...base, ...m } as any, admin.me.id);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await geocoder?.close();
  });

  async function newPage(locale: string, width: number): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    await page.setViewport({ width, height: width < 500 ? 844 : 900 });
    return page;
  }
  /** The names of ours in the result list, once the list has settled. */
  async function shown(page: Page): Promise<string[]> {
    await page.waitForSelector('[data-testid="results"][aria-busy="false"], [data-testid="filtered"] .curio-empty', { timeout: 20000 });
    return page.$$eval('[data-testid="results"] .mz-card__title', (els, w) => els.map((e) => e.textContent ?? '').filter((n) => n.startsWith(w as string)), word);
  }
  async function waitShown(page: Page, want: string[]) {
    const sorted = [...want].sort();
    await page.waitForFunction(
      (w, expected) => {
        const list = document.querySelector('[data-testid="results"]');
        if (!list || list.getAttribute('aria-busy') !== 'false') return false;
        const names = [...list.querySelectorAll('.mz-card__title')].map((e) => e.textContent ?? '').filter((n) => n.startsWith(w));
        return JSON.stringify(names.sort()) === JSON.stringify(expected);
      },
      { timeout: 20000 },
      word,
      sorted,
    ).catch(async (e) => {
      throw new Error(`expected ${sorted.join(', ')}; shown ${(await shown(page)).join(', ')} (${e.message})`);
    });
  }
  const param = (page: Page, k: string) => new URL(page.url()).searchParams.get(k);
  /**
   * Finds and clicks in one step, in the page: the near-me button is sometimes drawn again just after
   * the list shows (a second render after hydration; the cause is not found yet), which detaches the
   * element a separate find and click would hold.
   */
  async function clickNow(page: Page, selector: string) {
    await waitForNetworkQuiet(page, { idleTime: 300, timeout: 20000 });
    await page.waitForSelector(selector, { timeout: 20000 });
    await page.evaluate((sel) => document.querySelector<HTMLElement>(sel)!.click(), selector);
  }
  /** Opens a path and waits until React has taken over the page (Discover is rendered on the server first). */
  async function go(page: Page, path: string) {
    await page.goto(path.startsWith('http') ? path : `${app.url}${path}`, { waitUntil: 'load' });
    await waitForHydrated(page);
    // the lazily loaded page is in (and in the viewer's language)
    await page.waitForSelector('[data-testid="discover-categories"] button, [data-testid="search-results"]', { timeout: 20000 });
  }

  for (const locale of ['en', 'fr']) {
    for (const width of [390, 1366]) {
      describe(`${locale}, ${width} px`, () => {
        let page: Page;
        beforeEach(async () => {
          page = await newPage(locale, width);
        });
        afterEach(async () => {
          await page?.browserContext().close();
        });

        it('category + open now + free now + step-free leave only the matching museums; the URL restores them in a new page; back undoes a filter', async () => {
          await go(page, '/discover');
          // the category chips arrive with the categories' answer, after the first button
          await clickWhenReady(page, `[data-testid="discover-categories"] [data-category="${CATEGORY}"]`);
          await waitShown(page, ['Match', 'Lyon', 'Stairs', 'Paying', 'Works'].map(name));
          await clickWhenReady(page, '[data-testid="discover-filters"] [data-filter="free"]');
          await waitShown(page, ['Match', 'Lyon', 'Stairs', 'Works'].map(name));
          await clickWhenReady(page, '[data-testid="discover-filters"] [data-filter="stepFreeEntrance"]');
          await waitShown(page, ['Match', 'Lyon', 'Works'].map(name));
          await clickWhenReady(page, '[data-testid="discover-filters"] [data-filter="open"]');
          await waitShown(page, ['Match', 'Lyon'].map(name));
          expect([param(page, 'category'), param(page, 'free'), param(page, 'access'), param(page, 'open')]).to.deep.equal([CATEGORY, 'now', 'stepFreeEntrance', 'now']);
          for (const f of ['open', 'free', 'stepFreeEntrance']) expect(await page.$eval(`[data-filter="${f}"]`, (b) => b.getAttribute('aria-pressed'))).to.equal('true');
          // cards say they are free now
          expect(await page.$$eval('[data-testid="results"] .mz-free-badge', (bs) => bs.length)).to.be.greaterThan(0);
          expect(await axeSerious(page)).to.deep.equal([]);

          // the shared link, opened by someone else (a visitor in a new context)
          const link = page.url();
          const other = await newPage(locale, width);
          try {
            await go(other, link);
            await waitShown(other, ['Match', 'Lyon'].map(name));
            expect(await other.$eval('[data-filter="open"]', (b) => b.getAttribute('aria-pressed'))).to.equal('true');
          } finally {
            await other.browserContext().close();
          }
          // back: the open-now filter is undone; forward: it is back
          await page.goBack();
          await waitShown(page, ['Match', 'Lyon', 'Works'].map(name));
          expect(param(page, 'open')).to.equal(null);
          await page.goForward();
          await waitShown(page, ['Match', 'Lyon'].map(name));
          // reload keeps it
          await page.reload({ waitUntil: 'load' });
          await waitShown(page, ['Match', 'Lyon'].map(name));
        });

        it('near me (the browser position) and a typed place sort by distance, shown on each card; name and open-now-first sorts', async () => {
          await page.browserContext().overridePermissions(app.url, ['geolocation']);
          await page.setGeolocation({ latitude: 48.8534, longitude: 2.3488, accuracy: 20 });
          await go(page, `/discover?category=${encodeURIComponent(CATEGORY)}`);
          await waitShown(page, ['Match', 'Lyon', 'Stairs', 'Paying', 'Works'].map(name));
          await clickNow(page, '[data-testid="near-me"] [data-filter="near"]');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('near') === '48.8534,2.3488', { timeout: 15000 });
          await page.waitForSelector('[data-testid="near-current"]');
          await page.waitForFunction(() => document.querySelector('#mz-sort') && (document.querySelector('#mz-sort') as HTMLSelectElement).value === 'distance');
          await page.waitForFunction((w) => document.querySelector('[data-testid="results"] .mz-card__title')?.textContent === `${w} Match`, { timeout: 20000 }, word);
          const order = await shown(page);
          expect(order[0]).to.equal(name('Match'));
          expect(order[order.length - 1]).to.equal(name('Lyon'));
          // each card's distance, in the viewer's unit: kilometres in French, miles in (US) English
          const unit = locale === 'fr' ? 'km' : 'mi';
          const distances = await page.$$eval('[data-testid="results"] [data-testid="distance"]', (els) => els.map((e) => e.textContent ?? ''));
          expect(distances).to.have.length(5);
          for (const d of distances) expect(d).to.match(locale === 'fr' ? /^à \d+(,\d)?\s?km$/ : /^\d+(\.\d)?\s?mi away$/);
          const values = distances.map((d) => Number.parseFloat(d.replace(/^à /, '').replace(/\s/g, '').replace(',', '.')));
          expect(values).to.deep.equal([...values].sort((a, b) => a - b));
          // Lyon is about 392 km (244 mi) from the centre of Paris
          expect(values[values.length - 1]).to.be.within(unit === 'km' ? 380 : 236, unit === 'km' ? 400 : 249);

          // within a radius: the choices are in the viewer's unit, and 25 of them leave Lyon out
          const labels = await page.$$eval('#mz-radius option', (os) => os.map((o) => o.textContent ?? ''));
          expect(labels.slice(1).every((l) => l.includes(unit))).to.equal(true);
          await page.select('#mz-radius', `25${unit}`);
          await page.waitForFunction((u) => new URL(location.href).searchParams.get('radius') === `25${u}`, {}, unit);
          await waitShown(page, ['Match', 'Stairs', 'Paying', 'Works'].map(name));
          await page.select('#mz-radius', '');
          await waitShown(page, ['Match', 'Lyon', 'Stairs', 'Paying', 'Works'].map(name));
          // sort by name instead: in the URL
          await page.select('#mz-sort', 'name');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('sort') === 'name');
          await page.waitForFunction((w) => document.querySelector('[data-testid="results"] .mz-card__title')?.textContent === `${w} Lyon`, { timeout: 20000 }, word);
          // open now first: the museum closed today comes last, the open ones still by distance
          await page.select('#mz-sort', 'open');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('sort') === 'open');
          await page.waitForFunction((w) => [...document.querySelectorAll('[data-testid="results"] .mz-card__title')].pop()?.textContent === `${w} Works`, { timeout: 20000 }, word);
          expect((await shown(page))[0]).to.equal(name('Match'));

          // a typed place, geocoded on the server: Lyon comes first
          await clickWhenReady(page, '[data-testid="near-current"] .delete');
          await page.waitForSelector('#mz-near-place');
          await page.type('#mz-near-place', 'Lyon');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('place') === 'Lyon', { timeout: 15000 });
          expect(param(page, 'near')).to.equal(`${LYON.lat},${LYON.lng}`);
          await page.waitForFunction((w) => document.querySelector('[data-testid="results"] .mz-card__title')?.textContent === `${w} Lyon`, { timeout: 20000 }, word);
          await waitForText(page, locale === 'fr' ? 'Les plus proches de Lyon' : 'Nearest to Lyon');
          expect(await axeSerious(page)).to.deep.equal([]);
        });

        it('near me with location blocked for the site: a clear message in the viewer\'s language, the list unchanged', async () => {
          // no geolocation among the granted permissions: the browser refuses the position
          await page.browserContext().overridePermissions(app.url, []);
          await go(page, `/discover?category=${encodeURIComponent(CATEGORY)}`);
          await waitShown(page, ['Match', 'Lyon', 'Stairs', 'Paying', 'Works'].map(name));
          await page.waitForSelector('[data-testid="near-me"] [data-filter="near"]:not([disabled])', { timeout: 20000 });
          await clickNow(page, '[data-testid="near-me"] [data-filter="near"]');
          // the browser's refusal may come only when the request's own 10 s limit runs out
          await page.waitForSelector('[data-testid="near-help"][role="alert"]', { timeout: 30000 });
          const message = await page.$eval('[data-testid="near-help"]', (p) => p.textContent ?? '');
          expect(message).to.equal(
            locale === 'fr'
              ? 'L’accès à votre position est bloqué pour Curio : impossible de trouver les musées près de vous. Autorisez la localisation pour ce site dans les réglages du navigateur, ou saisissez un lieu.'
              : 'Location access is blocked for Curio, so it cannot find museums near you. Allow location for this site in your browser settings, or type a place instead.',
          );
          expect(param(page, 'near')).to.equal(null);
          // the button is usable again and the typed place still works
          expect(await page.$eval('[data-filter="near"]', (b) => (b as HTMLButtonElement).disabled)).to.equal(false);
          await page.type('#mz-near-place', 'Lyon');
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('place') === 'Lyon', { timeout: 15000 });
          expect(await page.$eval('[data-testid="near-help"]', (p) => p.getAttribute('role'))).to.equal(null);
          expect(await axeSerious(page)).to.deep.equal([]);
        });

        it('without a maps key: a visitor gets the list and a small note, no developer error; an admin sees the setup hint', async () => {
          await go(page, '/discover');
          await page.waitForSelector('[data-testid="maps-note"]', { timeout: 20000 });
          await shown(page);
          const text = await page.evaluate(() => document.body.innerText);
          expect(text).not.to.include('GOOGLE_MAPS_API_KEY');
          expect(text).not.to.include('Google Maps');
          expect(await page.$('[data-testid="view-toggle"]')).to.equal(null);
          expect(await page.$('[data-testid="maps-admin-hint"]')).to.equal(null);
          // the note is one small line, not a box
          expect(await page.$eval('[data-testid="maps-note"]', (n) => n.getBoundingClientRect().height)).to.be.below(60);
          // results are not repeated: one list of museums on the page
          expect(await page.$$eval(`[data-museum-id]`, (cards) => cards.length)).to.equal(await page.$$eval('[data-testid="results"] [data-museum-id]', (cards) => cards.length));

          await signInPage(page, app, admin);
          await go(page, '/discover');
          await page.waitForSelector('[data-testid="maps-admin-hint"]', { timeout: 20000 });
          expect(await page.$eval('[data-testid="maps-admin-hint"]', (n) => n.textContent)).to.include('GOOGLE_MAPS_API_KEY');
          expect(await axeSerious(page)).to.deep.equal([]);
        });

        it('the chips: one row that scrolls sideways on a phone (arrow shown, every chip reachable by Tab), no page scroll sideways down to 320 px', async () => {
          await go(page, '/discover?open=now');
          await page.waitForSelector('[data-testid="discover-categories"] button');
          await shown(page);
          const row = await page.$eval('[data-testid="discover-categories"]', (r) => {
            const tops = new Set([...r.querySelectorAll('button')].map((b) => Math.round(b.getBoundingClientRect().top)));
            return { rows: tops.size, overflows: r.scrollWidth > r.clientWidth + 1 };
          });
          if (width < 769) {
            expect(row.rows, 'one row of chips').to.equal(1);
            expect(row.overflows).to.equal(true);
            await page.waitForSelector('.mz-chiprow__more--end', { visible: true });
            // Tab reaches the last category, which is then scrolled into view
            await page.focus('[data-testid="discover-categories"] button');
            for (let i = 0; i < 9; i++) await page.keyboard.press('Tab');
            const last = await page.evaluate(() => {
              const el = document.activeElement as HTMLElement;
              const box = el.closest('[data-testid="discover-categories"]')!.getBoundingClientRect();
              const r = el.getBoundingClientRect();
              return { category: el.getAttribute('data-category'), inView: r.left >= box.left - 1 && r.right <= box.right + 1 };
            });
            expect(last.category).to.equal('University Museums');
            await page.waitForFunction(() => {
              const el = document.activeElement as HTMLElement;
              const box = el.closest('[data-testid="discover-categories"]')!.getBoundingClientRect();
              const r = el.getBoundingClientRect();
              return r.left >= box.left - 1 && r.right <= box.right + 1;
            }, { timeout: 5000 });
          }
          for (const w of width < 769 ? [320, width] : [width]) {
            await page.setViewport({ width: w, height: 800 });
            await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, { timeout: 5000 }).catch(() => undefined);
            const sw = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
            expect(sw[0], `${w} px: scrollWidth ${sw[0]} > ${sw[1]}`).to.be.at.most(sw[1]);
          }
          expect(await axeSerious(page)).to.deep.equal([]);
        });
      });
    }
  }

  it("a museum card's image: a srcset of only the made widths, its size, and the BlurHash placeholder while it loads (issue 23)", async () => {
    // a real upload (a community cover, re-encoded) whose variants the real job makes
    const owner = await app.user({ role: 'Ambassador' });
    const community = await makeCommunity(owner, [], { name: uniqueName('Glass circle ') });
    const jpg = await sharp({ create: { width: 1000, height: 600, channels: 3, background: { r: 40, g: 90, b: 170 } } }).jpeg().toBuffer();
    const up = await owner.upload(`/api/communities/${community}/image`, [{ field: 'image', name: 'c.jpg', type: 'image/jpeg', data: jpg }]);
    expect(up.status, up.text).to.equal(200);
    const key = app.storage.keyFromUrl(up.body.imageUrl)!;
    for (let i = 0; i < 300 && !(await app.knex('core_images').where({ key }).first()); i++) {
      await app.jobs.runDue();
      await new Promise((res) => setTimeout(res, 100));
    }
    const cardWord = `Vitrail${uniqueName('').slice(0, 5)}`.replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
    const museum = await app.services.get(MuseumsService).createMuseum({ name: `${cardWord} Hall`, address: '3 Rue Test', city: 'Paris', country: 'France', timezone: TZ, featuredImage: up.body.imageUrl } as any, admin.me.id);
    const info = (await app.client().get(`/api/search?q=${cardWord}`)).body.museums.find((m: any) => m.id === museum.id).featuredImageInfo;
    expect(info.widths).to.deep.equal([320, 640, 1000]);
    expect(info.blurhash).to.be.a('string');

    const page = await newPage('en', 390);
    try {
      // the card's image requests (its variants and master) wait until released: the page is caught loading
      const base = up.body.imageUrl.replace(/\.jpg$/, '');
      const held: HTTPRequest[] = [];
      let holding = true;
      await page.setRequestInterception(true);
      page.on('request', (req) => {
        if (holding && new URL(req.url()).pathname.startsWith(base)) held.push(req);
        else void req.continue();
      });
      await go(page, `/discover?q=${cardWord}`);
      const sel = `[data-museum-id="${museum.id}"] .mz-card__media`;
      await page.waitForSelector(`${sel} img`, { timeout: 20000 });
      await page.$eval(`${sel} img`, (el) => el.scrollIntoView({ block: 'center' }));
      // while it loads: the BlurHash as a tiny inline PNG behind it, never initials nor a designed cover
      await page.waitForFunction((s) => /url\("?data:image\/png/.test(document.querySelector<HTMLImageElement>(`${s} img`)?.style.backgroundImage ?? ''), { timeout: 20000 }, sel);
      const loading = await page.$eval(sel, (media) => {
        const img = media.querySelector('img')!;
        return {
          complete: img.complete && img.naturalWidth > 0,
          fallback: media.querySelector('.mz-image-fallback') !== null,
          width: img.getAttribute('width'),
          height: img.getAttribute('height'),
          sizes: img.getAttribute('sizes'),
          srcsets: [img.getAttribute('srcset'), ...[...media.querySelectorAll('source')].map((s) => s.getAttribute('srcset'))],
          types: [...media.querySelectorAll('source')].map((s) => s.getAttribute('type')),
        };
      });
      expect(loading.complete, 'the image is still held').to.equal(false);
      expect(loading.fallback).to.equal(false);
      expect(loading).to.include({ width: String(info.width), height: String(info.height) });
      expect(loading.sizes).to.be.a('string').and.not.equal('');
      expect(loading.types).to.deep.equal(['image/avif', 'image/webp']);
      // exactly the widths that exist (none guessed), in each format
      const exts = ['jpg', 'avif', 'webp'];
      loading.srcsets.forEach((set, i) => {
        const candidates = set!.split(', ').map((c) => c.split(' '));
        expect(candidates.map(([, w]) => Number(w.replace('w', ''))), set!).to.deep.equal(info.widths);
        expect(candidates.map(([u]) => u), set!).to.deep.equal(info.widths.map((w: number) => `${base}_w${w}.${exts[i]}`));
      });
      expect(held.length, 'the card asked for its image').to.be.greaterThan(0);
      // released: the image arrives from one of those variants and the placeholder goes
      holding = false;
      for (const req of held) void req.continue();
      await page.waitForFunction(
        (s) => {
          const img = document.querySelector<HTMLImageElement>(`${s} img`);
          return !!img && img.complete && img.naturalWidth > 0 && !img.style.backgroundImage;
        },
        { timeout: 20000 },
        sel,
      );
      const current = await page.$eval(`${sel} img`, (el) => (el as HTMLImageElement).currentSrc);
      const m = /_w(\d+)\.(avif|webp|jpg)$/.exec(current);
      expect(m, current).to.not.equal(null);
      expect(info.widths).to.include(Number(m![1]));
    } finally {
      await page.browserContext().close();
    }
  });

  it('with a maps key: a list / map toggle, the map view in the URL', async () => {
    const keyed = await startE2EApp({ googleMapsApiKey: 'test-browser-key' });
    const page = await newPage('en', 1366);
    try {
      await page.setRequestInterception(true);
      page.on('request', (r) => {
        if (/googleapis\.com|gstatic\.com/.test(r.url())) void r.abort('internetdisconnected');
        else void r.continue();
      });
      await page.goto(`${keyed.url}/discover`, { waitUntil: 'load' });
      await waitForHydrated(page);
      await page.waitForSelector('[data-testid="view-toggle"]', { timeout: 20000 });
      expect(await page.$('[data-testid="maps-note"]')).to.equal(null);
      expect(await page.$eval('[data-testid="filtered"]', (s) => s.getAttribute('data-view'))).to.equal('list');
      const buttons = await page.$$('[data-testid="view-toggle"] button');
      await buttons[1].click();
      await page.waitForFunction(() => new URL(location.href).searchParams.get('view') === 'map');
      // the router's navigation is a transition: the list stays on screen until the lazily loaded map has rendered
      await page.waitForFunction(() => document.querySelector('[data-testid="filtered"]')?.getAttribute('data-view') === 'map', { timeout: 20000 });
    } finally {
      await page.browserContext().close();
      await keyed.close();
    }
  });
});
