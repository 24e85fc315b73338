/**
 * Insights in Debian's Chromium against the real app: a text insight tagged to a museum through
 * the Create Insight dialog shows in the feed and on the museum page; a real video file made with
 * ffmpeg is uploaded, shared and played by another member; like and comment; camera recording
 * with Chromium's fake camera.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickText, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';
import { MuseumsService } from '../../museums/public.ts';

const SHOTS = process.env.INSIGHTS_SCREENSHOTS || '';

describe('insights in the browser', function () {
  this.timeout(180000);
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'insights-e2e-'));
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

  async function shot(name: string) {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
  }

  async function openHome(user: SignedInClient) {
    await signInPage(page, app, user);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.curio-app', { timeout: 20000 });
  }

  async function openDialog() {
    await page.waitForSelector('.insights-stories .insights-story');
    await clickWhenReady(page, '.insights-stories button.insights-story'); // 'Your Story'
    await waitForText(page, 'Create Insight');
  }

  it('shares a text insight tagged to a museum: in the feed and on the museum page', async function () {
    const museums = app.services.get(MuseumsService);
    const name = `Musée Lumière ${Date.now().toString(36)}`;
    const museum = await museums.createMuseum({ name, address: '25 rue du Premier Film', city: 'Lyon', country: 'France', description: 'Cinema' }, null);
    const author = await app.user({ firstName: 'Ada' });
    await openHome(author);
    await waitForText(page, 'Start following museums and users to see their posts in your feed.');
    await shot('home-empty');
    await openDialog();
    await clickText(page, 'Text', '[role="tab"]');
    await page.type('textarea[id$="-text"]', 'The first film ever shown, in the very room.');
    // sharing without a museum is allowed, but tag one: more than 2 characters searches
    await page.type('input[type="search"]', 'Lumi');
    await page.waitForFunction((n) => [...document.querySelectorAll('.insights-museum-results button')].some((b) => b.textContent?.includes(n)), { timeout: 15000 }, name);
    await shot('dialog-museum-search');
    await page.evaluate((n) => ([...document.querySelectorAll<HTMLButtonElement>('.insights-museum-results button')].find((b) => b.textContent?.includes(n)))!.click(), name);
    await page.type('input[id$="-tags"]', 'cinema, history');
    await shot('dialog-text');
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Insight shared!');
    await page.waitForFunction(() => document.body.innerText.includes('The first film ever shown'), { timeout: 15000 });
    const card = await page.$eval('.insights-post', (el) => el.textContent);
    expect(card).to.include(name);
    expect(card).to.include('#cinema');
    await shot('home-feed');
    // the museum page's Community Insights
    await page.goto(`${app.url}/museum/${museum.slug}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Community Insights');
    await waitForText(page, 'The first film ever shown, in the very room.');
    await shot('museum-insights');
  });

  it('uploads a real video, and another member plays it, likes and comments', async function () {
    const file = path.join(dir, 'clip.webm');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=15', '-c:v', 'libvpx', '-b:v', '300k', file]);
    const author = await app.user({ firstName: 'Vera' });
    const viewer = await app.user({ firstName: 'Leo' });
    expect((await viewer.post(`/api/user/${author.me.id}/follow`)).status).to.equal(200);
    await openHome(author);
    await openDialog();
    const input = await page.waitForSelector('input[type="file"]');
    await (input as any).uploadFile(file);
    await waitForText(page, 'Video ready', 60000);
    await shot('dialog-video');
    await page.type('textarea[id$="-caption"]', 'Test pattern in motion');
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Insight shared!');
    await page.waitForSelector('.insights-post .insights-play img');

    // another member
    await page.browserContext().close();
    page = await (await browser.createBrowserContext()).newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await openHome(viewer);
    await waitForText(page, 'Test pattern in motion');
    await clickWhenReady(page, '.insights-post .insights-play');
    await page.waitForSelector('.insights-post video');
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('.insights-post video');
      return v && v.readyState >= 2 && v.currentTime > 0.2;
    }, { timeout: 30000 });
    const media = await page.$eval('.insights-post video', (v) => ({ w: (v as HTMLVideoElement).videoWidth, d: (v as HTMLVideoElement).duration }));
    expect(media.w).to.equal(320);
    expect(media.d).to.be.closeTo(3, 0.5);
    await shot('video-playing');

    // like
    await clickWhenReady(page, '.insights-post .insights-like');
    await waitForText(page, '1 like');
    // comment
    await clickText(page, 'Add Comment');
    await page.waitForSelector('.insights-comment-form input');
    await page.type('.insights-comment-form input', 'Beautiful colours!');
    await clickWhenReady(page, '.insights-comment-form button[type="submit"]');
    await waitForText(page, 'Beautiful colours!');
    await shot('comment');
    // exact counts survive a reload
    await page.reload({ waitUntil: 'networkidle0' });
    await waitForText(page, 'View all 1 comment');
    await waitForText(page, '1 like');
    expect(await page.$eval('.insights-post .insights-like', (b) => b.getAttribute('aria-pressed'))).to.equal('true');
  });

  it('records with the camera, shows REC and the seconds, and uploads the recording', async function () {
    const author = await app.user();
    await openHome(author);
    await openDialog();
    await clickText(page, 'Start Camera');
    await clickText(page, 'Start Recording');
    await waitForText(page, 'REC');
    await waitForText(page, '2s / 60s', 10000);
    await shot('dialog-recording');
    await clickText(page, 'Stop Recording');
    await waitForText(page, 'Video ready', 60000);
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Insight shared!');
    const posts = await author.get(`/api/user/${author.me.id}/posts`);
    expect(posts.body.items[0].type).to.equal('video');
    expect(posts.body.items[0].videoUrl).to.match(/\.webm$/);
  });

  it("suggests a museum that is not found and tags the insight with the pending suggestion", async function () {
    const author = await app.user();
    await openHome(author);
    await openDialog();
    await clickText(page, 'Text', '[role="tab"]');
    await page.type('textarea[id$="-text"]', 'A tiny museum nobody lists yet.');
    const name = `Nowhere Gallery ${Date.now().toString(36)}`;
    await page.type('input[type="search"]', name);
    await waitForText(page, 'Museum not found');
    await clickText(page, 'Suggest');
    await waitForText(page, 'Suggest New Museum');
    await clickText(page, 'Submit Suggestion');
    await waitForText(page, 'Name, address, city and country are required.');
    await page.type('input[id$="-address"]', '1 Hidden Lane');
    await page.type('input[id$="-city"]', 'Ghent');
    await page.type('input[id$="-country"]', 'Belgium');
    await clickText(page, 'Submit Suggestion');
    await waitForText(page, 'Museum suggested!');
    await waitForText(page, 'Pending review');
    await shot('dialog-suggested');
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Insight shared!');
    const posts = await author.get(`/api/user/${author.me.id}/posts`);
    expect(posts.body.items[0].pendingMuseumSuggestionId).to.be.a('number');
    expect(posts.body.items[0].museumId).to.equal(null);
  });

  it('opens one insight at /insights/:id with its comments', async function () {
    const author = await app.user();
    const post = (await author.post('/api/posts', { type: 'text', content: 'A page of its own', tags: [] })).body;
    await author.post(`/api/posts/${post.id}/comments`, { content: 'First comment here' });
    await page.goto(`${app.url}/insights/${post.id}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'A page of its own');
    await waitForText(page, 'First comment here');
    await waitForText(page, 'Sign in to comment.');
    await page.goto(`${app.url}/insights/999999999`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Insight not found');
  });

  it('says what is missing: no video, blank text', async function () {
    const author = await app.user();
    await openHome(author);
    await openDialog();
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Please record or upload a video for your insight.');
    await clickText(page, 'Text', '[role="tab"]');
    await clickText(page, 'Share Insight');
    await waitForText(page, 'Please add some content to your text insight.');
  });
});
