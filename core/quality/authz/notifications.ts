import crypto from 'node:crypto';
/** Notifications: 'own' = one of the caller's notifications, 'other' = one of another member's. */
import { everyone, member, rnd, type AuthzRow } from './types.ts';
import { must, type World } from '../fixtures/world.ts';
import type { TestClient } from '../../testing/index.ts';

/** A notification for the client: a fresh account follows them. */
async function notificationOf(w: World, who: TestClient & { me?: { id: number } }): Promise<number> {
  const follower = await w.app.user();
  must(await follower.post(`/api/user/${who.me!.id}/follow`), 'follow');
  for (let i = 0; i < 50; i++) {
    const page = must(await who.get('/api/notifications'), 'notifications');
    if (page.items?.length) return page.items[0].id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no notification arrived');
}

export const rows: AuthzRow[] = [
  { route: 'GET /api/notifications', expect: member() },
  { route: 'GET /api/notifications/unread-count', expect: member() },
  {
    route: 'POST /api/notifications/:id/read',
    objects: ['own', 'other'],
    note: "another member's notification is answered as not found (404), like one that does not exist",
    req: async (p) => {
      if (p.obj === 'own') {
        if (p.as === 'banned') return null;
        return { params: { id: await notificationOf(p.w, p.w.c[p.as as 'member'] as any) } };
      }
      return { params: { id: await notificationOf(p.w, p.w.other) } };
    },
    expect: { signedOut: 401, 'banned:own': 'n/a', default: 404, ...Object.fromEntries(['traveler', 'ambassador', 'manager', 'managerOther', 'creator', 'moderator', 'member', 'admin'].map((r) => [`${r}:own`, 200])) },
  },
  { route: 'POST /api/notifications/read-all', expect: member() },
  { route: 'GET /api/push/key', note: 'the VAPID public key is public', expect: everyone() },
  {
    route: 'POST /api/push/subscriptions',
    note: "the caller's own device; an endpoint that never resolves (.invalid)",
    req: () => ({ body: pushSubscription() }),
    expect: member(201),
  },
  {
    route: 'DELETE /api/push/subscriptions',
    note: "only the caller's own subscriptions are removed (another member's endpoint is left alone: still 200)",
    req: () => ({ body: { endpoint: pushSubscription().endpoint } }),
    expect: member(),
  },
];

/** A browser's PushSubscription.toJSON() with real P-256 key material. */
function pushSubscription() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint: `https://push.invalid/${rnd('sub')}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') } };
}
