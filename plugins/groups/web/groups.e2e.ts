/**
 * Groups in Debian's Chromium: a member finds a group on the Groups tab, sees "Join this group to
 * participate in discussions.", joins, posts, comments, replies, likes, and leaves.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, phonePage, startE2EApp, signInPage, waitForText, clickText, clickWhenReady } from '../../../core/testing/browser.ts';
import { waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';

describe('groups in the browser', function () {
  this.timeout(180000);
  let app: TestApp;
  let browser: Browser;
  let owner: SignedInClient;
  let member: SignedInClient;
  let page: Page;
  let groupId = 0;
  const name = `Weekend Hoppers ${Date.now().toString(36)}`;

  before(async function () {
    app = await startE2EApp();
    browser = await launchBrowser();
    owner = await app.user({ firstName: 'Olga', lastName: 'Owner' });
    member = await app.user({ firstName: 'Marie', lastName: 'Member' });
    const g = await owner.post('/api/groups', { name, description: 'Two museums every weekend', tags: 'met, frick' });
    groupId = g.body.id;
    await owner.post(`/api/groups/${groupId}/posts`, { content: 'Saturday: the Met, then the Frick.' });
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await signInPage(page, app, member);
  });

  after(async function () {
    await browser?.close();
    await app?.close();
  });

  it('finds the group on /groups, joins, posts, comments, replies, likes and leaves', async () => {
    await page.goto(`${app.url}/groups`, { waitUntil: 'networkidle0' });
    await waitForText(page, name);
    await clickText(page, name, '[data-testid="group-card"] a');
    await page.waitForFunction((id) => location.pathname === `/groups/${id}`, {}, groupId);
    await waitForText(page, 'Join this group to participate in discussions.');

    await clickText(page, 'Join Group');
    await waitForText(page, 'Joined group successfully!');
    await waitForText(page, 'Saturday: the Met, then the Frick.');

    await page.type('#gr-post', 'Count me in for Saturday!');
    await clickText(page, 'Post', 'form button[type="submit"]');
    await waitForText(page, 'Post created successfully!');
    await waitForText(page, 'Count me in for Saturday!');

    // comment on the owner's post, then reply to that comment
    await page.waitForSelector('[data-testid="group-post"]');
    const posts = await page.$$('[data-testid="group-post"]');
    const target = posts[posts.length - 1];
    const [likeButton, commentsButton] = await target.$$('footer button');
    await likeButton.click();
    await page.waitForFunction((el) => el.getAttribute('aria-pressed') === 'true', {}, likeButton);
    await commentsButton.click();
    const input = await target.waitForSelector('.gr-comment-form input');
    await input!.type('See you at 10 on the steps');
    await (await target.$('.gr-comment-form button[type="submit"]'))!.click();
    await waitForText(page, 'See you at 10 on the steps');
    await clickText(page, 'Reply', '.gr-linkbutton');
    const replyInput = await target.waitForSelector('.gr-replies .gr-comment-form input');
    await replyInput!.type('Great, bring a sketchbook');
    await (await target.$('.gr-replies .gr-comment-form button[type="submit"]'))!.click();
    await waitForText(page, 'Great, bring a sketchbook');

    const feed = await owner.get(`/api/groups/${groupId}/posts`);
    const p = feed.body.items.find((x: any) => x.content === 'Saturday: the Met, then the Frick.');
    expect(p).to.include({ likesCount: 1, commentsCount: 2 });
    const comments = await owner.get(`/api/group-posts/${p.id}/comments`);
    expect(comments.body[0].replies.map((r: any) => r.content)).to.deep.equal(['Great, bring a sketchbook']);

    await clickText(page, 'Leave');
    await waitForText(page, 'Left group successfully!');
    await waitForText(page, 'Join this group to participate in discussions.');
    expect((await owner.get(`/api/groups/${groupId}`)).body.memberCount).to.equal(1);
  });
  it("a mention's notification opens the group at the post, scrolled into view and highlighted", async () => {
    expect((await member.post(`/api/groups/${groupId}/join`)).status).to.be.oneOf([200, 201]);
    const target = (await owner.post(`/api/groups/${groupId}/posts`, { content: `Tickets for Sunday, @${member.me.username}?` })).body;
    // newer posts push it down the feed, below the fold
    for (let i = 0; i < 6; i++) await owner.post(`/api/groups/${groupId}/posts`, { content: `Later note ${i}\n\nwith a second paragraph\n\nand a third` });
    const link = `/groups/${groupId}#post-${target.id}`;
    const note = await waitFor(async () => ((await member.get('/api/notifications')).body.items as any[]).find((n) => n.type === 'mention') ?? null);
    expect(note.link).to.equal(link);
    await page.goto(`${app.url}/`, { waitUntil: 'networkidle0' });
    await clickWhenReady(page, '.curio-bell');
    await page.waitForSelector(`.curio-bell__panel a[href="${link}"]`, { timeout: 15000 });
    await clickWhenReady(page, `.curio-bell__panel a[href="${link}"]`);
    await page.waitForSelector(`#post-${target.id}.curio-hash-target`, { timeout: 15000 });
    await page.waitForFunction(
      (id) => {
        const r = document.getElementById(`post-${id}`)!.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight;
      },
      { timeout: 15000 },
      target.id,
    );
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal(`post-${target.id}`);
  });

  it('on a phone (320 px, French) the search keeps room to type, above Create Group, and clear of the tab strip', async () => {
    const phone = await phonePage(browser, { locale: 'fr' });
    try {
      await signInPage(phone, app, member);
      await phone.goto(`${app.url}/groups`, { waitUntil: 'networkidle0' });
      await phone.waitForSelector('#gr-search');
      const [search, create, strip] = await phone.evaluate(() =>
        ['#gr-search', '.gr-toolbar .button.is-primary', '.curio-tabs'].map((sel) => document.querySelector(sel)!.getBoundingClientRect().toJSON() as DOMRect),
      );
      const box = { search, create, strip };
      // (it was 88 px wide beside the button, showing its icon and one letter)
      expect(box.search.width, JSON.stringify(box)).to.be.at.least(240);
      expect(box.create.top, JSON.stringify(box)).to.be.at.least(box.search.bottom);
      expect(box.search.top - box.strip.bottom, JSON.stringify(box)).to.be.at.least(12);
    } finally {
      await phone.browserContext().close();
    }
  });
});
