/**
 * Museums in Debian's Chromium against the real app: open a museum and see merged hours and
 * open-now, follow it, suggest an edit as a member, edit it directly as its manager, search from
 * Discover (a list and a small note without a maps key; the map's failure text with a key and no network).
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { clickText, launchBrowser, signInPage, startE2EApp, waitForHydrated, waitForText, clickWhenReady, holdRequests } from '../../../core/testing/browser.ts';
import { uniqueName, waitFor, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, type Museum } from '../public.ts';
import { BadgesService } from '../../badges/public.ts';
import { openStatusAt } from '../shared/opening-hours.ts';

const open = (o: string, c: string) => ({ isOpen: true, isByAppointment: false, openTime: o, closeTime: c });
const closed = { isOpen: false, isByAppointment: false };
const HOURS = {
  defaultHours: { monday: open('10:00', '17:00'), tuesday: open('10:00', '17:00'), wednesday: open('10:00', '17:00'), thursday: open('10:00', '17:00'), friday: open('10:00', '21:00'), saturday: closed, sunday: closed },
  seasonalHours: [],
};

describe('museums in the browser', function () {
  this.timeout(120000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let museum: Museum;
  let member: SignedInClient;
  let manager: SignedInClient;
  const word = `Zephyrine${uniqueName('').slice(0, 5)}`;

  before(async () => {
    app = await startE2EApp();
    browser = await launchBrowser();
    member = await app.user({ firstName: 'Mia', lastName: 'Member' });
    manager = await app.user({ role: 'Museum Manager' });
    const admin = await app.user({ role: 'Admin' });
    const svc = app.services.get(MuseumsService);
    museum = await svc.createMuseum(
      {
        name: `${word} Museum of Glass`,
        description: 'A museum of glass. '.repeat(20).trim(),
        address: '1 Harbor Road',
        city: 'Tacoma',
        state: 'WA',
        zipCode: '98402',
        country: 'United States',
        category: 'Art Museums',
        latitude: 47.2459,
        longitude: -122.4337,
        phone: '+1 253 284 4750',
        website: 'https://www.museumofglass.org',
        amenities: ['restrooms', 'gift_shop', 'cafe_dining'],
        openingHours: HOURS,
      },
      admin.me.id,
    );
    await svc.setManager(museum.id, manager.me.id, admin.me.id);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  beforeEach(async () => {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
  });
  afterEach(async () => {
    await page?.browserContext().close();
  });

  async function openMuseum() {
    await page.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="hours"]', { timeout: 20000 });
  }

  it('shows the museum with merged hours, open-now in its zone, Read more and amenities', async () => {
    await openMuseum();
    expect(await page.$eval('h1', (h) => h.textContent)).to.include(`${word} Museum of Glass`);
    const rows = await page.$$eval('[data-testid="hours"] tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
    expect(rows).to.deep.equal([
      ['Monday – Thursday', '10:00 AM – 5:00 PM'],
      ['Friday', '10:00 AM – 9:00 PM'],
      ['Saturday – Sunday', 'Closed'],
    ]);
    const expected = openStatusAt(HOURS, new Date(), 'America/Los_Angeles').status;
    const badge = await page.$eval('.mz-hero .mz-open-badge', (b) => [b.getAttribute('data-status'), b.textContent]);
    expect(badge[0]).to.equal(expected);
    expect(badge[1]).to.equal(expected === 'open' ? 'Open now' : 'Closed');
    // description over 200 characters is cut with Read more
    const before = await page.$eval('[data-testid="description"]', (p) => p.textContent!);
    expect(before).to.include('Read more');
    // the page is server-rendered: a click before React has hydrated the button does nothing
    await waitForHydrated(page, '[data-testid="description"] button, [data-testid="description"] a', { text: 'Read more' });
    await clickText(page, 'Read more');
    await waitForText(page, 'Show less');
    expect(await page.$$eval('[data-testid="amenities"] li', (lis) => lis.map((l) => l.textContent!.trim()))).to.deep.equal(['Restrooms', 'Gift Shop', 'Café & Dining']);
    await waitForText(page, 'Amenities & Services');
    // the insights plugin's section arrives with its own lazily loaded code: wait for it
    await waitForText(page, 'Community Insights');
    // visitors see no Edit / Suggest Edit
    expect(await page.$('[data-testid="edit-button"]')).to.equal(null);
  });

  it('shows Museum not found for an unknown museum', async () => {
    await page.goto(`${app.url}/museum/no-such-museum-${word.toLowerCase()}`, { waitUntil: 'load' });
    await waitForText(page, 'Museum not found');
  });

  it('a member follows the museum', async () => {
    await signInPage(page, app, member);
    await openMuseum();
    await page.waitForSelector('[data-testid="follow-button"]');
    expect(await page.$eval('[data-testid="follow-button"]', (b) => b.textContent)).to.equal('Follow');
    await clickWhenReady(page, '[data-testid="follow-button"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="follow-button"]')!.textContent === 'Following');
    await waitForText(page, '1 follower');
    const rows = await app.knex('museum_follows').where({ museum_id: museum.id, user_id: member.me.id });
    expect(rows).to.have.length(1);
  });

  it('a check-in hands the badges it earned to the badges plugin (window event), which celebrates each once', async () => {
    const badge = await app.services.get(BadgesService).createBadge({
      name: uniqueName('First Visit '),
      description: 'Checked in at a museum.',
      icon: '🎟️',
      color: '#0EA5E9',
      requirement: { type: 'check_ins', count: 1 },
    });
    const visitor = await app.user({ firstName: 'Vera', lastName: 'Visitor' });
    await signInPage(page, app, visitor);
    // the visitor's phone is at the museum: a verified check-in, the kind badges count
    await page.browserContext().overridePermissions(app.url, ['geolocation']);
    await page.setGeolocation({ latitude: 47.2459, longitude: -122.4337, accuracy: 15 });
    // the celebration's code loads lazily after the page: hold it until the check-in's answer is
    // back, as on a slow phone where the member checks in as soon as the page is drawn
    const celebration = await holdRequests(page, (u) => /\/assets\/BadgeCelebrations-[^/]+\.js$/.test(u.pathname));
    await openMuseum();
    await page.evaluate(() => {
      (window as any).__earned = [];
      window.addEventListener('curio:badges-earned', (e) => (window as any).__earned.push((e as CustomEvent).detail));
    });
    await page.waitForSelector('[data-testid="checkin-button"]');
    const answer = page.waitForResponse((r) => r.url().endsWith(`/api/museums/${museum.id}/checkin`) && r.request().method() === 'POST');
    await clickWhenReady(page, '[data-testid="checkin-button"]');
    const checkIn = await (await answer).json();
    expect(checkIn.badges.map((b: any) => b.id)).to.include(badge.id);
    await waitForText(page, 'Checked in!');
    // the answer is in; the celebration's code is held until then, however late the page asks for
    // it (on a busy machine the top bar's slots may not have asked yet)
    await waitFor(async () => celebration.held() > 0, { timeout: 20000 });
    celebration.release();
    // the page hands over the answer's badges as they are (the notification bell may announce the
    // same badge again when it sees the new notification: the badges plugin celebrates it once)
    await page.waitForFunction((want) => (window as any).__earned.some((d: unknown) => JSON.stringify(d) === want), { timeout: 15000 }, JSON.stringify(checkIn.badges));
    // the celebration comes from the badges plugin, once: the museum page shows no toast of its own
    const toasts = () => page.$$eval('.curio-toast', (ts, name) => ts.map((t) => t.textContent ?? '').filter((t) => t.includes(name as string)), badge.name);
    await page.waitForFunction((name) => [...document.querySelectorAll('.curio-toast')].some((t) => t.textContent!.includes('Badge earned!') && t.textContent!.includes(name)), { timeout: 15000 }, badge.name);
    await new Promise((r) => setTimeout(r, 500));
    expect(await toasts()).to.have.length(1);
  });

  it('a member suggests an edit: only the changed field is stored, pending', async () => {
    await signInPage(page, app, member);
    await openMuseum();
    await page.waitForSelector('[data-testid="edit-button"]');
    // server-rendered: a click before React has hydrated the button does nothing
    await waitForHydrated(page, '[data-testid="edit-button"]');
    expect(await page.$eval('[data-testid="edit-button"]', (b) => b.textContent)).to.equal('Suggest Edit');
    await clickWhenReady(page, '[data-testid="edit-button"]');
    await waitForText(page, 'Suggest Museum Edit');
    // nothing changed yet
    await clickText(page, 'Submit Suggestion');
    await waitForText(page, 'No changes detected');
    await page.click('#mz-edit-phone', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.type('#mz-edit-phone', '+1 253 555 0100');
    await page.type('#mz-edit-reason', 'New switchboard number');
    await clickText(page, 'Submit Suggestion');
    await waitForText(page, 'Suggestion Submitted');
    const rows = await app.knex('museum_edit_suggestions').where({ museum_id: museum.id, user_id: member.me.id });
    expect(rows).to.have.length(1);
    expect(rows[0].status).to.equal('pending');
    expect(rows[0].reason).to.equal('New switchboard number');
    expect(typeof rows[0].suggested_changes === 'string' ? JSON.parse(rows[0].suggested_changes) : rows[0].suggested_changes).to.deep.equal({ phone: '+1 253 555 0100' });
  });

  it('its manager edits directly: Saturday opens, the hours merge again', async () => {
    await signInPage(page, app, manager);
    await openMuseum();
    await page.waitForSelector('[data-testid="edit-button"]');
    // server-rendered: a click before React has hydrated the button does nothing
    await waitForHydrated(page, '[data-testid="edit-button"]');
    expect(await page.$eval('[data-testid="edit-button"]', (b) => b.textContent)).to.equal('Edit');
    await clickWhenReady(page, '[data-testid="edit-button"]');
    await waitForText(page, 'Edit Museum Information');
    await page.select('select[aria-label="Saturday status"]', 'open');
    await page.select('select[aria-label="Saturday opening time"]', '10:00');
    await page.select('select[aria-label="Saturday closing time"]', '17:00');
    await page.select('select[aria-label="Friday closing time"]', '17:00');
    // the time choices read as 12-hour times
    expect(await page.$eval('select[aria-label="Saturday closing time"] option[value="13:30"]', (o) => o.textContent)).to.equal('1:30 PM');
    await clickText(page, 'Save Changes');
    await waitForText(page, 'Museum Updated');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="hours"] tr').length === 2);
    const rows = await page.$$eval('[data-testid="hours"] tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
    expect(rows).to.deep.equal([
      ['Monday – Saturday', '10:00 AM – 5:00 PM'],
      ['Sunday', 'Closed'],
    ]);
    const stored = (await app.client().get(`/api/museums/${museum.id}`)).body;
    expect(stored.openingHours.defaultHours.saturday).to.deep.equal(open('10:00', '17:00'));
  });

  it('searches from Discover, opens a result; an unknown name offers to create the museum', async () => {
    await signInPage(page, app, member);
    await page.goto(`${app.url}/discover`, { waitUntil: 'load' });
    await page.waitForSelector('#mz-search-input');
    // no key configured: a list and a small note, no developer error for a member (issue 21 #2)
    await page.waitForSelector('[data-testid="maps-note"]', { timeout: 20000 });
    expect(await page.evaluate(() => document.body.innerText)).not.to.include('GOOGLE_MAPS_API_KEY');
    await page.type('#mz-search-input', word.slice(0, 8));
    await page.waitForSelector(`[data-testid="search-results"] [data-museum-id="${museum.id}"]`, { timeout: 20000 });
    await clickWhenReady(page, `[data-testid="search-results"] [data-museum-id="${museum.id}"] a`);
    await page.waitForSelector('[data-testid="hours"]');
    expect(new URL(page.url()).pathname).to.equal(`/museum/${museum.slug}`);

    await page.goto(`${app.url}/search?q=qqxxzzwwnothing`, { waitUntil: 'load' });
    await waitForText(page, 'No results found');
    await page.waitForSelector('[data-testid="create-museum-hint"] a[href="/create-museum"]');
    // Discover is the active nav item on /search
    const active = await page.$$eval('.curio-navlink', (links) => links.filter((l) => l.classList.contains('is-active') || l.getAttribute('aria-current') === 'page').map((l) => l.textContent));
    expect(active.join(' ')).to.include('Discover');
  });

  it('with a key but no network to Google, the map says it failed to load', async () => {
    const keyed = await startE2EApp({ googleMapsApiKey: 'test-browser-key' });
    try {
      await page.setRequestInterception(true);
      page.on('request', (r) => {
        if (/googleapis\.com|gstatic\.com/.test(r.url())) void r.abort('internetdisconnected');
        else void r.continue();
      });
      await page.goto(`${keyed.url}/discover?view=map`, { waitUntil: 'load' });
      await waitForText(page, 'Failed to load Google Maps. Please check your connection and try again.', 30000);
      expect(await page.$eval('[data-map-state="failed"]', (b) => b.getAttribute('role'))).to.equal('alert');
    } finally {
      await keyed.close();
    }
  });
});
