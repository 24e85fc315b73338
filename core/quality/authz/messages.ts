/**
 * Messages: 'own' = a conversation (or message) the caller takes part in, 'other' = one between
 * two other members. Nobody has powers over others' conversations, Admins included: 404, as if
 * it did not exist.
 */
import { member, type AuthzRow, type Expect, type ExpectKey, type ProbeCtx } from './types.ts';
import { must, smallPng, type World } from '../fixtures/world.ts';
import type { SignedInClient } from '../../testing/index.ts';

type E = Partial<Record<ExpectKey, Expect>>;
const SIGNED_IN = ['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'];
/** own: ok for every signed-in role; someone else's: 404; signed out: 401 */
const participants = (ok: Expect = 200): E => ({
  'anon:own': 'n/a',
  'banned:own': 'n/a',
  signedOut: 401,
  default: 404,
  ...Object.fromEntries(SIGNED_IN.map((r) => [`${r}:own`, ok])),
});
const both: Array<'own' | 'other'> = ['own', 'other'];

const cache = new WeakMap<World, { third: SignedInClient; fourth: SignedInClient; otherConv: number; otherMsg: number }>();
async function extras(w: World) {
  let c = cache.get(w);
  if (!c) {
    const third = await w.app.user();
    const fourth = await w.app.user();
    const conv = must(await third.post('/api/conversations', { participantIds: [w.other.me.id], message: { text: 'between two others' } }), 'other conversation');
    c = { third, fourth, otherConv: conv.id, otherMsg: conv.lastMessage.id };
    cache.set(w, c);
  }
  return c;
}

/** The caller's direct conversation with w.other (reused; re-joined if the caller left it). */
async function ownConversation(p: ProbeCtx): Promise<any> {
  return must(await p.client.post('/api/conversations', { participantIds: [p.w.other.me.id], message: { text: 'probe' } }), 'own conversation');
}

async function conversationId(p: ProbeCtx): Promise<number | null> {
  if (p.obj === 'own') return p.as === 'anon' || p.as === 'banned' ? null : (await ownConversation(p)).id;
  return (await extras(p.w)).otherConv;
}

const onConversation = (body?: unknown) => async (p: ProbeCtx) => {
  const id = await conversationId(p);
  return id === null ? null : { params: { id }, ...(body === undefined ? {} : { body }) };
};

/** accept or decline: own = a request a fresh member just sent the caller; other = a conversation of others (404) */
const requestRow = (decision: 'accept' | 'decline'): AuthzRow => ({
  route: `POST /api/conversations/:id/${decision}`,
  objects: both,
  note: 'own: a request a fresh member just sent the caller',
  req: async (p) => {
    if (p.obj === 'other') return { params: { id: (await extras(p.w)).otherConv } };
    if (p.as === 'anon' || p.as === 'banned') return null;
    const f = await p.w.app.user();
    return { params: { id: must(await f.post('/api/conversations', { participantIds: [p.w.u[p.as].id], message: { text: 'hi' } }), 'request').id } };
  },
  expect: participants(),
});

/** A route on the caller's conversation (own) or on one of others (other): participants only. */
const onOwnOrOther = (route: string, body?: unknown, ok: Expect = 200): AuthzRow => ({ route, objects: both, req: onConversation(body), expect: participants(ok) });

export const rows: AuthzRow[] = [
  { route: 'GET /api/conversations', expect: member() },
  {
    route: 'POST /api/conversations',
    req: async (p) => ({ body: { participantIds: [(await extras(p.w)).third.me.id], message: { text: 'hello' } } }),
    expect: member(201),
  },
  { route: 'GET /api/conversations/unread-count', expect: member() },
  {
    route: 'GET /api/conversations/with/:userId',
    note: 'answers only about the caller: may they write to that member',
    req: (p) => ({ params: { userId: p.w.other.me.id } }),
    expect: member(),
  },
  onOwnOrOther('GET /api/conversations/:id'),
  onOwnOrOther('GET /api/conversations/:id/messages'),
  onOwnOrOther('POST /api/conversations/:id/messages', { text: 'probe reply' }, 201),
  onOwnOrOther('POST /api/conversations/:id/read', {}),
  onOwnOrOther('POST /api/conversations/:id/leave'),
  onOwnOrOther('POST /api/conversations/:id/mute', { muted: true }),
  requestRow('accept'),
  requestRow('decline'),
  {
    route: 'POST /api/conversations/:id/participants',
    objects: both,
    note: "own: a group the caller just created with w.other and a third member; adds a fourth. other: a conversation of others (404)",
    req: async (p) => {
      const x = await extras(p.w);
      if (p.obj === 'other') return { params: { id: x.otherConv }, body: { userIds: [x.fourth.me.id] } };
      if (p.as === 'anon' || p.as === 'banned') return null;
      const g = must(await p.client.post('/api/conversations', { participantIds: [p.w.other.me.id, x.third.me.id], message: { text: 'group' } }), 'group');
      return { params: { id: g.id }, body: { userIds: [x.fourth.me.id] } };
    },
    expect: participants(),
  },
  {
    route: 'DELETE /api/messages/:id',
    objects: both,
    note: "own: a message the caller just sent; other: a message in others' conversation (404)",
    req: async (p) => {
      if (p.obj === 'other') return { params: { id: (await extras(p.w)).otherMsg } };
      if (p.as === 'anon' || p.as === 'banned') return null;
      const c = await ownConversation(p);
      return { params: { id: must(await p.client.post(`/api/conversations/${c.id}/messages`, { text: 'to delete' }), 'message').id } };
    },
    expect: participants(),
  },
  {
    route: 'POST /api/messages/images',
    req: async () => ({ files: [{ field: 'files', name: 'p.png', type: 'image/png', data: await smallPng() }] }),
    expect: member(201),
  },
];
