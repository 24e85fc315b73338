/** Insights. 'own' = the caller's own insight or comment, 'other' = another member's. */
import sharp from 'sharp';
import { everyone, member, rnd, type AuthzRow, type Expect, type ExpectKey } from './types.ts';
import { must } from '../fixtures/world.ts';
import type { TestClient } from '../../testing/index.ts';

type E = Partial<Record<ExpectKey, Expect>>;
const both: Array<'own' | 'other'> = ['own', 'other'];
const signedInRoles = ['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'];
const newPost = async (c: TestClient) => must(await c.post('/api/posts', { type: 'text', content: `Insight ${rnd()}` }), 'insight');
const tinyJpeg = () => sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 90, g: 60, b: 30 } } }).jpeg().toBuffer();
/** A photo insight of one photo by `c`: its id and the photo's id. */
const newPhotoPost = async (c: TestClient) => {
  const up = must(await c.upload('/api/posts/photos', [{ field: 'photo', name: 'p.jpg', type: 'image/jpeg', data: await tinyJpeg() }]), 'photo upload');
  const post = must(await c.post('/api/posts', { type: 'photo', photos: [{ id: up.id, alt: 'A test photo' }] }), 'photo insight');
  return { id: post.id as number, photoId: up.id as number };
};

export const rows: AuthzRow[] = [
  { route: 'POST /api/posts', req: () => ({ body: { type: 'text', content: `Hello ${rnd()}` } }), expect: member(201) },
  {
    route: 'POST /api/posts/video',
    note: 'authorization only: an empty upload is refused (400) after sign-in is checked; real videos are covered by the upload corpus',
    req: () => ({ files: [{ field: 'video', name: 'v.mp4', type: 'video/mp4', data: Buffer.alloc(0) }] }),
    expect: member(400),
  },
  { route: 'GET /api/posts', expect: everyone() },
  { route: 'GET /api/feed/personalized', expect: member() },
  { route: 'GET /api/feed/new-count', note: 'counts within the caller’s own feed only', req: () => ({ query: { since: '2026-01-01T00:00:00.000Z', sinceId: 1 } }), expect: member() },
  { route: 'GET /api/posts/museum/:museumId', req: (p) => ({ params: { museumId: p.w.museumA.id } }), expect: everyone() },
  { route: 'GET /api/user/:id/posts', objects: both, req: (p) => ({ params: { id: p.obj === 'own' && p.as !== 'anon' ? p.w.u[p.as as 'member'].id : p.w.other.me.id } }), expect: everyone() },
  { route: 'GET /api/posts/:id', req: (p) => ({ params: { id: p.w.post.id } }), expect: everyone() },
  {
    route: 'POST /api/posts/:id/like',
    objects: both,
    req: async (p) => ({ params: { id: p.obj === 'own' ? (p.as === 'banned' ? p.w.post.id : (await newPost(p.w.c[p.as as 'member'])).id) : p.w.post.id } }),
    expect: member(),
  },
  { route: 'GET /api/posts/:id/comments', req: (p) => ({ params: { id: p.w.post.id } }), expect: everyone() },
  { route: 'POST /api/posts/:id/comments', req: (p) => ({ params: { id: p.w.post.id }, body: { content: `Nice ${rnd()}` } }), expect: member(201) },
  {
    route: 'DELETE /api/posts/:id',
    objects: both,
    note: 'the author deletes; an Admin deletes anyone\'s (moderation)',
    req: async (p) => {
      if (p.obj === 'own') return p.as === 'banned' ? null : { params: { id: (await newPost(p.w.c[p.as as 'member'])).id } };
      return { params: { id: (await newPost(p.w.other)).id } };
    },
    expect: { signedOut: 401, default: 403, 'banned:own': 'n/a', ...Object.fromEntries(signedInRoles.map((r) => [`${r}:own`, 200])), 'admin:other': 200 } as E,
  },
  {
    route: 'DELETE /api/comments/:id',
    objects: both,
    req: async (p) => {
      const author = p.obj === 'own' ? (p.as === 'banned' ? null : p.w.c[p.as as 'member']) : p.w.other;
      if (!author) return null;
      return { params: { id: must(await author.post(`/api/posts/${p.w.post.id}/comments`, { content: `C ${rnd()}` }), 'comment').id } };
    },
    expect: { signedOut: 401, default: 403, 'banned:own': 'n/a', ...Object.fromEntries(signedInRoles.map((r) => [`${r}:own`, 200])), 'admin:other': 200 } as E,
  },
  {
    route: 'POST /api/posts/photos',
    note: 'authorization only: an empty upload is refused (400) after sign-in is checked; real images are covered by the upload corpus',
    req: () => ({ files: [{ field: 'photo', name: 'p.jpg', type: 'image/jpeg', data: Buffer.alloc(0) }] }),
    expect: member(400),
  },
  {
    route: 'PATCH /api/posts/:id/photos/:photoId',
    objects: both,
    note: "alt text and focal point: the author only (Admins too are refused: it is the author's description)",
    req: async (p) => {
      if (p.obj === 'own' && p.as === 'banned') return null;
      const author = p.obj === 'own' && p.as !== 'anon' ? p.w.c[p.as as 'member'] : p.w.other;
      const made = await newPhotoPost(author);
      return { params: { id: made.id, photoId: made.photoId }, body: { alt: `Alt ${rnd()}` } };
    },
    expect: { signedOut: 401, default: 403, 'banned:own': 'n/a', 'anon:own': 401, ...Object.fromEntries(signedInRoles.map((r) => [`${r}:own`, 200])) } as E,
  },
  { route: 'GET /api/museums/:museumId/photos', req: (p) => ({ params: { museumId: p.w.museumA.id } }), expect: everyone() },
  { route: 'GET /api/museums/:museumId/featured-photo', req: (p) => ({ params: { museumId: p.w.museumA.id } }), expect: everyone() },
  {
    route: 'PUT /api/museums/:museumId/featured-photo',
    note: "museum A's manager or an Admin; consent and the photo's museum are checked after (photos.test.ts)",
    req: (p) => ({ params: { museumId: p.w.museumA.id }, body: { photoId: null } }),
    expect: { signedOut: 401, signedIn: 403, manager: 200, admin: 200 },
  },
  { route: 'GET /api/recommendations/users', expect: everyone() },
  { route: 'GET /api/recommendations/museums', expect: everyone() },
  { route: 'GET /api/trending/museums', expect: everyone() },
  { route: 'GET /api/users/active', expect: everyone(), note: "everyone may ask; whom it lists follows accounts' canView in its statement: private members only to those allowed (issue 14 #7, insights.test.ts)" },
];
