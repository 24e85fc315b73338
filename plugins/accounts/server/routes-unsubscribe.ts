/**
 * One-click unsubscribe (RFC 8058) for non-transactional emails. Accounts owns the preferences, so
 * it signs the links and turns the category off:
 *
 *  GET  /api/unsubscribe?token=…  a small confirmation page (a GET never changes anything: mail
 *                                 scanners follow links)
 *  POST /api/unsubscribe?token=…  turns the category off without signing in; mail clients send
 *                                 `List-Unsubscribe=One-Click` as a form body (RFC 8058 §3.1)
 *
 * The token is `<userId>.<category>.<HMAC-SHA256 of both with the app's cookie key>`: it cannot be
 * forged for another member or category, and stays valid (unsubscribe links must keep working).
 */
import crypto from 'node:crypto';
import { HttpError } from '../../../core/errors.ts';
import { escapeHtml } from '../../../core/mail.ts';
import type { UserPreferences } from '../public.ts';
import { writePreferences } from './service.ts';
import type { RouteDeps } from './deps.ts';

export const UNSUBSCRIBE_CATEGORIES = ['emailNotifications', 'weeklyDigest', 'eventReminders'] as const;
export type UnsubscribeCategory = (typeof UNSUBSCRIBE_CATEGORIES)[number];
export const INVALID_UNSUBSCRIBE = 'This unsubscribe link is invalid.';

const LABELS: Record<UnsubscribeCategory, { en: string; fr: string }> = {
  emailNotifications: { en: 'notification emails', fr: 'les e-mails de notification' },
  weeklyDigest: { en: 'the weekly digest', fr: 'le résumé hebdomadaire' },
  eventReminders: { en: 'event reminders', fr: 'les rappels d’événements' },
};

export function unsubscribeSigner(secret: string) {
  const mac = (payload: string) => crypto.createHmac('sha256', `unsubscribe:${secret}`).update(payload).digest('base64url');
  return {
    sign(userId: number, category: UnsubscribeCategory): string {
      const payload = `${userId}.${category}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token: string): { userId: number; category: UnsubscribeCategory } | null {
      if (typeof token !== 'string' || token.length > 200) return null;
      const [id, category, sig] = token.split('.');
      if (!id || !category || !sig || !/^[1-9][0-9]{0,9}$/.test(id) || !(UNSUBSCRIBE_CATEGORIES as readonly string[]).includes(category)) return null;
      const expected = Buffer.from(mac(`${id}.${category}`));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      return { userId: Number(id), category: category as UnsubscribeCategory };
    },
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:0;background:#485fc7;color:#fff;cursor:pointer}a{color:#485fc7}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function addUnsubscribeRoutes({ ctx, knex }: RouteDeps, signer: ReturnType<typeof unsubscribeSigner>): void {
  const query = {
    type: 'object',
    additionalProperties: false,
    required: ['token'],
    properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
  };

  ctx.routes.add<unknown, { token: string }>({
    method: 'GET',
    path: '/api/unsubscribe',
    operationId: 'unsubscribePage',
    summary: 'The confirmation page of an unsubscribe link (HTML; changes nothing)',
    auth: 'none',
    raw: true,
    rawContentType: 'text/html',
    schema: { query },
    async handler(c) {
      const v = signer.verify(c.input.query.token);
      c.type = 'text/html';
      c.set('Cache-Control', 'no-store');
      if (!v) {
        c.status = 400;
        c.body = page('Unsubscribe', `<p>${escapeHtml(INVALID_UNSUBSCRIBE)}</p>`);
        return;
      }
      const label = LABELS[v.category];
      c.body = page(
        'Unsubscribe',
        `<p>Stop receiving ${escapeHtml(label.en)}? <span lang="fr">(Ne plus recevoir ${escapeHtml(label.fr)} ?)</span></p>
<form method="post" action="/api/unsubscribe?token=${encodeURIComponent(c.input.query.token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe / Se désabonner</button></form>
<p>You can turn it on again in Settings → Notifications.</p>`,
      );
    },
  });

  ctx.routes.add<unknown, { token: string }>({
    method: 'POST',
    path: '/api/unsubscribe',
    operationId: 'unsubscribe',
    summary: 'One-click unsubscribe (RFC 8058): turns the link’s email category off without signing in',
    auth: 'none',
    bodyType: 'none',
    raw: true,
    rawContentType: 'application/json',
    schema: { query },
    async handler(c) {
      const v = signer.verify(c.input.query.token);
      if (!v) throw new HttpError(400, INVALID_UNSUBSCRIBE);
      const exists = await knex('users').where({ id: v.userId }).first('id');
      if (exists) await writePreferences(knex, v.userId, { [v.category]: false } as Partial<UserPreferences>);
      ctx.log.info({ userId: v.userId, category: v.category }, 'unsubscribed');
      if (c.accepts('json', 'html') === 'html') {
        c.type = 'text/html';
        c.body = page('Unsubscribed', `<p>Done: you will no longer receive ${escapeHtml(LABELS[v.category].en)}. <span lang="fr">(C’est fait.)</span></p><p><a href="/">Curio</a></p>`);
        return;
      }
      c.body = { success: true, message: `Unsubscribed from ${LABELS[v.category].en}` };
    },
  });
}
