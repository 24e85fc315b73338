/**
 * Helpers for the admin plugin's tests.
 */
import { AccountsService } from '../../accounts/public.ts';
import type { TestApp, SignedInClient, TestClient } from '../../../core/testing/index.ts';
import type { AccountsAdminDirectory } from './deps.ts';

/**
 * The admin user list needs AccountsApi.listUsers / countUsers (requested from the accounts plugin).
 * Until accounts provides them, the tests install a stand-in with the requested contract on the real
 * accounts service object, reading the real users table (test code only; the plugin answers 501
 * without them). Once accounts ships them, this does nothing and the tests exercise the real ones.
 */
export function ensureUserDirectory(app: TestApp): 'accounts' | 'stand-in' {
  const a = app.services.get(AccountsService) as any as Partial<AccountsAdminDirectory>;
  if (typeof a.listUsers === 'function' && typeof a.countUsers === 'function') return 'accounts';
  const knex = app.knex;
  const filtered = (q: { q?: string; roles?: string[] }) => {
    const b = knex('users');
    if (q.roles?.length) b.whereIn('role', q.roles);
    const s = q.q?.trim();
    if (s) {
      const like = `%${s.replace(/[\\%_]/g, (m) => '\\' + m)}%`;
      b.where((w) =>
        w
          .whereILike('username', like)
          .orWhereILike('email', like)
          .orWhereILike('first_name', like)
          .orWhereILike('last_name', like)
          .orWhereRaw(`(first_name || ' ' || last_name) ilike ?`, [like]),
      );
    }
    return b;
  };
  a.listUsers = async (q) => {
    const page = q.page ?? 1;
    const pageSize = q.pageSize ?? 10;
    const [{ n }] = await filtered(q).clone().count({ n: '*' });
    const rows = await filtered(q)
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .select('id', 'slug', 'username', 'email', 'first_name', 'last_name', 'profile_image_url', 'role');
    return {
      items: rows.map((r: any) => ({ id: r.id, slug: r.slug, username: r.username, email: r.email, firstName: r.first_name, lastName: r.last_name, profileImageUrl: r.profile_image_url, role: r.role })),
      total: Number(n),
      page,
      pageSize,
    };
  };
  a.countUsers = async (q = {}) => Number((await filtered(q).count({ n: '*' }))[0].n);
  return 'stand-in';
}

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
