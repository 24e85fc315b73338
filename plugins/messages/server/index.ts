import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import { NotificationsService } from '../../notifications/public.ts';
import { createMessagesStore } from './service.ts';
import { registerRoutes } from './routes.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    const store = createMessagesStore({
      knex: ctx.db,
      log: ctx.log,
      accounts: ctx.services.get(AccountsService),
      notifications: () => ctx.services.maybe(NotificationsService),
      live: ctx.live,
      storage: ctx.storage,
      maxGroupSize: Number(ctx.config.maxGroupSize ?? 10),
    });
    registerRoutes(ctx, store);
    ctx.events.on('accounts.user.deleting', (p) => store.forgetUser(p.userId));
  },
});
