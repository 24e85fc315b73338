/** Rows of accounts' recovery routes (plugins/accounts/server/routes-recovery.ts). */
import crypto from 'node:crypto';
import { waitFor } from '../../testing/index.ts';
import { EmailVerification } from '../../../plugins/accounts/public.ts';
import { freshClient, member, everyone, rnd, type AuthzRow, type ProbeCtx } from './types.ts';

/** A token for the account a probe acts on, written as the email job would (only its hash is stored). */
async function tokenFor(p: ProbeCtx, purpose: 'reset' | 'verify'): Promise<{ token: string; client: any }> {
  // the banned member's own account (refused: the ban), else a fresh account of the role's kind
  const client: any = p.as === 'banned' ? p.client : p.as === 'anon' ? p.w.app.client() : await freshClient(p);
  const who = p.as === 'banned' ? p.w.u.banned : p.as === 'anon' ? (await p.w.app.user({ verified: false })).me : client.me;
  // the confirmation job queued at sign-up would end this token: let it run first
  await waitFor(async () => !(await p.w.app.knex('core_jobs').where('unique_key', 'like', `accounts.email.verify:${who.id}:%`).whereIn('status', ['queued', 'running']).first()), { timeout: 10_000 });
  const token = crypto.randomBytes(32).toString('base64url');
  await p.w.app.knex('accounts_email_tokens').insert({
    user_id: who.id,
    purpose,
    token_hash: crypto.createHash('sha256').update(token).digest('hex'),
    email: who.email,
    expires_at: new Date(Date.now() + 3600_000),
  });
  if (purpose === 'verify') await p.w.app.knex('users').where({ id: who.id }).update({ email_verified_at: null });
  return { token, client };
}

/** A signed unsubscribe token of another member (the link works for whoever holds it). */
function unsubscribeToken(p: ProbeCtx): string {
  const url = new URL(p.w.app.services.get(EmailVerification).unsubscribe(p.w.other.me.id, 'weeklyDigest').url);
  return url.searchParams.get('token')!;
}

export const rows: AuthzRow[] = [
  {
    route: 'GET /api/unsubscribe',
    note: 'the signed link is the credential; the page only asks (HTML)',
    req: (p) => ({ query: { token: unsubscribeToken(p) } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/unsubscribe',
    note: 'RFC 8058 one-click: the signed link turns its category off without signing in',
    req: (p) => ({ query: { token: unsubscribeToken(p) } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/password-reset',
    note: 'anyone may ask; the same answer whatever the address (probed with an unknown one)',
    req: () => ({ body: { email: `${rnd('nobody')}@example.test` } }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/password-reset/confirm',
    note: 'the link is the credential: anyone holding a valid one sets that account’s password and is signed in as it; a banned account is refused with the ban’s message',
    req: async (p) => {
      const { token, client } = await tokenFor(p, 'reset');
      return { client, body: { token, newPassword: `Reset-passphrase-${rnd()}` } };
    },
    expect: { default: 200, banned: 403 },
  },
  {
    route: 'POST /api/auth/verify-email',
    note: 'the link is the credential; it works signed in or out',
    req: async (p) => {
      const { token, client } = await tokenFor(p, 'verify');
      return { client, body: { token } };
    },
    expect: everyone(200),
  },
  { route: 'PUT /api/user/contact-settings', note: 'about the caller only', req: () => ({ body: { timeZone: 'Europe/Paris', locale: 'fr' } }), expect: member() },
  { route: 'POST /api/user/email/verification', note: 'about the caller only (already confirmed: says so)', expect: member() },
  {
    route: 'PUT /api/user/email',
    note: 'acts on the caller only, with their password: probed with a fresh account of the same platform role',
    req: async (p) => {
      const client: any = await freshClient(p);
      return { client, body: { email: `${rnd('moved')}@example.test`, currentPassword: client.me?.password ?? 'correct-horse-42' } };
    },
    expect: member(),
  },
];
