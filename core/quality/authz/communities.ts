/**
 * Communities. Objects: 'own' = community C (creator's; moderator and member have their roles in
 * it), 'other' = community D (the ambassador's; none of the C roles belong to it). So
 * `ambassador:other` is the creator of D acting on D, and `creator:other` a creator acting on
 * another community.
 */
import { everyone, member, rnd, type AuthzRow, type Expect, type ExpectKey } from './types.ts';
import { smallPng, type World } from '../fixtures/world.ts';
import {
  communityOf,
  freshBannedFromC,
  freshCommunity,
  freshCommunityComment,
  freshCommunityPost,
  freshJoinRequest,
  freshMemberOfC,
  freshPendingPost,
  freshReport,
  ownerOf,
} from './fresh.ts';

type E = Partial<Record<ExpectKey, Expect>>;

/** Only the creator of the target community (C's creator on own, D's creator on other). */
const creatorOnly = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, 'creator:own': ok, 'ambassador:other': ok });
/** Community admins and the creator: in the world, the creators. Moderators are below (403). */
const managers = creatorOnly;
/** Moderators and up: creator and moderator of C; creator of D. */
const moderators = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, 'creator:own': ok, 'moderator:own': ok, 'ambassador:other': ok });
/** Members of the target community (creator counts). */
const members = (ok: Expect = 200): E => ({ signedOut: 401, signedIn: 403, 'creator:own': ok, 'moderator:own': ok, 'member:own': ok, 'ambassador:other': ok });
const both: Array<'own' | 'other'> = ['own', 'other'];

/** A member of the target community that every manager may act on (a fresh plain member). */
async function targetMember(w: World, obj: 'own' | 'other' | null): Promise<{ id: number; memberId: number; userId: number }> {
  const c = communityOf(w, obj);
  const m = await freshMemberOfC(w, c.id, ownerOf(w, obj));
  return { id: c.id, memberId: m.memberId, userId: m.client.me.id };
}

export const rows: AuthzRow[] = [
  { route: 'GET /api/communities', expect: everyone() },
  { route: 'GET /api/search/communities', req: () => ({ query: { q: 'Quality' } }), expect: everyone() },
  {
    route: 'POST /api/communities',
    req: () => ({ body: { name: `New community ${rnd()}` } }),
    expect: { signedOut: 401, signedIn: 403, ambassador: 201, creator: 201, admin: 201 },
    note: 'spec part 2 §6: roles admin and ambassador create communities',
  },
  { route: 'GET /api/communities/:id', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id } }), expect: everyone() },
  { route: 'PATCH /api/communities/:id', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id }, body: { description: `Edited ${rnd()}` } }), expect: creatorOnly() },
  {
    route: 'POST /api/communities/:id/image',
    objects: both,
    req: async (p) => ({ params: { id: communityOf(p.w, p.obj).id }, files: [{ field: 'image', name: 'c.png', type: 'image/png', data: await smallPng() }] }),
    expect: creatorOnly(),
  },
  {
    route: 'DELETE /api/communities/:id',
    objects: both,
    note: 'each probe deletes a fresh community shaped like C or D',
    req: async (p) => ({ params: { id: (await freshCommunity(p.w, p.obj!)).id } }),
    expect: creatorOnly(),
  },
  {
    route: 'POST /api/communities/:id/join',
    note: 'a fresh community like C per probe: the creator is always a member (400), moderator and member already are (409)',
    req: async (p) => ({ params: { id: (await freshCommunity(p.w, 'own')).id }, body: {} }),
    expect: { signedOut: 401, signedIn: 200, creator: 400, moderator: 409, member: 409 },
  },
  {
    route: 'POST /api/communities/:id/leave',
    req: async (p) => ({ params: { id: (await freshCommunity(p.w, 'own')).id } }),
    expect: { signedOut: 401, signedIn: 409, creator: 400, moderator: 200, member: 200 },
  },
  {
    route: 'GET /api/communities/:id/join-requests',
    note: "P (the creator's private community); D for 'other'",
    objects: both,
    req: (p) => ({ params: { id: p.obj === 'other' ? p.w.otherCommunity.id : p.w.privateCommunity.id } }),
    expect: creatorOnly(),
  },
  ...(['accept', 'decline'] as const).map(
    (d): AuthzRow => ({
      route: `POST /api/communities/:id/join-requests/:requestId/${d}`,
      objects: both,
      note: "own: a fresh request to join P; other: D's id with P's request (another community's request): refused or not found",
      req: async (p) => ({ params: { id: p.obj === 'other' ? p.w.otherCommunity.id : p.w.privateCommunity.id, requestId: await freshJoinRequest(p.w) } }),
      expect: { signedOut: 401, signedIn: 403, 'creator:own': 200, 'ambassador:other': 409 },
    }),
  ),
  { route: 'GET /api/communities/:id/bans', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id } }), expect: managers() },
  {
    route: 'DELETE /api/communities/:id/bans/:userId',
    objects: both,
    note: "a fresh ban in C; 'other' asks D to lift C's ban: 404 for D's creator",
    req: async (p) => ({ params: { id: communityOf(p.w, p.obj).id, userId: await freshBannedFromC(p.w) } }),
    expect: { ...managers(), 'ambassador:other': 404 },
  },
  {
    route: 'GET /api/communities/:id/posts',
    objects: both,
    note: "own: C (open: every signed-in member reads); other: P (private: members only — only its creator)",
    req: (p) => ({ params: { id: p.obj === 'other' ? p.w.privateCommunity.id : p.w.community.id } }),
    expect: { signedOut: 401, signedIn: 200, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'moderator', 'member', 'admin'].map((r) => [`${r}:other`, 403])), 'creator:other': 200 } as E,
  },
  { route: 'POST /api/communities/:id/posts', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id }, body: { type: 'text', content: `Hello ${rnd()}` } }), expect: members(201) },
  {
    route: 'DELETE /api/community-posts/:id',
    objects: both,
    note: "own: the caller's fresh post in C (members only); other: a fresh post of member (of moderator when member asks, of the creator when moderator asks) — moderators and up delete the posts of lower ranks only (issue 14 #6)",
    req: async (p) => {
      const w = p.w;
      if (p.obj === 'own') {
        if (!['creator', 'moderator', 'member'].includes(p.as)) return null;
        return { params: { id: (await freshCommunityPost(w.c[p.as], w.community.id)).id } };
      }
      return { params: { id: (await freshCommunityPost(p.as === 'member' ? w.c.moderator : p.as === 'moderator' ? w.c.creator : w.c.member, w.community.id)).id } };
    },
    expect: { signedOut: 401, 'default': 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, 'moderator:other': 403, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'admin', 'banned'].map((r) => [`${r}:own`, 'n/a'])) } as E,
  },
  { route: 'GET /api/communities/:id/posts/pending', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id } }), expect: moderators() },
  ...(['approve', 'reject'] as const).map(
    (d): AuthzRow => ({ route: `POST /api/community-posts/:id/${d}`, req: async (p) => ({ params: { id: (await freshPendingPost(p.w)).id } }), expect: { signedOut: 401, signedIn: 403, creator: 200, moderator: 200 } }),
  ),
  {
    route: 'POST /api/community-posts/:id/like',
    objects: both,
    req: (p) => ({ params: { id: p.obj === 'other' ? p.w.dPost.id : p.w.cPost.id } }),
    expect: members(200),
  },
  { route: 'POST /api/community-posts/:id/pin', objects: both, req: (p) => ({ params: { id: p.obj === 'other' ? p.w.dPost.id : p.w.cPost.id }, body: { pin: true } }), expect: moderators() },
  {
    route: 'POST /api/community-posts/:id/vote',
    note: 'a fresh poll per probe (a member votes once)',
    req: async (p) => ({ params: { id: (await freshCommunityPost(p.w.c.member, p.w.community.id, { type: 'poll', content: 'Pick', pollOptions: ['A', 'B'] })).id }, body: { optionIndex: 1 } }),
    expect: { signedOut: 401, signedIn: 403, creator: 200, moderator: 200, member: 200 },
  },
  { route: 'GET /api/community-posts/:id/comments', req: (p) => ({ params: { id: p.w.cPost.id } }), expect: member(200), note: 'C is open: every signed-in member reads' },
  { route: 'POST /api/community-posts/:id/comments', objects: both, req: (p) => ({ params: { id: p.obj === 'other' ? p.w.dPost.id : p.w.cPost.id }, body: { content: `Reply ${rnd()}` } }), expect: members(201) },
  {
    route: 'DELETE /api/community-comments/:id',
    objects: both,
    note: "own: the caller's fresh comment; other: a fresh comment of member (of moderator when member asks, of the creator when moderator asks) — moderators and up delete the comments of lower ranks only (issue 14 #6)",
    req: async (p) => {
      const w = p.w;
      if (p.obj === 'own') {
        if (!['creator', 'moderator', 'member'].includes(p.as)) return null;
        return { params: { id: (await freshCommunityComment(w.c[p.as], w.cPost.id)).id } };
      }
      return { params: { id: (await freshCommunityComment(p.as === 'member' ? w.c.moderator : p.as === 'moderator' ? w.c.creator : w.c.member, w.cPost.id)).id } };
    },
    expect: { signedOut: 401, 'default': 403, 'creator:own': 200, 'moderator:own': 200, 'member:own': 200, 'creator:other': 200, 'moderator:other': 403, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'admin', 'banned'].map((r) => [`${r}:own`, 'n/a'])) } as E,
  },
  {
    route: 'POST /api/community-posts/:id/report',
    objects: both,
    note: "own: the caller's own post (cannot report own content: 400); other: a fresh post of someone else",
    req: async (p) => {
      const w = p.w;
      if (p.obj === 'own') {
        if (!['creator', 'moderator', 'member'].includes(p.as)) return null;
        return { params: { id: (await freshCommunityPost(w.c[p.as], w.community.id)).id }, body: { reason: 'mine' } };
      }
      return { params: { id: (await freshCommunityPost(p.as === 'member' ? w.c.moderator : w.c.member, w.community.id)).id }, body: { reason: 'Spam' } };
    },
    expect: { signedOut: 401, 'default': 403, 'creator:own': 400, 'moderator:own': 400, 'member:own': 400, 'creator:other': 201, 'moderator:other': 201, 'member:other': 201, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'admin', 'banned'].map((r) => [`${r}:own`, 'n/a'])) } as E,
  },
  {
    route: 'POST /api/community-comments/:id/report',
    req: async (p) => ({ params: { id: (await freshCommunityComment(p.as === 'member' ? p.w.c.moderator : p.w.c.member, p.w.cPost.id)).id }, body: { reason: 'Rude' } }),
    expect: { signedOut: 401, signedIn: 403, creator: 201, moderator: 201, member: 201 },
  },
  { route: 'GET /api/communities/:id/reports', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id } }), expect: moderators() },
  {
    route: 'POST /api/communities/:id/reports/:reportId/resolve',
    objects: both,
    note: "a fresh report in C; 'other' names D with C's report: 404 for D's creator",
    req: async (p) => ({ params: { id: communityOf(p.w, p.obj).id, reportId: await freshReport(p.w) }, body: { action: 'dismiss' } }),
    expect: { ...moderators(), 'ambassador:other': 404 },
  },
  { route: 'GET /api/communities/:id/members', objects: both, req: (p) => ({ params: { id: communityOf(p.w, p.obj).id } }), expect: member(200), note: 'open communities: every signed-in member sees the member list' },
  {
    route: 'PATCH /api/communities/:id/members/:memberId/role',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId }, body: { role: 'moderator' } };
    },
    expect: creatorOnly(),
  },
  {
    route: 'DELETE /api/communities/:id/members/:memberId',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId } };
    },
    expect: managers(),
  },
  {
    route: 'DELETE /api/communities/:id/members/:memberId/content',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId }, body: { contentType: 'posts' } };
    },
    expect: managers(),
  },
  {
    route: 'PATCH /api/communities/:id/members/:memberId/permissions',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId }, body: { canPost: false } };
    },
    expect: managers(),
  },
  {
    route: 'POST /api/communities/:id/members/:memberId/warn',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId }, body: { reason: 'Be kind' } };
    },
    expect: managers(),
  },
  {
    route: 'POST /api/communities/:id/members/:memberId/ban',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id, memberId: t.memberId }, body: { reason: 'Spam' } };
    },
    expect: managers(),
  },
  {
    route: 'POST /api/communities/:id/members/bulk',
    objects: both,
    req: async (p) => {
      const t = await targetMember(p.w, p.obj);
      return { params: { id: t.id }, body: { memberIds: [t.memberId], action: 'mute' } };
    },
    expect: managers(),
  },
  {
    route: 'GET /api/communities/:id/members/:memberId/posts',
    objects: both,
    req: async (p) => ({ params: { id: communityOf(p.w, p.obj).id, memberId: p.obj === 'other' ? p.w.memberIds.otherInD : p.w.memberIds.member } }),
    expect: member(200),
  },
  {
    route: 'GET /api/communities/:id/members/:memberId/comments',
    objects: both,
    req: async (p) => ({ params: { id: communityOf(p.w, p.obj).id, memberId: p.obj === 'other' ? p.w.memberIds.otherInD : p.w.memberIds.member } }),
    expect: moderators(),
  },
];

