/**
 * Photo insights in Debian's Chromium against the real app (issue 23): a member posts three photos
 * with alt text from Create Insight (the alt-text reminder offers "add later"), views them in the
 * lightbox with the keyboard only (arrows, Escape, focus back), axe finds no serious problem on the
 * feed and in the lightbox; a museum manager features a consenting member's photo from the museum's
 * Photos tab and the hero credits its author.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickText, axeSerious, WCAG21, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';

const seriousAxe = (page: Page, include?: string) => axeSerious(page, { include, tags: [...WCAG21, 'wcag22aa'] });

describe('photo insights in the browser', function () {
  this.timeout(180000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  const files: string[] = [];

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photos-e2e-'));
    const colors = [
      { r: 200, g: 60, b: 40 },
      { r: 40, g: 160, b: 90 },
      { r: 40, g: 80, b: 200 },
    ];
    for (const [i, c] of colors.entries()) {
      const f = path.join(dir, `photo-${i + 1}.jpg`);
      fs.writeFileSync(f, await sharp({ create: { width: 900 + i * 100, height: 600, channels: 3, background: c } }).jpeg().toBuffer());
      files.push(f);
    }
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  beforeEach(async function () {
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
  });

  afterEach(async function () {
    await page?.browserContext().close();
  });

  async function openHome(user: SignedInClient) {
    await signInPage(page, app, user);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.curio-app', { timeout: 20000 });
  }

  it('posts a three-photo insight with alt text, then views it in the lightbox with the keyboard', async () => {
    const author = await app.user();
    await openHome(author);
    await page.waitForSelector('.insights-stories button.insights-story');
    await clickWhenReady(page, '.insights-stories button.insights-story');
    await waitForText(page, 'Create Insight');
    await clickText(page, 'Photo', '[role="tab"]');
    const input = await page.waitForSelector('input[data-testid="photo-input"]');
    await (input as any).uploadFile(...files);
    await page.waitForFunction(() => document.querySelectorAll('.insights-photo-item').length === 3 && !document.querySelector('.insights-photo-item progress'), { timeout: 30000 });
    // alt text for the first two only: the reminder offers to add it, "add it now" focuses the missing one
    await page.type('[data-alt-for="0"]', 'A red wall in the first room');
    await page.type('[data-alt-for="1"]', 'A green door');
    await page.type('[id$="-photo-caption"]', 'Colours of the museum');
    await clickText(page, 'Share');
    await waitForText(page, 'Add alt text?');
    await clickText(page, 'Add alt text');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-alt-for') === '2');
    await page.type('[data-alt-for="2"]', 'A blue ceiling');
    await clickText(page, 'Share');
    await page.waitForSelector('.insights-photo-open', { timeout: 20000 });
    // the card: the first photo, "+2", the author's alt text on the image
    const card = await page.$eval('.insights-photo-media', (el) => ({ more: el.querySelector('.insights-photo-more')?.textContent, alt: el.querySelector('img')?.getAttribute('alt'), w: el.querySelector('img')?.getAttribute('width') }));
    expect(card).to.deep.equal({ more: '+2', alt: 'A red wall in the first room', w: '900' });

    const feedProblems = await seriousAxe(page, '.insights-post');
    expect(feedProblems, feedProblems.join('\n')).to.deep.equal([]);

    // keyboard only: focus the photo, Enter opens, arrows move, Escape closes, focus returns
    await page.focus('.insights-photo-open');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="photo-lightbox"]');
    const state = () =>
      page.$eval('[data-testid="photo-lightbox"]', (el) => ({
        count: el.querySelector('.insights-lightbox-count')?.textContent,
        alt: el.querySelector('.insights-lightbox-stage img')?.getAttribute('alt'),
        modal: el.getAttribute('aria-modal'),
      }));
    expect(await state()).to.deep.equal({ count: '1 / 3', alt: 'A red wall in the first room', modal: 'true' });
    await page.keyboard.press('ArrowRight');
    expect(await state()).to.deep.include({ count: '2 / 3', alt: 'A green door' });
    await page.keyboard.press('ArrowRight');
    expect(await state()).to.deep.include({ count: '3 / 3', alt: 'A blue ceiling' });
    await page.keyboard.press('ArrowRight');
    expect(await state()).to.deep.include({ count: '1 / 3' });
    await page.keyboard.press('ArrowLeft');
    expect(await state()).to.deep.include({ count: '3 / 3' });
    const boxProblems = await seriousAxe(page, '[data-testid="photo-lightbox"]');
    expect(boxProblems, boxProblems.join('\n')).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[data-testid="photo-lightbox"]'));
    expect(await page.evaluate(() => document.activeElement?.classList.contains('insights-photo-open'))).to.equal(true);

    // the images the browser fetched were variants or the master, never anything with metadata
    const post = (await author.get(`/api/user/${author.me.id}/posts`)).body.items[0];
    expect(post.photos.map((p: any) => p.alt)).to.deep.equal(['A red wall in the first room', 'A green door', 'A blue ceiling']);

    // the first card's first photo is above the fold (LCP): fetched at once, not lazily
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('.insights-post .insights-photo-media img');
    const first = await page.$eval('.insights-post .insights-photo-media img', (el) => ({ loading: el.getAttribute('loading'), priority: el.getAttribute('fetchpriority') }));
    expect(first).to.deep.equal({ loading: 'eager', priority: 'high' });
  });

  it('at 320 px: the Photo tab, the card and the lightbox fit without sideways scrolling; swipe moves between photos', async () => {
    const author = await app.user();
    await page.setViewport({ width: 320, height: 640, isMobile: true, hasTouch: true });
    await openHome(author);
    await page.waitForSelector('.insights-stories button.insights-story');
    await clickWhenReady(page, '.insights-stories button.insights-story');
    await waitForText(page, 'Create Insight');
    await clickText(page, 'Photo', '[role="tab"]');
    const input = await page.waitForSelector('input[data-testid="photo-input"]');
    await (input as any).uploadFile(files[0], files[1]);
    await page.waitForFunction(() => document.querySelectorAll('.insights-photo-item').length === 2 && !document.querySelector('.insights-photo-item progress'), { timeout: 30000 });
    const fits = () => page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.modal-card-body, .insights-post, [data-testid="photo-lightbox"]')].every((el) => el.scrollWidth <= el.clientWidth + 1) && document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits(), 'composer fits').to.equal(true);
    await page.type('[data-alt-for="0"]', 'First');
    await page.type('[data-alt-for="1"]', 'Second');
    await clickText(page, 'Share');
    await page.waitForSelector('.insights-photo-open', { timeout: 20000 });
    expect(await fits(), 'card fits').to.equal(true);
    await page.tap('.insights-photo-open');
    await page.waitForSelector('[data-testid="photo-lightbox"]');
    expect(await fits(), 'lightbox fits').to.equal(true);
    // a swipe to the left shows the next photo
    const box = (await (await page.$('[data-testid="photo-lightbox"]'))!.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.touchscreen.touchStart(box.x + box.width * 0.8, y);
    await page.touchscreen.touchMove(box.x + box.width * 0.5, y);
    await page.touchscreen.touchMove(box.x + box.width * 0.2, y);
    await page.touchscreen.touchEnd();
    await page.waitForFunction(() => document.querySelector('.insights-lightbox-count')?.textContent === '2 / 2', { timeout: 5000 });
    expect(await page.$eval('.insights-lightbox-stage img', (el) => el.getAttribute('alt'))).to.equal('Second');
  });

  it("shows a designed cover on a group without an image, and its creator replaces it with an upload", async () => {
    const creator = await app.user({ role: 'Ambassador' } as any);
    const g = await creator.post('/api/groups', { name: `Sketching club ${Date.now()}`, description: 'We draw in galleries' });
    expect(g.status, g.text).to.equal(201);
    await signInPage(page, app, creator);
    await page.setViewport({ width: 320, height: 700 });
    await page.goto(`${app.url}/groups/${g.body.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.gr-cover svg[data-cover="group"]');
    const initials = await page.$$eval('.gr-cover', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    expect(initials).to.deep.equal(['']);
    const input = await page.waitForSelector('input[data-testid="cover-input"]');
    await (input as any).uploadFile(files[1]);
    await page.waitForSelector('.gr-cover img[src^="/uploads/groups/"]', { timeout: 20000 });
    // no sideways scrolling at 320 px
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    // its variants are made by the job queued at upload; then the header loads the 320 px one
    // (the job writes the image's info once every variant is stored: wait for that, not the first file)
    for (let i = 0; i < 300 && !(await creator.get(`/api/groups/${g.body.id}`)).body.imageInfo?.widths?.length; i++) await new Promise((r) => setTimeout(r, 100));
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.gr-cover img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    const cover = await page.$eval('.gr-cover img', (el) => ({ srcset: el.getAttribute('srcset'), current: (el as HTMLImageElement).currentSrc, width: el.getAttribute('width'), loading: el.getAttribute('loading') }));
    expect(cover.srcset).to.contain('_w320.jpg 320w');
    expect(cover.current).to.match(/_w320\.(avif|webp|jpg)$/);
    // the API tells the cover's size and the widths made (imageInfo): the page offers exactly those
    const info = (await creator.get(`/api/groups/${g.body.id}`)).body.imageInfo;
    expect(info.widths.length).to.be.greaterThan(0);
    expect(cover.srcset!.split(', ').map((c) => Number(c.split(' ')[1].replace('w', '')))).to.deep.equal(info.widths);
    expect(cover).to.include({ width: String(info.width), loading: 'eager' });
  });

  it('lets a museum manager feature a consenting member photo from the Photos tab; the hero credits its author', async () => {
    const museums = app.services.get(MuseumsService);
    const museum = await museums.createMuseum({ name: `Photo Hall ${Date.now()}`, address: '1 Quai', city: 'Lyon', country: 'France', description: 'A museum of photos' }, null);
    const [manager, admin, author] = await Promise.all([app.user({ role: 'Museum Manager' } as any), app.user({ role: 'Admin' } as any), app.user()]);
    await museums.setManager(museum.id, manager.me.id, admin.me.id);
    const up = await author.upload('/api/posts/photos', [{ field: 'photo', name: 'a.jpg', type: 'image/jpeg', data: fs.readFileSync(files[0]) }]);
    const post = await author.post('/api/posts', { type: 'photo', museumId: museum.id, photos: [{ id: up.body.id, alt: 'The great hall', allowFeature: true }] });
    expect(post.status, post.text).to.equal(201);
    for (let i = 0; i < 200 && !(await author.get(`/api/posts/${post.body.id}`)).body.photos[0].widths.length; i++) await new Promise((r) => setTimeout(r, 100));

    await signInPage(page, app, manager);
    await page.goto(`${app.url}/museums/${museum.id}`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Photos', '[role="tab"]');
    const feature = await page.waitForSelector(`[data-testid="feature-${up.body.id}"]`);
    await feature!.click();
    await waitForText(page, 'Featured image updated');
    await page.waitForSelector('[data-testid="featured-credit"]', { timeout: 15000 });
    const credit = await page.$eval('[data-testid="featured-credit"] a', (el) => ({ text: el.textContent, href: el.getAttribute('href') }));
    const me = (await author.get(`/api/user/${author.me.id}`)).body;
    expect(credit.text).to.equal(`Photo: ${[me.firstName, me.lastName].filter(Boolean).join(' ') || me.username}`);
    expect(credit.href).to.equal(`/profile/${encodeURIComponent(me.slug || me.username)}`);
    const hero = await page.$eval('.mz-hero img', (el) => ({ src: el.getAttribute('src'), srcset: el.getAttribute('srcset') }));
    expect(hero.src).to.match(/_w900\.jpg$/);
    expect(hero.srcset).to.contain('_w640.jpg 640w');
    const problems = await seriousAxe(page, '.mz-hero');
    expect(problems, problems.join('\n')).to.deep.equal([]);

    // the author withdraws consent from the lightbox: the museum stops featuring the photo at once
    const authorPage = await (await browser.createBrowserContext()).newPage();
    try {
      await signInPage(authorPage, app, author);
      await authorPage.goto(`${app.url}/insights/${post.body.id}`, { waitUntil: 'networkidle0' });
      await (await authorPage.waitForSelector('.insights-photo-open'))!.click();
      await (await authorPage.waitForSelector('[data-testid="photo-revoke-feature"]'))!.click();
      await waitForText(authorPage, 'Museums can no longer feature this photo');
      expect((await museums.getMuseum(museum.id))!.featuredImage).to.equal(null);
      expect((await app.client().get(`/api/museums/${museum.id}/featured-photo`)).body.photo).to.equal(null);
    } finally {
      await authorPage.browserContext().close();
    }
  });
});
