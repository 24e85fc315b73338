/**
 * Reports: any signed-in member may report and read their own reports; the queue and its actions
 * are Admin only. Each probe reports a fresh member (no 409 from an earlier probe, no throttle).
 */
import { adminOnly, member, type AuthzRow, type ProbeCtx } from './types.ts';
import { must } from '../fixtures/world.ts';
import { freshUser } from './fresh.ts';

/** An open report (by a fresh reporter, on a fresh member) for the Admin's probe; refused roles aim at the same kind. */
async function openReport(p: ProbeCtx): Promise<number> {
  const [reporter, target] = await Promise.all([freshUser(p.w), freshUser(p.w)]);
  return must(await reporter.post('/api/reports', { targetType: 'user', targetId: target.me.id, category: 'spam' }), 'report').id;
}

export const rows: AuthzRow[] = [
  {
    route: 'POST /api/reports',
    req: async (p) => ({ body: { targetType: 'user', targetId: (await freshUser(p.w)).me.id, category: 'spam', note: 'authz probe' } }),
    expect: member(201),
  },
  { route: 'GET /api/reports/mine', expect: member() },
  { route: 'GET /api/admin/reports', expect: adminOnly() },
  {
    route: 'POST /api/admin/reports/:id/action',
    req: async (p) => ({ params: { id: await openReport(p) }, body: { action: 'dismiss', reason: 'authz probe' } }),
    expect: adminOnly(),
  },
];
