/**
 * Follower counts stay exact under concurrent follow requests, approvals, rejections, removals,
 * blocks and visibility switches (issue 15): a model-free property test with fast-check. A pool of
 * members plays batches of actions, each batch sent at once (duplicates and crossings are the
 * point). After every batch, read straight from the tables: each member's followers_count and
 * following_count equal the follow rows, no follow or pending request joins two members one of whom
 * blocked the other, no request sits beside a follow of the same pair, and no answer was a 5xx.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { sharedApp, type SignedInClient, type TestApp } from '../../../core/testing/index.ts';

const RUNS = Number(process.env.INVARIANT_RUNS ?? 8);
const POOL = 5;

type Action =
  | { k: 'follow'; u: number; v: number }
  | { k: 'approveAll'; u: number }
  | { k: 'rejectAll'; u: number }
  | { k: 'remove'; u: number; v: number }
  | { k: 'block'; u: number; v: number }
  | { k: 'unblock'; u: number; v: number }
  | { k: 'visibility'; u: number; to: 'public' | 'private' };

const who = fc.integer({ min: 0, max: POOL - 1 });
const pair = <K extends string>(k: K) => fc.record({ k: fc.constant(k), u: who, v: who }).filter((a) => a.u !== a.v);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: pair('follow') },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('approveAll' as const), u: who }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('rejectAll' as const), u: who }) },
  { weight: 2, arbitrary: pair('remove') },
  { weight: 2, arbitrary: pair('block') },
  { weight: 1, arbitrary: pair('unblock') },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('visibility' as const), u: who, to: fc.constantFrom('public' as const, 'private' as const) }) },
);
const scenarioArb = fc.array(fc.array(actionArb, { minLength: 3, maxLength: 12 }), { minLength: 2, maxLength: 5 });

describe('accounts: follower counts under concurrent requests, approvals, removals and blocks', function () {
  this.timeout(300000);
  let app: TestApp;
  before(async () => {
    app = await sharedApp();
  });

  it(`${RUNS} runs of concurrent batches keep every follower count equal to the follow rows`, async () => {
    const knex = (app as any).knex;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (batches) => {
        const pool: SignedInClient[] = [];
        for (let i = 0; i < POOL; i++) pool.push(await app.user());
        // half of them start private
        for (let i = 0; i < POOL; i += 2) await pool[i].put('/api/user/preferences', { profileVisibility: 'private' });
        const ids = pool.map((c) => c.me.id);
        const statuses: number[] = [];
        const run = async (a: Action): Promise<void> => {
          const c = pool[a.u];
          const other = 'v' in a ? ids[a.v] : 0;
          const note = (s: number) => void statuses.push(s);
          switch (a.k) {
            case 'follow':
              return note((await c.post(`/api/user/${other}/follow`)).status);
            case 'remove':
              return note((await c.post(`/api/user/${other}/remove-follower`)).status);
            case 'block':
              return note((await c.post(`/api/user/${other}/block`)).status);
            case 'unblock':
              return note((await c.del(`/api/user/${other}/block`)).status);
            case 'visibility':
              return note((await c.put('/api/user/preferences', { profileVisibility: a.to })).status);
            case 'approveAll':
            case 'rejectAll': {
              const list = await c.get('/api/follow-requests?limit=100');
              note(list.status);
              await Promise.all(
                (list.body.items ?? []).map(async (r: any) => note((await c.post(`/api/follow-requests/${r.id}/${a.k === 'approveAll' ? 'authorize' : 'reject'}`)).status)),
              );
            }
          }
        };
        for (const batch of batches) {
          await Promise.all(batch.map(run));
          // no server error; refusals are 403 (you blocked them), 404 (they blocked you, a request decided meanwhile)
          expect(statuses.filter((s) => s >= 500), `statuses ${statuses.join(',')}`).to.deep.equal([]);
          expect(statuses.filter((s) => ![200, 403, 404].includes(s)), `statuses ${statuses.join(',')}`).to.deep.equal([]);
          const counts = (
            await knex.raw(
              `select u.id, u.followers_count, u.following_count,
                      (select count(*)::int from user_follows f where f.following_id = u.id) as followers,
                      (select count(*)::int from user_follows f where f.follower_id = u.id) as following
               from users u where u.id = any(?::int[])`,
              [ids],
            )
          ).rows;
          for (const r of counts) {
            expect(r.followers_count, `followers_count of ${r.id}`).to.equal(r.followers);
            expect(r.following_count, `following_count of ${r.id}`).to.equal(r.following);
          }
          const crossings = (
            await knex.raw(
              `select 'follow' as kind, f.follower_id as a, f.following_id as b from user_follows f
                 join user_blocks b on (b.blocker_id = f.follower_id and b.blocked_id = f.following_id) or (b.blocker_id = f.following_id and b.blocked_id = f.follower_id)
                 where f.follower_id = any(?::int[])
               union all
               select 'request', r.requester_id, r.target_id from user_follow_requests r
                 join user_blocks b on (b.blocker_id = r.requester_id and b.blocked_id = r.target_id) or (b.blocker_id = r.target_id and b.blocked_id = r.requester_id)
                 where r.requester_id = any(?::int[])
               union all
               select 'request beside a follow', r.requester_id, r.target_id from user_follow_requests r
                 join user_follows f on f.follower_id = r.requester_id and f.following_id = r.target_id
                 where r.requester_id = any(?::int[])`,
              [ids, ids, ids],
            )
          ).rows;
          expect(crossings).to.deep.equal([]);
          // a public profile keeps no pending requests once its switch is done
          const publicWithRequests = (
            await knex.raw(
              `select r.target_id from user_follow_requests r left join user_preferences p on p.user_id = r.target_id
               where r.target_id = any(?::int[]) and coalesce(p.profile_visibility, 'public') = 'public'`,
              [ids],
            )
          ).rows;
          expect(publicWithRequests).to.deep.equal([]);
        }
      }),
      { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true, seed: process.env.INVARIANT_SEED ? Number(process.env.INVARIANT_SEED) : undefined },
    );
  });
});
