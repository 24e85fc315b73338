import { expect } from 'chai';
import { startTestApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { startSmtpServer, type TestSmtp, type ReceivedMail } from '../../../core/testing/smtp.ts';
import { NotificationsService, type NotificationsApi } from '../public.ts';
import { localParts } from './emails.ts';
import { makeCommunity, makeMeetup } from '../../events/server/test-helpers.ts';

const MIN = 60_000;
// (a confirmation email of the sign-up may also arrive: the test helper confirms the address right after)
const isBatch = (m: ReceivedMail) => /notifications? on Curio$/.test(m.subject);
const isDigest = (m: ReceivedMail) => m.subject === 'Your week on Curio';

describe('notifications by email: batched, digest, one-click unsubscribe (real SMTP)', function () {
  let smtp: TestSmtp;
  let app: TestApp;
  let notifications: NotificationsApi;
  const start = Date.now();
  /** the jobs' clock, moved forward by the tests (never back) */
  const at = async (ms: number) => {
    app.jobs.setClock(new Date(ms));
    await app.jobs.runDue();
    await app.jobs.drain();
  };
  const like = (u: SignedInClient, i: number) =>
    notifications.notify([u.me.id], { type: 'like', title: 'New like', message: `Person ${i} liked your insight.`, link: `/profile/p${i}`, dedupeKey: `test-like:${u.me.id}:${i}` });

  before(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ smtpUrl: smtp.url });
    notifications = app.services.get(NotificationsService);
  });
  after(async () => {
    app?.jobs.setClock(null);
    await app?.close();
    await smtp?.close();
  });

  it('five likes → one email; the next one waits 15 minutes; what was read in the app is not sent', async () => {
    const u = await app.user();
    const off = await app.user();
    expect((await off.put('/api/user/preferences', { emailNotifications: false })).status).to.equal(200);
    for (let i = 1; i <= 5; i++) {
      await like(u, i);
      await like(off, i);
    }
    await at(start + 2 * MIN);
    const first = await smtp.waitFor(u.me.email, isBatch);
    expect(first.subject).to.equal('5 new notifications on Curio');
    for (let i = 1; i <= 5; i++) expect(first.text).to.contain(`New like: Person ${i} liked your insight.`);
    expect(first.header('list-unsubscribe')).to.match(/^<http:\/\/127\.0\.0\.1:\d+\/api\/unsubscribe\?token=[^>]+>$/);
    expect(first.header('list-unsubscribe-post')).to.equal('List-Unsubscribe=One-Click');

    await like(u, 6);
    await at(start + 5 * MIN);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(u.me.email).filter(isBatch)).to.have.length(1);
    await at(start + 18 * MIN);
    const second = await smtp.waitFor(u.me.email, (m) => isBatch(m) && m !== first);
    expect(second.subject).to.equal('1 new notification on Curio');
    expect(second.text).to.contain('Person 6');
    expect(second.text).to.not.contain('Person 5');

    // seen in the app before the next batch: not emailed
    await like(u, 7);
    expect((await u.post('/api/notifications/read-all')).status).to.equal(200);
    await at(start + 40 * MIN);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(u.me.email).filter(isBatch)).to.have.length(2);
    expect(smtp.to(off.me.email).filter(isBatch)).to.have.length(0);
  });

  it('one-click unsubscribe by POST turns notification emails off without signing in; GET only asks', async () => {
    const u = await app.user();
    await like(u, 1);
    await at(start + 60 * MIN);
    const m = await smtp.waitFor(u.me.email, isBatch);
    const url = m.header('list-unsubscribe')!.slice(1, -1);
    const anon = app.client();
    anon.origin = null; // a mail provider's POST carries no Origin
    const page = await anon.get(url.replace(app.url, ''));
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/text\/html/);
    expect((await u.get('/api/user/preferences')).body.emailNotifications).to.equal(true);

    const res = await anon.raw('POST', url.replace(app.url, ''), { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).to.equal(200);
    expect((await u.get('/api/user/preferences')).body.emailNotifications).to.equal(false);

    const forged = url.replace(/token=[^&]+/, `token=${encodeURIComponent(`${u.me.id}.weeklyDigest.AAAA`)}`);
    const bad = await anon.raw('POST', forged.replace(app.url, ''), { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(bad.status).to.equal(400);
  });

  it('the weekly digest goes Monday 08:00 in the member’s time zone, once, and not when empty', async () => {
    const withNews = await app.user();
    const empty = await app.user();
    for (const u of [withNews, empty]) {
      expect((await u.put('/api/user/preferences', { weeklyDigest: true, emailNotifications: false })).status).to.equal(200);
      await app.knex('users').where({ id: u.me.id }).update({ time_zone: 'America/New_York' });
    }
    await notifications.notify([withNews.me.id], { type: 'badge', title: 'Badge earned', message: 'You earned the Explorer badge.', link: '/profile' });
    // the next Monday 08:00 in New York, at least a day ahead
    let t = Math.ceil((Date.now() + 24 * 3600_000) / 3600_000) * 3600_000;
    while (!(localParts(new Date(t), 'America/New_York').weekday === 1 && localParts(new Date(t), 'America/New_York').hour === 8)) t += 3600_000;
    // a meetup the member attends in the coming week (the events plugin's section)
    const organizer = await app.user({ role: 'Ambassador' });
    const community = await makeCommunity(organizer, [withNews]);
    const startDate = new Date(t + 2 * 24 * 3600_000).toISOString().slice(0, 10);
    const meetup = await makeMeetup(organizer, community, { date: startDate, startTime: '19:00', timeZone: 'America/New_York', title: 'Digest night at the Met' });
    expect((await withNews.post(`/api/meetups/${meetup.id}/join`, { status: 'attending' })).status).to.equal(200);
    // earned during that week
    await app.knex('notifications').where({ user_id: withNews.me.id, type: 'badge' }).update({ created_at: new Date(t - 24 * 3600_000) });
    // 07:00 there: nothing yet
    await at(t - 3600_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(withNews.me.email).filter(isDigest)).to.have.length(0);
    await at(t);
    const digest = await smtp.waitFor(withNews.me.email, isDigest);
    expect(digest.subject).to.equal('Your week on Curio');
    expect(digest.text).to.contain('New badges');
    expect(digest.text).to.contain('You earned the Explorer badge.');
    expect(digest.text).to.contain('Coming up');
    expect(digest.text).to.contain(meetup.title);
    expect(digest.header('list-unsubscribe-post')).to.equal('List-Unsubscribe=One-Click');
    await at(t + 30 * MIN);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(withNews.me.email).filter(isDigest)).to.have.length(1);
    expect(smtp.to(empty.me.email).filter(isDigest)).to.have.length(0);
  });
});
