import { AsyncLocalStorage } from 'node:async_hooks';
import { expect } from 'chai';
import pino from 'pino';
import { EventBus } from './events.ts';
import { startTestApp, waitFor, type TestApp } from './testing/index.ts';

const silent = pino({ level: 'silent' });
const tick = () => new Promise((r) => setTimeout(r, 20));

/** A gate handlers wait at until the test lets them through: open(n) lets n waits pass, now or when they come. */
function gate() {
  const waiting: Array<() => void> = [];
  let credits = 0;
  return {
    wait: () => {
      if (credits > 0) {
        credits--;
        return Promise.resolve();
      }
      return new Promise<void>((r) => waiting.push(r));
    },
    open(n = 1) {
      for (let i = 0; i < n; i++) {
        const next = waiting.shift();
        if (next) next();
        else credits++;
      }
    },
    get waiting() {
      return waiting.length;
    },
  };
}

describe('core event bus: deferred work in one lane per plugin, with room for writes', function () {
  it("runs each plugin's deferred handlers in emission order, whatever each one takes", async () => {
    const bus = new EventBus(silent);
    const seen: number[] = [];
    bus.on('probe.thing.happened' as any, async (p: { n: number }) => {
      await new Promise((r) => setTimeout(r, (p.n * 7) % 5));
      seen.push(p.n);
    }, 'badges');
    for (let n = 1; n <= 20; n++) bus.defer('probe.thing.happened' as any, { n } as any);
    await bus.settled();
    expect(seen).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("runs different plugins' lanes side by side: a slow plugin does not hold another's work", async () => {
    const bus = new EventBus(silent);
    const slow = gate();
    const fast: number[] = [];
    bus.on('probe.thing.happened' as any, () => slow.wait(), 'slow');
    bus.on('probe.thing.happened' as any, (p: { n: number }) => void fast.push(p.n), 'fast');
    for (let n = 1; n <= 3; n++) bus.defer('probe.thing.happened' as any, { n } as any);
    await waitFor(async () => fast.length === 3, { timeout: 2000 });
    // the slow lane has started its first event only, and the rest waits behind it
    expect(slow.waiting).to.equal(1);
    expect(bus.backlog).to.equal(3);
    let settled = false;
    void bus.settled().then(() => (settled = true));
    slow.open();
    await tick();
    expect(settled).to.equal(false);
    slow.open(2);
    await waitFor(async () => settled, { timeout: 2000 });
    expect(bus.backlog).to.equal(0);
  });

  it("a handler's own lanes (from the payload): one lane keeps its order, another runs beside it", async () => {
    const bus = new EventBus(silent);
    const slow = gate();
    const seen: string[] = [];
    bus.on('probe.thing.happened' as any, async (p: { to: string; n: number }) => {
      if (p.to === 'a') await slow.wait();
      seen.push(`${p.to}${p.n}`);
    }, 'notifications', { lane: (p: { to: string }) => p.to } as any);
    for (const [to, n] of [['a', 1], ['b', 1], ['a', 2], ['b', 2]] as const) bus.defer('probe.thing.happened' as any, { to, n } as any);
    await waitFor(async () => seen.length === 2, { timeout: 2000 });
    expect(seen).to.deep.equal(['b1', 'b2']);
    slow.open(2);
    await bus.settled();
    expect(seen).to.deep.equal(['b1', 'b2', 'a1', 'a2']);
  });

  it("keeps an afterAnswer handler out of the emitter's await and runs it in its plugin's lane", async () => {
    const bus = new EventBus(silent);
    const g = gate();
    const order: string[] = [];
    bus.on('probe.thing.happened' as any, () => void order.push('now'), 'a');
    bus.on('probe.thing.happened' as any, async () => {
      await g.wait();
      order.push('later');
    }, 'b', { afterAnswer: true });
    await bus.emit('probe.thing.happened' as any, {} as any);
    expect(order).to.deep.equal(['now']);
    g.open();
    await bus.settled();
    expect(order).to.deep.equal(['now', 'later']);
  });

  it("runs deferred handlers and after-answer work in no request's async context", async () => {
    const bus = new EventBus(silent);
    const als = new AsyncLocalStorage<string>();
    const stores: Array<string | undefined> = [];
    bus.on('probe.thing.happened' as any, () => void stores.push(als.getStore()), 'a');
    als.run('request 1', () => {
      bus.defer('probe.thing.happened' as any, {} as any);
      bus.after('b', () => void stores.push(als.getStore()));
    });
    await bus.settled();
    expect(stores).to.deep.equal([undefined, undefined]);
  });

  it('room(): at the high mark it waits until the lanes bring the backlog down to the low mark', async () => {
    const bus = new EventBus(silent, { high: 4, low: 1, maxWaitMs: Infinity });
    const g = gate();
    bus.on('probe.thing.happened' as any, () => g.wait(), 'slow');
    for (let n = 0; n < 3; n++) bus.defer('probe.thing.happened' as any, {} as any);
    expect(bus.backlogged).to.equal(false);
    await bus.room();
    bus.defer('probe.thing.happened' as any, {} as any);
    expect(bus.backlogged).to.equal(true);
    let roomy = false;
    void bus.room().then(() => (roomy = true));
    await tick();
    g.open(2); // 2 left: still above the low mark
    await tick();
    expect(bus.backlog).to.equal(2);
    expect(roomy).to.equal(false);
    g.open(); // 1 left: the low mark
    await waitFor(async () => roomy, { timeout: 2000 });
    expect(bus.backlog).to.equal(1);
    // with a bound, a wait ends at it even while the backlog stays high
    for (let n = 0; n < 3; n++) bus.defer('probe.thing.happened' as any, {} as any);
    expect(bus.backlogged).to.equal(true);
    const t0 = Date.now();
    await bus.room(100);
    expect(Date.now() - t0).to.be.within(90, 1000);
    expect(bus.backlogged).to.equal(true);
    g.open(4);
    await bus.settled();
  });

  describe('in the app', function () {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ deferredBacklog: { high: 3, low: 2, maxWaitMs: 1500 } });
    });
    after(async () => {
      await app?.close();
    });

    it('a write waits while the deferred work is backlogged, reads go on, and it is answered once the work caught up', async () => {
      const g = gate();
      // a plugin's handler that cannot keep up: each like it is told of waits for the test
      app.events.on('insights.post.liked', () => g.wait(), 'probe');
      const author = await app.user();
      const fan = await app.user();
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) ids.push((await author.post('/api/posts', { type: 'text', content: `Backlog ${i}`, tags: [] })).body.id);
      await app.events.settled();
      for (let i = 0; i < 3; i++) {
        expect((await fan.post(`/api/posts/${ids[i]}/like`)).status).to.equal(200);
        // the other plugins' work for the like is done; the probe's waits
        await waitFor(async () => app.events.backlog === i + 1, { timeout: 5000 });
      }
      expect(app.events.backlogged).to.equal(true);
      let answered: number | null = null;
      const write = fan.post(`/api/posts/${ids[3]}/like`).then((r) => (answered = r.status));
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).to.equal(null);
      // reads are not held
      expect((await fan.get(`/api/posts/${ids[3]}`)).body.likesCount).to.equal(0);
      // the metrics show the backlog
      const metrics = (await app.client().get('/metrics')).text;
      expect(metrics).to.match(/curio_deferred_backlog 3/);
      // by plugin: the probe's lane holds all three
      expect(metrics).to.match(/curio_deferred_backlog_by_plugin\{plugin="probe"\} 3/);
      // one like handled: the backlog is down to the low mark, and the write goes on
      g.open(1);
      await write;
      expect(answered).to.equal(200);
      expect((await fan.get(`/api/posts/${ids[3]}`)).body.likesCount).to.equal(1);
      // backlogged again (the fourth like's run waits too): a write waits at most maxWaitMs, then goes on
      await waitFor(async () => app.events.backlog === 3, { timeout: 5000 });
      const t0 = Date.now();
      expect((await fan.post(`/api/posts/${ids[0]}/like`)).status).to.equal(200);
      expect(Date.now() - t0).to.be.within(1400, 5000);
      g.open(10);
      await app.events.settled();
      // idle again: the plugin's series stays, at 0
      expect((await app.client().get('/metrics')).text).to.match(/curio_deferred_backlog_by_plugin\{plugin="probe"\} 0/);
    });
  });
});
