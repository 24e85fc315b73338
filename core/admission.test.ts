import http from 'node:http';
import { expect } from 'chai';
import { Admission } from './admission.ts';
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

  describe('in the app', function () {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ maxInFlight: 2 });
    });
    after(async () => {
      await app?.close();
    });

    const gauge = async (state: 'running' | 'waiting') => {
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
  });
});
