/**
 * Web push (the member's `pushNotifications` setting), with the web-push library (RFC 8030
 * delivery, RFC 8291 payload encryption, RFC 8292 VAPID).
 *
 *  GET    /api/push/key            the VAPID public key (applicationServerKey)
 *  POST   /api/push/subscriptions  { endpoint, keys: { p256dh, auth } } this browser's subscription
 *  DELETE /api/push/subscriptions  { endpoint }
 *
 * VAPID keys come from config (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY) or are generated on first
 * start and kept in DATA_DIR/vapid.json (several processes: configure them, or share DATA_DIR).
 * Every stored notification is pushed from jobs: one fan-out job per notification, then one
 * once-keyed job per subscription (a retry never pushes twice to a device); a push service
 * answering 404 or 410 means the subscription is gone: it is deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import webpush from 'web-push';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { AccountsService } from '../../accounts/public.ts';
import { PREFERENCE_OF_TYPE, type NewNotification } from '../public.ts';

export const PUSH_FANOUT_JOB = 'notifications.push.fanout';
export const PUSH_SEND_JOB = 'notifications.push.send';

export function vapidKeys(ctx: PluginContext): { publicKey: string; privateKey: string } {
  const cfg = ctx.appConfig;
  if (cfg.vapidPublicKey && cfg.vapidPrivateKey) return { publicKey: cfg.vapidPublicKey, privateKey: cfg.vapidPrivateKey };
  const file = path.join(cfg.dataDir, 'vapid.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  try {
    // exclusive create: two processes starting together keep the first one's keys
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    ctx.log.info({ file }, 'generated VAPID keys for web push');
    return keys;
  } catch {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  }
}

/** A boolean SQL expression: the member in `userIdColumn` has a push subscription (devices to push to). */
export function pushSubscribedSql(knex: Knex, userIdColumn: string): Knex.Raw {
  return knex.raw('exists (select 1 from push_subscriptions ps where ps.user_id = ??)', [userIdColumn]);
}

/**
 * afterNotify: given the members a notification was stored for who have a push subscription (read
 * with its insert through pushSubscribedSql), queues its push to their devices.
 */
export function registerPush(ctx: PluginContext): { afterNotify(userIds: number[], n: NewNotification): Promise<void> } {
  const knex = ctx.db;
  let keys: { publicKey: string; privateKey: string } | null = null;
  const getKeys = () => (keys ??= vapidKeys(ctx));
  const allowHttp = Boolean(ctx.config.allowInsecurePushEndpoints);

  const endpointProblem = (endpoint: string): string | null => {
    let u: URL;
    try {
      u = new URL(endpoint);
    } catch {
      return 'endpoint must be a URL';
    }
    if (u.protocol === 'https:') return null;
    if (u.protocol === 'http:' && allowHttp) return null;
    return 'endpoint must be an https URL';
  };

  ctx.routes.add({
    method: 'GET',
    path: '/api/push/key',
    operationId: 'getPushKey',
    summary: 'The VAPID public key for PushManager.subscribe (applicationServerKey)',
    auth: 'none',
    schema: { response: { type: 'object', additionalProperties: false, required: ['publicKey'], properties: { publicKey: { type: 'string' } } } },
    handler: () => ({ publicKey: getKeys().publicKey }),
  });

  ctx.routes.add<unknown, unknown, { endpoint: string; keys: { p256dh: string; auth: string } }>({
    method: 'POST',
    path: '/api/push/subscriptions',
    operationId: 'addPushSubscription',
    summary: "Store this browser's push subscription for the signed-in member (the same endpoint again replaces it)",
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'notifications/PushSubscriptionBody' }, response: { 201: { $ref: 'shared/Ok' } } },
    async handler(c) {
      const { endpoint, keys: k } = c.input.body;
      const problem = endpointProblem(endpoint);
      if (problem) throw new HttpError(400, problem, { errors: [{ path: '/endpoint', message: problem }] });
      const p256dh = Buffer.from(k.p256dh, 'base64url');
      const auth = Buffer.from(k.auth, 'base64url');
      if (p256dh.length !== 65 || p256dh[0] !== 4) throw new HttpError(400, 'keys.p256dh must be an uncompressed P-256 public key', { errors: [{ path: '/keys/p256dh', message: 'keys.p256dh must be an uncompressed P-256 public key' }] });
      if (auth.length !== 16) throw new HttpError(400, 'keys.auth must be 16 bytes', { errors: [{ path: '/keys/auth', message: 'keys.auth must be 16 bytes' }] });
      const row = { user_id: c.user!.id, endpoint, p256dh: k.p256dh, auth: k.auth, user_agent: (c.get('user-agent') || '').slice(0, 400) || null };
      await knex('push_subscriptions').insert(row).onConflict('endpoint').merge(row);
      return { success: true, message: 'Push notifications are on for this device' };
    },
  });

  ctx.routes.add<unknown, unknown, { endpoint: string }>({
    method: 'DELETE',
    path: '/api/push/subscriptions',
    operationId: 'removePushSubscription',
    summary: "Remove one of the signed-in member's push subscriptions (this browser's)",
    auth: 'required',
    schema: {
      body: { type: 'object', additionalProperties: false, required: ['endpoint'], properties: { endpoint: { type: 'string', minLength: 1, maxLength: 1000 } } },
      response: { $ref: 'shared/Ok' },
    },
    async handler(c) {
      await knex('push_subscriptions').where({ user_id: c.user!.id, endpoint: c.input.body.endpoint }).del();
      return { success: true, message: 'Push notifications are off for this device' };
    },
  });

  ctx.jobs.define(PUSH_FANOUT_JOB, async (p: { id: string; userIds: number[]; n: { type: string; title: string; message: string; link: string | null } }) => {
    const prefs = await ctx.services.maybe(AccountsService)?.getPreferencesMany(p.userIds);
    const typePref = PREFERENCE_OF_TYPE[p.n.type as keyof typeof PREFERENCE_OF_TYPE];
    const ids = p.userIds.filter((id) => {
      const pr = prefs?.get(id) as any;
      return pr && pr.pushNotifications !== false && (!typePref || pr[typePref] !== false);
    });
    if (!ids.length) return { subscriptions: 0 };
    const subs = await knex('push_subscriptions').whereIn('user_id', ids).select('id');
    for (const s of subs) {
      await ctx.jobs.enqueueOnce(PUSH_SEND_JOB, { subscriptionId: s.id, n: p.n }, `push:${p.id}:${s.id}`, { maxAttempts: 4 });
    }
    return { subscriptions: subs.length };
  });

  ctx.jobs.define(PUSH_SEND_JOB, async (p: { subscriptionId: number; n: { title: string; message: string; link: string | null } }) => {
    const sub = await knex('push_subscriptions').where({ id: p.subscriptionId }).first();
    if (!sub) return { sent: false, reason: 'gone' };
    const k = getKeys();
    const payload = JSON.stringify({ title: p.n.title, body: p.n.message, url: p.n.link && p.n.link.startsWith('/') ? p.n.link : '/notifications' });
    // web-push builds the request (VAPID JWT, aes128gcm encryption); fetch sends it (http or https)
    const req = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
      vapidDetails: { subject: ctx.appConfig.vapidSubject, publicKey: k.publicKey, privateKey: k.privateKey },
      TTL: 24 * 3600,
      contentEncoding: 'aes128gcm',
    });
    const res = await fetch(req.endpoint, { method: req.method, headers: req.headers as Record<string, string>, body: req.body ? new Uint8Array(req.body as Buffer) : null, signal: AbortSignal.timeout(10_000) });
    if (res.status === 404 || res.status === 410) {
      await knex('push_subscriptions').where({ id: sub.id }).del();
      return { sent: false, reason: `subscription gone (${res.status})` };
    }
    if (!res.ok) throw new Error(`push service answered ${res.status}`);
    return { sent: true, status: res.status };
  });

  return {
    async afterNotify(userIds, n) {
      // userIds: those the notification was stored for (a repeat of a deduplicated one was not, and
      // gets no push either) who have a subscription
      if (!userIds.length) return;
      const ids = [...new Set(userIds)];
      await ctx.jobs.enqueue(PUSH_FANOUT_JOB, { id: crypto.randomUUID(), userIds: ids, n: { type: n.type, title: n.title, message: n.message, link: n.link ?? null } }, { maxAttempts: 3 });
    },
  };
}
