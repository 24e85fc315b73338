/**
 * Groups. Objects: 'own' = group G (the creator's: its admin; member and moderator are plain
 * members of it), 'other' = group H (the ambassador's; `other` is its member). Group admins are
 * the creator and members made admin; in the world only the creators are.
 */
import { member, rnd, type AuthzRow, type Expect, type ExpectKey } from './types.ts';
import { must, smallPng, type World } from '../fixtures/world.ts';
import { freshGroup, freshGroupPost } from './fresh.ts';

type E = Partial<Record<ExpectKey, Expect>>;
const both: Array<'own' | 'other'> = ['own', 'other'];
const groupOf = (w: World, obj: 'own' | 'other' | null) => (obj === 'other' ? w.otherGroup : w.group);
/** the group's creator (its admin) */
const admins = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, 'creator:own': ok, 'ambassador:other': ok });
/** the group's members (creator counts) */
const members = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, 'creator:own': ok, 'moderator:own': ok, 'member:own': ok, 'ambassador:other': ok });
const inG = ['creator', 'moderator', 'member'];
const notInG = ['traveler', 'ambassador', 'manager', 'managerOther', 'admin', 'banned'];
const naOwn = Object.fromEntries(notInG.map((r) => [`${r}:own`, 'n/a']));

async function ownOrOther(w: World, as: string, obj: 'own' | 'other' | null, make: (author: any) => Promise<any>) {
  if (obj === 'own') return inG.includes(as) ? make(w.c[as as 'member']) : null;
  return make(as === 'member' ? w.c.moderator : w.c.member);
}

export const rows: AuthzRow[] = [
  { route: 'GET /api/groups', expect: member() },
  { route: 'GET /api/user/groups', expect: member() },
  { route: 'POST /api/groups', req: () => ({ body: { name: `Group ${rnd()}` } }), expect: member(201), note: 'any signed-in member creates groups' },
  { route: 'GET /api/groups/:id', objects: both, req: (p) => ({ params: { id: groupOf(p.w, p.obj).id } }), expect: member() },
  { route: 'DELETE /api/groups/:id', objects: both, req: async (p) => ({ params: { id: (await freshGroup(p.w, p.obj!)).id } }), expect: admins() },
  {
    route: 'POST /api/groups/:id/image',
    objects: both,
    note: "the group's creator only (G: creator, H: ambassador); the image itself is checked by the upload corpus",
    req: async (p) => ({ params: { id: groupOf(p.w, p.obj).id }, files: [{ field: 'image', name: 'g.png', type: 'image/png', data: await smallPng() }] }),
    expect: admins(),
  },
  { route: 'GET /api/groups/:id/members', objects: both, req: (p) => ({ params: { id: groupOf(p.w, p.obj).id } }), expect: member() },
  {
    route: 'POST /api/groups/:id/join',
    req: async (p) => ({ params: { id: (await freshGroup(p.w)).id }, body: {} }),
    expect: { signedOut: 401, signedIn: 200, creator: 400, member: 409, moderator: 409 },
  },
  {
    route: 'DELETE /api/groups/:id/leave',
    req: async (p) => ({ params: { id: (await freshGroup(p.w)).id } }),
    expect: { signedOut: 401, signedIn: 409, creator: 400, member: 200, moderator: 200 },
  },
  {
    route: 'POST /api/groups/:id/members',
    objects: both,
    req: async (p) => ({ params: { id: groupOf(p.w, p.obj).id }, body: { username: (await p.w.app.user()).me.username } }),
    expect: admins(201),
  },
  {
    route: 'DELETE /api/groups/:id/members/:userId',
    objects: both,
    req: async (p) => {
      const g = groupOf(p.w, p.obj);
      const u = await p.w.app.user();
      must(await u.post(`/api/groups/${g.id}/join`, {}), 'join');
      return { params: { id: g.id, userId: u.me.id } };
    },
    expect: admins(),
  },
  { route: 'GET /api/groups/:id/posts', objects: both, req: (p) => ({ params: { id: groupOf(p.w, p.obj).id } }), expect: members() },
  { route: 'POST /api/groups/:id/posts', objects: both, req: (p) => ({ params: { id: groupOf(p.w, p.obj).id }, body: { content: `Hi ${rnd()}` } }), expect: members(201) },
  {
    route: 'DELETE /api/group-posts/:id',
    objects: both,
    note: "own: the caller's fresh post; other: someone else's — only group admins delete it",
    req: async (p) => {
      const post = await ownOrOther(p.w, p.as, p.obj, (a) => freshGroupPost(a, p.w.group.id));
      return post && { params: { id: post.id } };
    },
    expect: { signedOut: 401, default: 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, ...naOwn } as E,
  },
  { route: 'POST /api/group-posts/:id/like', req: (p) => ({ params: { id: p.w.gPost.id } }), expect: { signedOut: 401, signedIn: 403, creator: 200, moderator: 200, member: 200 } },
  { route: 'GET /api/group-posts/:id/comments', req: (p) => ({ params: { id: p.w.gPost.id } }), expect: { signedOut: 401, signedIn: 403, creator: 200, moderator: 200, member: 200 } },
  { route: 'POST /api/group-posts/:id/comments', req: (p) => ({ params: { id: p.w.gPost.id }, body: { content: `Reply ${rnd()}` } }), expect: { signedOut: 401, signedIn: 403, creator: 201, moderator: 201, member: 201 } },
  {
    route: 'DELETE /api/group-comments/:id',
    objects: both,
    req: async (p) => {
      const c = await ownOrOther(p.w, p.as, p.obj, async (a) => must(await a.post(`/api/group-posts/${p.w.gPost.id}/comments`, { content: `C ${rnd()}` }), 'comment'));
      return c && { params: { id: c.id } };
    },
    expect: { signedOut: 401, default: 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, ...naOwn } as E,
  },
];
