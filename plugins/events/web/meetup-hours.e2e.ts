/**
 * Meetups and museum hours, attendance by check-in, in Chromium (issue 20): an Ambassador picks a
 * Monday at a museum closed on Mondays in the Create Meetup dialog and sees the warning as they
 * pick, saves all the same, and the meetup page says so to a visitor (and in French); a member
 * attending a meetup that starts in a few minutes checks in at the museum with the phone's
 * position (Puppeteer's geolocation override) and the organizer's page shows the attendance,
 * the member's "You attended". axe finds no serious or critical violation on the meetup page.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickText, axeSerious, clickWhenReady } from '../../../core/testing/browser.ts';
import { uniqueName, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService, type Museum } from '../../museums/public.ts';
import { fill } from './e2e-helpers.ts';

const open = { isOpen: true, isByAppointment: false, openTime: '10:00', closeTime: '18:00' };
const closed = { isOpen: false, isByAppointment: false };
const week = { monday: closed, tuesday: open, wednesday: open, thursday: open, friday: open, saturday: open, sunday: open };

/** The next Monday at least 3 days away (a calendar date). */
function nextMonday(): string {
  const d = new Date(Date.now() + 3 * 86_400_000);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe('meetups and museum hours, attendance by check-in, in the browser', function () {
  this.timeout(240000);
  let app: TestApp;
  let browser: Browser;
  let organizer: SignedInClient;
  let member: SignedInClient;
  let communityId: number;
  let museum: Museum;
  const word = `Vermeerhall${uniqueName('').slice(0, 5)}`;
  const title = `Closed-day sketching ${Date.now().toString(36)}`;
  let meetupId = 0;

  before(async () => {
    app = await startE2EApp();
    browser = await launchBrowser();
    organizer = await app.user({ role: 'Ambassador', firstName: 'Olga', lastName: 'Organizer' });
    member = await app.user({ firstName: 'Mia', lastName: 'Member' });
    const c = await organizer.post('/api/communities', { name: uniqueName('Painters '), description: 'For tests', membershipType: 'open' });
    expect(c.status, c.text).to.equal(201);
    communityId = c.body.id;
    expect((await member.post(`/api/communities/${communityId}/join`, {})).status).to.equal(200);
    museum = await app.services.get(MuseumsService).createMuseum(
      { name: `${word} Museum`, address: '1 Quai Test', city: 'Paris', country: 'France', latitude: 48.86, longitude: 2.34, timezone: 'Europe/Paris', openingHours: { defaultHours: week, seasonalHours: [] } } as any,
      null,
    );
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function pageFor(user: SignedInClient | null, locale: 'en' | 'fr' = 'en'): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    if (user) await signInPage(page, app, user);
    return page;
  }

  it('the organizer picks a Monday at a museum closed on Mondays: warned while picking, saved all the same, warned after saving', async () => {
    const page = await pageFor(organizer);
    await page.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Create Meetup');
    await waitForText(page, 'Community or group');
    await page.select('.ev-meetup-form select[name="host"]', `community:${communityId}`);
    await fill(page, '.ev-meetup-form input[name="title"]', title);
    await fill(page, '.ev-meetup-form textarea[name="description"]', 'We sketch the facade while the galleries are closed.');
    // the museum first (its zone becomes the meetup's), then a Monday
    await fill(page, '.ev-meetup-form input[type="search"]', word);
    await clickWhenReady(page, '.ev-museum-option');
    expect(await page.$eval('.ev-meetup-form select[name="timeZone"]', (el) => (el as HTMLSelectElement).value)).to.equal('Europe/Paris');
    await fill(page, '.ev-meetup-form input[name="date"]', nextMonday());
    await page.select('.ev-meetup-form select[name="startTime"]', '11:00');
    await page.select('.ev-meetup-form select[name="endTime"]', '12:00');
    // checked live as the organizer picks (GET /api/meetup-hours-check)
    await page.waitForSelector('.ev-meetup-form [data-testid="hours-warning"]', { timeout: 15000 });
    expect(await page.$eval('.ev-meetup-form [data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText)).to.contain('The museum is closed that day');
    // a Tuesday at the same time is inside the hours: the warning goes
    const tuesday = new Date(Date.parse(`${nextMonday()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await fill(page, '.ev-meetup-form input[name="date"]', tuesday);
    await page.waitForFunction(() => !document.querySelector('.ev-meetup-form [data-testid="hours-warning"]'), { timeout: 15000 });
    // 09:00 on that Tuesday is before opening
    await page.select('.ev-meetup-form select[name="startTime"]', '09:00');
    await page.waitForFunction(() => document.querySelector('.ev-meetup-form [data-testid="hours-warning"]')?.textContent?.includes("Outside the museum's opening hours"), { timeout: 15000 });
    await fill(page, '.ev-meetup-form input[name="date"]', nextMonday());
    await page.select('.ev-meetup-form select[name="startTime"]', '11:00');
    await page.waitForFunction(() => document.querySelector('.ev-meetup-form [data-testid="hours-warning"]')?.textContent?.includes('The museum is closed that day'), { timeout: 15000 });
    expect(await axeSerious(page)).to.deep.equal([]);
    await clickWhenReady(page, '.modal-card-foot button[type="submit"]');
    await waitForText(page, "Saved, outside the museum's opening hours");
    const created = await app.knex('events_events').where({ title }).first();
    expect(created.museum_id).to.equal(museum.id);
    meetupId = created.id;
    await page.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="hours-warning"]', { timeout: 20000 });
    const note = await page.$eval('[data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText);
    expect(note).to.contain('The museum is closed that day');
    expect(note).to.contain('You can still save the meetup');
    await page.browserContext().close();
  });

  it('a visitor sees the note on the meetup page, in English and in French', async () => {
    const en = await pageFor(null);
    await en.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await en.waitForSelector('[data-testid="hours-warning"]', { timeout: 20000 });
    const text = await en.$eval('[data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText);
    expect(text).to.contain('The museum is closed that day');
    expect(text).to.not.contain('You can still save');
    expect(await axeSerious(en)).to.deep.equal([]);
    // a 320 px phone: the note wraps, nothing scrolls sideways
    await en.setViewport({ width: 320, height: 700 });
    await en.waitForFunction(() => document.documentElement.scrollWidth <= 320, { timeout: 10000 });
    const box = await en.$eval('[data-testid="hours-warning"]', (el) => el.getBoundingClientRect().right);
    expect(box).to.be.at.most(320);
    await en.browserContext().close();
    const fr = await pageFor(null, 'fr');
    await fr.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await fr.waitForSelector('[data-testid="hours-warning"]', { timeout: 20000 });
    expect(await fr.$eval('[data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText)).to.contain('Le musée est fermé ce jour-là');
    await fr.browserContext().close();
  });

  it('lists say it too: a small note on the events page card (visitor, en and fr) and in the community’s Meetups tab', async () => {
    const card = `[data-testid="event-card"][data-event-id="${meetupId}"]`;
    // a meetup inside the hours (a Tuesday at 11:00): no note on its card
    const tuesday = new Date(Date.parse(`${nextMonday()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const inside = await organizer.post(`/api/communities/${communityId}/meetups`, { title: `Inside the hours ${word}`, description: 'Galleries open', location: 'Main hall', museumId: museum.id, date: tuesday, startTime: '11:00', endTime: '12:00', timeZone: 'Europe/Paris' });
    expect(inside.status, inside.text).to.equal(201);
    expect(inside.body.hoursWarning).to.equal(null);
    const en = await pageFor(null);
    await en.setViewport({ width: 320, height: 700 });
    await en.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    await en.waitForSelector(`${card} [data-testid="card-hours-warning"]`, { timeout: 20000 });
    expect(await en.$eval(`${card} [data-testid="card-hours-warning"]`, (el) => (el as HTMLElement).innerText)).to.contain('The museum is closed that day');
    // only where it applies
    await en.waitForSelector(`[data-testid="event-card"][data-event-id="${inside.body.id}"]`);
    expect(await en.$(`[data-testid="event-card"][data-event-id="${inside.body.id}"] [data-testid="card-hours-warning"]`)).to.equal(null);
    await en.waitForFunction(() => document.documentElement.scrollWidth <= 320, { timeout: 10000 });
    expect(await axeSerious(en)).to.deep.equal([]);
    await en.browserContext().close();
    const fr = await pageFor(null, 'fr');
    await fr.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    await fr.waitForSelector(`${card} [data-testid="card-hours-warning"]`, { timeout: 20000 });
    expect(await fr.$eval(`${card} [data-testid="card-hours-warning"]`, (el) => (el as HTMLElement).innerText)).to.contain('Le musée est fermé ce jour-là');
    await fr.browserContext().close();
    const mine = await pageFor(member);
    await mine.goto(`${app.url}/communities/${communityId}?tab=meetups`, { waitUntil: 'networkidle0' });
    const panel = `[data-testid="meetup-panel"][data-event-id="${meetupId}"]`;
    await mine.waitForSelector(`${panel} [data-testid="card-hours-warning"]`, { timeout: 20000 });
    expect(await mine.$eval(`${panel} [data-testid="card-hours-warning"]`, (el) => (el as HTMLElement).innerText)).to.contain('The museum is closed that day');
    await mine.browserContext().close();
  });

  it('a museum event is checked too: an Admin adding one on a Monday is warned while picking, saves all the same, and its card and page say so', async () => {
    const admin = await app.user({ role: 'Admin' });
    const eventTitle = `Monday organ tuning ${Date.now().toString(36)}`;
    const page = await pageFor(admin);
    await page.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Add event');
    await page.waitForSelector('#ev-museum-event-form input[name="title"]', { timeout: 20000 });
    await fill(page, '#ev-museum-event-form input[name="title"]', eventTitle);
    await fill(page, '#ev-museum-event-form textarea[name="description"]', 'The organ is tuned while the galleries are closed.');
    await fill(page, '#ev-museum-event-form input[name="date"]', nextMonday());
    await page.select('#ev-museum-event-form select[name="startTime"]', '11:00');
    await page.select('#ev-museum-event-form select[name="endTime"]', '12:00');
    await page.waitForSelector('#ev-museum-event-form [data-testid="hours-warning"]', { timeout: 15000 });
    const live = await page.$eval('#ev-museum-event-form [data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText);
    expect(live).to.contain('The museum is closed that day');
    expect(live).to.contain('You can still save the event');
    await clickWhenReady(page, '.modal-card-foot button[type="submit"]');
    await waitForText(page, "Saved, outside the museum's opening hours");
    const created = await app.knex('events_events').where({ title: eventTitle }).first();
    expect(created).to.include({ kind: 'museum_event', museum_id: museum.id });
    // its card on the museum page
    const card = `[data-testid="event-card"][data-event-id="${created.id}"] [data-testid="card-hours-warning"]`;
    await page.waitForSelector(card, { timeout: 20000 });
    expect(await page.$eval(card, (el) => (el as HTMLElement).innerText)).to.contain('The museum is closed that day');
    await page.browserContext().close();
    // its page, for a visitor
    const visitor = await pageFor(null);
    await visitor.goto(`${app.url}/events/${created.id}`, { waitUntil: 'networkidle0' });
    await visitor.waitForSelector('[data-testid="hours-warning"]', { timeout: 20000 });
    const note = await visitor.$eval('[data-testid="hours-warning"]', (el) => (el as HTMLElement).innerText);
    expect(note).to.contain('The museum is closed that day');
    expect(note).not.to.contain('You can still save');
    expect(await axeSerious(visitor)).to.deep.equal([]);
    await visitor.browserContext().close();
  });

  it('a member attending a meetup that starts in a few minutes checks in at the museum: the organizer sees the attendance, the member "You attended"', async () => {
    // starts in 10 minutes (inside the 30-minute early margin), entered in UTC
    const start = new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000).toISOString();
    const m = await organizer.post(`/api/communities/${communityId}/meetups`, {
      title: `Now at ${word}`, description: 'Right now', location: 'Main hall', museumId: museum.id,
      date: start.slice(0, 10), startTime: start.slice(11, 16), timeZone: 'UTC',
    });
    expect(m.status, m.text).to.equal(201);
    expect((await member.post(`/api/meetups/${m.body.id}/join`, { status: 'attending' })).status).to.be.oneOf([200, 201]);

    const phone = await pageFor(member);
    await phone.browserContext().overridePermissions(app.url, ['geolocation']);
    await phone.setGeolocation({ latitude: 48.86, longitude: 2.34, accuracy: 15 });
    await phone.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'load' });
    await phone.waitForSelector('[data-testid="checkin-button"]', { timeout: 20000 });
    const answer = phone.waitForResponse((r) => r.url().endsWith(`/api/museums/${museum.id}/checkin`) && r.request().method() === 'POST');
    await clickWhenReady(phone, '[data-testid="checkin-button"]');
    expect((await (await answer).json()).checkIn).to.include({ verified: true });

    // marked after the check-in's answer (the after-answer queue): let it finish, then look
    await app.events.settled();
    const page = await pageFor(organizer);
    await page.goto(`${app.url}/meetups/${m.body.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="attendance-count"]', { timeout: 20000 });
    expect(await page.$eval('[data-testid="attendance-count"]', (el) => (el as HTMLElement).innerText)).to.contain('1 attendance confirmed by check-in');
    await page.waitForSelector('[data-testid="attended-tag"]');
    expect(await page.$eval('[data-testid="attendee-list"]', (el) => (el as HTMLElement).innerText)).to.contain('Mia Member');
    expect(await axeSerious(page)).to.deep.equal([]);
    await page.browserContext().close();

    await phone.goto(`${app.url}/meetups/${m.body.id}`, { waitUntil: 'networkidle0' });
    await phone.waitForSelector('[data-testid="you-attended"]', { timeout: 20000 });
    expect(await phone.$eval('[data-testid="you-attended"]', (el) => (el as HTMLElement).innerText)).to.contain('You attended');
    expect(await phone.$('[data-testid="attendance-count"]')).to.equal(null);
    await phone.browserContext().close();
  });
});
