/**
 * Museum facts in Chromium (issue 20): the best-time-to-visit histogram (today at the museum by
 * default, relative to the busiest hour, another weekday on request, a table for screen readers,
 * en and fr, 320 px without horizontal scroll, axe clean) and "usually busy now" on the page and
 * the Discover card; the structured correction flow: a visitor at the museum answers "no, closed
 * today" after checking in, with another visitor's same answer it becomes one suggestion, an Admin
 * approves it in one click in the admin queue and the museum page says closed; a manager attaches
 * a photo to an accessibility fact in the edit dialog, the page shows it with its alt text, and
 * removes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, axeSerious, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt, type Museum } from '../public.ts';
import { isoDate, localDateTime } from '../shared/opening-hours.ts';

const allDay = { isOpen: true, isByAppointment: false, openTime: '00:00', closeTime: '00:00' };
const week = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, allDay]));
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const TZ = 'Asia/Tokyo'; // no DST: the same local hour every week

describe('museums in the browser: best time to visit and structured corrections', function () {
  this.timeout(180000);
  let app: TestApp;
  let browser: Browser;
  let admin: SignedInClient;
  let busy: Museum;
  let quiet: Museum;
  let fixMe: Museum;
  const word = `Tempora${uniqueName('').slice(0, 5)}`;

  before(async () => {
    app = await startE2EApp({ plugins: { config: { museums: { busyMinCheckIns: 5 } } } });
    browser = await launchBrowser();
    admin = await app.user({ role: 'Admin' });
    const svc = app.services.get(MuseumsService);
    const base = { address: '7 Ueno Park', city: 'Tokyo', country: 'Japan', category: 'Art Museums', timezone: TZ, latitude: 35.7188, longitude: 139.7765, openingHours: { defaultHours: week } as any };
    busy = await svc.createMuseum({ ...base, name: `${word} Crowded` }, admin.me.id);
    quiet = await svc.createMuseum({ ...base, name: `${word} Newcomer`, address: '8 Ueno Park' }, admin.me.id);
    fixMe = await svc.createMuseum({ ...base, name: `${word} Mended`, address: '9 Ueno Park' }, admin.me.id);
    // verified check-ins at set times: 4 at this local hour on today's weekday (1–4 weeks ago),
    // 2 at this hour on yesterday's weekday; so now is the busiest hour (100 %), yesterday's 50 %
    const now = Date.now();
    const rows: Date[] = [1, 2, 3, 4].map((w) => new Date(now - w * 7 * 86400000)).concat([1, 2].map((w) => new Date(now - w * 7 * 86400000 - 86400000)));
    for (const t of rows) {
      const u = await app.user();
      await app.knex('museum_checkins').insert({ user_id: u.me.id, museum_id: busy.id, local_date: isoDate(localDateTime(t, TZ)), created_at: t, verified: true });
    }
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function pageAs(c: SignedInClient | null, locale: 'en' | 'fr' = 'en', width = 1280): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height: 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    if (c) await signInPage(page, app, c);
    return page;
  }

  it('draws the histogram for today at the museum, relative to the busiest hour; another weekday on request; busy now on the page', async () => {
    const page = await pageAs(null);
    try {
      await page.goto(`${app.url}/museum/${busy.slug}`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="best-time"]', { timeout: 20000 });
      const here = localDateTime(new Date(), TZ);
      const today = DAYS.indexOf(here.weekday);
      const hour = Math.floor(here.minutes / 60);
      expect(await page.$eval('[data-testid="best-time-day"]', (s) => (s as HTMLSelectElement).value)).to.equal(String(today));
      const bars = async () => page.$$eval('.mz-besttime__bar', (rs) => rs.map((r) => [Number(r.getAttribute('data-hour')), Number(r.getAttribute('data-value'))]));
      const api = (await app.client().get(`/api/museums/${busy.id}/busy-times`)).body;
      expect(await bars()).to.deep.equal(api.relative[today].map((v: number, h: number) => [h, v]));
      expect(api.relative[today][hour] + (api.relative[today][hour - 1] ?? 0)).to.be.at.least(100); // the hour may have turned since
      // the same numbers in the table for screen readers
      const cells = await page.$$eval('[data-testid="best-time-table"] tbody td', (tds) => tds.map((td) => td.textContent));
      expect(cells).to.have.length(24);
      expect(cells).to.include('100%');
      // yesterday's weekday: half as busy at this hour
      const yesterday = (today + 6) % 7;
      await page.select('[data-testid="best-time-day"]', String(yesterday));
      await page.waitForFunction((d) => document.querySelector('[data-testid="best-time-table"] caption')!.textContent!.includes(d), {}, new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + yesterday))));
      expect((await bars()).filter(([, v]) => v > 0).map(([, v]) => v)).to.deep.equal(api.relative[yesterday].filter((v: number) => v > 0));
      expect(api.relative[yesterday].filter((v: number) => v > 0)).to.deep.equal([50]);
      // usually busy now, in the hero
      const museum = (await app.client().get(`/api/museums/${busy.id}`)).body;
      if (museum.busyNow) expect(await page.$eval('.mz-hero .mz-busy', (b) => b.getAttribute('data-busy'))).to.equal(museum.busyNow);
      expect(await axeSerious(page)).to.deep.equal([]);
    } finally {
      await page.browserContext().close();
    }
  });

  it('says why there is no histogram below the minimum; fr at 320 px without horizontal scroll, axe clean', async () => {
    const page = await pageAs(null, 'fr', 320);
    try {
      await page.goto(`${app.url}/museum/${quiet.slug}`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="best-time-empty"]', { timeout: 20000 });
      expect(await page.$eval('[data-testid="best-time-empty"]', (p) => p.textContent)).to.equal('Pas encore assez de visites pour indiquer le meilleur moment (0 visite vérifiée sur 5 nécessaires).');
      await page.goto(`${app.url}/museum/${busy.slug}`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="best-time"]', { timeout: 20000 });
      await waitForText(page, 'Meilleur moment pour venir');
      expect(await page.$eval('[data-testid="best-time-table"] caption', (c) => c.textContent)).to.match(/^Visites du \S+ par heure/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(320);
      expect(await axeSerious(page)).to.deep.equal([]);
    } finally {
      await page.browserContext().close();
    }
  });

  it('Discover cards say "Usually busy now" when the museum usually is', async function () {
    const museum = (await app.client().get(`/api/museums/${busy.id}`)).body;
    if (museum.busyNow !== 'busy') this.skip(); // the local hour turned between the set-up and now
    const page = await pageAs(null);
    try {
      await page.goto(`${app.url}/discover?q=${encodeURIComponent(word)}`, { waitUntil: 'load' });
      await page.waitForSelector(`[data-museum-id="${busy.id}"] .mz-busy`, { timeout: 20000 });
      expect(await page.$eval(`[data-museum-id="${busy.id}"] .mz-busy`, (b) => b.textContent)).to.equal('Usually busy now');
      expect(await page.$(`[data-museum-id="${quiet.id}"] .mz-busy`)).to.equal(null);
    } finally {
      await page.browserContext().close();
    }
  });

  it('a visitor answers "no, closed today" in a structured form; with a second visitor it is one suggestion, approved in one click, and the museum is closed', async () => {
    // the first visitor, through the API
    const first = await app.user();
    expect((await first.post(`/api/museums/${fixMe.id}/checkin`, positionAt(fixMe))).body.checkIn.verified).to.equal(true);
    expect((await first.post(`/api/museums/${fixMe.id}/fact-check`, { group: 'hours', agrees: false, change: { hours: { closed: true } } })).status).to.equal(201);

    // the second, in the browser, at the museum
    const visitor = await app.user();
    const page = await pageAs(visitor); // wide: at phone sizes the fixed bottom nav may cover a button Puppeteer clicks
    try {
      await page.browserContext().overridePermissions(app.url, ['geolocation']);
      await page.setGeolocation({ latitude: 35.7188, longitude: 139.7765, accuracy: 15 });
      await page.goto(`${app.url}/museum/${fixMe.slug}`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="checkin-button"]', { timeout: 20000 });
      expect(await page.$eval('.mz-hero .mz-open-badge', (b) => b.getAttribute('data-status'))).to.not.equal('closed');
      await clickWhenReady(page, '[data-testid="checkin-button"]');
      // (the check-in first asks the browser for its position: up to 10 s)
      await page.waitForSelector('[data-testid="fact-question"][data-group="hours"]', { timeout: 30000 });
      await clickWhenReady(page, '[data-testid="fact-question"] [data-answer="no"]');
      await page.waitForSelector('[data-testid="correction-hours"]');
      expect(await axeSerious(page)).to.deep.equal([]);
      // keyboard: the "Closed today" choice is a real radio with its label
      await clickWhenReady(page, 'input[name="mz-fix-hours"][value="closed"]');
      await page.type('#mz-factcheck-correction', 'A sign on the door');
      const answer = page.waitForResponse((r) => r.url().endsWith(`/api/museums/${fixMe.id}/fact-check`) && r.request().method() === 'POST');
      await clickWhenReady(page, '[data-testid="fact-correction"] button[type="submit"]');
      const res = await answer;
      expect(JSON.parse(res.request().postData()!)).to.deep.include({ group: 'hours', agrees: false, change: { hours: { closed: true } }, correction: 'A sign on the door' });
      const body = await res.json();
      expect(body.suggestionId).to.be.a('number');
      await waitForText(page, "Other visitors said the same: a correction is now waiting for the museum's manager.");
    } finally {
      await page.browserContext().close();
    }

    // the Admin approves it in the queue, in one click
    const adminPage = await pageAs(admin);
    try {
      await adminPage.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
      await adminPage.waitForFunction(
        (name) => {
          const li = [...document.querySelectorAll('.admin-suggestion')].find((x) => x.textContent!.includes(name) && x.textContent!.includes('A sign on the door'));
          if (li) li.setAttribute('data-e2e', 'target');
          else (document.querySelector('.admin-collapsible__toggle[aria-expanded="false"]') as HTMLElement | null)?.click();
          return Boolean(li);
        },
        { timeout: 20000 },
        fixMe.name,
      );
      // the queue reads the correction (the hours now and proposed), not its JSON
      const shown = await adminPage.$eval('[data-e2e="target"]', (li) => (li as HTMLElement).innerText);
      expect(shown).to.include('Proposed').and.to.include('Closed');
      expect(shown).to.not.include('openingHours');
      expect(shown).to.not.include('{');
      await clickWhenReady(adminPage, '[data-e2e="target"] button.is-success');
      await adminPage.waitForFunction((name) => [...document.querySelectorAll('.admin-suggestion')].some((li) => li.textContent!.includes(name) && li.querySelector('.tag.is-success')), { timeout: 20000 }, fixMe.name);
    } finally {
      await adminPage.browserContext().close();
    }

    const after = await pageAs(null);
    try {
      await after.goto(`${app.url}/museum/${fixMe.slug}`, { waitUntil: 'load' });
      await after.waitForSelector('.mz-hero .mz-open-badge', { timeout: 20000 });
      expect(await after.$eval('.mz-hero .mz-open-badge', (b) => b.getAttribute('data-status'))).to.equal('closed');
      const m = (await app.client().get(`/api/museums/${fixMe.id}`)).body;
      expect(m.openingHours.exceptions[0]).to.deep.include({ startDate: isoDate(localDateTime(new Date(), TZ)), closed: true, note: 'Reported by visitors' });
    } finally {
      await after.browserContext().close();
    }
  });

  it("a manager attaches a photo to the step-free entrance in the edit dialog; the page shows it with its label and note as alt text; it can be removed", async () => {
    const manager = await app.user({ role: 'Museum Manager' });
    await app.services.get(MuseumsService).setManager(quiet.id, manager.me.id, admin.me.id);
    await manager.patch(`/api/museums/${quiet.id}/edit`, { accessibility: { stepFreeEntrance: { value: 'yes', note: 'Ramp on the left' } } });
    const file = path.join(os.tmpdir(), `ramp-${uniqueName('')}.jpg`);
    fs.writeFileSync(file, await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 120, g: 140, b: 90 } } }).jpeg().toBuffer());
    const page = await pageAs(manager);
    try {
      await page.goto(`${app.url}/museum/${quiet.slug}`, { waitUntil: 'load' });
      await clickWhenReady(page, '[data-testid="edit-button"]');
      const input = await page.waitForSelector('[data-testid="access-photo-editor-stepFreeEntrance"] input[type="file"]');
      const uploaded = page.waitForResponse((r) => r.url().endsWith(`/api/museums/${quiet.id}/accessibility/stepFreeEntrance/photo`) && r.request().method() === 'POST');
      await (input as any).uploadFile(file);
      expect((await uploaded).status()).to.equal(200);
      await page.waitForSelector('[data-testid="access-photo-editor-stepFreeEntrance"] img.mz-access-photo__thumb');
      expect(await axeSerious(page)).to.deep.equal([]);
      await clickWhenReady(page, '.modal-card button[aria-label="Close"]');
      const shown = await page.waitForSelector('[data-testid="access-photo-stepFreeEntrance"] img', { timeout: 20000 });
      expect(await shown!.evaluate((img) => img.getAttribute('alt'))).to.equal('Step-free entrance: Ramp on the left');
      expect(await axeSerious(page)).to.deep.equal([]);
      const url = (await app.client().get(`/api/museums/${quiet.id}`)).body.accessibility.stepFreeEntrance.photo;
      expect(url).to.match(/^\/uploads\/museums\/accessibility\//);

      await clickWhenReady(page, '[data-testid="edit-button"]');
      await page.waitForSelector('[data-testid="access-photo-editor-stepFreeEntrance"] button.is-text');
      const removed = page.waitForResponse((r) => r.url().endsWith(`/api/museums/${quiet.id}/accessibility/stepFreeEntrance/photo`) && r.request().method() === 'DELETE');
      await clickWhenReady(page, '[data-testid="access-photo-editor-stepFreeEntrance"] button.is-text');
      expect((await removed).status()).to.equal(200);
      await clickWhenReady(page, '.modal-card button[aria-label="Close"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="access-photo-stepFreeEntrance"]'), { timeout: 20000 });
      expect((await app.client().raw('GET', url)).status).to.equal(404);
    } finally {
      await page.browserContext().close();
      fs.rmSync(file, { force: true });
    }
  });
});
