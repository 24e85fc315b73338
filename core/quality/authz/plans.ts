/**
 * Day plans (plugins/plans): 'own' = a private plan of the caller, 'other' = a private plan of
 * w.other. Only the owner reads or changes a private plan; everyone else, Admins included, gets
 * 404 as if it did not exist. Shared links and public plans: plugins/plans/server/plans.test.ts
 * (profile privacy, blocks, replaced links).
 */
import { type AuthzRow, type Expect, type ExpectKey, type ProbeCtx } from './types.ts';
import { member, everyone } from './types.ts';
import { must, type World } from '../fixtures/world.ts';
import type { TestClient } from '../../testing/index.ts';

type E = Partial<Record<ExpectKey, Expect>>;
const DATE = '2026-12-01';
/** own: ok for every signed-in role; someone else's: 404; signed out: 401 (or 404 where reading is open) */
const SIGNED_IN = ['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'];
const ownerOnly = (ok: Expect = 200, signedOut: Expect = 401): E => ({
  'anon:own': 'n/a',
  'banned:own': 'n/a',
  signedOut,
  default: 404,
  ...Object.fromEntries(SIGNED_IN.map((r) => [`${r}:own`, ok])),
});
const both: Array<'own' | 'other'> = ['own', 'other'];

const others = new WeakMap<World, Promise<{ id: number; stopId: number; token: string }>>();
function otherPlan(w: World) {
  let p = others.get(w);
  if (!p) {
    p = (async () => {
      const plan = must(await w.other.post('/api/plans', { title: 'Other plan', date: DATE, stops: [{ museumId: w.museumA.id, arrival: '10:00' }] }), 'other plan');
      const shared = must(await w.other.patch(`/api/plans/${plan.id}`, { visibility: 'link' }), 'share');
      const priv = must(await w.other.post('/api/plans', { title: 'Other private plan', date: DATE, stops: [{ museumId: w.museumA.id, arrival: '10:00' }] }), 'other private plan');
      return { id: priv.id, stopId: priv.stops[0].id, token: shared.shareToken };
    })();
    others.set(w, p);
  }
  return p;
}

const owns = new WeakMap<TestClient, Promise<{ id: number; stopId: number }>>();
/** The caller's private plan with one stop at museum A (one per client, reused by non-destructive probes). */
function ownPlan(client: TestClient, w: World, fresh = false): Promise<{ id: number; stopId: number }> {
  let p = fresh ? undefined : owns.get(client);
  if (!p) {
    p = (async () => {
      const plan = must(await client.post('/api/plans', { title: 'Probe plan', date: DATE, stops: [{ museumId: w.museumA.id, arrival: '10:00' }] }), 'own plan');
      return { id: plan.id, stopId: plan.stops[0].id };
    })();
    if (!fresh) owns.set(client, p);
  }
  return p;
}

/** The plan (and a stop of it) a probe acts on; null where a signed-out visitor has no plan. */
async function target(p: ProbeCtx, fresh = false): Promise<{ id: number; stopId: number } | null> {
  if (p.obj === 'other') return otherPlan(p.w);
  if (p.as === 'anon' || p.as === 'banned') return null;
  return ownPlan(p.client, p.w, fresh);
}

const onPlan = (route: string, body?: (p: ProbeCtx, t: { id: number; stopId: number }) => unknown, ok: Expect = 200, signedOut: Expect = 401, fresh = false): AuthzRow => ({
  route,
  objects: both,
  req: async (p) => {
    const t = await target(p, fresh);
    if (!t) return null;
    return { params: { id: t.id, stopId: t.stopId }, ...(body ? { body: body(p, t) } : {}) };
  },
  expect: ownerOnly(ok, signedOut),
});

export const rows: AuthzRow[] = [
  { route: 'GET /api/plans', expect: member() },
  { route: 'POST /api/plans', req: () => ({ body: { title: 'A day out', date: DATE } }), expect: member(201) },
  {
    route: 'GET /api/users/:id/plans',
    note: "w.other's public profile: their public plans (none here) for everyone; profile privacy in plans.test.ts",
    req: (p) => ({ params: { id: p.w.other.me.id } }),
    expect: everyone(),
  },
  onPlan('GET /api/plans/:id', undefined, 200, 404),
  onPlan('GET /api/plans/:id/ics', undefined, 200, 404),
  onPlan('PATCH /api/plans/:id', () => ({ title: 'Renamed' })),
  onPlan('DELETE /api/plans/:id', undefined, 200, 401, true),
  onPlan('POST /api/plans/:id/stops', (p) => ({ museumId: p.w.museumB.id, arrival: '14:00' }), 201, 401, true),
  onPlan('PATCH /api/plans/:id/stops/:stopId', () => ({ durationMinutes: 60 })),
  onPlan('DELETE /api/plans/:id/stops/:stopId', undefined, 200, 401, true),
  onPlan('PUT /api/plans/:id/order', (_p, t) => ({ stopIds: [t.stopId] })),
  {
    route: 'GET /api/shared-plans/:token',
    note: "w.other's plan shared by link: whoever holds the link (blocks: plans.test.ts)",
    req: async (p) => ({ params: { token: (await otherPlan(p.w)).token } }),
    expect: everyone(),
  },
  {
    route: 'GET /api/shared-plans/:token/ics',
    req: async (p) => ({ params: { token: (await otherPlan(p.w)).token } }),
    expect: everyone(),
  },
];
