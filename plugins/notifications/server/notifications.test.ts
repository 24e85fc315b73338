import { AsyncLocalStorage } from 'node:async_hooks';
import { expect } from 'chai';
import { openSse } from '../../../core/testing/sse.ts';
import { sharedApp, startTestApp, waitFor, type TestApp, type SignedInClient } from '../../../core/testing/index.ts';
import { NotificationsService, type NotificationsApi } from '../public.ts';
import { BadgesService } from '../../badges/public.ts';
import { MuseumsService } from '../../museums/public.ts';
import { createNotificationsService, safeLink } from './service.ts';
import pino from 'pino';
import { AccountsService, type AccountsApi } from '../../accounts/public.ts';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLUGINS_DIR } from '../../../core/plugins.ts';

let seq = 1_700_000_000 + Math.floor(Math.random() * 100_000_000);
const nextId = () => ++seq;

/** Sets notification preferences the way the settings screen does (accounts route when present). */
async function setPrefs(app: TestApp, user: SignedInClient, prefs: Record<string, boolean>) {
  const route = app.routes.find((r) => r.method === 'PUT' && /preferences/.test(r.path));
  if (route) {
    const r = await user.put(route.path, prefs);
    if (r.status === 200) return;
  }
  const cols: Record<string, string> = {
    followNotifications: 'follow_notifications',
    likeNotifications: 'like_notifications',
    commentNotifications: 'comment_notifications',
    museumUpdates: 'museum_updates',
    eventReminders: 'event_reminders',
  };
  const row: Record<string, unknown> = { user_id: user.me.id };
  for (const [k, v] of Object.entries(prefs)) row[cols[k]] = v;
  await app.knex('user_preferences').insert(row).onConflict('user_id').merge();
}

async function inbox(user: SignedInClient) {
  const r = await user.get('/api/notifications?limit=100');
  expect(r.status).to.equal(200);
  return r.body.items as any[];
}

async function unread(user: SignedInClient): Promise<number> {
  const r = await user.get('/api/notifications/unread-count');
  expect(r.status).to.equal(200);
  return r.body.count;
}

describe('notifications', function () {
  let app: TestApp;
  let api: NotificationsApi;
  before(async () => {
    app = await sharedApp();
    api = app.services.get(NotificationsService);
  });

  describe('inbox routes', () => {
    it('need sign-in', async () => {
      const c = app.client();
      expect((await c.get('/api/notifications')).status).to.equal(401);
      expect((await c.get('/api/notifications/unread-count')).status).to.equal(401);
      expect((await c.post('/api/notifications/read-all')).status).to.equal(401);
      expect((await c.post('/api/notifications/1/read')).status).to.equal(401);
    });

    it('pages newest first with a cursor, counts unread exactly, marks one and all read', async () => {
      const user = await app.user();
      const other = await app.user();
      for (let i = 1; i <= 5; i++) expect(await api.notify([user.me.id], { type: 'admin', title: `T${i}`, message: `M${i}`, priority: i === 5 ? 'urgent' : undefined, link: '/events' })).to.equal(1);
      await api.notify([other.me.id], { type: 'admin', title: 'Not yours', message: 'x' });
      expect(await unread(user)).to.equal(5);

      const p1 = await user.get('/api/notifications?limit=2');
      expect(p1.status).to.equal(200);
      expect(p1.body.items.map((n: any) => n.title)).to.deep.equal(['T5', 'T4']);
      expect(p1.body.items[0]).to.deep.include({ type: 'admin', message: 'M5', priority: 'urgent', link: '/events', read: false });
      expect(p1.body.items[1].priority).to.equal('normal');
      expect(p1.body.nextCursor).to.be.a('string');
      const p2 = await user.get(`/api/notifications?limit=2&cursor=${p1.body.nextCursor}`);
      expect(p2.body.items.map((n: any) => n.title)).to.deep.equal(['T3', 'T2']);
      const p3 = await user.get(`/api/notifications?limit=2&cursor=${p2.body.nextCursor}`);
      expect(p3.body.items.map((n: any) => n.title)).to.deep.equal(['T1']);
      expect(p3.body.nextCursor).to.equal(null);

      const id = p1.body.items[1].id;
      const r = await user.post(`/api/notifications/${id}/read`);
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.include({ id, read: true });
      expect(await unread(user)).to.equal(4);
      expect((await user.post(`/api/notifications/${id}/read`)).status).to.equal(200); // idempotent
      expect(await unread(user)).to.equal(4);
      const unreadOnly = await user.get('/api/notifications?unread=true&limit=100');
      expect(unreadOnly.body.items).to.have.length(4);

      // someone else's notification is not found
      const theirs = (await inbox(other))[0];
      expect((await user.post(`/api/notifications/${theirs.id}/read`)).status).to.equal(404);
      expect((await user.post('/api/notifications/999999999/read')).status).to.equal(404);
      expect((await user.get('/api/notifications?cursor=abc')).status).to.equal(400);

      const all = await user.post('/api/notifications/read-all');
      expect(all.status).to.equal(200);
      expect(all.body).to.deep.equal({ count: 4 });
      expect(await unread(user)).to.equal(0);
      expect(await unread(other)).to.equal(1);
      expect((await user.post('/api/notifications/read-all')).body).to.deep.equal({ count: 0 });
    });

    it('keeps unread counts exact under concurrent notifications and reads', async () => {
      const user = await app.user();
      await Promise.all(Array.from({ length: 20 }, (_, i) => api.notify([user.me.id], { type: 'admin', title: `C${i}`, message: 'm' })));
      expect(await unread(user)).to.equal(20);
      const items = await inbox(user);
      await Promise.all(items.slice(0, 7).flatMap((n) => [user.post(`/api/notifications/${n.id}/read`), user.post(`/api/notifications/${n.id}/read`)]));
      expect(await unread(user)).to.equal(13);
    });

    it('drops unsafe links and unknown users; dedupe keys store once', async () => {
      expect(safeLink('javascript:alert(1)')).to.equal(null);
      expect(safeLink('//evil.example')).to.equal(null);
      expect(safeLink('/profile/ann')).to.equal('/profile/ann');
      expect(safeLink('https://example.org/x')).to.equal('https://example.org/x');
      const user = await app.user();
      expect(await api.notify([user.me.id, 2147483000], { type: 'admin', title: 't', message: 'm', link: 'javascript:alert(1)' })).to.equal(1);
      expect((await inbox(user))[0].link).to.equal(null);
      expect(await api.notify([user.me.id], { type: 'follow', title: 't', message: 'm', dedupeKey: 'k1' })).to.equal(1);
      expect(await api.notify([user.me.id], { type: 'follow', title: 't', message: 'm', dedupeKey: 'k1' })).to.equal(0);
    });
  });

  describe('sources', () => {
    it('a follow notifies the followed member, once, unless they turned follow notifications off', async () => {
      const a = await app.user({ firstName: 'Grace', lastName: 'Hopper' });
      const b = await app.user();
      const c = await app.user();
      await app.events.emit('accounts.user.followed', { followerId: a.me.id, followingId: b.me.id, following: true });
      await app.events.emit('accounts.user.followed', { followerId: a.me.id, followingId: b.me.id, following: false });
      await app.events.emit('accounts.user.followed', { followerId: a.me.id, followingId: b.me.id, following: true });
      const got = await inbox(b);
      expect(got).to.have.length(1);
      expect(got[0]).to.deep.include({ type: 'follow', title: 'New follower', message: 'Grace Hopper started following you.', link: `/profile/${a.me.slug}`, template: 'notifications:templates.follow' });
      expect(got[0].params).to.deep.equal({ name: 'Grace Hopper' });

      await setPrefs(app, c, { followNotifications: false });
      await app.events.emit('accounts.user.followed', { followerId: a.me.id, followingId: c.me.id, following: true });
      expect(await inbox(c)).to.have.length(0);
    });

    it('likes and comments on your insights (not your own), replies, with preferences', async () => {
      const author = await app.user();
      const fan = await app.user({ firstName: 'Ann', lastName: 'Fan' });
      const replier = await app.user();
      const post = nextId();
      await app.events.emit('insights.post.liked', { postId: post, userId: author.me.id, authorId: author.me.id, liked: true, likesCount: 1 });
      await app.events.emit('insights.post.liked', { postId: post, userId: fan.me.id, authorId: author.me.id, liked: true, likesCount: 1 });
      await app.events.emit('insights.post.liked', { postId: post, userId: fan.me.id, authorId: author.me.id, liked: false, likesCount: 0 });
      await app.events.emit('insights.post.liked', { postId: post, userId: fan.me.id, authorId: author.me.id, liked: true, likesCount: 1 });
      let got = await inbox(author);
      expect(got.map((n) => n.type)).to.deep.equal(['like']);
      expect(got[0].message).to.equal('Ann Fan liked your insight.');

      const comment = nextId();
      await app.events.emit('insights.comment.created', { commentId: comment, postId: post, userId: fan.me.id, postAuthorId: author.me.id, parentId: null, parentAuthorId: null });
      await app.events.emit('insights.comment.created', { commentId: nextId(), postId: post, userId: author.me.id, postAuthorId: author.me.id, parentId: null, parentAuthorId: null });
      await app.events.emit('insights.comment.created', { commentId: nextId(), postId: post, userId: replier.me.id, postAuthorId: author.me.id, parentId: comment, parentAuthorId: fan.me.id });
      await app.events.settled(); // comments are told after the comment's answer
      got = await inbox(author);
      expect(got.map((n) => n.type)).to.deep.equal(['comment', 'comment', 'like']);
      expect(got[1].message).to.equal('Ann Fan commented on your insight.');
      const fanGot = await inbox(fan);
      expect(fanGot.map((n) => n.title)).to.deep.equal(['New reply']);

      await setPrefs(app, author, { likeNotifications: false, commentNotifications: false });
      await app.events.emit('insights.post.liked', { postId: post, userId: replier.me.id, authorId: author.me.id, liked: true, likesCount: 2 });
      await app.events.emit('insights.comment.created', { commentId: nextId(), postId: post, userId: replier.me.id, postAuthorId: author.me.id, parentId: null, parentAuthorId: null });
      await app.events.settled();
      expect(await inbox(author)).to.have.length(3);
    });

    it('a like told to a member without a tab open is one statement (the rules in the insert); with a tab open, its live update follows', async () => {
      const author = await app.user();
      const fan = await app.user({ firstName: 'Lee', lastName: 'Liker' });
      const als = new AsyncLocalStorage<string[]>();
      const onQuery = (q: { sql?: string }) => als.getStore()?.push(String(q.sql ?? '').replace(/\s+/g, ' '));
      app.knex.on('query', onQuery);
      try {
        const like = (postId: number) => ({ type: 'like' as const, title: 'New like', message: 'Lee Liker liked your insight.', actorId: fan.me.id, dedupeKey: `like:${postId}:${fan.me.id}`, groupKey: `like:insight:${postId}` });
        const offline: string[] = [];
        expect(await als.run(offline, () => api.notify([author.me.id], like(nextId())))).to.equal(1);
        expect(offline, offline.join('\n')).to.have.length(1);
        expect(offline[0]).to.match(/^insert into notifications/);
        // the same insert refuses what the rules refuse: the preference off, then a mute of the liker's notifications
        await setPrefs(app, author, { likeNotifications: false });
        expect(await api.notify([author.me.id], like(nextId()))).to.equal(0);
        await setPrefs(app, author, { likeNotifications: true });
        expect((await author.post(`/api/user/${fan.me.id}/mute`, { notifications: true })).status).to.be.oneOf([200, 201]);
        expect(await api.notify([author.me.id], like(nextId()))).to.equal(0);
        expect((await author.del(`/api/user/${fan.me.id}/mute`)).status).to.be.oneOf([200, 204]);
        // a tab open: its count and its event come after the insert
        const s = await openSse(author);
        try {
          await waitFor(async () => s.comments.includes('connected'));
          const online: string[] = [];
          expect(await als.run(online, () => api.notify([author.me.id], like(nextId())))).to.equal(1);
          const e = await s.next((x) => x.event === 'notification.created');
          expect(e.data.unreadCount).to.equal((await author.get('/api/notifications/unread-count')).body.count);
          expect(online.length, online.join('\n')).to.be.within(2, 4);
        } finally {
          s.close();
        }
      } finally {
        app.knex.off('query', onQuery);
      }
    });

    it("a notification to one member is written by a statement PostgreSQL plans once, not on every run (its generic plan)", async () => {
      // `unnest` of a list parameter made every generic plan look dearer than a custom one, so the
      // like's insert was planned again on each run (issue 18); one recipient is now one value
      const author = await app.user();
      const fan = await app.user();
      const seen: Array<{ sql: string; bindings: unknown[] }> = [];
      const onQuery = (q: { sql?: string; bindings?: unknown[] }) => {
        if (/^\s*insert into notifications/.test(String(q.sql))) seen.push({ sql: String(q.sql), bindings: [...(q.bindings ?? [])] });
      };
      app.knex.on('query', onQuery);
      try {
        const postId = nextId();
        expect(await api.notify([author.me.id], { type: 'like', title: 'New like', message: 'Liked.', actorId: fan.me.id, dedupeKey: `like:${postId}:${fan.me.id}`, groupKey: `like:insight:${postId}` })).to.equal(1);
      } finally {
        app.knex.off('query', onQuery);
      }
      expect(seen).to.have.length(1);
      // the plan cache may already have numbered its placeholders ($1…)
      const native = /\$1\b/.test(seen[0].sql) ? seen[0] : app.knex.raw(seen[0].sql, seen[0].bindings as any[]).toSQL().toNative();
      const literal = (v: unknown) => (v === null || v === undefined ? 'null' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
      const name = `notify_plan_${nextId()}`;
      await app.knex.transaction(async (trx) => {
        await trx.raw(`prepare ${name} as ${native.sql}`);
        // the same notification again: the dedupe key makes each run store nothing, as a retry would
        for (let i = 0; i < 8; i++) await trx.raw(`execute ${name}(${native.bindings.map(literal).join(', ')})`);
        const [plans] = (await trx.raw('select generic_plans, custom_plans from pg_prepared_statements where name = ?', [name])).rows;
        await trx.raw(`deallocate ${name}`);
        expect(Number(plans.generic_plans), JSON.stringify(plans)).to.be.greaterThan(0);
      });
    });

    it('suggestion decisions: the museums plugin notifies (with the note); one notification, museumUpdates respected', async function () {
      const museums = app.services.maybe(MuseumsService);
      if (!museums || !app.routes.some((r) => r.path === '/api/museums/:id/suggest-edit')) this.skip();
      const suggester = await app.user();
      const admin = await app.user({ role: 'Admin' });
      const m = await museums!.createMuseum({ name: `Suggest ${nextId()}`, address: '1 Quay', city: 'Lyon', country: 'France' } as any, null);
      const r = await suggester.post(`/api/museums/${m.id}/suggest-edit`, { suggestedChanges: { phone: '+33 4 00 00 00 00' }, reason: 'New number' });
      expect(r.status, r.text).to.be.oneOf([200, 201]);
      const page = await museums!.listEditSuggestions({ museumId: m.id });
      await museums!.approveEditSuggestion(page.items[0].id, admin.me.id);
      const got = (await inbox(suggester)).filter((n) => n.type === 'museum_update');
      expect(got).to.have.length(1);
      expect(got[0].title).to.equal('Suggestion approved');
      expect(got[0].link).to.match(/^\/museum\//);

      const off = await app.user();
      await setPrefs(app, off, { museumUpdates: false });
      await off.post(`/api/museums/${m.id}/suggest-edit`, { suggestedChanges: { phone: '+33 4 11 11 11 11' }, reason: 'x' });
      const again = await museums!.listEditSuggestions({ museumId: m.id, status: 'pending' });
      await museums!.rejectEditSuggestion(again.items[0].id, admin.me.id, 'Not verifiable');
      expect(await inbox(off)).to.have.length(0);
    });

    it('meetup reminders respect eventReminders; community notices are always delivered', async () => {
      const on = await app.user();
      const off = await app.user();
      await setPrefs(app, off, { eventReminders: false });
      const n = await api.notify([on.me.id, off.me.id], { type: 'event_reminder', title: 'Meetup tomorrow', message: 'Sketching at the Louvre, 10:00', link: '/meetups/1', priority: 'high' });
      expect(n).to.equal(1);
      expect((await inbox(on))[0]).to.deep.include({ type: 'event_reminder', priority: 'high' });
      expect(await inbox(off)).to.have.length(0);
      expect(await api.notify([off.me.id], { type: 'community', title: 'Warning', message: 'Please keep it civil.' })).to.equal(1);
    });

    it('a badge earned is announced in the inbox, once', async function () {
      const badges = app.services.maybe(BadgesService);
      if (!badges) this.skip();
      const user = await app.user();
      const badge = await badges!.createBadge({ name: `Inbox ${nextId()}`, description: 'Checked in twice.', icon: '🎉', color: '#F59E0B', requirement: { type: 'check_ins', count: 2 } });
      await app.events.emit('museums.museum.checkedIn', { userId: user.me.id, museumId: 1, checkInId: nextId(), verified: true });
      expect((await inbox(user)).filter((n) => n.type === 'badge' && n.params?.name === badge.name)).to.have.length(0);
      await app.events.emit('museums.museum.checkedIn', { userId: user.me.id, museumId: 1, checkInId: nextId(), verified: true });
      await app.events.emit('museums.museum.checkedIn', { userId: user.me.id, museumId: 1, checkInId: nextId(), verified: true });
      await app.events.settled(); // a badge's notification is written after the answer (issue 18)
      const mine = (await inbox(user)).filter((n) => n.type === 'badge' && n.params?.name === badge.name);
      expect(mine).to.have.length(1);
      expect(mine[0]).to.deep.include({ title: 'Badge earned!', message: `You earned the 🎉 ${badge.name} badge: Checked in twice.`, link: '/profile?tab=badges', template: 'badges:notification' });
    });
  });

  describe('admin sends', () => {
    it('to listed ids: unknown ids dropped, preferences ignored, count = recipients', async () => {
      const a = await app.user();
      const b = await app.user();
      await setPrefs(app, b, { followNotifications: false, likeNotifications: false, commentNotifications: false, museumUpdates: false, eventReminders: false });
      const n = await api.send({ type: 'admin', title: 'Hello', message: 'World', priority: 'high' }, { userIds: [a.me.id, b.me.id, a.me.id, 2147483001] });
      expect(n).to.equal(2);
      expect((await inbox(b))[0]).to.deep.include({ type: 'admin', title: 'Hello', priority: 'high' });
      const sends = await api.listSends({ page: 1, pageSize: 5 });
      expect(sends.items[0]).to.deep.include({ audience: 'users', recipientCount: 2, deliveredCount: 2, status: 'done' });
    });

    it('to everyone: answers the member count and every member gets it', async () => {
      const u = await app.user();
      const [{ n: members }] = await app.knex('users').count({ n: '*' });
      const count = await api.notifyAll({ type: 'admin', title: `All ${nextId()}`, message: 'Everyone' });
      expect(count).to.equal(Number(members));
      // the shared app holds every test file's members: past syncLimit the fan-out finishes in the background
      const title = (await waitFor(async () => (await inbox(u))[0], { timeout: 20_000 })).title;
      const stored = await waitFor(async () => {
        const [{ n }] = await app.knex('notifications').where({ title }).count({ n: '*' });
        return Number(n) >= Number(members) ? Number(n) : null;
      }, { timeout: 20_000 });
      expect(stored).to.equal(Number(members));
    });

    it('to listed ids: the live update reaches the open tab with its count, and nothing is written for members without one', async () => {
      const here = await app.user();
      const away = await app.user();
      const s = await openSse(here);
      try {
        await waitFor(async () => s.comments.includes('connected'));
        const title = `Live send ${nextId()}`;
        expect(await api.send({ type: 'admin', title, message: 'To who is here' }, { userIds: [here.me.id, away.me.id] })).to.equal(2);
        const e = await s.next((x) => x.event === 'notification.created');
        expect(e.data.unreadCount).to.equal((await here.get('/api/notifications/unread-count')).body.count);
        expect(await app.knex('core_stream_events').where({ type: 'notification.created' }).whereIn('user_id', [here.me.id, away.me.id]).pluck('user_id')).to.deep.equal([here.me.id]);
        expect((await inbox(away)).map((n) => n.title)).to.deep.equal([title]);
      } finally {
        s.close();
      }
    });

    it('to a large audience: answers at once, fans out in batches in the background, never twice', async function () {
      this.timeout(120000);
      const small = await startTestApp({ plugins: { disabled: ['admin', 'events', 'groups'], config: { notifications: { batchSize: 40, syncLimit: 10 } } } });
      try {
        const svc = small.services.get(NotificationsService);
        // 250 members straight in the accounts table (the sign-up route is rate-limited and slow by design)
        const rows = Array.from({ length: 250 }, (_, i) => ({ slug: `bulk-${i}-${nextId()}`, username: `bulk${i}_${nextId()}`, email: `bulk${i}_${nextId()}@example.test`, password_hash: 'x' }));
        await small.knex.batchInsert('users', rows, 100);
        const [{ n: members }] = await small.knex('users').count({ n: '*' });
        const started = Date.now();
        const count = await svc.notifyAll({ type: 'admin', title: 'Big news', message: 'For all' });
        expect(count).to.equal(Number(members));
        expect(Date.now() - started).to.be.below(3000);
        const send = await small.knex('notification_sends').orderBy('id', 'desc').first();
        await waitFor(async () => (await small.knex('notification_sends').where({ id: send.id }).first()).status === 'done', { timeout: 60000, interval: 100 });
        const [{ n: stored }] = await small.knex('notifications').where({ send_id: send.id }).count({ n: '*' });
        expect(Number(stored)).to.equal(Number(members));
        const [{ d }] = await small.knex('notifications').where({ send_id: send.id }).countDistinct({ d: 'user_id' });
        expect(Number(d)).to.equal(Number(members));
        expect((await small.knex('notification_sends').where({ id: send.id }).first()).delivered_count).to.equal(Number(members));
      } finally {
        await small.close();
      }
    });
  });

  describe('a member deleted between the check and the write', () => {
    it('is left out; the others still get it, inside a send transaction and outside', async () => {
      const real = app.services.get(AccountsService);
      const gone = 2147483001; // never a member: stands for one deleted after accounts answered
      // accounts answering as if `gone` still existed (what it said a moment before the deletion)
      const stale: AccountsApi = Object.create(real);
      stale.getPreferencesMany = async (ids) => {
        const m = await real.getPreferencesMany(ids.filter((i) => i !== gone));
        if (ids.includes(gone)) m.set(gone, (await real.getPreferences(gone)) as any);
        return m;
      };
      const svc = createNotificationsService({ knex: app.knex, log: pino({ level: 'silent' }), accounts: () => stale, enqueue: async () => undefined, batchSize: 1000, syncLimit: 1000 });
      const a = await app.user();
      const b = await app.user();
      expect(await svc.api.send({ type: 'admin', title: `Stale ${nextId()}`, message: 'm' }, { userIds: [a.me.id, gone, b.me.id] })).to.equal(2);
      const title = `Stale notify ${nextId()}`;
      expect(await svc.api.notify([gone, a.me.id], { type: 'admin', title, message: 'm' })).to.equal(1);
      expect((await inbox(a)).map((n) => n.title)).to.include(title);
    });
  });

  describe('boundaries', () => {
    it("reads no other plugin's tables: members come from AccountsApi (userIdsBatch, userIdRange, getPreferencesMany)", () => {
      const here = path.dirname(fileURLToPath(import.meta.url));
      // every table another plugin creates in its migrations
      const foreign = new Set<string>();
      for (const plugin of fs.readdirSync(PLUGINS_DIR)) {
        if (plugin === 'notifications') continue;
        const dir = path.join(PLUGINS_DIR, plugin, 'server', 'migrations');
        if (!fs.existsSync(dir)) continue;
        for (const f of fs.readdirSync(dir)) {
          const text = fs.readFileSync(path.join(dir, f), 'utf8');
          for (const m of text.matchAll(/createTable\(\s*['"](\w+)['"]|create table (?:if not exists )?"?(\w+)/gi)) foreign.add(m[1] ?? m[2]);
        }
      }
      expect(foreign).to.include('users');
      const offenders: string[] = [];
      for (const f of fs.readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
        const code = fs.readFileSync(path.join(here, f), 'utf8');
        for (const t of foreign) {
          const uses = new RegExp(`\\(\\s*['"]${t}['"]\\s*\\)|\\b(from|join|into|update)\\s+"?${t}"?(\\s|$|,|\\))`, 'i');
          if (uses.test(code)) offenders.push(`${f}: ${t}`);
        }
      }
      expect(offenders).to.deep.equal([]);
    });
  });
});
