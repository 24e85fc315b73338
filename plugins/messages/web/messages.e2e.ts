/**
 * Direct messages in Chromium, two members in two browsers: Ann opens Bob's profile and writes with
 * the Message button; Bob's open tab shows the message without a reload (live stream), his bell
 * and envelope counts rise live; Bob replies with Enter; Ann sees it live. A member who only takes
 * messages from people they follow: the Message button explains why not. The phone layout shows
 * the list, then the thread with a back button.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, startE2EApp, signInPage, waitForText, clickWhenReady } from '../../../core/testing/browser.ts';
import { waitFor, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';

describe('messages in the browser: two members talk live', function () {
  let app: TestApp;
  let browserA: Browser;
  let browserB: Browser;

  before(async function () {
    app = await startE2EApp();
    [browserA, browserB] = await Promise.all([launchBrowser(), launchBrowser()]);
  });
  after(async function () {
    await Promise.all([browserA?.close(), browserB?.close()]);
    await app?.close();
  });

  async function open(browser: Browser, who: SignedInClient, path: string, width = 1280): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width, height: 800 });
    await signInPage(page, app, who);
    await page.goto(app.url + path, { waitUntil: 'networkidle2' });
    return page;
  }
  const text = (page: Page, sel: string) => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, sel);

  it('Ann writes from Bob’s profile; Bob sees it arrive without reloading, the counts rise, and his Enter-sent reply reaches Ann live', async function () {
    const ann = await app.user({ firstName: 'Ann', lastName: 'Archer' });
    const bob = await app.user({ firstName: 'Bob', lastName: 'Baker' });
    // Bob follows Ann: her message goes to his inbox (not Requests)
    expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);

    // Bob's tab is open on the messages page before anything is sent
    const bobPage = await open(browserB, bob, '/messages');
    await waitForText(bobPage, 'No conversations yet');
    expect(await text(bobPage, '.curio-bell__count')).to.equal(null);
    // the stream is open (the layout connects while signed in)
    await waitFor(async () => app.stream.openCount() >= 1, { timeout: 20000 });

    const annPage = await open(browserA, ann, `/profile/${bob.me.slug}`);
    await annPage.waitForSelector('[data-testid="profile-message"]');
    await clickWhenReady(annPage, '[data-testid="profile-message"]');
    await annPage.waitForSelector('#msg-composer-text');
    await annPage.type('#msg-composer-text', 'Hello Bob, seen the new wing?');
    await annPage.keyboard.press('Enter');
    await annPage.waitForFunction(() => /^\/messages\/\d+$/.test(location.pathname), { timeout: 20000 });
    await waitForText(annPage, 'Hello Bob, seen the new wing?');

    // live on Bob's side: the conversation, the envelope count, the bell count — no reload
    await waitForText(bobPage, 'Hello Bob, seen the new wing?', 20000);
    await bobPage.waitForFunction(() => document.querySelector('[data-testid="message-count"]')?.textContent === '1', { timeout: 20000 });
    await bobPage.waitForFunction(() => Number(document.querySelector('.curio-bell__count')?.textContent ?? 0) >= 1, { timeout: 20000 });

    // Ann's tab connects its stream once its first requests are quiet (web/src/lib/live.tsx); what was
    // published before that is caught up by the first connection's revalidation
    await waitFor(async () => app.stream.openCount() >= 2, { timeout: 20000 });
    // Bob opens it and replies: Shift+Enter makes a new line, Enter sends
    await clickWhenReady(bobPage, '.msg-row__link');
    await bobPage.waitForSelector('#msg-composer-text');
    await bobPage.type('#msg-composer-text', 'Yes!');
    await bobPage.keyboard.down('Shift');
    await bobPage.keyboard.press('Enter');
    await bobPage.keyboard.up('Shift');
    await bobPage.type('#msg-composer-text', 'Tomorrow?');
    expect(await bobPage.$eval('#msg-composer-text', (e) => (e as HTMLTextAreaElement).value)).to.equal('Yes!\nTomorrow?');
    await bobPage.keyboard.press('Enter');
    // reading the thread clears Bob's envelope
    await bobPage.waitForFunction(() => !document.querySelector('[data-testid="message-count"]'), { timeout: 20000 });

    await annPage.waitForFunction(() => [...document.querySelectorAll('[data-testid="message"]')].some((m) => (m as HTMLElement).innerText.includes('Yes!\nTomorrow?')), { timeout: 20000 });
    const bubbles = await annPage.$$eval('[data-testid="message"]', (els) => els.length);
    expect(bubbles).to.equal(2);
    await annPage.close();
    await bobPage.close();
  });

  it('explains why not when the member only takes messages from people they follow', async function () {
    const ann = await app.user();
    const cat = await app.user({ firstName: 'Cat', lastName: 'Closed' });
    expect((await cat.put('/api/user/preferences', { allowMessages: false })).status).to.equal(200);
    const page = await open(browserA, ann, `/profile/${cat.me.slug}`);
    await page.waitForSelector('[data-testid="profile-message"]');
    await clickWhenReady(page, '[data-testid="profile-message"]');
    await waitForText(page, 'This member only receives messages from people they follow.');
    expect(await page.$('#msg-composer-text')).to.equal(null);
    await page.close();
  });

  it('starts a group from New message by picking people; the creator adds one more later', async function () {
    const tag = Math.random().toString(36).slice(2, 7);
    const ann = await app.user();
    const [p1, p2, p3] = await Promise.all(['Gwen', 'Hugo', 'Iris'].map((n) => app.user({ firstName: `${n}${tag}`, lastName: 'Group' })));
    const page = await open(browserA, ann, '/messages');
    await clickWhenReady(page, '[data-testid="new-message"]');
    await page.waitForSelector('#msg-picker-q');
    for (const name of [`Gwen${tag}`, `Hugo${tag}`]) {
      await page.click('#msg-picker-q', { count: 3 });
      await page.keyboard.press('Backspace');
      await page.type('#msg-picker-q', name);
      await page.waitForFunction((n) => [...document.querySelectorAll<HTMLElement>('.msg-picker__person')].some((e) => e.innerText.includes(n)), { timeout: 10000 }, name);
      await page.evaluate((n) => [...document.querySelectorAll<HTMLElement>('.msg-picker__person')].find((e) => e.innerText.includes(n))!.click(), name);
    }
    expect(await page.$$eval('.msg-picker__chosen li', (els) => els.length)).to.equal(2);
    await page.type('#msg-composer-text', 'Group visit on Sunday?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^\/messages\/\d+$/.test(location.pathname), { timeout: 20000 });
    const id = Number((await page.evaluate(() => location.pathname)).split('/').pop());
    const conv = await p1.get(`/api/conversations/${id}`);
    expect(conv.body.kind).to.equal('group');
    expect(conv.body.participants.map((x: any) => x.id).sort()).to.deep.equal([ann.me.id, p2.me.id].sort());
    // Add people (the creator's menu)
    await page.waitForSelector('[aria-label="Conversation options"]', { visible: true });
    await clickWhenReady(page, '[aria-label="Conversation options"]');
    await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((e) => e.innerText.trim() === 'Add people')!.click());
    await page.waitForSelector('.modal #msg-picker-q, [role="dialog"] #msg-picker-q');
    await page.type('[role="dialog"] #msg-picker-q', `Iris${tag}`);
    await page.waitForSelector('[role="dialog"] .msg-picker__person');
    await clickWhenReady(page, '[role="dialog"] .msg-picker__person');
    await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role="dialog"] button')].find((e) => e.innerText.trim() === 'Add')!.click());
    await waitFor(async () => (await p3.get(`/api/conversations/${id}`)).status === 200, { timeout: 20000 });
    await page.close();
  });

  it('on a phone: the list, then the thread with a back button', async function () {
    const ann = await app.user();
    const dan = await app.user({ firstName: 'Dan', lastName: 'Dune' });
    const c = await ann.post('/api/conversations', { participantIds: [dan.me.id], message: { text: 'Small screens too' } });
    expect(c.status).to.equal(201);
    const page = await open(browserA, ann, '/messages', 320);
    await page.waitForSelector('.msg-row__link');
    expect(await page.$eval('.msg-thread', (e) => getComputedStyle(e).display)).to.equal('none');
    await clickWhenReady(page, '.msg-row__link');
    // the thread, not the list row's preview of it (the thread loads its conversation first)
    await page.waitForSelector('.msg-back', { visible: true });
    await page.waitForFunction(() => document.querySelector('.msg-thread')?.textContent?.includes('Small screens too'));
    expect(await page.$eval('.msg-list', (e) => getComputedStyle(e).display)).to.equal('none');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no horizontal scrolling at 320 px').to.be.at.most(0);
    await clickWhenReady(page, '.msg-back');
    await page.waitForFunction(() => location.pathname === '/messages');
    await page.waitForSelector('.msg-row__link', { visible: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'the list at 320 px (top bar with the envelope)').to.be.at.most(0);
    await page.close();
  });
});
