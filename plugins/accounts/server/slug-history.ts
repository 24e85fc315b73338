import type Koa from 'koa';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';

/**
 * Old profile links keep working after a rename (issue 21): the slug and username a member had are
 * kept in user_slug_history; `/profile/{old}` answers 301 to `/profile/{current}` (before the
 * public pages and the web app), and the profile lookups (GET /api/user/slug/{slug},
 * AccountsApi.findUser) fall back to it. A slug or username someone has now always wins.
 */

const key = (s: string) => s.trim().toLowerCase().slice(0, 100);

/** Inside the rename's transaction (or right after it): the old slug and username point to the member; the new ones are nobody's history. */
export async function rememberRename(db: Knex | Knex.Transaction, userId: number, before: { slug: string; username: string }, after: { slug: string; username: string }): Promise<void> {
  const olds = [...new Set([key(before.slug), key(before.username)])].filter((s) => s && s !== key(after.slug) && s !== key(after.username));
  const news = [...new Set([key(after.slug), key(after.username)])];
  await db('user_slug_history').whereIn('slug', news).del();
  if (olds.length) {
    await db('user_slug_history')
      .insert(olds.map((slug) => ({ slug, user_id: userId })))
      .onConflict('slug')
      .merge({ user_id: userId, created_at: db.fn.now() });
  }
}

/** The member an old slug or username belonged to (null when nobody renamed away from it). */
export async function userIdOfOldSlug(db: Knex, slug: string): Promise<number | null> {
  const s = key(slug);
  if (!s) return null;
  const row = await db('user_slug_history').where({ slug: s }).first('user_id');
  return row ? Number(row.user_id) : null;
}

/** GET /profile/{old}: 301 to the member's current slug (same query string), when no member has {old} now. */
export function registerProfileRedirects(ctx: PluginContext): void {
  const knex = ctx.db;
  // not async for other paths: they go straight on (issue 18)
  ctx.middleware.use((kctx, next) => {
    const m = (kctx.method === 'GET' || kctx.method === 'HEAD') && /^\/profile\/([^/]+)\/?$/i.exec(kctx.path);
    return m ? redirectIfRenamed(kctx, m, next) : next();
  });
  const redirectIfRenamed = async (kctx: Koa.Context, m: RegExpExecArray, next: () => Promise<unknown>) => {
    let param: string;
    try {
      param = decodeURIComponent(m[1]);
    } catch {
      return next();
    }
    if (!param || param.length > 100 || /^\d+$/.test(param)) return next();
    const current = await knex('users').where('slug', key(param)).orWhere('username', param).first('id');
    if (current) return next();
    const row = await knex('user_slug_history as h').join('users as u', 'u.id', 'h.user_id').where('h.slug', key(param)).first('u.slug');
    if (!row?.slug) return next();
    kctx.status = 301;
    kctx.set('Cache-Control', 'public, max-age=3600');
    kctx.redirect(`/profile/${encodeURIComponent(row.slug)}${kctx.querystring ? `?${kctx.querystring}` : ''}`);
  };
}
