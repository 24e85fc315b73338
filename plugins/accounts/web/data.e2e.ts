/**
 * Your data in Chromium (issue 24): request the archive in Settings → Your data, watch it become
 * ready, find the notification, download the ZIP (unzipped and checked); delete the account (signed
 * out, grace period) and sign in again to keep it; the privacy page from the footer in French.
 * axe (serious and critical violations fail) on the new screens.
 */
import { expect } from 'chai';
import yauzl from 'yauzl';
import type { Browser, Page } from 'puppeteer';
import { clickText, launchBrowser, signInPage, startE2EApp, waitForText, expectAxeClean, WCAG21 } from '../../../core/testing/browser.ts';
import type { SignedInClient, TestApp } from '../../../core/testing/index.ts';

function entries(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: false }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => names.push(e.fileName));
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
    });
  });
}

describe('your data in the browser (issue 24)', function () {
  this.timeout(180000);
  let app: TestApp;
  let browser: Browser;

  before(async function () {
    app = await startE2EApp({ plugins: { config: { accounts: { deletionGraceDays: 14 } } } });
    browser = await launchBrowser();
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  async function pageAs(c: SignedInClient | null, locale: 'en' | 'fr' = 'en', width = 1280): Promise<Page> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height: 900 });
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    if (c) await signInPage(page, app, c);
    return page;
  }

  const axe = (page: Page, what: string) => expectAxeClean(page, what, { tags: [...WCAG21, 'best-practice'] });

  it('requests the archive, sees it ready, gets the notification and downloads the ZIP', async function () {
    const me = await app.user({ firstName: 'Dora', lastName: 'Download' });
    await me.post('/api/posts', { type: 'text', content: 'An insight to take along', videoUrl: null, museumId: null, tags: [] });
    const page = await pageAs(me, 'en', 390);
    await page.goto(`${app.url}/profile?settings=data`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Download your data');
    await axe(page, 'Settings → Your data');
    await clickText(page, 'Request my archive');
    await waitForText(page, 'Archive requested');
    // the list polls while the archive is prepared in the background
    try {
      await page.waitForFunction(() => !!document.querySelector('.acc-export[data-status="ready"] a[download]'), { timeout: 60000 });
    } catch (e) {
      console.log('DEBUG', JSON.stringify(await app.knex('accounts_exports').select()), JSON.stringify(await app.knex('core_jobs').where('name', 'accounts.buildExport').select('status', 'error', 'attempts')), await page.evaluate(() => document.querySelector('.acc-data')?.innerHTML));
      throw e;
    }
    await waitForText(page, 'You can ask for a new archive after');
    const href = await page.$eval('.acc-export[data-status="ready"] a[download]', (a) => (a as HTMLAnchorElement).getAttribute('href'));
    expect(href).to.match(/^\/api\/user\/exports\/\d+\/download$/);

    // downloaded as the browser does, with its session
    const got = await page.evaluate(async (u) => {
      const r = await fetch(u!);
      const b = new Uint8Array(await r.arrayBuffer());
      let s = '';
      for (const x of b) s += String.fromCharCode(x);
      return { status: r.status, type: r.headers.get('content-type'), b64: btoa(s) };
    }, href);
    expect(got.status).to.equal(200);
    expect(got.type).to.equal('application/zip');
    const names = await entries(Buffer.from(got.b64, 'base64'));
    for (const n of ['README.html', 'profile.json', 'insights.json', 'follows.csv']) expect(names).to.include(n);

    // the notification, in the inbox
    await page.goto(`${app.url}/notifications`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Your data is ready');
  });

  it('deletes the account (signed out, 14 days of grace) and signing in again keeps it', async function () {
    const me = await app.user({ firstName: 'Gita', lastName: 'Grace' });
    const page = await pageAs(me);
    await page.goto(`${app.url}/profile?settings=account`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'After 14 days everything you put in');
    await clickText(page, 'Delete Account', '.acc-danger button');
    await waitForText(page, 'unless you sign in again before then');
    await clickText(page, 'Delete Account', '.curio-confirm__buttons button');
    await waitForText(page, 'Account Deleted');
    await page.waitForFunction(() => location.pathname === '/', { timeout: 15000 });
    const row = await app.knex('users').where({ id: me.me.id }).first('deletion_requested_at');
    expect(row.deletion_requested_at).to.not.equal(null);
    expect((await me.get('/api/auth/user')).status).to.equal(401);

    // signing in through the form cancels the deletion
    await page.goto(`${app.url}/auth`, { waitUntil: 'networkidle0' });
    await page.type('input[type="email"]', me.me.email);
    await page.type('input[type="password"]', me.me.password);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.pathname !== '/auth', { timeout: 15000 });
    expect((await app.knex('users').where({ id: me.me.id }).first('deletion_requested_at')).deletion_requested_at).to.equal(null);
    expect(await app.knex('core_jobs').where({ unique_key: `accounts.erase:${me.me.id}` })).to.have.length(0);
  });

  it('shows what Curio keeps from the footer, in French', async function () {
    const page = await pageAs(null, 'fr', 320);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await clickText(page, 'Confidentialité', '.curio-footer a');
    await waitForText(page, 'Ce que ce serveur Curio conserve');
    expect(await page.evaluate(() => document.body.innerText.includes('180 jours'))).to.equal(true);
    await axe(page, 'privacy page (fr)');
  });
});
