/**
 * Earning a badge, seen in Chromium: check-ins over HTTP earn it, the signed-in page celebrates it
 * with a toast, the bell shows the unread count, the inbox lists it (mark read, mark all read,
 * follow the link), and the profile shows the badge.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type TestApp } from '../../../core/testing/index.ts';
import { ROOT } from '../../../core/config.ts';
import { BadgesService } from '../public.ts';
import { MuseumsService, positionAt, type Museum } from '../../museums/public.ts';
import { NotificationsService } from '../../notifications/public.ts';

describe('badges and notifications in the browser', function () {
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

  beforeEach(async function () {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 800 });
  });

  afterEach(async function () {
    await page?.browserContext().close();
  });

  const bellCount = () => page.evaluate(() => document.querySelector('.curio-bell__count')?.textContent ?? null);

  it('earning a badge by check-ins: toast, bell count, inbox, profile', async function () {
    const member = await app.user({ firstName: 'Marie', lastName: 'Curie' });
    const badge = await app.services.get(BadgesService).createBadge({
      name: uniqueName('Explorer '),
      description: 'Checked in at museums twice.',
      icon: '🧭',
      color: '#0EA5E9',
      requirement: { type: 'check_ins', count: 2 },
    });
    const museums = app.services.get(MuseumsService);
    const ids: number[] = [];
    const made: Museum[] = [];
    for (let i = 0; i < 2; i++) made.push(await museums.createMuseum({ name: uniqueName('Museum '), address: '1 Main St', city: 'Paris', country: 'France', latitude: 48.8606 + i * 0.0002, longitude: 2.3376 } as any, null));
    for (const m of made) ids.push(m.id);

    await signInPage(page, app, member);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.curio-bell', { timeout: 20000 });
    expect(await bellCount()).to.equal(null);

    // two check-ins (the second earns the badge)
    // verified check-ins: the member's phone is at each museum (positionAt)
    expect((await member.post(`/api/museums/${ids[0]}/checkin`, positionAt(made[0]))).status).to.equal(201);
    const second = await member.post(`/api/museums/${ids[1]}/checkin`, positionAt(made[1]));
    expect(second.status).to.equal(201);
    expect(second.body.badges.map((b: any) => b.id)).to.include(badge.id);

    // navigating re-checks the bell: the new badge notification is celebrated (the bell opens its
    // dropdown; "See all notifications" goes to the inbox)
    await clickWhenReady(page, '.curio-bell');
    await (await page.waitForSelector('.curio-bell__panel a[href="/notifications"]'))!.click();
    await page.waitForFunction(() => location.pathname === '/notifications');
    await page.waitForFunction((name) => [...document.querySelectorAll('.curio-toast')].some((t) => t.textContent!.includes('Badge earned!') && t.textContent!.includes(name)), { timeout: 15000 }, badge.name);
    await page.waitForFunction(() => document.querySelector('.curio-bell__count')?.textContent === '1', { timeout: 15000 });
    expect(await page.$eval('.curio-bell', (a) => a.getAttribute('aria-label'))).to.equal('Notifications, 1 unread');

    // the inbox lists it, unread
    await waitForText(page, `You earned the 🧭 ${badge.name} badge: Checked in at museums twice.`);
    expect(await page.$$eval('.curio-notification.is-unread', (els) => els.length)).to.equal(1);

    // more notifications, then one marked read, then all
    const notifications = app.services.get(NotificationsService);
    await notifications.notify([member.me.id], { type: 'admin', title: 'Museum Night', message: 'Free entry on Saturday.', priority: 'urgent', link: '/notifications?from=admin' });
    await notifications.notify([member.me.id], { type: 'admin', title: 'Welcome', message: 'Glad you are here.' });
    await page.reload({ waitUntil: 'networkidle0' });
    await waitForText(page, 'Museum Night');
    await page.waitForFunction(() => document.querySelector('.curio-bell__count')?.textContent === '3', { timeout: 15000 });
    await clickWhenReady(page, 'button[aria-label="Mark “Welcome” as read"]');
    await page.waitForFunction(() => document.querySelector('.curio-bell__count')?.textContent === '2', { timeout: 15000 });
    expect(await page.$$eval('.curio-notification.is-unread', (els) => els.length)).to.equal(2);
    expect((await member.get('/api/notifications/unread-count')).body.count).to.equal(2);

    // following a link marks it read and goes there
    await Promise.all([page.waitForFunction(() => location.search === '?from=admin', { timeout: 15000 }), page.click('.curio-notification a[href="/notifications?from=admin"]')]);
    await page.waitForFunction(() => document.querySelector('.curio-bell__count')?.textContent === '1', { timeout: 15000 });

    // mark all as read empties the count; the Unread filter shows the caught-up state
    const markAll = await page.waitForSelector('xpath/.//button[normalize-space()="Mark all as read"]');
    await markAll!.click();
    await page.waitForFunction(() => !document.querySelector('.curio-bell__count'), { timeout: 15000 });
    expect((await member.get('/api/notifications/unread-count')).body.count).to.equal(0);
    const unreadTab = await page.waitForSelector('xpath/.//button[@role="tab" and normalize-space()="Unread"]');
    await unreadTab!.click();
    await waitForText(page, "You're all caught up");

    // the badge on the profile (the accounts profile page renders the badges slots)
    if (fs.existsSync(path.join(ROOT, 'plugins', 'accounts', 'web', 'index.ts'))) {
      await page.goto(`${app.url}/profile`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(`.curio-badge-strip [aria-label="${badge.name}"]`, { timeout: 20000 });
    }
  });

  it("the celebration toast draws the badge's icon and the title's emoji as SVG, never as a glyph (no colour-emoji font needed)", async function () {
    const member = await app.user();
    const badge = await app.services.get(BadgesService).createBadge({
      name: uniqueName('Compass '),
      description: 'Checked in once.',
      icon: '🧭',
      color: '#0EA5E9',
      requirement: { type: 'check_ins', count: 1 },
    });
    const museum = await app.services.get(MuseumsService).createMuseum({ name: uniqueName('Museum '), address: '2 Main St', city: 'Paris', country: 'France', latitude: 48.87, longitude: 2.33 } as any, null);
    await signInPage(page, app, member);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.curio-bell', { timeout: 20000 });
    const r = await member.post(`/api/museums/${museum.id}/checkin`, positionAt(museum));
    expect(r.status).to.equal(201);
    expect(r.body.badges.map((b: any) => b.id)).to.include(badge.id);
    // the bell sees the new notification when the page changes, and the badges plugin celebrates it
    await clickWhenReady(page, '.curio-bell');
    await (await page.waitForSelector('.curio-bell__panel a[href="/notifications"]'))!.click();
    await page.waitForFunction((name) => [...document.querySelectorAll('.curio-toast')].some((t) => t.textContent!.includes(name)), { timeout: 15000 }, badge.name);
    const toast = await page.evaluate((name) => {
      const t = [...document.querySelectorAll('.curio-toast')].find((e) => e.textContent!.includes(name))!;
      const disc = t.querySelector('.curio-toast__description .curio-badge-icon');
      return {
        title: (t.querySelector('.curio-toast__title') as HTMLElement).innerText.trim(),
        description: (t.querySelector('.curio-toast__description') as HTMLElement).innerText.trim(),
        text: t.textContent,
        discIcon: disc?.getAttribute('data-icon') ?? null,
        discHidden: disc?.getAttribute('aria-hidden') ?? null,
        discSymbol: disc?.querySelector('svg')?.getAttribute('data-symbol') ?? null,
        titleSymbol: t.querySelector('.curio-toast__title svg')?.getAttribute('data-symbol') ?? null,
      };
    }, badge.name);
    // the spec's words, the emoji drawn: the compass on the badge's disc, the party popper as an award
    expect(toast.discIcon).to.equal('🧭');
    expect(toast.discSymbol).to.equal('compass');
    expect(toast.discHidden).to.equal('true');
    expect(toast.titleSymbol).to.equal('award');
    expect(toast.title).to.equal('Badge earned!');
    expect(toast.description).to.equal(`${badge.name} — Checked in once.`);
    expect(toast.text).to.not.match(/\p{Extended_Pictographic}/u);
    // the inbox keeps the API's text (spec), emoji included
    await waitForText(page, `You earned the 🧭 ${badge.name} badge: Checked in once.`);
  });

  it('an empty inbox says so', async function () {
    const member = await app.user();
    await signInPage(page, app, member);
    await page.goto(`${app.url}/notifications`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'No notifications yet');
    expect(await bellCount()).to.equal(null);
  });

  it('signed-out visitors are sent to sign in', async function () {
    await page.goto(`${app.url}/notifications`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.pathname === '/auth', { timeout: 15000 });
  });
});
