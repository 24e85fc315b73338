/**
 * The built web app runs under the Content-Security-Policy without violations (issue 10,
 * security): every main page, signed out and signed in as an Admin (who sees every navigation
 * item), in Debian's Chromium. A violation is reported by the browser as a
 * `securitypolicyviolation` event and a "Refused to …" console message; both are collected.
 *
 * SPEC=core/quality/csp.e2e.ts npx mocha --config .mocharc.e2e.cjs   (after npm run build:web)
 */
import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer';
import { launchBrowser, signInPage, startE2EApp } from '../testing/browser.ts';
import type { TestApp } from '../testing/index.ts';
import { museumBody, must } from './fixtures/world.ts';

async function visit(page: Page, base: string, path: string): Promise<string[]> {
  const found: string[] = [];
  const onConsole = (m: any) => {
    const text = m.text();
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame|create)/i.test(text)) found.push(`console: ${text.slice(0, 300)}`);
  };
  page.on('console', onConsole);
  try {
    await page.goto(base + path, { waitUntil: 'networkidle2', timeout: 45000 });
    await new Promise((r) => setTimeout(r, 500));
    const events: string[] = await page.evaluate(() => (window as any).__cspViolations ?? []);
    found.push(...events);
  } finally {
    page.off('console', onConsole);
  }
  return found;
}

describe('quality: the built app under its Content-Security-Policy', function () {
  this.timeout(300_000);
  let app: TestApp;
  let browser: Browser;

  before(async () => {
    app = await startE2EApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('no page triggers a CSP violation, signed out or signed in as an Admin', async () => {
    const admin = await app.user({ role: 'Admin' });
    const museum = must(await admin.post('/api/admin/create-museum', museumBody('CSP Museum')), 'museum');
    const community = must(await admin.post('/api/communities', { name: 'CSP community' }), 'community');
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(() => {
      (window as any).__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as any).__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    const violations: string[] = [];
    for (const path of ['/', '/auth', '/auth?tab=register', '/discover', '/events', `/museum/${museum.slug}`, '/no-such-page']) {
      for (const v of await visit(page, app.url, path)) violations.push(`signed out ${path}: ${v}`);
    }
    await signInPage(page, app, admin);
    for (const path of ['/', '/profile', '/discover', '/events', `/museum/${museum.slug}`, '/communities', `/communities/${community.id}`, '/groups', '/sessions', '/create-museum', '/plans', '/admin']) {
      for (const v of await visit(page, app.url, path)) violations.push(`admin ${path}: ${v}`);
    }
    // pages left behind do not keep their live-update streams (each would hold one of the browser's
    // six connections to the host until navigation stalls): only the current page's may be open
    expect(app.stream.openCount(), 'open streams after visiting every page').to.be.at.most(1);
    expect(violations).to.deep.equal([]);

    // the detector itself: an inline script is refused by the policy and reported
    await page.addScriptTag({ content: 'window.__inlineRan = true;' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const probe = await page.evaluate(() => ({ ran: Boolean((window as any).__inlineRan), reported: (window as any).__cspViolations as string[] }));
    expect(probe.ran, 'an inline script ran: the policy allows inline scripts').to.equal(false);
    expect(probe.reported.some((v) => v.startsWith('script-src')), 'the violation was reported').to.equal(true);
  });
});
