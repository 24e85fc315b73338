import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, UserBadgesProvider } from '../public.ts';
import { sessionMiddleware, loadedSession, REGULAR_MS, REMEMBER_MS, TOUCH_EVERY_MS } from './sessions.ts';
import { createAccountsApi } from './service.ts';
import { hashPassword } from './passwords.ts';
import { removeUser } from './follows.ts';
import { LoginThrottle, SIGNUP_THROTTLE_DEFAULTS, SignupThrottle, THROTTLE_DEFAULTS } from './throttle.ts';
import { addAuthRoutes } from './routes-auth.ts';
import { addUserRoutes, userBadgesRoute } from './routes-users.ts';
import { addSettingsRoutes } from './routes-settings.ts';
import { addSafetyRoutes } from './routes-safety.ts';
import { addRecoveryRoutes, RECOVERY_LIMIT_DEFAULTS } from './routes-recovery.ts';
import { usersSearchProvider } from './search.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { seedUsers } from './seed.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    const { db: knex } = ctx;

    async function deleteUser(userId: number): Promise<boolean> {
      const exists = await knex('users').where({ id: userId }).first('id');
      if (!exists) return false;
      // Others fix their counters and remove what is theirs while the user still exists.
      await ctx.events.emit('accounts.user.deleting', { userId });
      const row = await removeUser(knex, userId);
      if (!row) return false;
      const key = row.profile_image_url ? ctx.storage.keyFromUrl(row.profile_image_url) : null;
      if (key) await ctx.storage.delete(key).catch((err) => ctx.log.warn({ err, key }, 'could not delete a profile photo'));
      await ctx.events.emit('accounts.user.deleted', { userId });
      return true;
    }

    const api = createAccountsApi(knex, { deleteUser });
    // Profile photos: the storage sweep deletes those no member's row points at any more.
    ctx.uploads.ownFiles({
      prefixes: ['avatars'],
      referenced: async (keys) => {
        const urls = (await knex('users').whereIn('profile_image_url', keys.map((k) => ctx.storage.url(k))).pluck('profile_image_url')) as string[];
        return urls.map((u) => ctx.storage.keyFromUrl(u)!).filter(Boolean);
      },
    });
    ctx.services.provide(AccountsService, api);
    const throttle = new LoginThrottle(knex, { ...THROTTLE_DEFAULTS, ...(ctx.config.loginThrottle ?? {}) });
    const signups = new SignupThrottle(knex, { ...SIGNUP_THROTTLE_DEFAULTS, ...(ctx.config.signupThrottle ?? {}) });

    ctx.middleware.use(sessionMiddleware(ctx.app, knex));
    // Who is signed in: the session's user, unless deleted or refused by a guard (bans): such a
    // session ends at once. Activity slides the expiry (at most one write a minute per session).
    ctx.middleware.use(async (kctx, next) => {
      const s = kctx.session;
      const userId = s?.userId;
      if (userId) {
        // Usually read with the session itself (one statement); a session written in this very
        // request (none here) or for another user falls back to reading the user.
        const loaded = loadedSession(kctx as any);
        const row =
          loaded?.user && loaded.user.id === userId
            ? loaded.user
            : await knex('users').where({ id: userId }).first('id', 'username', 'role', 'slug');
        // the guards get the object that becomes ctx.state.user (they may note things about it for this request)
        const user = row ? { id: row.id, username: row.username, role: row.role, slug: row.slug } : null;
        const refusal = user ? await api.checkGuards(user) : 'deleted';
        if (!user || refusal) {
          kctx.session = null;
        } else {
          kctx.state.user = user;
          if (loaded && Date.now() - loaded.lastActivity.getTime() > TOUCH_EVERY_MS) {
            s!.maxAge = s!.rememberMe ? REMEMBER_MS : REGULAR_MS; // forces a save: new expiry and last activity
            await knex('users').where({ id: user.id }).update({ last_active_at: knex.fn.now() });
          }
        }
      }
      await next();
    });

    const deps = { ctx, knex, api, throttle, signups, deleteUser };
    addAuthRoutes(deps);
    addUserRoutes(deps);
    addSettingsRoutes(deps);
    addSafetyRoutes(deps);
    addRecoveryRoutes(deps, { ...RECOVERY_LIMIT_DEFAULTS, ...(ctx.config.recoveryThrottle ?? {}) });
  },

  bootstrap(ctx: PluginContext) {
    // People in GET /api/search (served by the museums plugin when it is enabled).
    ctx.services.maybe(SearchRegistry)?.register(usersSearchProvider(ctx.db));

    // GET /api/user/{id}/badges: served here from the UserBadgesProvider extension point, unless an
    // enabled plugin (badges) registered the same route itself.
    try {
      ctx.routes.add(userBadgesRoute(ctx, () => ctx.services.maybe(UserBadgesProvider)));
    } catch (e) {
      if (!/registered twice|used twice/.test(String((e as Error).message))) throw e;
      ctx.log.debug('GET /api/user/:id/badges is served by another plugin');
    }
  },

  // Sample members (seeds/accounts/users.json) that nobody can sign in as: see seed.ts.
  async seed(ctx, progress) {
    await seedUsers(ctx, progress);
  },
});

export { hashPassword };
