/**
 * The admin suggestion queue in Chromium at 320 px: a structured correction from visitors' "Still
 * right?" answers (closed today; a new adult price) reads as the fact, its value now and the
 * proposed one, worded as the museum page words them (en and fr), never as JSON; the Approve
 * button is reached with Tab, names its museum to screen readers, and applies the correction.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, axeSerious, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';
import { MuseumsService, positionAt, type Museum } from '../../museums/public.ts';
import { isoDate, localDateTime } from '../../museums/shared/opening-hours.ts';

const TZ = 'Europe/Paris';
const open = { isOpen: true, isByAppointment: false, openTime: '09:00', closeTime: '18:00' };
const HOURS = { defaultHours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, open])) };
const locale = (plugin: string, lang: string) => JSON.parse(fs.readFileSync(new URL(`../../${plugin}/locales/${lang}.json`, import.meta.url), 'utf8'));
const text = (page: Page, sel: string) => page.$eval(sel, (e) => (e as HTMLElement).innerText.replace(/[\u202f\u00a0]/g, ' '));
const flat = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('admin: structured corrections in the suggestion queue (browser)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  let admin: SignedInClient;
  let closedToday: Museum;
  let dearer: Museum;
  const today = () => isoDate(localDateTime(new Date(), TZ));

  /** A museum with hours, prices and a phone, and the answers of two visitors who checked in there. */
  async function corrected(name: string, group: string, change: unknown) {
    const m = await app.services.get(MuseumsService).createMuseum({ name, address: '5 Rue du Bac', city: uniqueName('Ville'), country: 'France', latitude: 48.85, longitude: 2.35, timezone: TZ } as any, admin.me.id);
    const edit = await admin.patch(`/api/museums/${m.id}/edit`, {
      openingHours: HOURS,
      admission: { currency: 'EUR', prices: [{ visitorType: 'adult', cents: 1200 }, { visitorType: 'child', cents: 0 }], freeRules: [] },
      phone: '+33 1 00 00 00 00',
    });
    expect(edit.status, edit.text).to.equal(200);
    let last: any;
    for (let i = 0; i < 2; i++) {
      const v = await app.user();
      expect((await v.post(`/api/museums/${m.id}/checkin`, positionAt(edit.body))).body.checkIn.verified).to.equal(true);
      last = await v.post(`/api/museums/${m.id}/fact-check`, { group, agrees: false, change });
      expect(last.status, last.text).to.equal(201);
    }
    expect(last.body.suggestionId, 'two visitors make a suggestion').to.be.a('number');
    return edit.body as Museum;
  }

  before(async () => {
    app = await startE2EApp();
    browser = await launchBrowser();
    admin = await app.user({ role: 'Admin' });
    const word = uniqueName('Correct').replace(/[^A-Za-z]/g, '').slice(0, 14);
    closedToday = await corrected(`${word} Closed Today`, 'hours', { hours: { closed: true } });
    dearer = await corrected(`${word} Dearer`, 'admission', { admission: { adult: 1400 } });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function adminPage(lang: 'en' | 'fr'): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 320, height: 800 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), lang);
    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="suggested-changes"]', { timeout: 20_000 });
    return page;
  }

  /** The suggestion item of a museum (pending ones come first). */
  const item = (name: string) => `li.admin-suggestion[data-museum="${name}"]`;

  it('shows the correction fact by fact (now / proposed) in English at 320 px, and Approve by keyboard applies it', async () => {
    const page = await adminPage('en');
    try {
      const en = { museums: locale('museums', 'en'), admin: locale('admin', 'en') };
      await page.waitForSelector(item(closedToday.name));
      // hours: today's date as the museum page writes it, the usual hours now, closed as proposed
      const date = new Intl.DateTimeFormat('en', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${today()}T00:00:00Z`));
      const hours = await text(page, `${item(closedToday.name)} [data-field="openingHours"]`);
      expect(hours).to.include(en.museums.fields.openingHours);
      expect(hours).to.include(flat(date));
      expect(hours).to.match(/Now:\s*9:00 AM – 6:00 PM/);
      expect(hours).to.match(/Proposed:\s*Closed — Reported by visitors/);
      // only the fact that changes: no weekday rows, no JSON
      expect(hours).to.not.match(/Monday|Tuesday/);
      const all = await text(page, '.admin-suggestions');
      expect(all).to.not.match(/[{}"]|defaultHours|visitorType|cents/);
      // admission: the adult price only, in euros
      const prices = await text(page, `${item(dearer.name)} [data-field="admission"]`);
      expect(prices).to.include(en.museums.admission.title);
      expect(prices).to.match(/Adult\s*Now:\s*€12\.00\s*Proposed:\s*€14\.00/);
      expect(prices).to.not.include('Child');
      // 320 px: nothing sticks out sideways; the panel is clean for axe
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(320);
      expect(await axeSerious(page, { include: '.admin-suggestions' })).to.deep.equal([]);

      // the keyboard: Tab from the panel's toggle reaches this suggestion's Approve, which names its museum
      const approve = `${item(closedToday.name)} button.is-success`;
      await page.focus('.admin-collapsible__toggle');
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.$eval(approve, (b) => b === document.activeElement);
      }
      expect(reached, 'Approve reached with Tab').to.equal(true);
      expect(await page.$eval(approve, (b) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent)).to.equal(closedToday.name);
      await page.keyboard.press('Enter');
      await waitForText(page, en.admin.suggestions.approved);
      await page.waitForFunction((sel) => document.querySelector(sel)?.querySelector('.tag.is-success'), {}, item(closedToday.name));
      // applied: the museum is closed today, as the visitors said
      const after = (await app.client().get(`/api/museums/${closedToday.id}`)).body;
      expect(after.openingHours.exceptions[0]).to.deep.include({ startDate: today(), closed: true, note: 'Reported by visitors' });
      expect(after.isOpen).to.equal(false);
      // reviewed: the proposed values alone (no "now" any more)
      const reviewed = await text(page, `${item(closedToday.name)} [data-testid="suggested-changes"]`);
      expect(reviewed).to.match(/Proposed:/);
      expect(reviewed).to.not.match(/Now:/);
    } finally {
      await page.browserContext().close();
    }
  });

  it('reads the same in French (prices and labels in fr) and approves by click', async () => {
    const page = await adminPage('fr');
    try {
      const fr = { museums: locale('museums', 'fr'), admin: locale('admin', 'fr') };
      await page.waitForSelector(item(dearer.name));
      const prices = await text(page, `${item(dearer.name)} [data-field="admission"]`);
      expect(prices).to.include(fr.museums.admission.title);
      expect(prices).to.include(fr.museums.admission.visitor.adult);
      expect(prices).to.include(`${flat(fr.admin.suggestions.now)} 12,00 €`);
      expect(prices).to.include(`${flat(fr.admin.suggestions.proposed)} 14,00 €`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(320);
      await clickWhenReady(page, `${item(dearer.name)} button.is-success`);
      await waitForText(page, fr.admin.suggestions.approved);
      const after = (await app.client().get(`/api/museums/${dearer.id}`)).body;
      expect(after.admission.prices).to.deep.equal([
        { visitorType: 'adult', cents: 1400 },
        { visitorType: 'child', cents: 0 },
      ]);
    } finally {
      await page.browserContext().close();
    }
  });
});
