import { secondSession, freshClient, member, everyone, rnd, type AuthzRow, type ProbeCtx } from './types.ts';
import { smallPng } from '../fixtures/world.ts';

const SIGNED_IN = ['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'];

/** The user a probe is about: the caller (own) or another plain member (other). */
const userId = (p: ProbeCtx) => (p.obj === 'own' && p.as !== 'anon' ? p.w.u[p.as as Exclude<typeof p.as, 'anon'>].id : p.w.other.me.id);
const userSlug = (p: ProbeCtx) => (p.obj === 'own' && p.as !== 'anon' ? p.w.u[p.as as Exclude<typeof p.as, 'anon'>].slug : p.w.other.me.slug);

export const rows: AuthzRow[] = [
  { route: 'GET /api/auth/user', expect: member() },
  {
    route: 'POST /api/auth/register',
    note: 'anyone may create an account; a signed-in browser simply switches to the new one (probed in a second session)',
    req: async (p) => {
      const name = rnd('reg');
      return { client: await secondSession(p), body: { email: `${name}@example.test`, password: 'a-Fine-passphrase-93', firstName: 'Reg', lastName: 'Ister', username: name } };
    },
    expect: everyone(201),
  },
  {
    route: 'POST /api/auth/login',
    note: "each role signs in to its own account; the banned account is refused with the ban's message (403)",
    req: async (p) => {
      if (p.as === 'anon') {
        const u = await p.w.app.user();
        return { client: p.w.app.client(), body: { email: u.me.email, password: u.me.password } };
      }
      const me = p.w.u[p.as];
      return { client: p.w.app.client(), body: { email: me.email, password: me.password } };
    },
    expect: { default: 200, banned: 403 },
  },
  { route: 'POST /api/logout', req: async (p) => ({ client: await secondSession(p) }), expect: everyone(200) },
  { route: 'GET /api/auth/my-sessions', expect: member() },
  { route: 'POST /api/auth/logout-all-sessions', note: "ends the role's other sessions; the world session is the current one and stays", expect: member() },
  { route: 'GET /api/users/stats', expect: everyone() },
  { route: 'GET /api/user', expect: member() },
  { route: 'GET /api/user/slug/:slug', objects: ['own', 'other'], req: (p) => ({ params: { slug: userSlug(p) } }), expect: everyone() },
  { route: 'GET /api/user/:id', objects: ['own', 'other'], req: (p) => ({ params: { id: userId(p) } }), expect: everyone() },
  {
    route: 'POST /api/user/:id/follow',
    objects: ['own', 'other'],
    req: (p) => ({ params: { id: userId(p) } }),
    expect: { signedOut: 401, 'default': 200, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'].map((r) => [`${r}:own`, 400])) },
    note: 'following yourself is refused (400)',
  },
  { route: 'GET /api/user/:id/followers', objects: ['own', 'other'], req: (p) => ({ params: { id: userId(p) } }), expect: everyone() },
  { route: 'GET /api/user/:id/following', objects: ['own', 'other'], req: (p) => ({ params: { id: userId(p) } }), expect: everyone() },
  { route: 'GET /api/user/:id/badges', objects: ['own', 'other'], req: (p) => ({ params: { id: userId(p) } }), expect: everyone() },
  { route: 'PUT /api/user/profile', req: () => ({ body: { bio: `Bio ${rnd()}` } }), expect: member() },
  {
    route: 'PUT /api/user/password',
    note: 'acts on the caller only: probed with a fresh account of the same platform role',
    req: async (p) => {
      const client: any = await freshClient(p);
      return { client, body: { currentPassword: client.me?.password ?? 'correct-horse-42', newPassword: `Another-passphrase-${rnd()}` } };
    },
    expect: member(),
  },
  { route: 'DELETE /api/user/account', req: async (p) => ({ client: await freshClient(p) }), expect: member() },
  { route: 'GET /api/user/preferences', expect: member() },
  // ---- your data (issue 24) ----
  { route: 'POST /api/user/exports', note: 'one archive a day per member: probed with a fresh account of the same platform role', req: async (p) => ({ client: await freshClient(p) }), expect: member(202) },
  { route: 'GET /api/user/exports', expect: member() },
  { route: 'POST /api/user/follows/import', note: 'follows the listed handles for the caller only (none exist here)', req: () => ({ body: { csv: `username\nno_such_member_${rnd()}` } }), expect: member() },
  {
    route: 'GET /api/user/exports/:id/download',
    note: "an archive id that is not the caller's (none is ready in the world): 404 to every member, never another's file; the owner's download is in plugins/accounts/server/export.test.ts",
    req: () => ({ params: { id: 2147483000 } }),
    expect: member(404),
  },
  { route: 'PUT /api/user/preferences', req: () => ({ body: { showEmail: false } }), expect: member() },
  // ---- onboarding: interests and home (issue 21): the caller's own row only, no id in the path ----
  { route: 'GET /api/user/onboarding', expect: member() },
  {
    route: 'PUT /api/user/onboarding',
    note: "changes only the caller's interests, home and progress (a browser position: no geocoding call)",
    req: () => ({ body: { interests: ['Art Museums'], location: { latitude: 48.85, longitude: 2.35 }, step: 1, status: 'started' } }),
    expect: member(),
  },
  // ---- locked profiles, blocks and mutes (issue 15) ----
  { route: 'GET /api/follow-requests', expect: member() },
  ...(['authorize', 'reject'] as const).map(
    (d): AuthzRow => ({
      route: `POST /api/follow-requests/:id/${d}`,
      objects: ['own', 'other'],
      note: "own: a request to a fresh private account of the role (the caller decides it); other: a request to someone else's profile (404, not yours to decide)",
      req: async (p) => {
        if (p.as === 'anon' || p.as === 'banned') return { params: { id: 2147483000 } }; // signed out: refused before the id matters
        const owner: any = p.obj === 'own' ? await freshClient(p) : await p.w.app.user();
        await owner.put('/api/user/preferences', { profileVisibility: 'private' });
        const fan = await p.w.app.user();
        await fan.post(`/api/user/${owner.me.id}/follow`);
        const req = (await owner.get('/api/follow-requests')).body.items[0];
        return { client: p.obj === 'own' ? owner : undefined, params: { id: req.id } };
      },
      expect: { signedOut: 401, 'default': 200, ...Object.fromEntries(SIGNED_IN.map((r) => [`${r}:other`, 404])) },
    }),
  ),
  {
    route: 'POST /api/user/:id/remove-follower',
    objects: ['own', 'other'],
    note: 'removing yourself is refused (400); anyone else: 200 (removed or not a follower)',
    req: (p) => ({ params: { id: userId(p) } }),
    expect: { signedOut: 401, 'default': 200, ...Object.fromEntries(SIGNED_IN.map((r) => [`${r}:own`, 400])) },
  },
  ...(['POST', 'DELETE'] as const).flatMap((m): AuthzRow[] =>
    (['block', 'mute'] as const).map((what) => ({
      route: `${m} /api/user/:id/${what}`,
      objects: ['own', 'other'],
      note:
        m === 'POST'
          ? `${what}ing yourself is refused (400); probed on a fresh member (so the world's follows and views stay as they are)`
          : `undoing a ${what} that was never made is fine (200); on yourself too`,
      req: async (p) => ({ params: { id: p.obj === 'own' ? userId(p) : (await p.w.app.user()).me.id }, body: m === 'POST' && what === 'mute' ? { notifications: true } : undefined }),
      expect: { signedOut: 401, 'default': 200, ...(m === 'POST' ? Object.fromEntries(SIGNED_IN.map((r) => [`${r}:own`, 400])) : {}) },
    })),
  ),
  { route: 'GET /api/user/blocks', expect: member() },
  { route: 'GET /api/user/mutes', expect: member() },
  {
    route: 'POST /api/user/profile-image',
    req: async () => ({ files: [{ field: 'image', name: 'me.png', type: 'image/png', data: await smallPng() }] }),
    expect: member(),
  },
];
