/**
 * Plan a visit in Chromium (issue 20): a member builds a two-museum plan on a Monday from the
 * Plans page (museum search), sees the closed-stop warning on the museum closed on Mondays, takes
 * the suggested order, downloads the ICS (parsed with ical.js), adds a third museum with "Add to a
 * plan" on its page; the pages are axe-clean in en and fr and do not scroll sideways at 320 px.
 */
import { expect } from 'chai';
import ICAL from 'ical.js';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, expectAxeClean, WCAG22_BEST, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { makeCommunity, makeMeetup } from '../../events/server/test-helpers.ts';

const day = (openTime: string, closeTime: string) => ({ isOpen: true, isByAppointment: false, openTime, closeTime });
const closed = { isOpen: false, isByAppointment: false };
const week = (o: object, monday: object = closed) => ({ monday, tuesday: o, wednesday: o, thursday: o, friday: o, saturday: o, sunday: o });
const MONDAY = '2037-11-30';

describe('plans in the browser: a day plan that warns about a closed door', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let member: SignedInClient;
  const museums: any[] = [];

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
    member = await app.user({ firstName: 'Paula', lastName: 'Planner' });
    const base = { address: '1 Rue de Test', city: 'Paris', country: 'France', category: 'Art Museums', timezone: 'Europe/Paris' };
    const defs = [
      { name: uniqueName('Quai Gallery '), latitude: 48.86, longitude: 2.3266, openingHours: { defaultHours: week(day('09:30', '18:00'), day('09:30', '18:00')) } },
      { name: uniqueName('Palais Collection '), latitude: 48.8606, longitude: 2.3376, openingHours: { defaultHours: week(day('09:00', '18:00')) } },
      { name: uniqueName('Marais Museum '), latitude: 48.8575, longitude: 2.3622, openingHours: { defaultHours: week(day('10:00', '18:00'), day('10:00', '18:00')) } },
    ];
    for (const d of defs) {
      const r = await member.post('/api/museums', { ...base, ...d });
      expect(r.status, r.text).to.equal(201);
      museums.push(r.body);
    }
  });
  after(async function () {
    await browser?.close();
    await app?.close();
  });

  async function open(path: string, locale = 'en', width = 1280): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height: 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    await signInPage(page, app, member);
    await page.goto(app.url + path, { waitUntil: 'networkidle2' });
    return page;
  }

  const axe = (page: Page, what: string) => expectAxeClean(page, what, { tags: WCAG22_BEST });

  async function noSideScroll(page: Page, what: string) {
    await page.setViewport({ width: 320, height: 800 });
    await page.waitForFunction(() => window.innerWidth === 320, { timeout: 5000 });
    const o = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, vw: window.innerWidth }));
    expect(o.sw, `${what} at 320 px`).to.be.at.most(o.vw);
  }

  async function addMuseum(page: Page, m: any, stopsAfter: number) {
    await page.click('[data-testid="plan-museum-search"]', { clickCount: 3 });
    await page.type('[data-testid="plan-museum-search"]', m.name);
    const sel = `[data-testid="plan-add-museum"][data-museum-id="${m.id}"]`;
    await page.waitForSelector(sel, { timeout: 20000 });
    await page.click(sel);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="plan-stop"]').length === n, { timeout: 20000 }, stopsAfter);
  }

  it('builds a two-museum plan on a Monday, warns about the stop closed on Mondays (not on Tuesday), downloads the ICS, fits 320 px', async function () {
    const page = await open('/plans');
    await waitForText(page, 'No plans yet');
    // the nav links here for members
    expect(await page.$('a[href="/plans"]')).to.not.equal(null);
    await page.type('[data-testid="new-plan-form"] input:not([type="date"])', 'Monday in Paris');
    await page.$eval('[data-testid="new-plan-form"] input[type="date"]', (el, v) => {
      const input = el as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, MONDAY);
    await clickWhenReady(page, '[data-testid="new-plan-form"] button[type="submit"]');
    await page.waitForFunction(() => /^\/plans\/\d+$/.test(location.pathname), { timeout: 20000 });
    const planId = Number((await page.evaluate(() => location.pathname)).split('/').pop());
    await waitForText(page, 'No stops yet');

    await addMuseum(page, museums[0], 1);
    await addMuseum(page, museums[1], 2);
    // the second museum is closed on Mondays: the warning is on its stop, the first is fine
    await page.waitForSelector(`[data-testid="plan-stop"][data-museum-id="${museums[1].id}"] [data-warning="closed"]`, { timeout: 20000 });
    const texts = await page.$$eval('[data-testid="plan-stop"]', (els) => els.map((e) => (e as HTMLElement).innerText));
    expect(texts[1]).to.contain('Closed at this time');
    expect(texts[0]).to.contain('Open for your whole visit');
    expect(await page.$eval('[data-testid="plan-summary"]', (e) => (e as HTMLElement).innerText)).to.contain('1 warning');
    expect(await page.$$eval('[data-testid="plan-walk"]', (els) => els.length)).to.equal(1);
    await axe(page, 'the plan editor (en)');

    // the date moves to Tuesday: no warning
    const plan = await member.patch(`/api/plans/${planId}`, { date: '2037-12-01' });
    expect(plan.status).to.equal(200);
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForFunction(() => (document.querySelector('[data-testid="plan-summary"]') as HTMLElement | null)?.innerText.includes('No warnings'), { timeout: 20000 });
    await member.patch(`/api/plans/${planId}`, { date: MONDAY });
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForSelector('[data-warning="closed"]', { timeout: 20000 });

    // ICS: fetched as the link downloads it, parsed
    const href = await page.$eval('[data-testid="plan-ics"]', (a) => (a as HTMLAnchorElement).getAttribute('href'));
    const ics = await page.evaluate(async (h) => (await fetch(h!, { credentials: 'same-origin' })).text(), href);
    const events = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((v: any) => new ICAL.Event(v));
    expect(events.map((e: any) => e.summary)).to.deep.equal([museums[0].name, museums[1].name]);
    expect(events[0].startDate.toJSDate().toISOString()).to.equal('2037-11-30T09:00:00.000Z'); // 10:00 in Paris

    // the stated walking speed: 4.5 km/h, then 3 km/h makes the same walk longer
    expect(await page.$eval('[data-testid="plan-summary"]', (e) => (e as HTMLElement).innerText)).to.contain('4.5 km/h');
    const walkAt = async () => page.$eval('[data-testid="plan-walk"]', (e) => Number(/(\d+) min walk/.exec((e as HTMLElement).innerText)![1]));
    const fast = await walkAt();
    await page.select('[data-testid="plan-speed"]', '3');
    await page.waitForFunction(() => (document.querySelector('[data-testid="plan-summary"]') as HTMLElement | null)?.innerText.includes('3 km/h'), { timeout: 20000 });
    const slow = await walkAt();
    expect(slow).to.be.greaterThan(fast);
    const d = (await member.get(`/api/plans/${planId}`)).body.stops[1].walk.distanceMeters;
    expect(slow).to.equal(Math.ceil(d / 50));

    // 320 px: no sideways scroll on the editor
    await noSideScroll(page, 'the plan editor');
  });

  it('"Add to a plan" on a museum page adds a third stop; the suggested order is taken with one click', async function () {
    const mine = (await member.get('/api/plans')).body;
    const planId = mine[0].id;
    const page = await open(`/museum/${museums[2].slug}`);
    await clickWhenReady(page, '[data-testid="add-to-plan"]');
    await page.waitForSelector('[data-testid="add-to-plan-select"]', { timeout: 20000 });
    await clickWhenReady(page, '[data-testid="add-to-plan-submit"]');
    await page.waitForFunction((id) => location.pathname === `/plans/${id}`, { timeout: 20000 }, planId);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="plan-stop"]').length === 3, { timeout: 20000 });

    // arriving at 09:00 where the first museum opens at 09:30 → before opening; the suggestion fixes it
    const p = (await member.get(`/api/plans/${planId}`)).body;
    await member.patch(`/api/plans/${planId}/stops/${p.stops[0].id}`, { arrival: '09:00' });
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForSelector('[data-warning="before_opening"]', { timeout: 20000 });
    await page.waitForSelector('[data-testid="plan-suggestion"] button', { timeout: 20000 });
    const before = (await member.get(`/api/plans/${planId}`)).body;
    await clickWhenReady(page, '[data-testid="plan-suggestion"] button');
    await page.waitForFunction(() => !document.querySelector('[data-warning="before_opening"]'), { timeout: 20000 });
    const after = (await member.get(`/api/plans/${planId}`)).body;
    expect(after.summary.warnings).to.be.below(before.summary.warnings);
    expect(after.stops.map((s: any) => s.id)).to.deep.equal(before.suggestion.stopIds);
  });

  it('"Add to a plan" on a meetup page adds the meetup at its own time', async function () {
    const organizer = await app.user({ role: 'Ambassador' });
    const community = await makeCommunity(organizer, [member]);
    const meetup = await makeMeetup(organizer, community, { title: 'Evening sketching', date: MONDAY, startTime: '16:00', endTime: '17:30', museumId: museums[2].id });
    const planId = (await member.get('/api/plans')).body[0].id;
    const page = await open(`/meetups/${meetup.id}`);
    await clickWhenReady(page, '[data-testid="add-to-plan"]');
    await page.waitForSelector('[data-testid="add-to-plan-select"]', { timeout: 20000 });
    await clickWhenReady(page, '[data-testid="add-to-plan-submit"]');
    await page.waitForFunction((id) => location.pathname === `/plans/${id}`, { timeout: 20000 }, planId);
    // the plan page (not the meetup page it replaces) lists the meetup as its last stop
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="plan-stop"]')].some((e) => (e as HTMLElement).innerText.includes('Evening sketching')), { timeout: 20000 });
    const stops = await page.$$eval('[data-testid="plan-stop"]', (els) => els.map((e) => (e as HTMLElement).innerText));
    expect(stops[stops.length - 1]).to.contain('Evening sketching').and.contain('Meetup');
    const plan = (await member.get(`/api/plans/${planId}`)).body;
    expect(plan.stops[plan.stops.length - 1]).to.include({ arrival: '16:00', durationMinutes: 90 });
  });

  it('the Plans page and a plan are axe-clean in French and fit 320 px; a shared link opens read-only signed out', async function () {
    const page = await open('/plans', 'fr');
    await page.waitForSelector('[data-testid="plans-list"]', { timeout: 20000 });
    await waitForText(page, 'Sorties');
    await axe(page, 'the Plans page (fr)');
    await noSideScroll(page, 'the Plans page');
    const planId = (await member.get('/api/plans')).body[0].id;
    const plan = await open(`/plans/${planId}`, 'fr');
    await plan.waitForSelector('[data-testid="plan-stops"]', { timeout: 20000 });
    await axe(plan, 'the plan editor (fr)');

    const shared = (await member.patch(`/api/plans/${planId}`, { visibility: 'link' })).body;
    const context = await browser.createBrowserContext();
    const anon = await context.newPage();
    await anon.setViewport({ width: 1280, height: 900 });
    await anon.goto(`${app.url}/plans/shared/${shared.shareToken}`, { waitUntil: 'networkidle2' });
    await anon.waitForSelector('[data-testid="plan-stops"]', { timeout: 20000 });
    await waitForText(anon, "You are viewing someone else's plan.");
    expect(await anon.$('[data-testid="plan-museum-search"]')).to.equal(null);
    expect(await anon.$('[data-warning="closed"]')).to.not.equal(null);
    await axe(anon, 'a shared plan, signed out');
    await noSideScroll(anon, 'a shared plan');
    // private again: the link no longer opens it
    await member.patch(`/api/plans/${planId}`, { visibility: 'private' });
    await anon.reload({ waitUntil: 'networkidle2' });
    await waitForText(anon, 'Plan not found');
  });
  it("a member's public plans on their profile (Plans section), an empty state otherwise; axe-clean in en and fr, 320 px", async function () {
    const walker = await app.user({ firstName: 'Wanda', lastName: 'Walker' });
    const title = uniqueName('Quai walk ');
    const plan = (await walker.post('/api/plans', { title, date: MONDAY, stops: [{ museumId: museums[0].id, arrival: '10:00' }] })).body;
    const page = await open(`/profile/${walker.me.id}`);
    await page.waitForSelector('[data-testid="profile-plans"]', { timeout: 20000 });
    await waitForText(page, 'No public plans'); // a private plan is not listed
    expect(await page.$eval('[data-testid="profile-plans"]', (el) => el.textContent)).to.not.contain(title);
    await axe(page, 'a profile without public plans');
    await walker.patch(`/api/plans/${plan.id}`, { visibility: 'public' });
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForSelector(`[data-testid="profile-plans"] a[href="/plans/${plan.id}"]`, { timeout: 20000 });
    expect(await page.$eval('[data-testid="profile-plans"]', (el) => el.textContent)).to.contain(museums[0].name);
    await axe(page, 'a profile with a public plan');
    await noSideScroll(page, 'a profile with a public plan');
    const fr = await open(`/profile/${walker.me.id}`, 'fr');
    await fr.waitForSelector(`[data-testid="profile-plans"] a[href="/plans/${plan.id}"]`, { timeout: 20000 });
    await waitForText(fr, 'Sorties');
    await axe(fr, 'a profile with a public plan (fr)');
    // the viewer blocks the member: the profile says so, and no plans section (the API answers none either)
    expect((await member.post(`/api/user/${walker.me.id}/block`, {})).status).to.be.below(300);
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForSelector('.acc-profile', { timeout: 20000 });
    expect(await page.$('[data-testid="profile-plans"]')).to.equal(null);
    expect(await page.$(`a[href="/plans/${plan.id}"]`)).to.equal(null);
  });
});
