/**
 * Admin: every route is Admin only (`roles: ['Admin']`): 401 signed out, 403 for every other role.
 * Admin probes act on fresh objects; refused roles point at world objects (if a refusal ever
 * failed, the damage would show in the next rows too).
 */
import { adminOnly, rnd, type AuthzRow, type ProbeCtx } from './types.ts';
import { must, museumBody } from '../fixtures/world.ts';
import { freshUser } from './fresh.ts';

const isAdmin = (p: ProbeCtx) => p.as === 'admin';
const targetUser = async (p: ProbeCtx) => (isAdmin(p) ? (await freshUser(p.w)).me.id : p.w.other.me.id);
const freshMuseum = async (p: ProbeCtx) => must(await p.w.c.admin.post('/api/admin/create-museum', museumBody(`Admin museum ${rnd()}`)), 'museum');
const freshBadge = async (p: ProbeCtx) =>
  must(await p.w.c.admin.post('/api/admin/badges', { name: `Badge ${rnd()}`, description: 'd', icon: 'B', color: '#3B82F6', requirement: { type: 'check_ins', count: 99 } }), 'badge');
const freshEditSuggestion = async (p: ProbeCtx) =>
  isAdmin(p) ? must(await p.w.c.traveler.post(`/api/museums/${p.w.museumA.id}/suggest-edit`, { suggestedChanges: { description: `S ${rnd()}` } }), 'suggestion').id : p.w.editSuggestion.id;
const freshMuseumSuggestion = async (p: ProbeCtx) =>
  isAdmin(p) ? must(await p.w.c.traveler.post('/api/museum-suggestions', { name: `S ${rnd()}`, address: '1 Rd', city: 'Nice', country: 'France' }), 'museum suggestion').id : p.w.museumSuggestion.id;

export const rows: AuthzRow[] = [
  { route: 'GET /api/admin/actions/all', expect: adminOnly() },
  { route: 'GET /api/admin/analytics/overview', expect: adminOnly() },
  { route: 'GET /api/admin/users', expect: adminOnly() },
  { route: 'GET /api/admin/users/search', req: () => ({ query: { q: 'q_' } }), expect: adminOnly() },
  { route: 'GET /api/admin/moderations', expect: adminOnly() },
  { route: 'POST /api/admin/moderate-user', req: async (p) => ({ body: { userId: await targetUser(p), type: 'warning', reason: 'Be nice' } }), expect: adminOnly(201) },
  {
    route: 'POST /api/admin/moderations/:id/lift',
    req: async (p) => {
      if (!isAdmin(p)) return { params: { id: p.w.banModeration.id }, body: {} };
      const m = must(await p.w.c.admin.post('/api/admin/moderate-user', { userId: (await freshUser(p.w)).me.id, type: 'warning', reason: 'x' }), 'moderation');
      return { params: { id: m.id }, body: { reason: 'lifted' } };
    },
    expect: adminOnly(),
  },
  { route: 'POST /api/admin/change-user-role', req: async (p) => ({ body: { userId: await targetUser(p), role: 'Ambassador' } }), expect: adminOnly() },
  { route: 'DELETE /api/admin/delete-user', req: async (p) => ({ body: { userId: await targetUser(p), reason: 'Requested' } }), expect: adminOnly() },
  { route: 'GET /api/admin/museums', expect: adminOnly() },
  { route: 'POST /api/admin/create-museum', req: () => ({ body: museumBody(`Created ${rnd()}`) }), expect: adminOnly(201) },
  {
    route: 'PUT /api/admin/museums/:id',
    req: async (p) => {
      const m = isAdmin(p) ? await freshMuseum(p) : p.w.museumB;
      return { params: { id: m.id }, body: { ...museumBody(m.name), description: 'Edited by an admin' } };
    },
    expect: adminOnly(),
  },
  { route: 'POST /api/admin/verify-museum', req: async (p) => ({ body: { museumId: (isAdmin(p) ? await freshMuseum(p) : p.w.museumB).id, verified: true } }), expect: adminOnly() },
  {
    route: 'POST /api/admin/assign-museum-manager',
    req: async (p) => ({ body: { museumId: (isAdmin(p) ? await freshMuseum(p) : p.w.museumB).id, managerId: p.w.u.managerOther.id } }),
    expect: adminOnly(),
  },
  { route: 'GET /api/admin/museum-managers', expect: adminOnly() },
  { route: 'POST /api/admin/update-museums', req: () => ({ body: {} }), expect: adminOnly() },
  {
    route: 'GET /api/admin/jobs/:id',
    req: async (p) => ({ params: { id: must(await p.w.c.admin.post('/api/admin/update-museums', {}), 'job').jobId } }),
    expect: adminOnly(),
  },
  { route: 'GET /api/admin/museum-edit-suggestions', expect: adminOnly() },
  { route: 'POST /api/admin/approve-museum-edit-suggestion', req: async (p) => ({ body: { suggestionId: await freshEditSuggestion(p) } }), expect: adminOnly() },
  { route: 'POST /api/admin/reject-museum-edit-suggestion', req: async (p) => ({ body: { suggestionId: await freshEditSuggestion(p), note: 'no' } }), expect: adminOnly() },
  { route: 'GET /api/admin/museum-suggestions', expect: adminOnly() },
  { route: 'POST /api/admin/approve-museum-suggestion', req: async (p) => ({ body: { suggestionId: await freshMuseumSuggestion(p) } }), expect: adminOnly() },
  { route: 'POST /api/admin/reject-museum-suggestion', req: async (p) => ({ body: { suggestionId: await freshMuseumSuggestion(p) } }), expect: adminOnly() },
  { route: 'GET /api/admin/badges', expect: adminOnly() },
  {
    route: 'POST /api/admin/badges',
    req: () => ({ body: { name: `Badge ${rnd()}`, description: 'Made by the matrix', icon: 'M', color: '#3B82F6', requirement: { type: 'check_ins', count: 5 } } }),
    expect: adminOnly(201),
  },
  {
    route: 'PUT /api/admin/badges/:id',
    req: async (p) => {
      const b = isAdmin(p) ? await freshBadge(p) : p.w.badge;
      return { params: { id: b.id }, body: { name: `Badge ${rnd()}`, description: 'Edited', icon: 'E', color: '#123456', requirement: { type: 'check_ins', count: 7 } } };
    },
    expect: adminOnly(),
  },
  { route: 'DELETE /api/admin/badges/:id', req: async (p) => ({ params: { id: (isAdmin(p) ? await freshBadge(p) : p.w.badge).id } }), expect: adminOnly() },
  { route: 'GET /api/admin/user-badges', expect: adminOnly() },
  { route: 'GET /api/admin/badges/stats', expect: adminOnly() },
  { route: 'POST /api/admin/send-notification', req: (p) => ({ body: { title: 'Hello', message: 'From the matrix', targetUserIds: [p.w.other.me.id] } }), expect: adminOnly() },
  { route: 'GET /api/admin/monetization', expect: adminOnly() },
  { route: 'GET /api/admin/monetization/stats', expect: adminOnly() },
  { route: 'POST /api/admin/monetization', req: () => ({ body: { type: 'event_promotion', plan: 'basic', amount: 19.99, currency: 'USD' } }), expect: adminOnly(201) },
  { route: 'PATCH /api/admin/monetization/:id', req: (p) => ({ params: { id: p.w.plan.id }, body: { status: 'inactive' } }), expect: adminOnly() },
];
