/**
 * The weekly digest's "top insights from people and museums you follow" section (notifications'
 * DigestSections): the week's insights by members the reader follows or about museums they
 * follow, most liked and discussed first. Accounts' rule for lists of content (canViewContent:
 * profile visibility, blocks either way, the reader's mutes) is applied in the SQL statement.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { emailTranslator } from '../../../core/mail.ts';
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';
import { DigestSections } from '../../notifications/public.ts';

const EMAIL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales', 'email');
export const DIGEST_TOP_INSIGHTS = 5;

/** The week's top insights for a reader (ids and what the email shows), privacy applied in SQL. */
export async function topInsightsFor(
  knex: Knex,
  accounts: AccountsApi,
  museums: MuseumsApi | undefined,
  userId: number,
  period: { since: Date; until: Date },
  limit = DIGEST_TOP_INSIGHTS,
): Promise<Array<{ id: number; content: string; type: string; first_name: string; last_name: string; username: string }>> {
  const viewer = await knex('users').where({ id: userId }).first('id', 'role');
  if (!viewer) return [];
  const seen = accounts.sql.canViewContent({ id: viewer.id, role: viewer.role }, 'p.user_id').toSQL();
  return knex('insights_posts as p')
    .join('users as u', 'u.id', 'p.user_id')
    .where('p.created_at', '>', period.since)
    .where('p.created_at', '<=', period.until)
    .whereNot('p.user_id', userId)
    .where((w) => {
      w.whereIn('p.user_id', accounts.sql.followingIds(userId));
      if (museums) w.orWhereIn('p.museum_id', museums.sql.followedMuseumIds(userId));
    })
    .whereRaw(seen.sql, seen.bindings as any[])
    .orderByRaw('(p.likes_count + 2 * p.comments_count) desc, p.created_at desc, p.id desc')
    .limit(limit)
    .select('p.id', 'p.content', 'p.type', 'u.first_name', 'u.last_name', 'u.username');
}

export function registerInsightsDigest(ctx: PluginContext, accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): void {
  ctx.services.maybe(DigestSections)?.register(
    'insights',
    async (userId, period, lang) => {
      const rows = await topInsightsFor(ctx.db, accounts(), museums(), userId, period);
      if (!rows.length) return null;
      const t = emailTranslator(EMAIL_DIR, lang);
      return {
        title: t('digest.topInsights'),
        items: rows.map((r) => {
          const text = r.content.replace(/\s+/g, ' ').trim();
          const excerpt = text ? (text.length > 140 ? `${text.slice(0, 139)}…` : text) : t('digest.video');
          const name = `${r.first_name} ${r.last_name}`.trim() || `@${r.username}`;
          return { text: t('digest.by', { excerpt, name }), link: `/insights/${r.id}` };
        }),
      };
    },
    10,
  );
}
