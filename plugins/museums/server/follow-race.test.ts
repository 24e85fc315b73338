import { expect } from 'chai';
import { sharedApp, uniqueName, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';

/**
 * POST /api/museums/:id/follow is a toggle: concurrent toggles must be explainable by some order
 * of them (a double click cancels out), and followerCount must equal the follow rows.
 */
describe('museums: concurrent follow toggles', function () {
  this.timeout(120000);
  let app: TestApp;
  let creator: SignedInClient;

  before(async () => {
    app = await sharedApp();
    creator = await app.user();
  });

  async function makeMuseum() {
    const r = await creator.post('/api/museums', {
      name: `Race museum ${uniqueName('m')}`,
      address: '1 Test Street',
      city: 'Testville',
      country: 'United States',
      category: 'Art Museums',
      latitude: 40.7,
      longitude: -74,
    });
    expect(r.status, r.text).to.equal(201);
    return r.body as { id: number };
  }

  async function followRows(museumId: number, userId?: number): Promise<number> {
    const q = app.knex('museum_follows').where({ museum_id: museumId });
    if (userId !== undefined) q.andWhere({ user_id: userId });
    const [{ n }] = await q.count({ n: '*' });
    return Number(n);
  }

  async function followerCount(museumId: number): Promise<number> {
    const r = await app.client().get(`/api/museums/${museumId}`);
    expect(r.status, r.text).to.equal(200);
    return r.body.followerCount;
  }

  for (const n of [2, 3, 10]) {
    it(`${n} concurrent toggles by one member answer alternately and leave the state of ${n} toggles`, async () => {
      const m = await makeMuseum();
      const u = await app.user();
      // rounds: from "not following", then from whatever the previous round left
      for (let round = 0; round < 3; round++) {
        const before = (await followRows(m.id, u.me.id)) === 1;
        const rs = await Promise.all(Array.from({ length: n }, () => u.post(`/api/museums/${m.id}/follow`)));
        expect(rs.map((r) => r.status)).to.deep.equal(rs.map(() => 200));
        const on = rs.filter((r) => r.body.following === true).length;
        const off = rs.length - on;
        // Some order of n toggles: from off they alternate true, false, true…; from on false, true, false…
        const final = n % 2 === 1 ? !before : before;
        expect(on - off, `answers ${rs.map((r) => r.body.following).join(', ')} from ${before ? 'on' : 'off'}`).to.equal(before ? -(n % 2) : n % 2);
        expect(await followRows(m.id, u.me.id)).to.equal(final ? 1 : 0);
        expect(await followerCount(m.id)).to.equal(await followRows(m.id));
        // Each answer's followerCount is the count right after that toggle: 0 or 1 here.
        for (const r of rs) expect(r.body.followerCount).to.equal(r.body.following ? 1 : 0);
      }
    });
  }

  it('many members toggling at once, some of them twice: followerCount equals the follow rows', async () => {
    const m = await makeMuseum();
    const users = await Promise.all(Array.from({ length: 12 }, () => app.user()));
    // users 0..5 toggle once (follow), users 6..11 toggle twice (follow and unfollow), all at once
    const reqs = users.flatMap((u, i) => (i < 6 ? [u] : [u, u])).map((u) => u.post(`/api/museums/${m.id}/follow`));
    const rs = await Promise.all(reqs);
    expect(rs.map((r) => r.status)).to.deep.equal(rs.map(() => 200));
    expect(await followRows(m.id)).to.equal(6);
    expect(await followerCount(m.id)).to.equal(6);
    for (const [i, u] of users.entries()) expect(await followRows(m.id, u.me.id), `user ${i}`).to.equal(i < 6 ? 1 : 0);
  });
});
