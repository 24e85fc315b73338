import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import '../../museums/public.ts';
import '../../badges/public.ts';
import '../../notifications/public.ts';
import { ModerationService } from '../public.ts';
import { AuditLog } from './audit.ts';
import { Deps } from './deps.ts';
import { createModerationApi, statusFrom, statusSql } from './moderation.ts';
import { registerUserRoutes } from './routes-users.ts';
import { registerMuseumRoutes } from './routes-museums.ts';
import { registerContentRoutes } from './routes-content.ts';
import { registerMoneyRoutes } from './routes-money.ts';
import { registerOverviewRoutes } from './routes-overview.ts';

/** A member's activity is written at most this often (per member and process). */
const ACTIVITY_EVERY_MS = 5 * 60 * 1000;

export default definePluginServer({
  register(ctx: PluginContext) {
    const knex = ctx.db;
    const moderation = createModerationApi(knex);
    ctx.services.provide(ModerationService, moderation);
    const audit = new AuditLog(knex, ctx.log);
    const d = new Deps(ctx, audit, moderation);

    // Bans: sign-in is refused with a message until the ban expires, and because accounts asks the
    // guards on every request of a signed-in member, a live session stops at its next request.
    // The guard reads the restriction in the same statement; the middleware below reuses it for the
    // same request (accounts hands the guards the object that becomes ctx.state.user).
    const restrictedOf = new WeakMap<object, boolean>();
    ctx.services.get(AccountsService).addLoginGuard(async (user) => {
      const st = await moderation.status(user.id);
      restrictedOf.set(user, st.restricted);
      return st.banMessage;
    }, (users) => moderation.banMessages(users.map((u) => u.id)), {
      // the same answer inside the session's own statement (accounts reads it with the session)
      select: (db, userId) => statusSql(db, userId),
      read(value, user) {
        const st = statusFrom(value);
        restrictedOf.set(user, st.restricted);
        return st.banMessage;
      },
    });

    const lastWrite = new Map<number, number>();
    const noteMember = async (user: { id: number; restricted?: boolean }) => {
      // core AuthUser.restricted: content restriction in effect (posting, commenting, uploads refused by their plugins).
      user.restricted = restrictedOf.get(user) ?? (await moderation.isRestricted(user.id));
      // Daily active users: our own activity signal (the accounts tables are not ours to read).
      const now = Date.now();
      if ((lastWrite.get(user.id) ?? 0) < now - ACTIVITY_EVERY_MS) {
        if (lastWrite.size > 100_000) lastWrite.clear();
        lastWrite.set(user.id, now);
        try {
          await knex.raw(
            'insert into admin_user_activity (user_id, last_seen_at) values (?, now()) on conflict (user_id) do update set last_seen_at = excluded.last_seen_at',
            [user.id],
          );
        } catch (err) {
          lastWrite.delete(user.id);
          ctx.log.warn({ err, userId: user.id }, 'could not record member activity');
        }
      }
    };
    ctx.middleware.use((k, next) => {
      const user = k.state.user as { id: number; restricted?: boolean } | undefined;
      // nobody signed in: straight on
      return user ? noteMember(user).then(() => next()) : next();
    });

    // A deleted member's moderations, activity and plan links go with them; the audit log keeps its entries.
    ctx.events.on('accounts.user.deleting', async ({ userId }) => {
      await knex.transaction(async (trx) => {
        await trx('admin_moderations').where({ user_id: userId }).del();
        await trx('admin_user_activity').where({ user_id: userId }).del();
        await trx('admin_monetization_plans').where({ user_id: userId }).update({ user_id: null, updated_at: trx.fn.now() });
      });
      lastWrite.delete(userId);
    });

    registerOverviewRoutes(d);
    registerUserRoutes(d);
    registerMuseumRoutes(d);
    registerContentRoutes(d);
    registerMoneyRoutes(d);
  },
});
