/**
 * The admin dashboard in Chromium: an admin verifies a museum, assigns it a manager, approves a
 * member's edit suggestion and sees all three in Recent Admin Actions; a non-admin visiting /admin
 * lands on /.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, clickText } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';

describe('admin dashboard (browser)', function () {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(180_000);
    app = await startE2EApp();
    browser = await launchBrowser();
    admin = await app.user({ role: 'Admin', firstName: 'Ada', lastName: 'Admin' });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
  });
  afterEach(async () => {
    await page?.close();
  });

  it('verifies a museum, assigns a manager, approves an edit suggestion, and the audit log shows it all', async () => {
    const museum = (
      await admin.post('/api/admin/create-museum', { name: 'Gallery of Quiet Light', address: '9 Harbour Road', city: 'Portsmouth', state: 'Hampshire', zipCode: 'PO1 1AA', country: 'United Kingdom', category: 'Art Museums', phone: '+44 000' })
    ).body;
    await admin.post('/api/admin/verify-museum', { museumId: museum.id, verified: false });
    const manager = await app.user({ role: 'Museum Manager', username: 'marguerite_mgr', firstName: 'Marguerite', lastName: 'Keeper' });
    const member = await app.user({ firstName: 'Sam', lastName: 'Suggester' });
    const s = await member.post(`/api/museums/${museum.id}/suggest-edit`, { suggestedChanges: { phone: '+44 23 9283 9766' }, reason: 'The number changed' });
    expect(s.status).to.equal(201);

    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Museum Management');
    await page.type('#admin-museum-search', 'Quiet Light');
    await waitForText(page, 'Showing 1 to 1 of 1 museums');
    await waitForText(page, 'Unverified');

    // Verify
    await clickText(page, 'Verify');
    await waitForText(page, 'Gallery of Quiet Light is verified');
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-museum .tag')].some((e) => e.textContent === 'Verified'));
    expect((await admin.get(`/api/admin/museums?q=Quiet`)).body.items[0].isVerified).to.equal(true);

    // Assign a manager through the Edit Museum dialog (search from 2 characters)
    await clickText(page, 'Edit Museum');
    await waitForText(page, 'No manager assigned.');
    const search = await page.waitForSelector('input[placeholder^="Search managers"]');
    await search!.type('m');
    await new Promise((r) => setTimeout(r, 600));
    expect(await page.evaluate(() => document.body.innerText.includes('@marguerite_mgr'))).to.equal(false);
    await search!.type('arguerite');
    await waitForText(page, 'Marguerite Keeper (@marguerite_mgr)');
    await page.click('.admin-manager__option');
    await waitForText(page, 'Remove');
    await clickText(page, 'Save Changes');
    await waitForText(page, 'Museum updated successfully');
    expect((await admin.get(`/api/admin/museums?q=Quiet`)).body.items[0].managerId).to.equal(manager.me.id);

    // Approve the member's suggestion
    await waitForText(page, 'Museum Edit Suggestions');
    await waitForText(page, 'The number changed');
    await waitForText(page, '+44 23 9283 9766');
    await clickText(page, 'Approve');
    await waitForText(page, 'Suggestion approved: the museum was updated');
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-suggestion .tag')].some((e) => e.textContent === 'approved'));
    const after = (await admin.get(`/api/admin/museums?q=Quiet`)).body.items[0];
    expect(after.phone).to.equal('+44 23 9283 9766');

    // The audit log
    await clickText(page, 'Overview');
    await waitForText(page, 'Recent Admin Actions');
    await waitForText(page, 'Approve Museum Edit Suggestion');
    const text = await page.evaluate(() => document.querySelector('.admin-actions')!.textContent!);
    expect(text).to.contain('Update Museum');
    expect(text).to.contain('Verify Museum');
    expect(text).to.contain('by Ada Admin');
  });

  it('a member visiting /admin lands on /, and sees no Admin nav item', async () => {
    const member = await app.user({ role: 'Museum Manager' });
    await signInPage(page, app, member);
    await page.goto(`${app.url}/admin`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.pathname === '/', { timeout: 15000 });
    expect(await page.evaluate(() => document.body.innerText.includes('Admin Dashboard'))).to.equal(false);
    expect(await page.evaluate(() => [...document.querySelectorAll('nav a')].some((a) => a.getAttribute('href') === '/admin'))).to.equal(false);
  });

  it('a signed-out visitor of /admin is sent to sign in', async () => {
    await page.goto(`${app.url}/admin`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => location.pathname !== '/admin', { timeout: 15000 });
    expect(await page.evaluate(() => document.body.innerText.includes('Admin Dashboard'))).to.equal(false);
  });
});
