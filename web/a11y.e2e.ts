/**
 * Accessibility of every page, in Chromium with axe-core (@axe-core/puppeteer), and keyboard use.
 *
 *  - Every page of the product in English and French, signed out and signed in as each role
 *    (Traveler, Ambassador, Museum Manager of the museum shown, Admin): zero serious or critical
 *    axe violations (WCAG 2.0/2.1/2.2 A and AA rules and axe's best practices); the others are
 *    printed as warnings. Each violation names its rule, element and the plugin whose markup it is
 *    (from the element's class prefix: acc- accounts, mz- museums, ev- events, cm- communities,
 *    gr- groups, insights- insights, admin- admin, curio- the web shell).
 *  - Images: every <img> has an alt attribute (empty only for decoration) — axe's image-alt, checked
 *    on every page.
 *  - Keyboard: sign in with the keyboard only; tab through the landing and home pages — every
 *    visible control is reached by Tab, each shows a visible focus indicator (an outline, or a
 *    box-shadow / border / background that differs from its unfocused style); open the Create
 *    dialog from the top bar with Enter, Tab stays inside it, Escape closes it and gives focus back.
 *
 * Data comes from the API and the plugins' seeds. One app and one browser for the whole file.
 * A11Y_LOCALES=en and A11Y_ROLES=Traveler,Admin narrow the matrix while working on a page.
 * Run: npm run build:web && SPEC=web/a11y.e2e.ts npx mocha --config .mocharc.e2e.cjs
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'puppeteer';
import { AxePuppeteer } from '@axe-core/puppeteer';
import { analyzeAxe, launchBrowser, signInPage, startE2EApp, waitForNetworkQuiet } from '../core/testing/browser.ts';
import type { SignedInClient, TestApp } from '../core/testing/index.ts';

type Who = 'signed out' | 'Traveler' | 'Ambassador' | 'Museum Manager' | 'Admin';
type Locale = 'en' | 'fr';

interface Data {
  museum: { id: number; slug: string; name: string };
  communityId: number;
  groupId: number;
  meetupId: number;
  museumEventId: number;
  /** a public plan of the Traveler (the editor for them, read-only for the others) */
  planId: number;
  users: Record<Exclude<Who, 'signed out'>, SignedInClient>;
}

interface PageDef {
  name: string;
  owner: string;
  audience: 'signedOut' | 'signedIn' | 'all';
  roles?: Who[];
  path: (d: Data, who: Who) => string;
}

const PAGES: PageDef[] = [
  { name: 'landing', owner: 'accounts', audience: 'signedOut', path: () => '/' },
  { name: 'auth (sign in / sign up)', owner: 'accounts', audience: 'signedOut', path: () => '/auth' },
  { name: 'home', owner: 'insights', audience: 'signedIn', path: () => '/' },
  { name: 'discover', owner: 'museums', audience: 'all', path: () => '/discover' },
  { name: 'museum page', owner: 'museums', audience: 'all', path: (d) => `/museum/${d.museum.slug}` },
  { name: 'events', owner: 'events', audience: 'all', path: () => '/events' },
  { name: 'meetup detail', owner: 'events', audience: 'all', path: (d) => `/meetups/${d.meetupId}` },
  { name: 'museum event detail', owner: 'events', audience: 'all', path: (d) => `/events/${d.museumEventId}` },
  { name: 'communities list', owner: 'communities', audience: 'signedIn', path: () => '/communities' },
  { name: 'community detail', owner: 'communities', audience: 'signedIn', path: (d) => `/communities/${d.communityId}` },
  { name: 'groups list', owner: 'communities', audience: 'signedIn', path: () => '/groups' },
  { name: 'group detail', owner: 'groups', audience: 'signedIn', path: (d) => `/groups/${d.groupId}` },
  { name: 'own profile', owner: 'accounts', audience: 'signedIn', path: () => '/profile' },
  {
    name: "another member's profile",
    owner: 'accounts',
    audience: 'signedIn',
    path: (d, who) => `/profile/${(who === 'Traveler' ? d.users.Ambassador : d.users.Traveler).me.id}`,
  },
  { name: 'sessions', owner: 'accounts', audience: 'signedIn', path: () => '/sessions' },
  { name: 'onboarding (welcome)', owner: 'accounts', audience: 'signedIn', path: () => '/welcome' },
  { name: 'notifications inbox', owner: 'notifications', audience: 'signedIn', path: () => '/notifications' },
  { name: 'messages', owner: 'messages', audience: 'signedIn', path: () => '/messages' },
  { name: 'plans', owner: 'plans', audience: 'signedIn', path: () => '/plans' },
  { name: 'plan', owner: 'plans', audience: 'all', path: (d) => `/plans/${d.planId}` },
  { name: 'admin dashboard', owner: 'admin', audience: 'signedIn', roles: ['Admin'], path: () => '/admin' },
  { name: 'admin reports queue', owner: 'reports', audience: 'signedIn', roles: ['Admin'], path: () => '/admin?tab=reports' },
  { name: 'my reports', owner: 'reports', audience: 'signedIn', path: () => '/reports/mine' },
  { name: 'create museum', owner: 'museums', audience: 'signedIn', path: () => '/create-museum' },
  { name: 'Page Not Found', owner: 'shell', audience: 'all', path: () => '/this-page-does-not-exist' },
];

const ALL_WHO: Who[] = ['signed out', 'Traveler', 'Ambassador', 'Museum Manager', 'Admin'];
const LOCALES = ((process.env.A11Y_LOCALES || 'en,fr').split(',') as Locale[]).filter((l) => l === 'en' || l === 'fr');
/** both themes (issue 21 #14): dark as the system's choice (prefers-color-scheme: dark, no stored choice); A11Y_THEMES=light to run one */
type Theme = 'light' | 'dark';
const THEMES = ((process.env.A11Y_THEMES || 'light,dark').split(',') as Theme[]).filter((t) => t === 'light' || t === 'dark');
const WHO = ALL_WHO.filter((w) => !process.env.A11Y_ROLES || process.env.A11Y_ROLES.split(',').map((s) => s.trim()).includes(w));

/** Which plugin's markup an element is, from the class prefixes each one uses. */
const OWNER_PREFIXES: Array<[string, string]> = [
  ['acc-', 'accounts'],
  ['admin-', 'admin'],
  ['reports-', 'reports'],
  ['cm-', 'communities'],
  ['ev-', 'events'],
  ['gr-', 'groups'],
  ['insights-', 'insights'],
  ['mz-', 'museums'],
  ['curio-badge', 'badges'],
  ['curio-notif', 'notifications'],
  ['msg-', 'messages'],
  ['plans-', 'plans'],
  ['curio-', 'shell'],
  ['modal', 'shell'],
];

const warnings: string[] = [];

async function settle(page: Page) {
  await waitForNetworkQuiet(page, { idleTime: 300, timeout: 15_000 });
  await page
    .waitForFunction(() => !document.querySelector('#main-content .curio-spinner, #main-content [aria-busy="true"]') && (document.querySelector('#main-content')?.textContent ?? '').trim().length > 0, {
      timeout: 15_000,
    })
    .catch(() => {});
  // animations and late layout
  await new Promise((r) => setTimeout(r, 150));
}

/** Owners of the elements axe points at (CSS selectors). */
async function ownersOf(page: Page, selectors: string[]): Promise<string[]> {
  return page.evaluate(
    (sels, prefixes) =>
      sels.map((sel) => {
        let el: Element | null = null;
        try {
          el = document.querySelector(sel);
        } catch {
          return '?';
        }
        for (let e = el; e; e = e.parentElement) {
          for (const c of e.classList) {
            const hit = prefixes.find(([p]) => c.startsWith(p));
            if (hit) return hit[1];
          }
        }
        return el ? 'shell (no plugin class)' : '?';
      }),
    selectors,
    OWNER_PREFIXES,
  );
}

describe('accessibility: axe on every page, keyboard use', function () {
  this.timeout(120_000);
  let app: TestApp;
  let browser: Browser;
  const data = {} as Data;
  const contexts = new Map<string, { context: BrowserContext; page: Page; loaded: boolean }>();

  before(async function () {
    this.timeout(300_000);
    app = await startE2EApp();
    const users = {
      Traveler: await app.user({ role: 'Traveler', firstName: 'Tina', lastName: 'Traveler' }),
      Ambassador: await app.user({ role: 'Ambassador', firstName: 'Amir', lastName: 'Ambassador' }),
      'Museum Manager': await app.user({ role: 'Museum Manager', firstName: 'Mona', lastName: 'Manager' }),
      Admin: await app.user({ role: 'Admin', firstName: 'Ada', lastName: 'Admin' }),
    };
    data.users = users;
    await app.seed(); // museums, museum events, badges, communities and groups (members: these users)

    const list = await users.Traveler.get('/api/museums?pageSize=1&sort=popular');
    expect(list.status, list.text).to.equal(200);
    data.museum = list.body.items[0];
    const assign = await users.Admin.post('/api/admin/assign-museum-manager', { museumId: data.museum.id, managerId: users['Museum Manager'].me.id });
    expect(assign.status, assign.text).to.be.oneOf([200, 201]);

    const c = await users.Ambassador.post('/api/communities', {
      name: `Accessible Art Lovers ${Date.now().toString(36)}`,
      description: 'Galleries for everyone: step-free routes, audio guides and quiet hours.',
      membershipType: 'open',
      tags: ['access', 'painting'],
    });
    expect(c.status, c.text).to.equal(201);
    data.communityId = c.body.id;
    for (const who of ['Traveler', 'Museum Manager', 'Admin'] as const) await users[who].post(`/api/communities/${data.communityId}/join`, {});
    const date = new Date(Date.now() + 20 * 86400_000).toISOString().slice(0, 10);
    const m = await users.Ambassador.post(`/api/communities/${data.communityId}/meetups`, {
      title: 'Quiet morning at the museum',
      description: 'A relaxed visit before the crowds, with seats along the way.',
      location: 'Main entrance',
      date,
      startTime: '09:30',
      endTime: '11:30',
      museumId: data.museum.id,
      communityId: data.communityId,
    });
    expect(m.status, m.text).to.equal(201);
    data.meetupId = m.body.id;
    await users.Traveler.post(`/api/meetups/${data.meetupId}/join`, {});

    const g = await users.Traveler.post('/api/groups', { name: `Sunday Sketchers ${Date.now().toString(36)}`, description: 'We draw in the sculpture courts on Sundays.', tags: ['drawing'] });
    expect(g.status, g.text).to.equal(201);
    data.groupId = g.body.id;
    for (const who of ['Ambassador', 'Museum Manager', 'Admin'] as const) await users[who].post(`/api/groups/${data.groupId}/join`, {});
    await users.Traveler.post(`/api/groups/${data.groupId}/posts`, { content: 'Bring soft pencils: the light is low in the courts.' });

    const events = await users.Traveler.get('/api/museum-events');
    const evs: any[] = Array.isArray(events.body) ? events.body : (events.body?.items ?? events.body?.events ?? []);
    expect(evs.length, `museum events: ${events.text.slice(0, 200)}`).to.be.greaterThan(0);
    data.museumEventId = evs[0].id;

    // insights, likes, comments and follows, so that feeds, profiles and inboxes are not empty
    const posts: number[] = [];
    for (const who of Object.keys(users) as Array<keyof typeof users>) {
      const p = await users[who].post('/api/posts', { type: 'text', content: `${who}'s note: the light in the east galleries is perfect at ten.`, tags: ['light'], museumId: data.museum.id });
      expect(p.status, p.text).to.equal(201);
      posts.push(p.body.id);
      await users[who].post(`/api/museums/${data.museum.id}/follow`, {});
    }
    for (const a of Object.values(users)) {
      for (const b of Object.values(users)) {
        if (a === b) continue;
        await a.post(`/api/user/${b.me.id}/follow`, {});
      }
      for (const id of posts) await a.post(`/api/posts/${id}/like`, {});
      await a.post(`/api/posts/${posts[0]}/comments`, { content: 'Agreed, the morning light is the best.' });
    }
    const plan = await users.Traveler.post('/api/plans', { title: 'A day of museums', date: new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10), visibility: 'public', stops: [{ museumId: data.museum.id, arrival: '10:00' }, { museumId: (await users.Traveler.get('/api/museums?pageSize=2&sort=popular')).body.items[1].id, arrival: '13:00' }] });
    expect(plan.status, plan.text).to.equal(201);
    data.planId = plan.body.id;
    browser = await launchBrowser();
  });

  after(async function () {
    if (warnings.length) {
      console.log(`\n  accessibility warnings (moderate/minor axe findings, not failures): ${warnings.length}`);
      for (const w of [...new Set(warnings)]) console.log(`    - ${w}`);
    }
    for (const { context } of contexts.values()) await context.close().catch(() => {});
    await browser?.close();
    await app?.close();
  });

  /** One browser context (cookies, locale) per role and locale, reused by its pages. */
  async function pageFor(who: Who, locale: Locale, theme: Theme): Promise<Page> {
    const key = `${who}/${locale}/${theme}`;
    const existing = contexts.get(key);
    if (existing) return existing.page;
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
    await page.evaluateOnNewDocument((l) => localStorage.setItem('curio.locale', l), locale);
    if (who !== 'signed out') await signInPage(page, app, data.users[who]);
    contexts.set(key, { context, page, loaded: false });
    return page;
  }

  /**
   * Opens a path: the first time a full load, then in-app navigation (history.pushState and a
   * popstate event, as a link click does), which is much faster than reloading the app each time.
   */
  async function navigate(who: Who, locale: Locale, theme: Theme, path: string): Promise<Page> {
    const page = await pageFor(who, locale, theme);
    const entry = contexts.get(`${who}/${locale}/${theme}`)!;
    if (!entry.loaded) {
      await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
      entry.loaded = true;
    } else {
      // Mark the page on screen, navigate, then wait until React has replaced it (a page reusing
      // the same component keeps its nodes: the wait then just times out).
      await page.evaluate((p) => {
        for (const el of document.querySelectorAll('#main-content > *')) el.setAttribute('data-a11y-stale', '');
        window.scrollTo(0, 0);
        history.pushState({}, '', p);
        window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
      }, path);
      await page.waitForFunction(() => !document.querySelector('#main-content [data-a11y-stale]'), { timeout: 1500, polling: 50 }).catch(() => {});
    }
    await settle(page);
    return page;
  }

  for (const theme of THEMES)
  for (const locale of LOCALES) {
    for (const who of WHO) {
      describe(`${who}, ${locale}${theme === 'dark' ? ', dark' : ''}`, function () {
        for (const def of PAGES) {
          if (def.audience === 'signedOut' && who !== 'signed out') continue;
          if (def.audience === 'signedIn' && who === 'signed out') continue;
          if (def.roles && !def.roles.includes(who)) continue;
          it(`${def.name} (${def.owner})`, async function () {
            const t0 = Date.now();
            const path = def.path(data, who);
            const page = await navigate(who, locale, theme, path);
            const at = await page.evaluate(() => location.pathname);
            expect(at, `${path} redirected`).to.equal(path.split('?')[0]);
            expect(await page.evaluate(() => document.documentElement.lang), 'html lang').to.equal(locale);
            expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'theme').to.equal(theme);
            if (def.name !== 'Page Not Found') {
              const notFound = await page.evaluate(() => Boolean(document.querySelector('.curio-not-found')));
              expect(notFound, `${path} shows Page Not Found: is the page missing?`).to.equal(false);
            }
            const t1 = Date.now();
            const result = await analyzeAxe(new AxePuppeteer(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).options({ resultTypes: ['violations'] }));
            if (process.env.A11Y_TIMING) console.log(`        axe ${Date.now() - t1} ms, page ${t1 - t0} ms`);
            const failures: string[] = [];
            for (const v of result.violations) {
              const targets = v.nodes.map((n) => String(n.target[n.target.length - 1] ?? n.target[0]));
              // page-level rules (html, body) belong to the page's plugin
              const owners = (await ownersOf(page, v.nodes.map((n) => String(n.target[0])))).map((o, i) => (/^(html|body)$/.test(String(v.nodes[i].target[0])) ? def.owner : o));
              const byOwner = [...new Set(owners)].join(', ');
              const nodes = v.nodes
                .slice(0, 3)
                .map((n, i) => `${targets[i]} [${owners[i]}] ${n.html.replace(/\s+/g, ' ').slice(0, 140)}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1, 2).join(' ').trim()}` : ''}`)
                .join('\n        ');
              const line = `${v.id} (${v.impact}) on ${def.name} [${who}, ${locale}], owner ${byOwner}: ${v.help} — ${v.nodes.length} element(s):\n        ${nodes}`;
              if (v.impact === 'serious' || v.impact === 'critical') failures.push(line);
              else warnings.push(`${v.id} (${v.impact}) on ${def.name} [${who}, ${locale}], owner ${byOwner}: ${v.help} — ${targets.slice(0, 3).join(', ')}`);
            }
            if (failures.length) expect.fail(`serious/critical axe violations on ${path}:\n      ${failures.join('\n      ')}\n`);
          });
        }
      });
    }
  }

  // ------------------------------------------------------------------ keyboard

  describe('keyboard', function () {
    let context: BrowserContext;
    let page: Page;

    beforeEach(async function () {
      context = await browser.createBrowserContext();
      page = await context.newPage();
      await page.setViewport({ width: 1280, height: 900 });
    });
    afterEach(async function () {
      await context?.close();
    });

    /** Remembers every control's unfocused look, to tell a focus indicator from the normal style. */
    async function snapshotStyles() {
      await page.evaluate(() => {
        const w = window as any;
        w.__a11yStyle = (el: Element) => {
          const s = getComputedStyle(el);
          return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor, s.color, s.textDecorationLine].join('|');
        };
        w.__a11yBefore = new Map();
        for (const el of document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')) w.__a11yBefore.set(el, w.__a11yStyle(el));
      });
    }

    /** The focused element: a description, whether its focus is visible, and whether it is inside `within`. */
    async function focused(within?: string) {
      return page.evaluate((sel) => {
        const w = window as any;
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const again = el.dataset.a11yVisited === '1';
        el.dataset.a11yVisited = '1';
        const s = getComputedStyle(el);
        const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && !/rgba\(\d+, \d+, \d+, 0\)|transparent/.test(s.outlineColor);
        const before: string | undefined = w.__a11yBefore?.get(el);
        const now: string = w.__a11yStyle ? w.__a11yStyle(el) : '';
        const changed = before !== undefined ? before !== now : s.boxShadow !== 'none';
        const label = (el.getAttribute('aria-label') || el.innerText || (el as HTMLInputElement).placeholder || el.id || '').trim().replace(/\s+/g, ' ').slice(0, 40);
        return {
          desc: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''} "${label}"`,
          visible: outline || changed,
          inside: sel ? Boolean(el.closest(sel)) : true,
          again,
        };
      }, within ?? null);
    }

    /** Tabs through the whole page once; returns what was focused and the controls never reached. */
    async function tabThrough(max = 150) {
      const seen: Array<{ desc: string; visible: boolean }> = [];
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        if (!f) continue;
        if (f.again) break; // back to a control already visited: the whole cycle is done
        seen.push(f);
      }
      const unreached: string[] = await page.evaluate(() => {
        const sel = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
        return [...document.querySelectorAll<HTMLElement>(sel)]
          .filter((el) => {
            if (el.dataset.a11yVisited) return false;
            if (el.tabIndex < 0 || el.closest('[inert], [aria-hidden="true"]')) return false;
            const r = el.getBoundingClientRect();
            const s = getComputedStyle(el);
            return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
          })
          .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).split(/\s+/).slice(0, 2).join('.')} "${(el.getAttribute('aria-label') || el.innerText || '').trim().slice(0, 40)}"`);
      });
      return { seen, unreached };
    }

    async function open(path: string) {
      await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
      await settle(page);
      // No transitions: a focus ring fading in would be read half-drawn.
      await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
      await snapshotStyles();
    }

    it('landing page: the skip link comes first, every control is reached by Tab with a visible focus', async function () {
      await open('/');
      const { seen, unreached } = await tabThrough();
      expect(seen.length, 'Tab stops').to.be.greaterThan(8);
      expect(seen[0]?.desc ?? '', 'first Tab stop').to.match(/curio-skip-link/);
      expect(unreached, 'controls Tab never reaches').to.deep.equal([]);
      expect(seen.filter((s) => !s.visible).map((s) => s.desc), 'focus not visible on').to.deep.equal([]);
    });

    it('sign in with the keyboard only', async function () {
      const u = data.users.Traveler.me;
      // the walk above opened /welcome as this member (an onboarding begun): signing in would
      // rightly resume it there (accounts' onboarding-signin.e2e.ts); this test lands on Home
      expect((await data.users.Traveler.put('/api/user/onboarding', { status: 'skipped' })).status).to.equal(200);
      await open('/auth');
      const email = '#acc-signin-form-email';
      const password = '#acc-signin-form-password';
      let steps = 0;
      const tabTo = async (sel: string) => {
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          steps++;
          const f = await focused();
          if (f && !f.visible) expect.fail(`focus not visible on ${f.desc}`);
          if (await page.evaluate((s) => document.activeElement === document.querySelector(s), sel)) return;
        }
        expect.fail(`${sel} is not reached by Tab`);
      };
      await tabTo(email);
      await page.keyboard.type(u.email);
      await tabTo(password);
      await page.keyboard.type(u.password);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.pathname === '/' && Boolean(document.querySelector('.curio-user-button')), { timeout: 20_000 });
      expect(steps).to.be.greaterThan(0);
    });

    it('home: Tab walks the top bar in order with a visible focus, and reaches every control on the page', async function () {
      await signInPage(page, app, data.users.Traveler);
      await open('/');
      // the top bar's plugin controls are lazy chunks: read its order once they have all arrived
      // (on a slow machine the envelope could land after the first reading, and the walk saw it);
      // their places are held meanwhile, so the bar's fit does not change when they arrive
      await page.waitForFunction(() => ['.msg-nav', '.curio-bell', '.curio-user-button'].every((s) => document.querySelector(`.curio-topbar ${s}`)), { timeout: 15_000 });
      const topbar: string[] = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.curio-topbar a[href], .curio-topbar button, .curio-topbar select, .curio-topbar input')]
          .filter((el) => el.getBoundingClientRect().width > 0)
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(topbar.length, 'top bar controls').to.be.greaterThan(3);
      const topbarDesc: string[] = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.curio-topbar a[href], .curio-topbar button, .curio-topbar select, .curio-topbar input')]
          .filter((el) => el.getBoundingClientRect().width > 0)
          .map((el) => {
            const label = (el.getAttribute('aria-label') || el.innerText || (el as HTMLInputElement).placeholder || el.id || '').trim().replace(/\s+/g, ' ').slice(0, 40);
            return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''} "${label}"`;
          }),
      );
      const { seen, unreached } = await tabThrough(250);
      expect(seen.length, 'Tab stops').to.be.greaterThan(15);
      expect(seen[0]?.desc ?? '', 'first Tab stop').to.match(/curio-skip-link/);
      // the top bar's controls come right after the skip link, in their visual order
      expect(seen.slice(1, 1 + topbar.length).map((s) => s.desc).join(' | '), 'top bar order').to.equal(topbarDesc.join(' | '));
      expect(unreached, 'controls Tab never reaches').to.deep.equal([]);
      expect(seen.filter((s) => !s.visible).map((s) => s.desc), 'focus not visible on').to.deep.equal([]);
    });

    it('the Create dialog opens with Enter from the top bar, keeps focus inside, closes with Escape', async function () {
      await signInPage(page, app, data.users.Traveler);
      await open('/');
      let reached = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => Boolean(document.activeElement?.closest('.curio-topbar .curio-create-button')));
      }
      expect(reached, 'the Create button is reached by Tab').to.equal(true);
      const f0 = await focused();
      expect(f0?.visible, `focus visible on ${f0?.desc}`).to.equal(true);
      await page.keyboard.press('Enter');
      await page.waitForSelector('[role="dialog"]', { visible: true, timeout: 15_000 });
      await page.waitForFunction(() => Boolean(document.activeElement?.closest('[role="dialog"]')), { timeout: 5_000 });
      const dialogName = await page.$eval('[role="dialog"]', (d) => d.getAttribute('aria-label') || document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent || '');
      expect(dialogName.trim(), 'the dialog has an accessible name').to.not.equal('');
      await snapshotStyles();
      const outside: string[] = [];
      const invisible: string[] = [];
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press('Tab');
        const f = await focused('[role="dialog"]');
        if (!f) continue;
        if (!f.inside) outside.push(f.desc);
        if (!f.visible) invisible.push(f.desc);
      }
      expect(outside, 'focus left the dialog').to.deep.equal([]);
      expect([...new Set(invisible)], 'focus not visible on').to.deep.equal([]);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[role="dialog"]'), { timeout: 5_000 });
      const back = await page.evaluate(() => Boolean(document.activeElement?.closest('.curio-create-button')));
      expect(back, 'focus returns to the Create button').to.equal(true);
    });

    it('the user menu opens with Enter and closes with Escape, focus back on its button', async function () {
      await signInPage(page, app, data.users.Traveler);
      await open('/');
      await page.focus('.curio-user-button');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.curio-user-menu.is-active', { timeout: 5_000 });
      expect(await page.$eval('.curio-user-button', (b) => b.getAttribute('aria-expanded'))).to.equal('true');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.curio-user-menu .dropdown-menu'))), 'Tab moves into the open menu').to.equal(true);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.curio-user-menu.is-active'), { timeout: 5_000 });
      expect(await page.evaluate(() => document.activeElement?.classList.contains('curio-user-button'))).to.equal(true);
    });
  });
});
