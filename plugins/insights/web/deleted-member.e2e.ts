/**
 * Comments → "deleted member" in Chromium (issue 24): a member who commented under an insight and
 * got an answer deletes their account; the insight's page shows their comment as "Deleted member"
 * (fr "Membre supprimé") with no words and no profile link, and the answer under it stays.
 */
import { expect } from 'chai';
import type { Browser } from 'puppeteer';
import { launchBrowser, startE2EApp, waitForText } from '../../../core/testing/browser.ts';
import type { TestApp } from '../../../core/testing/index.ts';

describe('insights: a deleted member\'s answered comment in the browser (issue 24)', function () {
  this.timeout(120000);
  let app: TestApp;
  let browser: Browser;

  before(async function () {
    app = await startE2EApp(); // deletion at once (deletionGraceDays 0 in the test configuration)
    browser = await launchBrowser();
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  it('shows "Deleted member" in place of the author, and the replies under it', async function () {
    const author = await app.user();
    const leaving = await app.user({ firstName: 'Lea', lastName: 'Leaving' });
    const post = (await author.post('/api/posts', { type: 'text', content: 'An insight with a thread', videoUrl: null, museumId: null, tags: [] })).body;
    const gone = (await leaving.post(`/api/posts/${post.id}/comments`, { content: 'Words that leave with me' })).body;
    expect((await author.post(`/api/posts/${post.id}/comments`, { content: 'An answer that stays', parentId: gone.id })).status).to.equal(201);
    expect((await leaving.del('/api/user/account')).status).to.equal(200);
    expect(await app.knex('users').where({ id: leaving.me.id }).first('id')).to.equal(undefined);

    for (const [locale, label] of [
      ['en', 'Deleted member'],
      ['fr', 'Membre supprimé'],
    ] as const) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 320, height: 800 });
      await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
      await page.goto(`${app.url}/insights/${post.id}`, { waitUntil: 'networkidle0' });
      await waitForText(page, 'An answer that stays');
      await waitForText(page, label);
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).to.not.include('Words that leave with me');
      expect(text).to.not.include('Leaving');
      // no link to a profile for the deleted member
      expect(await page.$$eval('[data-testid="deleted-member"]', (els) => els.map((e) => e.closest('a') === null))).to.deep.equal([true]);
      await context.close();
    }
  });
});
