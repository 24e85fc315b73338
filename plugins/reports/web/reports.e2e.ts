/**
 * Reports in Chromium: a member reports an insight from its card (keyboard-usable dialog), an
 * Admin removes it from the dashboard's Reports tab, the reporter sees the outcome in My reports;
 * axe finds no serious or critical violation on the dialog, the Reports tab and My reports, in
 * English and French. Mentions: the comment box suggests members for "@abc" (arrows, Enter) and
 * the saved comment links to the profile; Escape closes the suggestions before any dialog.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, clickText, expectAxeClean, WCAG22_BEST, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';

/** Nothing wider than a 320 px screen (no sideways scrolling). */
async function fits320(page: Page, what: string) {
  await page.setViewport({ width: 320, height: 640 });
  await new Promise((r) => setTimeout(r, 300));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} at 320 px`).to.be.at.most(320);
  await page.setViewport({ width: 1280, height: 900 });
}

const axeClean = (page: Page, what: string) => expectAxeClean(page, what, { tags: WCAG22_BEST });

describe('reports (browser)', function () {
  let app: TestApp;
  let browser: Browser;
  let admin: SignedInClient;
  let author: SignedInClient;
  let reporter: SignedInClient;

  before(async function () {
    this.timeout(180_000);
    app = await startE2EApp();
    browser = await launchBrowser();
    [admin, author, reporter] = await Promise.all([
      app.user({ role: 'Admin', firstName: 'Ada', lastName: 'Admin' }),
      app.user({ firstName: 'Sly', lastName: 'Spammer', username: `sly_${Date.now().toString(36)}` }),
      app.user({ firstName: 'Rita', lastName: 'Reporter' }),
    ]);
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function pageAs(who: SignedInClient, locale: 'en' | 'fr' = 'en'): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    await signInPage(page, app, who);
    return page;
  }

  it('report an insight from its card, then remove it from the admin Reports tab; the reporter sees the outcome', async () => {
    const post = (await author.post('/api/posts', { type: 'text', content: 'Cheap replica paintings, DM me for prices', videoUrl: null, museumId: null, tags: [] })).body;

    const page = await pageAs(reporter);
    await page.goto(`${app.url}/insights/${post.id}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Cheap replica paintings');
    // The report menu is keyboard-reachable: focus it and open it with Enter.
    await page.focus('button[aria-label="Report this insight"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.curio-modal.is-active');
    await waitForText(page, 'Why are you reporting this?');
    // Sending without a reason says what is missing.
    await clickText(page, 'Send report');
    await waitForText(page, 'Please choose a reason');
    await axeClean(page, 'report dialog (en)');
    await clickWhenReady(page, 'input[type="radio"][value="spam"]');
    await page.type('.reports-dialog textarea', 'Selling fakes in the comments');
    await clickText(page, 'Send report');
    await waitForText(page, 'Thanks, your report has been sent.');
    const mine = (await reporter.get('/api/reports/mine')).body.items;
    expect(mine[0]).to.include({ targetType: 'insight', targetId: post.id, category: 'spam', note: 'Selling fakes in the comments', status: 'open' });

    const adminPage = await pageAs(admin);
    await adminPage.goto(`${app.url}/admin?tab=reports`, { waitUntil: 'networkidle0' });
    await waitForText(adminPage, 'Content as reported');
    await adminPage.waitForFunction(() => [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].some((e) => (e as HTMLElement).innerText.includes('Reports')));
    await waitForText(adminPage, 'Cheap replica paintings, DM me for prices');
    await waitForText(adminPage, 'Selling fakes in the comments');
    await waitForText(adminPage, '1 reporter');
    await axeClean(adminPage, 'admin Reports tab (en)');
    const card = `.reports-case[data-report-id="${mine[0].id}"]`;
    await adminPage.evaluate((sel) => {
      const b = [...document.querySelectorAll<HTMLButtonElement>(`${sel} button`)].find((x) => x.innerText.trim() === 'Remove content');
      b!.click();
    }, card);
    await adminPage.waitForSelector('.curio-modal.is-active');
    await axeClean(adminPage, 'admin action dialog (en)');
    await adminPage.type('.curio-modal.is-active textarea', 'Counterfeit sales');
    await clickText(adminPage, 'Confirm');
    await waitForText(adminPage, 'Done: 1 report(s) closed.');
    await adminPage.waitForFunction((sel) => !document.querySelector(sel), { timeout: 10_000 }, card);

    expect((await reporter.get(`/api/posts/${post.id}`)).status).to.equal(404);
    const audit = (await admin.get(`/api/admin/actions/all?targetType=insight&targetId=${post.id}`)).body.items;
    expect(audit.map((a: any) => a.action)).to.include('remove_reported_content');

    await page.goto(`${app.url}/reports/mine`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Resolved');
    await waitForText(page, 'Outcome: Content removed');
    await axeClean(page, 'My reports (en)');
    await page.browserContext().close();
    await adminPage.browserContext().close();
  });

  it('French: the dialog, the Reports tab and My reports are complete and axe-clean', async () => {
    const post = (await author.post('/api/posts', { type: 'text', content: 'Un autre message douteux', videoUrl: null, museumId: null, tags: [] })).body;
    const page = await pageAs(reporter, 'fr');
    await page.goto(`${app.url}/insights/${post.id}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Un autre message douteux');
    await clickWhenReady(page, 'button[aria-label="Signaler cet insight"]');
    await waitForText(page, 'Pourquoi signalez-vous ce contenu ?');
    await axeClean(page, 'report dialog (fr)');
    await fits320(page, 'report dialog (fr)');
    await clickWhenReady(page, 'input[type="radio"][value="misinformation"]');
    await clickText(page, 'Envoyer le signalement');
    await waitForText(page, 'Merci, votre signalement a été envoyé.');
    await page.goto(`${app.url}/reports/mine`, { waitUntil: 'networkidle0' });
    await waitForText(page, "En cours d'examen");
    await axeClean(page, 'My reports (fr)');
    await fits320(page, 'My reports (fr)');

    const adminPage = await pageAs(admin, 'fr');
    await adminPage.goto(`${app.url}/admin?tab=reports`, { waitUntil: 'networkidle0' });
    await waitForText(adminPage, 'Contenu au moment du signalement');
    await adminPage.waitForFunction(() => [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].some((e) => (e as HTMLElement).innerText.includes('Signalements')));
    await waitForText(adminPage, 'Un autre message douteux');
    await axeClean(adminPage, 'admin Reports tab (fr)');
    await fits320(adminPage, 'admin Reports tab (fr)');
    // Dismiss from the keyboard-reachable action buttons.
    await clickText(adminPage, 'Classer sans suite');
    await adminPage.waitForSelector('.curio-modal.is-active');
    await clickText(adminPage, 'Confirmer');
    await waitForText(adminPage, 'Fait : 1 signalement(s) clos.');
    expect((await reporter.get('/api/reports/mine')).body.items[0]).to.include({ status: 'dismissed' });
    await page.browserContext().close();
    await adminPage.browserContext().close();
  });

  it('mentions: the comment box suggests members (arrows, Enter), and the comment links to the profile', async () => {
    const post = (await reporter.post('/api/posts', { type: 'text', content: 'Who has seen the new wing?', videoUrl: null, museumId: null, tags: [] })).body;
    const page = await pageAs(admin);
    await page.goto(`${app.url}/insights/${post.id}`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Who has seen the new wing?');
    const box = 'input[role="combobox"]';
    await page.waitForSelector(box);
    // closed, the suggestion list takes no room and draws nothing (it is a Bulma box: display block)
    const closedList = await page.$eval('.insights-comment-form [role="listbox"]', (ul) => ({ hidden: (ul as HTMLElement).hidden, height: ul.getBoundingClientRect().height }));
    expect(closedList).to.deep.equal({ hidden: true, height: 0 });
    await page.type(box, `Ask @${author.me.username.slice(0, 5)}`);
    await page.waitForSelector('[role="listbox"] [role="option"]', { visible: true, timeout: 10_000 });
    expect(await page.$eval(box, (el) => el.getAttribute('aria-expanded'))).to.equal('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    expect(await page.$eval(box, (el) => (el as HTMLInputElement).value)).to.equal(`Ask @${author.me.username} `);
    await page.type(box, 'about it');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`a.acc-mention[href="/profile/${author.me.id}"]`, { timeout: 10_000 });
    // Escape closes the suggestions only.
    await page.type(box, `@${author.me.username.slice(0, 5)}`);
    await page.waitForSelector('[role="listbox"] [role="option"]', { visible: true, timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-expanded') === 'false', {}, box);

    // In the Create Insight dialog too; there Escape closes the list first and the dialog only after.
    await clickWhenReady(page, '.curio-topbar .curio-create-button');
    const area = '[role="dialog"] textarea[role="combobox"]';
    await page.waitForSelector(area, { visible: true, timeout: 15_000 });
    await page.focus(area);
    await page.keyboard.type(`Met @${author.me.username.slice(0, 5)}`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-expanded') === 'true', { timeout: 10_000 }, area);
    await page.keyboard.press('Escape');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-expanded') === 'false', { timeout: 5_000 }, area);
    expect(await page.$('[role="dialog"]')).to.not.equal(null);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[role="dialog"]'), { timeout: 5_000 });
    await page.browserContext().close();
  });

  it('a message is reported from the conversation (the report menu on someone else’s message)', async () => {
    expect((await reporter.post(`/api/user/${author.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const c = await author.post('/api/conversations', { participantIds: [reporter.me.id], message: { text: 'Buy my replica statues now' } });
    expect(c.status, c.text).to.equal(201);
    const page = await pageAs(reporter);
    await page.goto(`${app.url}/messages/${c.body.id}`, { waitUntil: 'load' });
    await waitForText(page, 'Buy my replica statues now');
    await page.waitForSelector('button[aria-label="Report this message"]', { timeout: 15_000 });
    await clickWhenReady(page, 'button[aria-label="Report this message"]');
    await page.waitForSelector('.curio-modal.is-active');
    await clickWhenReady(page, 'input[type="radio"][value="spam"]');
    await clickText(page, 'Send report');
    await waitForText(page, 'Thanks, your report has been sent.');
    const mine = (await reporter.get('/api/reports/mine')).body.items;
    expect(mine[0]).to.include({ targetType: 'message', targetId: c.body.lastMessage.id, category: 'spam', status: 'open' });
    const q = (await admin.get('/api/admin/reports?targetType=message')).body.items;
    expect(q.find((i: any) => i.id === mine[0].id).snapshot).to.include({ text: 'Buy my replica statues now' });
    await page.browserContext().close();
  });

  it('mentions in a community post are profile links', async () => {
    const host = await app.user({ role: 'Ambassador' });
    const community = (await host.post('/api/communities', { name: `Mention room ${Date.now()}`, description: 'open', membershipType: 'open' })).body;
    const p = await host.post(`/api/communities/${community.id}/posts`, { type: 'text', content: `Welcome @${reporter.me.username}!` });
    expect(p.status, p.text).to.equal(201);
    const page = await pageAs(reporter);
    await page.goto(`${app.url}/communities/${community.id}`, { waitUntil: 'load' });
    await page.waitForSelector(`a.acc-mention[href="/profile/${reporter.me.id}"]`, { timeout: 15_000 });
    await page.browserContext().close();
  });
});
