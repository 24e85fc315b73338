import type { Context as KoaContext } from 'koa';
import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, UserBadgesProvider, UserData } from '../public.ts';
import { sessionMiddleware, existingSession, loadedSession, REGULAR_MS, REMEMBER_MS, TOUCH_EVERY_MS, type CachedSession } from './sessions.ts';
import { SessionCache, SESSION_CACHE_DEFAULTS, SESSIONS_SIGNAL } from './session-cache.ts';
import { createAccountsApi } from './service.ts';
import { hashPassword } from './passwords.ts';
import { createUserData } from './user-data.ts';
import { addDataRoutes } from './routes-data.ts';
import { LoginThrottle, SIGNUP_THROTTLE_DEFAULTS, SignupThrottle, THROTTLE_DEFAULTS } from './throttle.ts';
import { addAuthRoutes } from './routes-auth.ts';
import { addUserRoutes, userBadgesRoute } from './routes-users.ts';
import { addSettingsRoutes } from './routes-settings.ts';
import { addOnboardingRoutes } from './routes-onboarding.ts';
import { addSafetyRoutes } from './routes-safety.ts';
import { addRecoveryRoutes, RECOVERY_LIMIT_DEFAULTS } from './routes-recovery.ts';
import { usersSearchProvider } from './search.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { seedUsers } from './seed.ts';
import { registerProfileRedirects } from './slug-history.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    const { db: knex } = ctx;

    // A member's data: erasure, archive, retention (user-data.ts).
    const userData = createUserData(ctx);
    ctx.services.provide(UserData, userData.registry);
    /** Immediate deletion (admins; a member's own request goes through the grace period). */
    async function deleteUser(userId: number): Promise<boolean> {
      return (await userData.eraseNow(userId)) !== null;
    }

    // Sessions seen in the last few seconds (session-cache.ts): forgotten in every process when
    // they change (database triggers and sessionsChanged send the signal).
    const sessionCache = new SessionCache<CachedSession>({ ...SESSION_CACHE_DEFAULTS, ...(ctx.config.sessionCache ?? {}) }, () => ctx.live.signalsLive());
    ctx.live.onSignal(SESSIONS_SIGNAL, (data) => sessionCache.onSignal(data));
    const sessionsChanged = async (userIds: number[]) => {
      sessionCache.forgetUsers(userIds);
      await ctx.live.signal(SESSIONS_SIGNAL, userIds.length > 500 ? { all: true } : { users: userIds });
    };
    const api = createAccountsApi(knex, { deleteUser, sessionsChanged });
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

    ctx.middleware.use(sessionMiddleware(ctx.app, knex, () => api.guardsSql(), sessionCache));
    // Who is signed in: the session's user, unless deleted or refused by a guard (bans): such a
    // session ends at once. Activity slides the expiry (at most one write a minute per session).
    const currentUser = async (kctx: KoaContext, s: NonNullable<ReturnType<typeof existingSession>>, userId: number) => {
      // Usually read with the session itself (one statement); a session written in this very
      // request (none here) or for another user falls back to reading the user.
      const loaded = loadedSession(kctx as any);
      const row =
        loaded?.user && loaded.user.id === userId
          ? loaded.user
          : await knex('users').where({ id: userId }).first('id', 'username', 'role', 'slug');
      // the guards get the object that becomes ctx.state.user (they may note things about it for this request)
      const user = row ? { id: row.id, username: row.username, role: row.role, slug: row.slug } : null;
      // the guards' answers came with the session when every guard has an SQL form (no statement here)
      const sqls = loaded?.guards && row === loaded.user ? api.guardsSql() : null;
      const refusal = !user
        ? 'deleted'
        : sqls && sqls.length === loaded!.guards!.length
          ? (sqls.map((g, i) => g.read(loaded!.guards![i], user)).find((m) => m) ?? null)
          : await api.checkGuards(user);
      if (!user || refusal) {
        kctx.session = null;
      } else {
        kctx.state.user = user;
        if (loaded && Date.now() - loaded.lastActivity.getTime() > TOUCH_EVERY_MS) {
          s!.maxAge = s!.rememberMe ? REMEMBER_MS : REGULAR_MS; // forces a save: new expiry and last activity
          await knex('users').where({ id: user.id }).update({ last_active_at: knex.fn.now() });
        }
      }
    };
    ctx.middleware.use((kctx, next) => {
      const s = existingSession(kctx);
      const userId = s?.userId;
      // nobody signed in (every visitor's request): straight on
      if (!s || !userId) return next();
      return currentUser(kctx, s, userId).then(() => next());
    });

    // a renamed member's old profile links answer 301 to the current one (slug-history.ts)
    registerProfileRedirects(ctx);

    const deps = { ctx, knex, api, throttle, signups, deleteUser, userData, afterSignUp: [] };
    addAuthRoutes(deps);
    addUserRoutes(deps);
    addSettingsRoutes(deps);
    addOnboardingRoutes(deps);
    addSafetyRoutes(deps);
    addRecoveryRoutes(deps, { ...RECOVERY_LIMIT_DEFAULTS, ...(ctx.config.recoveryThrottle ?? {}) });
    addDataRoutes(deps);
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
