/**
 * The admin dashboard in Chromium: an admin verifies a museum, assigns it a manager, approves a
 * member's edit suggestion and sees all three in Recent Admin Actions; a non-admin visiting /admin
 * lands on /.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp, waitForText, clickText, clickWhenReady } from '../../../core/testing/browser.ts';
import type { TestApp, SignedInClient } from '../../../core/testing/index.ts';

describe('admin dashboard (browser)', function () {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let admin: SignedInClient;
  before(async function () {
    this.timeout(180_000);
    // Wikidata on a closed local port: every lookup of Update Museums fails, fast and on purpose.
    const dead = 'http://127.0.0.1:9';
    app = await startE2EApp({ plugins: { config: { museums: { wikidataApiUrl: `${dead}/w/api.php`, wikidataSparqlUrl: `${dead}/sparql`, wikidataTimeoutMs: 500 } } } });
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
    await clickWhenReady(page, '.admin-manager__option');
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

  const museumBody = (name: string) => ({ name, address: '1 Test Row', city: 'Testville', state: 'TS', zipCode: '00001', country: 'Testland', category: 'Art Museums', phone: '+1 000' });
  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await app.knex(table).where(where).count({ n: '*' }))[0].n);

  it('Update Museums asks first; a run whose every lookup failed reads Update Failed (issue 21)', async () => {
    expect((await admin.post('/api/admin/create-museum', museumBody('Museum Without Website'))).status).to.equal(201);
    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Museum Management');
    await clickText(page, 'Update Museums');
    await waitForText(page, 'Update museums?');
    await clickText(page, 'Cancel', '.modal button');
    await page.waitForFunction(() => !document.querySelector('[data-testid="confirm-update-museums"]'));
    expect(await count('admin_actions', { action: 'update_museums' }), 'cancelled: nothing started').to.equal(0);
    await clickText(page, 'Update Museums');
    await clickWhenReady(page, '[data-testid="confirm-update-museums"]');
    await waitForText(page, 'Update Failed', 30000);
    await waitForText(page, 'Failed to update museums. Please try again.');
    expect(await page.evaluate(() => document.body.innerText.includes('museums updated ('))).to.equal(false);
    expect(await count('admin_actions', { action: 'update_museums' })).to.equal(1);
  });

  it('lists 20 museums per page, and the Museum Edit Suggestions panel pages past its first page (issue 21)', async () => {
    const have = (await admin.get('/api/admin/museums?pageSize=1')).body.total as number;
    for (let i = have; i < 23; i++) expect((await admin.post('/api/admin/create-museum', museumBody(`Paged Museum ${String(i).padStart(2, '0')}`))).status).to.equal(201);
    const total = (await admin.get('/api/admin/museums?pageSize=1')).body.total as number;
    const target = (await admin.get('/api/admin/museums?q=Paged Museum&pageSize=1')).body.items[0];
    const member = await app.user({ firstName: 'Pat', lastName: 'Suggester' });
    const made = (await admin.get('/api/admin/museum-edit-suggestions?pageSize=1')).body.total as number;
    for (let i = 0; i < 24; i++) {
      const r = await member.post(`/api/museums/${target.id}/suggest-edit`, { suggestedChanges: { phone: `+1 555 01${String(i).padStart(2, '0')}` }, reason: `Reason number ${String(i).padStart(2, '0')}` });
      expect(r.status, r.text).to.equal(201);
    }
    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
    await waitForText(page, `Showing 1 to 20 of ${total} museums`);
    expect(await page.$$eval('.admin-museum', (l) => l.length)).to.equal(20);
    // the suggestions: 20 on the first page (newest first), the oldest on a later page
    await waitForText(page, 'Reason number 23');
    expect(await page.evaluate(() => document.body.innerText.includes('Reason number 00'))).to.equal(false);
    expect(made + 24).to.be.above(20);
    await clickWhenReady(page, '.admin-collapsible .pagination-next');
    await waitForText(page, 'Reason number 00');
    expect(await page.evaluate(() => document.body.innerText.includes('Reason number 23'))).to.equal(false);
  });

  it('Send Notification shows how many members it reaches and sends only once confirmed (issue 21)', async () => {
    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=notifications`, { waitUntil: 'networkidle0' });
    await waitForText(page, 'Notification System');
    const title = `Museum night ${Date.now().toString(36)}`;
    await page.type('.admin-notify input.input', title);
    await page.type('.admin-notify textarea', 'Free entry tonight');
    const sends = await count('notification_sends');
    await clickText(page, 'Send Notification', 'form button');
    await page.waitForSelector('[data-testid="recipient-count"]');
    const users = await count('users');
    await waitForText(page, `“${title}” will be sent to every member: ${users} members.`);
    await clickText(page, 'Cancel', '.modal button');
    await page.waitForFunction(() => !document.querySelector('[data-testid="recipient-count"]'));
    expect(await count('notification_sends'), 'cancelled: nothing sent').to.equal(sends);
    await clickText(page, 'Send Notification', 'form button');
    await page.waitForSelector('[data-testid="confirm-send"]');
    expect(await page.$eval('[data-testid="confirm-send"]', (b) => b.textContent)).to.equal(`Send to ${users} members`);
    await clickWhenReady(page, '[data-testid="confirm-send"]');
    await waitForText(page, `Sent to ${users} users.`);
    expect(await count('notification_sends')).to.equal(sends + 1);
  });

  it('says "Failed to assign manager" when the chosen manager cannot be assigned (issue 21)', async () => {
    expect((await admin.post('/api/admin/create-museum', museumBody('Museum Of Managers'))).status).to.equal(201);
    const manager = await app.user({ role: 'Museum Manager', username: 'demoted_mgr', firstName: 'Dora', lastName: 'Demoted' });
    await signInPage(page, app, admin);
    await page.goto(`${app.url}/admin?tab=museums`, { waitUntil: 'networkidle0' });
    await page.type('#admin-museum-search', 'Museum Of Managers');
    await waitForText(page, 'Showing 1 to 1 of 1 museums');
    await clickText(page, 'Edit Museum');
    const search = await page.waitForSelector('input[placeholder^="Search managers"]');
    await search!.type('demoted');
    await waitForText(page, 'Dora Demoted (@demoted_mgr)');
    await clickWhenReady(page, '.admin-manager__option');
    // meanwhile the member stops being a Museum Manager
    await app.knex('users').where({ id: manager.me.id }).update({ role: 'Traveler' });
    await clickText(page, 'Save Changes');
    await waitForText(page, 'Failed to assign manager');
    expect((await admin.get('/api/admin/museums?q=Museum Of Managers')).body.items[0].managerId).to.equal(null);
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
