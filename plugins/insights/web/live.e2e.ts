/** Live updates on the home feed, in Chromium: a followed member posts; the open feed shows "1 new insight"; clicking loads it. */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickWhenReady } from '../../../core/testing/browser.ts';
import { waitFor, type TestApp } from '../../../core/testing/index.ts';

describe('home feed: "N new insights" from the live stream', function () {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  before(async function () {
    // leases refreshed every half second: a stream whose lease is gone closes within it
    app = await startE2EApp({ stream: { heartbeatMs: 500 } });
    browser = await launchBrowser();
  });
  after(async function () {
    await browser?.close();
    await app?.close();
  });

  /** A viewer following an author who posted `older`, on the home feed that shows it. */
  async function homeOfFollower(author: { firstName: string; lastName: string }, older: string) {
    const viewer = await app.user();
    const a = await app.user(author);
    expect((await viewer.post(`/api/user/${a.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    expect((await a.post('/api/posts', { type: 'text', content: older })).status).to.equal(201);
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await signInPage(page, app, viewer);
    await page.goto(app.url + '/', { waitUntil: 'networkidle2' });
    await waitForText(page, older);
    return { viewer, author: a };
  }

  it('shows the pill when a followed member posts, and loads the insight on click', async function () {
    const { author } = await homeOfFollower({ firstName: 'Olga', lastName: 'Oil' }, 'An older insight from Olga');
    await waitFor(async () => app.stream.openCount() >= 1, { timeout: 10000 });
    expect((await author.post('/api/posts', { type: 'text', content: 'Fresh from the sculpture hall' })).status).to.equal(201);
    await page.waitForSelector('[data-testid="feed-new-pill"]', { timeout: 10000 });
    expect(await page.$eval('[data-testid="feed-new-pill"]', (e) => (e as HTMLElement).innerText.trim())).to.equal('1 new insight');
    const before = await page.evaluate(() => document.body.innerText.includes('Fresh from the sculpture hall'));
    expect(before, 'not shown before the pill is clicked').to.equal(false);
    await clickWhenReady(page, '[data-testid="feed-new-pill"]');
    await waitForText(page, 'Fresh from the sculpture hall');
    await page.waitForFunction(() => !document.querySelector('[data-testid="feed-new-pill"]'));
    await page.close();
  });

  it('an insight posted while the tab’s stream was down: nothing is kept for it, and the pill comes when the stream is back', async function () {
    const { viewer, author } = await homeOfFollower({ firstName: 'Rita', lastName: 'Reconnect' }, 'Before the stream dropped');
    const leases = () => app.knex('core_stream_leases').where({ user_id: viewer.me.id });
    await waitFor(async () => Boolean(await leases().first()), { timeout: 20_000 });
    // the stream is given up (as another process does at the member's limit): the server closes it
    // at its next lease refresh, and the browser reconnects after the stream's `retry: 3000`
    const open = app.stream.openCount();
    await leases().del();
    await waitFor(async () => app.stream.openCount() === open - 1, { timeout: 5000 });
    const p = await author.post('/api/posts', { type: 'text', content: 'Posted while the stream was down' });
    expect(p.status).to.equal(201);
    await app.events.settled();
    expect(await leases().first(), 'the tab had not reconnected yet').to.equal(undefined);
    expect(await app.knex('core_stream_events').where({ user_id: viewer.me.id, type: 'feed.new' }).first(), 'no feed.new kept for a member without a stream').to.equal(undefined);
    await page.waitForSelector('[data-testid="feed-new-pill"]', { timeout: 15_000 });
    expect(await page.$eval('[data-testid="feed-new-pill"]', (e) => (e as HTMLElement).innerText.trim())).to.equal('1 new insight');
    expect(await leases().first(), 'the pill came with the stream back').to.not.equal(undefined);
    await page.close();
  });
});
