/**
 * Live updates (core/stream.ts): GET /api/stream over real HTTP on a real database; on PostgreSQL
 * also two app processes (core/bin/start.ts) sharing one database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, waitFor, type TestApp } from './testing/index.ts';
import { openSse, type SseStream } from './testing/sse.ts';
import { createRunDatabase, sameSessionOn, signUp, startChild, type Child } from './quality/fixtures/child.ts';

describe('core: live updates (GET /api/stream)', function () {
  this.timeout(60_000);
  let app: TestApp;
  const open: SseStream[] = [];
  const sse = async (...a: Parameters<typeof openSse>) => {
    const s = await openSse(...a);
    open.push(s);
    return s;
  };

  before(async () => {
    app = await startTestApp({ stream: { maxPerMember: 2, heartbeatMs: 200 } });
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  after(async () => {
    await app?.close();
  });

  it('refuses signed-out visitors with 401 JSON', async () => {
    const r = await app.client().get('/api/stream');
    expect(r.status).to.equal(401);
    expect(r.body.message).to.equal('Authentication required');
  });

  it('refuses a malformed Last-Event-ID in the query with 400', async () => {
    const u = await app.user();
    const r = await u.get('/api/stream?lastEventId=abc');
    expect(r.status).to.equal(400);
  });

  it('is an uncompressed event stream with heartbeats, and a new notification arrives with the unread count', async () => {
    const ann = await app.user();
    const bob = await app.user();
    const s = await sse(ann, '/api/stream', { 'accept-encoding': 'gzip, br' });
    expect(s.status).to.equal(200);
    expect(s.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(s.headers.get('content-encoding'), 'never compressed (koa-compress would buffer it)').to.equal(null);
    expect(s.headers.get('cache-control')).to.match(/no-cache/);
    await waitFor(async () => s.comments.includes('ping'), { timeout: 3000 });
    expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const e = await s.next((x) => x.event === 'notification.created');
    expect(e.data.unreadCount).to.equal(1);
    expect(e.id).to.match(/^\d+$/);
    // another member's stream hears nothing of it
    const bobStream = await sse(bob);
    await app.live.publishTo([ann.me.id], 'probe.only-ann', { n: 1 });
    await s.next((x) => x.event === 'probe.only-ann');
    await new Promise((r) => setTimeout(r, 200));
    expect(bobStream.events.map((x) => x.event)).to.not.include('probe.only-ann');
  });

  it('notification.created counts only what the inbox shows: not rows from a member muted with notifications, nor from a blocked one', async () => {
    const ann = await app.user();
    const carl = await app.user();
    const dan = await app.user();
    const eve = await app.user();
    const fay = await app.user();
    expect((await carl.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    expect((await dan.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    expect((await ann.get('/api/notifications/unread-count')).body.count).to.equal(2);
    // the inbox now hides Carl's (muted with notifications) and Dan's (blocked)
    expect((await ann.post(`/api/user/${carl.me.id}/mute`, { notifications: true })).status).to.be.oneOf([200, 201]);
    expect((await ann.post(`/api/user/${dan.me.id}/block`)).status).to.be.oneOf([200, 201]);
    expect((await ann.get('/api/notifications/unread-count')).body.count).to.equal(0);
    const s = await sse(ann);
    expect((await eve.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const e = await s.next((x) => x.event === 'notification.created');
    expect(e.data.unreadCount).to.equal(1);
    expect((await fay.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const e2 = await s.next((x) => x.event === 'notification.created' && x.id !== e.id);
    expect(e2.data.unreadCount).to.equal(2);
    expect((await ann.get('/api/notifications/unread-count')).body.count).to.equal(2);
  });

  it('Last-Event-ID resumes the events published while the tab was away, and only those', async () => {
    const ann = await app.user();
    const s1 = await sse(ann);
    await app.live.publishTo([ann.me.id], 'probe.one', { n: 1 });
    const first = await s1.next((x) => x.event === 'probe.one');
    s1.close();
    await app.live.publishTo([ann.me.id], 'probe.two', { n: 2 });
    await app.live.publishTo([ann.me.id], 'probe.three', { n: 3 });
    const s2 = await sse(ann, '/api/stream', { 'last-event-id': first.id! });
    await s2.next((x) => x.event === 'probe.three');
    expect(s2.events.map((x) => x.event)).to.deep.equal(['probe.two', 'probe.three']);
    expect(s2.events.map((x) => x.data.n)).to.deep.equal([2, 3]);
    // the query parameter works the same (a new page load has no header)
    const s3 = await sse(ann, `/api/stream?lastEventId=${s2.events[0].id}`);
    await s3.next((x) => x.event === 'probe.three');
    expect(s3.events.map((x) => x.event)).to.deep.equal(['probe.three']);
  });

  it('does not resume events older than the retention window', async () => {
    const ann = await app.user();
    const s1 = await sse(ann);
    await app.live.publishTo([ann.me.id], 'probe.old', {});
    const first = await s1.next((x) => x.event === 'probe.old');
    s1.close();
    await app.live.publishTo([ann.me.id], 'probe.stale', {});
    await app.knex('core_stream_events').where({ user_id: ann.me.id, type: 'probe.stale' }).update({ created_at: app.knex.raw(`now() - interval '6 minutes'`) });
    await app.live.publishTo([ann.me.id], 'probe.fresh', {});
    const s2 = await sse(ann, '/api/stream', { 'last-event-id': first.id! });
    await s2.next((x) => x.event === 'probe.fresh');
    expect(s2.events.map((x) => x.event)).to.deep.equal(['probe.fresh']);
  });

  it('publishToOpen: the event is stored and sent only for the members of the audience with a stream open now', async () => {
    const ann = await app.user();
    const bob = await app.user();
    const carl = await app.user();
    const s = await sse(ann);
    await waitFor(async () => s.comments.includes('connected'));
    // an audience as SQL (one column of member ids), as plugins give it
    const audience = app.knex('users').whereIn('id', [ann.me.id, bob.me.id, carl.me.id]).select('id');
    await app.live.publishToOpen(audience, 'probe.open-only', { n: 1 });
    const e = await s.next((x) => x.event === 'probe.open-only');
    expect(e.data).to.deep.equal({ n: 1 });
    const stored = await app.knex('core_stream_events').where({ type: 'probe.open-only' }).whereIn('user_id', [ann.me.id, bob.me.id, carl.me.id]).pluck('user_id');
    expect(stored, 'rows only for the member with an open stream').to.deep.equal([ann.me.id]);
    // as a list of ids; two streams of one member: one row, both streams hear it
    const bobStreams = [await sse(bob), await sse(bob)];
    await waitFor(async () => bobStreams.every((x) => x.comments.includes('connected')));
    await app.live.publishToOpen([bob.me.id, carl.me.id, bob.me.id], 'probe.open-list', {});
    for (const x of bobStreams) await x.next((y) => y.event === 'probe.open-list');
    expect(await app.knex('core_stream_events').where({ type: 'probe.open-list' }).whereIn('user_id', [bob.me.id, carl.me.id]).pluck('user_id')).to.deep.equal([bob.me.id]);
    // a stream closed: its lease is given back, and nothing more is stored for that member
    s.close();
    await waitFor(async () => !(await app.knex('core_stream_leases').where({ user_id: ann.me.id }).first()));
    await app.live.publishToOpen([ann.me.id], 'probe.open-after', {});
    expect(await app.knex('core_stream_events').where({ type: 'probe.open-after', user_id: ann.me.id }).first()).to.equal(undefined);
  });

  it('keeps at most maxPerMember streams per member: opening one more closes the oldest', async () => {
    const ann = await app.user();
    const a = await sse(ann);
    const b = await sse(ann);
    expect(a.ended()).to.equal(false);
    const c = await sse(ann);
    await a.whenEnded(3000);
    expect(b.ended()).to.equal(false);
    expect(c.ended()).to.equal(false);
    await app.live.publishTo([ann.me.id], 'probe.after-limit', {});
    await b.next((x) => x.event === 'probe.after-limit');
    await c.next((x) => x.event === 'probe.after-limit');
    expect(app.stream.openCount()).to.be.at.least(2);
  });

  it('counts open streams and events sent in /metrics', async () => {
    const ann = await app.user();
    const s = await sse(ann);
    await app.live.publishTo([ann.me.id], 'probe.metrics', {});
    await s.next((x) => x.event === 'probe.metrics');
    const m = await app.client().get('/metrics');
    expect(m.text).to.match(/curio_stream_open \d+/);
    expect(Number(/curio_stream_events_sent_total (\d+)/.exec(m.text)?.[1] ?? 0)).to.be.greaterThan(0);
  });

  it('drops a consumer that does not read instead of buffering without bound', async () => {
    const small = await startTestApp({ stream: { maxBufferedBytes: 4096 } });
    try {
      const ann = await small.user();
      // a raw socket that never reads what the server writes
      const net = await import('node:net');
      const u = new URL(small.url);
      const sock = net.connect(Number(u.port), u.hostname);
      sock.pause();
      await new Promise((r) => sock.once('connect', r));
      sock.write(`GET /api/stream HTTP/1.1\r\nHost: ${u.host}\r\nCookie: ${ann.cookieHeader()}\r\n\r\n`);
      await waitFor(async () => small.stream.openCount() === 1, { timeout: 3000 });
      const big = 'x'.repeat(60_000);
      for (let i = 0; i < 200 && small.stream.openCount() > 0; i++) {
        await small.live.publishTo([ann.me.id], 'probe.big', { big });
      }
      await waitFor(async () => small.stream.openCount() === 0, { timeout: 5000 });
      sock.destroy();
    } finally {
      await small.close();
    }
  });
});

describe('core: live updates across two processes on one PostgreSQL', function () {
  this.timeout(300_000);
  let a: Child | null = null;
  let b: Child | null = null;
  let db: Awaited<ReturnType<typeof createRunDatabase>> | null = null;
  const dirs: string[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) return this.skip();
    db = await createRunDatabase('stream');
    const dir = () => {
      const d = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-stream-'));
      dirs.push(d);
      return d;
    };
    // at most two streams per member, counted across processes (core_stream_leases)
    const env = { CURIO__stream__maxPerMember: '2' };
    a = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
    b = await startChild({ databaseUrl: db.url, dataDir: dir(), env });
    mkDir = dir;
  });
  let mkDir: () => string = () => '';
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a direct message sent through process A arrives on the recipient’s stream on process B within 2 s', async () => {
    const ann = await signUp(a!, 'ma');
    const bob = await signUp(a!, 'mb');
    const s = await openSse(sameSessionOn(b!, bob));
    try {
      expect(s.status).to.equal(200);
      const t0 = performance.now();
      const c = await ann.post('/api/conversations', { participantIds: [bob.me.id], message: { text: 'across processes' } });
      expect(c.status, c.text).to.equal(201);
      const e = await s.next((x) => x.event === 'message.created', 2000);
      expect(e.at - t0).to.be.below(2000);
      expect(e.data).to.deep.equal({ conversationId: c.body.id, messageId: c.body.lastMessage.id, senderId: ann.me.id });
    } finally {
      s.close();
    }
  });

  it('an event published through process A reaches a stream on process B within 2 s, and resumes there', async () => {
    const ann = await signUp(a!, 'sa');
    const bob = await signUp(a!, 'sb');
    const annOnB = sameSessionOn(b!, ann);
    const s = await openSse(annOnB);
    try {
      expect(s.status).to.equal(200);
      const t0 = performance.now();
      expect((await bob.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
      const e = await s.next((x) => x.event === 'notification.created', 2000);
      expect(e.at - t0).to.be.below(2000);
      expect(e.data.unreadCount).to.equal(1);
      s.close();
      await waitFor(async () => !(await db!.knex('core_stream_leases').where({ user_id: ann.me.id }).first()));
      // while away: a message through A; resuming on B with Last-Event-ID finds it in the shared log
      // (a notification's live update goes only to open streams: the tab reads its count when it opens)
      const carl = await signUp(a!, 'sc');
      expect((await carl.post(`/api/user/${ann.me.id}/follow`)).status).to.be.oneOf([200, 201]);
      const m = await carl.post('/api/conversations', { participantIds: [ann.me.id], message: { text: 'while you were away' } });
      expect(m.status, m.text).to.equal(201);
      const s2 = await openSse(annOnB, '/api/stream', { 'last-event-id': e.id! });
      try {
        const again = await s2.next((x) => x.event === 'message.created', 2000);
        expect(again.data.conversationId).to.equal(m.body.id);
        expect(Number(again.id)).to.be.greaterThan(Number(e.id));
        expect(s2.events.map((x) => x.event), 'nothing kept of the follow’s notification').to.not.include('notification.created');
      } finally {
        s2.close();
      }
    } finally {
      s.close();
    }
  });

  it('a new insight posted through process A: feed.new reaches the follower’s stream on process B, and no row is stored for a follower without one', async () => {
    const author = await signUp(a!, 'fa');
    const online = await signUp(a!, 'fb');
    const offline = await signUp(a!, 'fc');
    for (const f of [online, offline]) expect((await f.post(`/api/user/${author.me.id}/follow`)).status).to.be.oneOf([200, 201]);
    const s = await openSse(sameSessionOn(b!, online));
    try {
      expect(s.status).to.equal(200);
      const p = await author.post('/api/posts', { type: 'text', content: 'across processes, to who is here' });
      expect(p.status, p.text).to.equal(201);
      const e = await s.next((x) => x.event === 'feed.new', 2000);
      expect(e.data).to.deep.equal({ postId: p.body.id });
      const rows = await db!.knex('core_stream_events').where({ type: 'feed.new' }).whereIn('user_id', [online.me.id, offline.me.id, author.me.id]).pluck('user_id');
      expect(rows).to.deep.equal([online.me.id]);
    } finally {
      s.close();
    }
  });

  it('the per-member stream limit holds across processes: a stream opened on B closes the oldest, held by A', async () => {
    const ann = await signUp(a!, 'la');
    const annOnB = sameSessionOn(b!, ann);
    const s1 = await openSse(ann);
    const s2 = await openSse(annOnB);
    const streams = [s1, s2];
    try {
      expect(s1.status).to.equal(200);
      expect(s2.status).to.equal(200);
      expect(s1.ended()).to.equal(false);
      const s3 = await openSse(annOnB);
      streams.push(s3);
      await s1.whenEnded(3000);
      expect(s2.ended()).to.equal(false);
      expect(s3.ended()).to.equal(false);
      expect(Number((await db!.knex('core_stream_leases').where({ user_id: ann.me.id }).count({ n: '*' }))[0].n)).to.equal(2);
      // and the other way round: one more on A closes s2 on B
      const s4 = await openSse(ann);
      streams.push(s4);
      await s2.whenEnded(3000);
      expect(s3.ended()).to.equal(false);
      expect(s4.ended()).to.equal(false);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('concurrent opens on both processes leave exactly the limit open, and closed streams give back their lease', async () => {
    const ann = await signUp(a!, 'lc');
    const annOnB = sameSessionOn(b!, ann);
    const streams = await Promise.all(Array.from({ length: 8 }, (_, i) => openSse(i % 2 ? annOnB : ann)));
    try {
      for (const s of streams) expect(s.status).to.equal(200);
      await waitFor(async () => streams.filter((s) => !s.ended()).length === 2, { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 500));
      expect(streams.filter((s) => !s.ended()).length).to.equal(2);
      expect(Number((await db!.knex('core_stream_leases').where({ user_id: ann.me.id }).count({ n: '*' }))[0].n)).to.equal(2);
    } finally {
      for (const s of streams) s.close();
    }
    await waitFor(async () => Number((await db!.knex('core_stream_leases').where({ user_id: ann.me.id }).count({ n: '*' }))[0].n) === 0, { timeout: 5000 });
  });

  it('the leases of a process that died do not hold the member’s slots: they are given up first', async () => {
    const c = await startChild({ databaseUrl: db!.url, dataDir: mkDir(), env: { CURIO__stream__maxPerMember: '2' } });
    const ann = await signUp(a!, 'ld');
    const onC = sameSessionOn(c, ann);
    const dead = [await openSse(onC), await openSse(onC)];
    try {
      expect(Number((await db!.knex('core_stream_leases').where({ user_id: ann.me.id }).count({ n: '*' }))[0].n)).to.equal(2);
      await c.kill('SIGKILL');
      const x = await openSse(ann);
      const y = await openSse(sameSessionOn(b!, ann));
      try {
        await new Promise((r) => setTimeout(r, 1000));
        expect(x.ended()).to.equal(false);
        expect(y.ended()).to.equal(false);
        const rows = await db!.knex('core_stream_leases').where({ user_id: ann.me.id });
        expect(rows.length).to.equal(2);
      } finally {
        x.close();
        y.close();
      }
    } finally {
      for (const s of dead) s.close();
      await c.kill('SIGKILL');
    }
  });
});
