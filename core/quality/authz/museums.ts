/**
 * Museums. For museum-scoped routes 'own' = museum A (manager's), 'other' = museum B
 * (managerOther's): "a Museum Manager of this museum and of another".
 */
import { everyone, member, rnd, type AuthzRow } from './types.ts';
import { museumBody, smallPng, type World } from '../fixtures/world.ts';

const both: Array<'own' | 'other'> = ['own', 'other'];
const museumOf = (w: World, obj: 'own' | 'other' | null) => (obj === 'other' ? w.museumB : w.museumA);

export const rows: AuthzRow[] = [
  { route: 'GET /api/museums', expect: everyone() },
  { route: 'GET /api/museums/featured', expect: everyone() },
  { route: 'GET /api/museums/slug/:slug', req: (p) => ({ params: { slug: p.w.museumA.slug } }), expect: everyone() },
  { route: 'GET /api/museums/:id', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: everyone() },
  { route: 'POST /api/museums/:id/follow', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: member() },
  { route: 'POST /api/museums/:id/checkin', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: member(201) },
  { route: 'GET /api/museums/:id/busy-times', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: everyone(), note: 'issue 20: aggregate counts only, no member is named' },
  { route: 'GET /api/museums/:id/fact-check', req: (p) => ({ params: { id: p.w.museumB.id } }), expect: member(), note: 'issue 20: every member may ask; the group is null without a check-in today' },
  {
    route: 'POST /api/museums/:id/fact-check',
    req: (p) => ({ params: { id: p.w.museumB.id }, body: { group: 'hours', agrees: true } }),
    expect: { signedOut: 401, signedIn: 403 },
    note: 'issue 20: only a member with a verified check-in at the museum today may confirm its facts (nobody in the world has one at museum B); the allowed case is in plugins/museums/server/freshness.test.ts',
  },
  {
    route: 'POST /api/museums/:id/accessibility/:fact/photo',
    objects: both,
    note: "issue 20: Admin or the museum's manager; the image itself is checked by the upload corpus",
    req: async (p) => ({ params: { id: museumOf(p.w, p.obj).id, fact: 'stepFreeEntrance' }, files: [{ field: 'photo', name: 'p.png', type: 'image/png', data: await smallPng() }] }),
    expect: { signedOut: 401, signedIn: 403, admin: 200, 'manager:own': 200, 'managerOther:other': 200 },
  },
  {
    route: 'DELETE /api/museums/:id/accessibility/:fact/photo',
    objects: both,
    note: "issue 20: Admin or the museum's manager (a photo is put there first by an Admin)",
    req: async (p) => {
      const m = museumOf(p.w, p.obj);
      await p.w.c.admin.upload(`/api/museums/${m.id}/accessibility/seating/photo`, [{ field: 'photo', name: 'p.png', type: 'image/png', data: await smallPng() }]);
      return { params: { id: m.id, fact: 'seating' } };
    },
    expect: { signedOut: 401, signedIn: 403, admin: 200, 'manager:own': 200, 'managerOther:other': 200 },
  },
  {
    route: 'POST /api/museums/:id/accessibility/:fact/photo-suggestion',
    note: 'issue 20: any signed-in member suggests a photo (an edit suggestion for the queue)',
    req: async (p) => ({ params: { id: p.w.museumA.id, fact: 'accessibleToilets' }, files: [{ field: 'photo', name: 'p.png', type: 'image/png', data: await smallPng() }] }),
    expect: member(201),
  },
  {
    route: 'GET /api/museums/user/:userId',
    objects: both,
    req: (p) => ({ params: { userId: p.obj === 'own' && p.as !== 'anon' ? p.w.u[p.as as 'member'].id : p.w.other.me.id } }),
    expect: everyone(),
  },
  { route: 'GET /api/search/museums', req: () => ({ query: { q: 'Quality' } }), expect: everyone() },
  { route: 'GET /api/search', req: () => ({ query: { q: 'Quality' } }), expect: everyone() },
  {
    route: 'PATCH /api/museums/:id/edit',
    objects: both,
    note: "spec part 2 §6: Admin, or the Museum Manager whose id is the museum's managerId",
    req: (p) => ({ params: { id: museumOf(p.w, p.obj).id }, body: { ...museumBody(museumOf(p.w, p.obj).name), description: `Edited ${rnd()}` } }),
    expect: { signedOut: 401, signedIn: 403, admin: 200, 'manager:own': 200, 'managerOther:other': 200 },
  },
  {
    route: 'POST /api/museums/:id/suggest-edit',
    req: (p) => ({ params: { id: p.w.museumA.id }, body: { suggestedChanges: { description: `Suggested ${rnd()}` }, reason: 'better' } }),
    expect: member(201),
  },
  { route: 'POST /api/museum-suggestions', req: () => ({ body: { name: `Suggested ${rnd()}`, address: '1 Road', city: 'Lyon', country: 'France' } }), expect: member(201) },
  { route: 'POST /api/museums', req: () => ({ body: museumBody(`Member museum ${rnd()}`) }), expect: member(201), note: 'any signed-in member creates a museum profile (unverified)' },
  { route: 'POST /api/museums/auto-populate', req: () => ({ body: { museumName: 'Nothing Museum' } }), expect: member() },
  { route: 'GET /api/geocode', req: () => ({ query: { address: '1 Rue de Rivoli', city: 'Paris' } }), expect: member() },
  { route: 'GET /api/geocode/place', req: () => ({ query: { q: 'Lyon' } }), expect: everyone(), note: "issue 20: Discover's typed place for near me, visitors too (cached, the provider's pace kept, 429 on a long queue)" },
  { route: 'GET /api/google-maps-script', expect: everyone(302), note: 'redirects to Google with the configured key' },
  { route: 'GET /api/google-maps-config', expect: everyone() },
];
