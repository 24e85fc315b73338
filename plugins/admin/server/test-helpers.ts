/**
 * Helpers for the admin plugin's tests.
 */
import type { TestApp, SignedInClient, TestClient } from '../../../core/testing/index.ts';

export const NON_ADMIN_ROLES = ['Traveler', 'Ambassador', 'Museum Manager'] as const;

export interface RoleClients {
  anon: TestClient;
  admin: SignedInClient;
  others: Record<(typeof NON_ADMIN_ROLES)[number], SignedInClient>;
}

export async function roleClients(app: TestApp): Promise<RoleClients> {
  const [admin, traveler, ambassador, manager] = await Promise.all([
    app.user({ role: 'Admin' }),
    app.user({ role: 'Traveler' }),
    app.user({ role: 'Ambassador' }),
    app.user({ role: 'Museum Manager' }),
  ]);
  return { anon: app.client(), admin, others: { Traveler: traveler, Ambassador: ambassador, 'Museum Manager': manager } };
}

/** The newest audit entries about one target (as the dashboard lists them). */
export async function auditOf(admin: SignedInClient, targetType: string, targetId: number | null, action?: string) {
  const qs = new URLSearchParams({ targetType, pageSize: '100' });
  if (targetId != null) qs.set('targetId', String(targetId));
  if (action) qs.set('action', action);
  const r = await admin.get(`/api/admin/actions/all?${qs}`);
  if (r.status !== 200) throw new Error(`audit list failed: ${r.status} ${r.text}`);
  return r.body.items as any[];
}
