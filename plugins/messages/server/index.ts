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
    // the hourly storage sweep (core/jobs.ts) deletes files under messages/ that no image row names
    ctx.uploads.ownFiles({
      prefixes: ['messages'],
      referenced: async (keys) => {
        const urls = keys.map((k) => ctx.storage.url(k));
        const used = [
          ...((await ctx.db('messages_images').whereIn('storage_key', keys).pluck('storage_key')) as string[]),
          ...((await ctx.db('messages_images').whereIn('thumbnail_url', urls).pluck('thumbnail_url')) as string[]).map((u) => ctx.storage.keyFromUrl(u)),
        ];
        return used.filter((k): k is string => Boolean(k));
      },
    });
    ctx.events.on('accounts.user.deleting', (p) => store.forgetUser(p.userId));
  },
});
