/**
 * Events in Debian's Chromium against the real app: an Ambassador creates a 2-seat meetup with the
 * Create Meetup dialog, two members join from the Events screen, a third sees Full with a disabled
 * button; a member uploads a photo through the Upload Photo dialog and another member sees it;
 * a member without a calendar feed makes one from the feed dialog (opening it writes nothing) and rotates it.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickText, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';
import { fill } from './e2e-helpers.ts';

const SHOTS = process.env.EVENTS_SCREENSHOTS || '';

describe('events in the browser', function () {
  this.timeout(240000);
  let app: TestApp;
  let browser: Browser;
  let dir: string;
  let ambassador: SignedInClient;
  let members: SignedInClient[];
  let communityId: number;
  const title = `Sketching Monet ${Date.now().toString(36)}`;
  let meetupId = 0;

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-e2e-'));
    ambassador = await app.user({ role: 'Ambassador', firstName: 'Ada', lastName: 'Organizer' });
    members = await Promise.all([
      app.user({ firstName: 'Marie', lastName: 'One' }),
      app.user({ firstName: 'Leo', lastName: 'Two' }),
      app.user({ firstName: 'Ines', lastName: 'Three' }),
    ]);
    const c = await ambassador.post('/api/communities', { name: `Impressionists ${Date.now().toString(36)}`, description: 'Light on canvas', membershipType: 'open' });
    expect(c.status, c.text).to.equal(201);
    communityId = c.body.id;
    for (const m of members) expect((await m.post(`/api/communities/${communityId}/join`, {})).status).to.equal(200);
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  async function pageFor(user: SignedInClient): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signInPage(page, app, user);
    return page;
  }

  async function shot(page: Page, name: string) {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The card of our meetup on the Events screen. */
  const cardSelector = () => `[data-testid="event-card"][data-event-id="${meetupId}"]`;

  async function openEvents(page: Page) {
    await page.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    try {
      await waitForText(page, title, 30000);
    } catch (e) {
      if (SHOTS) await shot(page, `open-events-failed-${Date.now()}`);
      throw new Error(`/events did not show the meetup: ${(await page.evaluate(() => document.body.innerText)).slice(0, 600)}`);
    }
  }

  it('an Ambassador creates a meetup with 2 seats in the Create Meetup dialog', async () => {
    const page = await pageFor(ambassador);
    await page.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Create Meetup');
    await waitForText(page, 'Community or group');
    // the dialog's own validation speaks the spec's words
    await clickWhenReady(page, '.modal-card-foot button[type="submit"]');
    await waitForText(page, 'Title is required');
    await waitForText(page, 'Start time is required');
    await page.select('.ev-meetup-form select[name="host"]', `community:${communityId}`);
    await fill(page, '.ev-meetup-form input[name="title"]', title);
    await fill(page, '.ev-meetup-form textarea[name="description"]', 'We sketch in the Impressionist rooms, then share coffee.');
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await fill(page, '.ev-meetup-form input[name="date"]', date);
    await page.select('.ev-meetup-form select[name="startTime"]', '18:00');
    await page.select('.ev-meetup-form select[name="endTime"]', '20:00');
    await page.select('.ev-meetup-form select[name="timeZone"]', 'Europe/Paris');
    await fill(page, '.ev-meetup-form input[name="location"]', 'Musée d’Orsay, entrance A');
    await fill(page, '.ev-meetup-form input[name="tags"]', 'art, sketching, impressionism, coffee');
    await fill(page, '.ev-meetup-form input[name="maxAttendees"]', '2');
    // defaults of the spec
    expect(await page.$eval('.ev-meetup-form select[name="cost"]', (el) => (el as HTMLSelectElement).value)).to.equal('free');
    expect(await page.$eval('.ev-meetup-form select[name="collaborationStatus"]', (el) => (el as HTMLSelectElement).value)).to.equal('discussion');
    expect(await page.$eval('.ev-meetup-form select[name="whoCanJoin"]', (el) => (el as HTMLSelectElement).value)).to.equal('members_only');
    expect(await page.$eval('.ev-meetup-form input[name="allowPhotoSharing"]', (el) => (el as HTMLInputElement).checked)).to.equal(true);
    expect(await page.$eval('.ev-meetup-form input[name="allowComments"]', (el) => (el as HTMLInputElement).checked)).to.equal(true);
    // costAmount appears only for paid meetups
    expect(await page.$('.ev-meetup-form input[name="costAmount"]')).to.equal(null);
    await page.select('.ev-meetup-form select[name="cost"]', 'paid');
    await page.waitForSelector('.ev-meetup-form input[name="costAmount"]');
    await page.select('.ev-meetup-form select[name="cost"]', 'free');
    await shot(page, 'create-dialog');
    await clickWhenReady(page, '.modal-card-foot button[type="submit"]');
    await waitForText(page, 'Meetup created successfully!');
    await waitForText(page, title);
    const created = await app.knex('events_events').where({ title }).first();
    expect(created).to.not.equal(undefined);
    expect(created.max_attendees).to.equal(2);
    expect(created.organizer_id).to.equal(ambassador.me.id);
    expect(created.time_zone).to.equal('Europe/Paris');
    meetupId = created.id;
    await page.waitForSelector(cardSelector());
    const tagText = await page.$eval(cardSelector(), (el) => (el.querySelector('.ev-tags') as HTMLElement).innerText);
    expect(tagText).to.contain('+1 more');
    expect(await page.$eval(cardSelector(), (el) => (el as HTMLElement).innerText)).to.contain('Free');
    await shot(page, 'events-after-create');
    await page.browserContext().close();
  });

  it('Discover search results open a meetup at its own page, not as a museum event (issue 21)', async () => {
    const page = await pageFor(members[0]);
    const word = title.split(' ').pop()!;
    await page.goto(`${app.url}/search?q=${encodeURIComponent(word)}`, { waitUntil: 'load' });
    const link = await page.waitForSelector('a[data-event-kind="meetup"]', { timeout: 20000 });
    expect(await link!.evaluate((a) => a.getAttribute('href'))).to.equal(`/meetups/${meetupId}`);
    await link!.click();
    await page.waitForFunction((id) => location.pathname === `/meetups/${id}`, {}, meetupId);
    await waitForText(page, title);
    expect(await page.evaluate(() => document.body.innerText.includes('Event not found'))).to.equal(false);
    await page.browserContext().close();
  });

  it('a visitor sees the meetup of an open community on /events and its page, with a sign-in prompt to join (issue 21)', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await openEvents(page);
    await page.waitForSelector(cardSelector());
    await waitForText(page, 'Sign in to join meetups and museum events.');
    await page.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await waitForText(page, title);
    expect(new URL(page.url()).pathname).to.equal(`/meetups/${meetupId}`);
    await context.close();
  });

  it('two members join; the third sees Full and a disabled button', async () => {
    for (const m of members.slice(0, 2)) {
      const page = await pageFor(m);
      await openEvents(page);
      await page.waitForSelector(cardSelector());
      await page.$eval(cardSelector(), (el) => {
        const b = [...el.querySelectorAll('button')].find((x) => x.innerText.trim() === 'Join') as HTMLButtonElement;
        b.click();
      });
      await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLElement)?.innerText.includes('Attending'), { timeout: 15000 }, cardSelector());
      await page.browserContext().close();
    }
    const third = await pageFor(members[2]);
    await openEvents(third);
    await third.waitForSelector(`${cardSelector()} [data-testid="full-badge"]`);
    const button = await third.$eval(cardSelector(), (el) => {
      const b = [...el.querySelectorAll('button')].find((x) => x.innerText.trim() === 'Full') as HTMLButtonElement | undefined;
      return b ? { disabled: b.disabled } : null;
    });
    expect(button).to.deep.equal({ disabled: true });
    expect(await third.$eval(cardSelector(), (el) => [...el.querySelectorAll('button')].some((x) => x.innerText.trim() === 'Join'))).to.equal(false);
    expect(await third.$eval(cardSelector(), (el) => (el as HTMLElement).innerText)).to.contain('2 / 2 attending');
    await shot(third, 'third-sees-full');
    // the server agrees: exactly two attendees
    const row = await app.knex('events_events').where({ id: meetupId }).first('current_attendees');
    expect(row.current_attendees).to.equal(2);
    await third.browserContext().close();
  });

  it('a member uploads a photo in the Upload Photo dialog and another member sees it', async () => {
    const file = path.join(dir, 'sketch.png');
    await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 220, g: 150, b: 60 } } }).png().toFile(file);

    const uploader = await pageFor(members[0]);
    await uploader.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await waitForText(uploader, title);
    await clickText(uploader, 'Upload Photo');
    await waitForText(uploader, 'PNG, JPG, GIF up to 10MB each');
    // nothing chosen
    await clickWhenReady(uploader, '.modal-card-foot button[type="submit"]');
    await waitForText(uploader, 'Please select at least one photo');
    const input = await uploader.waitForSelector('#ev-upload-form input[type="file"]');
    await input!.uploadFile(file);
    await waitForText(uploader, '1 photo selected');
    await fill(uploader, '#ev-upload-form input[type="text"]', 'Our first sketches');
    await shot(uploader, 'upload-dialog');
    await clickWhenReady(uploader, '.modal-card-foot button[type="submit"]');
    await waitForText(uploader, 'Photos uploaded');
    await uploader.waitForFunction(() => !document.querySelector('#ev-upload-form'), { timeout: 15000 }); // closed
    await uploader.waitForSelector('[data-testid="photo-grid"] img');
    // opening again starts empty
    await clickText(uploader, 'Upload Photo');
    await uploader.waitForSelector('#ev-upload-form');
    expect(await uploader.$('[data-testid="upload-count"]')).to.equal(null);
    expect(await uploader.$eval('#ev-upload-form input[type="text"]', (el) => (el as HTMLInputElement).value)).to.equal('');
    expect(await uploader.$eval('#ev-upload-form input[type="file"]', (el) => (el as HTMLInputElement).files?.length ?? 0)).to.equal(0);
    await uploader.keyboard.press('Escape');
    await uploader.browserContext().close();

    const viewer = await pageFor(members[1]);
    await viewer.goto(`${app.url}/meetups/${meetupId}`, { waitUntil: 'networkidle0' });
    await viewer.waitForSelector('[data-testid="photo-grid"] img');
    const src = await viewer.$eval('[data-testid="photo-grid"] img', (el) => (el as HTMLImageElement).src);
    expect(src).to.match(/\/uploads\/events\/\d+\/[0-9a-f]+_thumb\.jpg$/);
    const loaded = await viewer.$eval('[data-testid="photo-grid"] img', (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0);
    expect(loaded).to.equal(true);
    await clickWhenReady(viewer, '[data-testid="photo-grid"] button');
    await waitForText(viewer, 'Our first sketches');
    await shot(viewer, 'photo-view');
    await viewer.browserContext().close();
  });

  it('the calendar feed dialog: opening it makes nothing, the button makes the address, rotating replaces it', async () => {
    const newcomer = await app.user({ firstName: 'Nora', lastName: 'Feed' });
    const token = async () => (await app.knex('events_calendar_tokens').where({ user_id: newcomer.me.id }).first('token'))?.token as string | undefined;
    const address = (page: Page) => page.$eval('.modal input[readonly]', (el) => (el as HTMLInputElement).value);
    const page = await pageFor(newcomer);
    await page.goto(`${app.url}/events`, { waitUntil: 'networkidle0' });
    await clickText(page, 'My calendar feed');
    await waitForText(page, 'You have no calendar address yet.');
    expect(await page.$('.modal input[readonly]')).to.equal(null);
    expect(await token()).to.equal(undefined); // opening the dialog (GET) wrote nothing
    await shot(page, 'calendar-feed-none');

    await clickText(page, 'Make my calendar address');
    await page.waitForSelector('.modal input[readonly]');
    const first = await token();
    expect(first).to.be.a('string');
    expect(await address(page)).to.equal(`${app.url}/api/calendar/${first}.ics`);
    await shot(page, 'calendar-feed-made');

    await clickText(page, 'Make a new address');
    await waitForText(page, 'A new address was made; the old one no longer works.');
    const second = await token();
    expect(second).to.be.a('string').and.not.equal(first);
    await page.waitForFunction((want) => (document.querySelector('.modal input[readonly]') as HTMLInputElement | null)?.value === want, { timeout: 15000 }, `${app.url}/api/calendar/${second}.ics`);
    await page.browserContext().close();
  });
});
