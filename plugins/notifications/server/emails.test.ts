import { expect } from 'chai';
import { startTestApp, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { startSmtpServer, type TestSmtp, type ReceivedMail } from '../../../core/testing/smtp.ts';
import { EMAILED_BY_SENDER, NotificationsService, type NotificationsApi } from '../public.ts';
import { localParts } from './emails.ts';
import { makeCommunity, makeMeetup, makeMuseum } from '../../events/server/test-helpers.ts';

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
    // an event reminder is emailed by its own job at its time: the batch leaves it out
    await notifications.notify([u.me.id], { type: 'event_reminder', title: 'Starting in an hour', message: 'Reminder: your meetup starts soon.', dedupeKey: `${EMAILED_BY_SENDER}reminder:test:${u.me.id}` });
    await at(start + 2 * MIN);
    const first = await smtp.waitFor(u.me.email, isBatch);
    expect(first.subject).to.equal('5 new notifications on Curio');
    for (let i = 1; i <= 5; i++) expect(first.text).to.contain(`New like: Person ${i} liked your insight.`);
    expect(first.text).to.not.contain('Starting in an hour');
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

  it('a direct message reaches the recipient by email in the next batch (messages plugin)', async () => {
    const ann = await app.user();
    const bob = await app.user();
    expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const c = await ann.post('/api/conversations', { participantIds: [bob.me.id], message: { text: 'Meet at the Orsay clock?' } });
    expect(c.status, c.text).to.equal(201);
    await at(start + 80 * MIN);
    const mail = await smtp.waitFor(bob.me.email, isBatch);
    // the sender, the message, and a link to the conversation
    expect(mail.text).to.match(/New message from [^:\n]+: Meet at the Orsay clock\?/);
    expect(mail.text).to.contain(`/messages/${c.body.id}`);
  });

  it('what the inbox hides is not emailed: a notification from a member muted (with notifications) after it was sent', async () => {
    const dan = await app.user();
    const carl = await app.user();
    expect((await carl.post(`/api/user/${dan.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    await notifications.notify([dan.me.id], { type: 'admin', title: 'Hello', message: 'From the Curio team' });
    expect((await dan.post(`/api/user/${carl.me.id}/mute`, { notifications: true })).status).to.equal(200);
    await at(start + 100 * MIN);
    const mail = await smtp.waitFor(dan.me.email, isBatch);
    expect(mail.subject).to.equal('1 new notification on Curio');
    expect(mail.text).to.contain('From the Curio team');
    expect(mail.text).to.not.contain('started following you');
  });

  it('members who cannot be emailed get no send job: their marks move in one statement, and a confirmation later does not send the past', async () => {
    const unconfirmed = await app.user({ verified: false });
    const off = await app.user();
    expect((await off.put('/api/user/preferences', { emailNotifications: false })).status).to.equal(200);
    const on = await app.user();
    for (const u of [unconfirmed, off, on]) await like(u, 1);
    const newest = async (u: SignedInClient) => Number((await app.knex('notifications').where({ user_id: u.me.id }).max('id as m').first())!.m);
    const sendJobsFor = async (u: SignedInClient) =>
      (await app.knex('core_jobs').where({ name: 'notifications.email.send' }).select('payload')).filter((j: any) => Number((typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload).userId) === u.me.id).length;
    await at(start + 120 * MIN);
    expect((await smtp.waitFor(on.me.email, isBatch)).text).to.contain('Person 1');
    expect(await sendJobsFor(on)).to.equal(1);
    for (const u of [unconfirmed, off]) {
      expect(await sendJobsFor(u), u.me.username).to.equal(0);
      const mark = await app.knex('notification_email_state').where({ user_id: u.me.id }).first();
      expect(Number(mark.last_notification_id), u.me.username).to.equal(await newest(u));
      expect(mark.last_email_at).to.equal(null);
    }
    // the address confirmed afterwards: what happened before is not sent, what comes next is
    await app.knex('users').where({ id: unconfirmed.me.id }).update({ email_verified_at: app.knex.fn.now() });
    await like(unconfirmed, 2);
    await at(start + 140 * MIN);
    const mail = await smtp.waitFor(unconfirmed.me.email, isBatch);
    expect(mail.subject).to.equal('1 new notification on Curio');
    expect(mail.text).to.contain('Person 2');
    expect(mail.text).to.not.contain('Person 1');
    expect(smtp.to(off.me.email).filter(isBatch)).to.have.length(0);
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
    // a meetup of a community the member belongs to, without an RSVP, is "coming up" too
    const communityOnly = await makeMeetup(organizer, community, { date: startDate, startTime: '17:00', endTime: '18:30', timeZone: 'America/New_York', title: 'Community lecture, no RSVP yet' });
    // insights of the week: by people followed, about a museum followed; not a stranger's, not
    // an older one, not by someone who blocked the reader since (accounts' rule, in SQL)
    const museum = await makeMuseum(app);
    expect((await withNews.post(`/api/museums/${museum.id}/follow`)).status).to.be.oneOf([200, 201]);
    const [friend, blocker, stranger] = await Promise.all([app.user(), app.user(), app.user()]);
    for (const f of [friend, blocker]) expect((await withNews.post(`/api/user/${f.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const post = async (u: SignedInClient, content: string, museumId?: number) => {
      const r = await u.post('/api/posts', { type: 'text', content, ...(museumId ? { museumId } : {}) });
      expect(r.status, r.text).to.equal(201);
      return r.body.id as number;
    };
    const ids = {
      friend: await post(friend, 'Digest: the friend’s insight on Vermeer'),
      museum: await post(stranger, 'Digest: a stranger at the followed museum', museum.id),
      stranger: await post(stranger, 'Digest: a stranger elsewhere'),
      blocker: await post(blocker, 'Digest: by someone who then blocked'),
      old: await post(friend, 'Digest: the friend, two weeks ago'),
    };
    expect((await blocker.post(`/api/user/${withNews.me.id}/block`)).status).to.be.oneOf([200, 201]);
    await app.knex('insights_posts').whereIn('id', [ids.friend, ids.museum, ids.stranger, ids.blocker]).update({ created_at: new Date(t - 2 * 24 * 3600_000) });
    await app.knex('insights_posts').where({ id: ids.old }).update({ created_at: new Date(t - 14 * 24 * 3600_000) });
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
    expect(digest.text).to.contain(communityOnly.title);
    expect(digest.text).to.contain('Top insights from people and museums you follow');
    expect(digest.text).to.contain('Digest: the friend’s insight on Vermeer');
    expect(digest.text).to.contain(`/insights/${ids.friend}`);
    expect(digest.text).to.contain('Digest: a stranger at the followed museum');
    expect(digest.text).to.not.contain('Digest: a stranger elsewhere');
    expect(digest.text).to.not.contain('Digest: by someone who then blocked');
    expect(digest.text).to.not.contain('Digest: the friend, two weeks ago');
    expect(digest.header('list-unsubscribe-post')).to.equal('List-Unsubscribe=One-Click');
    await at(t + 30 * MIN);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(withNews.me.email).filter(isDigest)).to.have.length(1);
    expect(smtp.to(empty.me.email).filter(isDigest)).to.have.length(0);
  });
});
