import http from 'node:http';
import { expect } from 'chai';
import pino from 'pino';
import { Admission } from './admission.ts';
import { EventBus } from './events.ts';
import { startTestApp, waitFor, type TestApp } from './testing/index.ts';

describe('admission (core/admission.ts)', () => {
  it('lets `limit` in at once; the others wait and go in, one per leave, in the order they came', async () => {
    const gate = new Admission(2);
    expect(gate.enter()).to.equal(null);
    expect(gate.enter()).to.equal(null);
    expect(gate.running).to.equal(2);
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => gate.enter()!.then(() => order.push(n)));
    expect(gate.waiting).to.equal(3);
    gate.leave();
    await Promise.resolve();
    await Promise.resolve();
    expect(order).to.deep.equal([1]);
    // a place that frees goes to the first waiting: the number inside stays at the limit
    expect(gate.running).to.equal(2);
    expect(gate.waiting).to.equal(2);
    gate.leave();
    gate.leave();
    await Promise.all(waits);
    expect(order).to.deep.equal([1, 2, 3]);
    // places that free with no one waiting are given back; a newcomer then goes in at once
    gate.leave();
    expect(gate.running).to.equal(1);
    expect(gate.enter()).to.equal(null);
    expect(gate.running).to.equal(2);
    const late = gate.enter();
    expect(late).to.not.equal(null);
    gate.leave();
    await late;
    expect(gate.waiting).to.equal(0);
  });

  it('keeps its order over many waits (its queue is compacted as it goes)', async () => {
    const gate = new Admission(1);
    gate.enter();
    const order: number[] = [];
    const waits = Array.from({ length: 3000 }, (_, n) => gate.enter()!.then(() => order.push(n)));
    for (let n = 0; n < 3000; n++) {
      gate.leave();
      if (n % 500 === 0) await Promise.resolve();
    }
    await Promise.all(waits);
    expect(order).to.deep.equal(Array.from({ length: 3000 }, (_, n) => n));
    expect(gate.waiting).to.equal(0);
    expect(gate.running).to.equal(1);
  });

  it('lets background work take up to half the places without waiting; a request waits while it holds them', async () => {
    const gate = new Admission(4);
    expect(gate.share).to.equal(2);
    expect(gate.hold()).to.equal(true);
    expect(gate.hold()).to.equal(true);
    // past its share background work goes on, uncounted
    expect(gate.hold()).to.equal(false);
    expect(gate.background).to.equal(2);
    expect(gate.enter()).to.equal(null);
    expect(gate.enter()).to.equal(null);
    const third = gate.enter();
    expect(third).to.not.equal(null);
    expect([gate.running, gate.waiting]).to.deep.equal([2, 1]);
    let inside = false;
    void third!.then(() => (inside = true));
    gate.release();
    await Promise.resolve();
    expect(inside).to.equal(true);
    expect([gate.running, gate.background, gate.waiting]).to.deep.equal([3, 1, 0]);
  });

  it('lets background work in even when the requests fill every place, and hands places on only once under the limit again', async () => {
    const gate = new Admission(4);
    for (let i = 0; i < 4; i++) expect(gate.enter()).to.equal(null);
    expect(gate.hold()).to.equal(true);
    expect(gate.hold()).to.equal(true);
    let inside = false;
    void gate.enter()!.then(() => (inside = true));
    // six inside a door of four: a request that leaves, and the first background work done, free no place
    gate.leave();
    gate.release();
    await Promise.resolve();
    expect(inside).to.equal(false);
    expect([gate.running, gate.background, gate.waiting]).to.deep.equal([3, 1, 1]);
    gate.release();
    await Promise.resolve();
    expect(inside).to.equal(true);
    expect([gate.running, gate.background, gate.waiting]).to.deep.equal([4, 0, 0]);
  });

  it("holds a place for each running lane of the event bus's deferred work, and gives it back when the lane is done", async () => {
    const gate = new Admission(2);
    const bus = new EventBus(pino({ level: 'silent' }));
    bus.useGate(gate);
    let open!: () => void;
    const held = new Promise<void>((r) => (open = r));
    bus.after('slow', () => held);
    bus.after('slow', () => undefined);
    // a second plugin's lane runs too, but past the share (1 of 2) it takes no place
    bus.after('other', () => held);
    await new Promise((r) => setImmediate(r));
    expect(gate.background).to.equal(1);
    expect(gate.enter()).to.equal(null);
    const waiting = gate.enter();
    expect(waiting).to.not.equal(null);
    open();
    await waiting;
    await bus.settled();
    expect([gate.background, gate.running, gate.waiting]).to.deep.equal([0, 2, 0]);
  });

  describe('in the app', function () {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ maxInFlight: 2 });
    });
    after(async () => {
      await app?.close();
    });

    const gauge = async (state: 'running' | 'waiting' | 'deferred') => {
      const text = (await app.client().get('/metrics')).text;
      const m = new RegExp(`curio_requests_admitted\\{state="${state}"\\} (\\d+)`).exec(text);
      return m ? Number(m[1]) : NaN;
    };

    it('holds requests past maxInFlight before their work, answers health and metrics meanwhile, and serves everyone once places free', async function () {
      if (app.db.kind !== 'postgres') this.skip(); // the test holds requests with a lock another connection takes
      const author = await app.user();
      const id = (await author.post('/api/posts', { type: 'text', content: 'Admission', tags: [] })).body.id;
      const reader = await app.user();
      const lock = await app.knex.transaction();
      try {
        // the two admitted requests wait for this lock inside PostgreSQL; the third waits at the door
        await lock.raw('lock table insights_posts in access exclusive mode');
        const reads = [0, 1, 2].map(() => reader.get(`/api/posts/${id}`));
        await waitFor(async () => (await gauge('waiting')) === 1, { timeout: 5000 });
        expect(await gauge('running')).to.equal(2);
        // the gate leaves out what a balancer and an operator need while the app is busy
        expect((await app.client().get('/api/health')).status).to.equal(200);
        // a member whose client gives up while waiting: the request is never started (its post not written)
        const before = Number((await lock.raw('select count(*) n from insights_posts')).rows[0].n);
        const body = JSON.stringify({ type: 'text', content: 'Never written', tags: [] });
        const gone = http.request(`${app.url}/api/posts`, {
          method: 'POST',
          headers: { cookie: author.cookieHeader(), origin: app.url, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        });
        gone.on('error', () => {});
        gone.end(body);
        await waitFor(async () => (await gauge('waiting')) === 2, { timeout: 5000 });
        gone.destroy();
        await lock.commit();
        const answers = await Promise.all(reads);
        expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
        await waitFor(async () => (await gauge('waiting')) === 0 && (await gauge('running')) === 0, { timeout: 5000 });
        const after = Number((await app.knex.raw('select count(*) n from insights_posts')).rows[0].n);
        expect(after).to.equal(before);
        expect((await app.client().get('/metrics')).text).to.match(/curio_http_requests_total\{[^}]*status="499"[^}]*\} 1/);
      } finally {
        if (!lock.isCompleted()) await lock.rollback();
      }
    });

    it("gives a place to the work deferred after a like's answer while it runs: a request waits for it", async function () {
      if (app.db.kind !== 'postgres') this.skip(); // as above: the locks are taken on another connection
      const author = await app.user();
      const id = (await author.post('/api/posts', { type: 'text', content: 'Admission and the lanes', tags: [] })).body.id;
      const fan = await app.user();
      await app.events.settled();
      const lock = await app.knex.transaction();
      try {
        // the like's notification waits for this lock in its lane, after the like's answer
        await lock.raw('lock table notifications in access exclusive mode');
        expect((await fan.post(`/api/posts/${id}/like`, {})).status).to.equal(200);
        await waitFor(async () => (await gauge('deferred')) === 1, { timeout: 5000 });
        // one place of two is the lane's: of two reads held inside PostgreSQL, one goes in, one waits
        await lock.raw('lock table insights_posts in access exclusive mode');
        const reads = [0, 1].map(() => fan.get(`/api/posts/${id}`));
        await waitFor(async () => (await gauge('waiting')) === 1, { timeout: 5000 });
        expect(await gauge('running')).to.equal(1);
        await lock.commit();
        expect((await Promise.all(reads)).map((r) => r.status)).to.deep.equal([200, 200]);
        await app.events.settled();
        expect(await gauge('deferred')).to.equal(0);
        // and the lane's work was done: the author was told
        const inbox = (await author.get('/api/notifications')).body;
        expect(JSON.stringify(inbox)).to.include(`/insights/${id}`);
      } finally {
        if (!lock.isCompleted()) await lock.rollback();
      }
    });
  });
});
