import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import { NotificationsService } from '../../notifications/public.ts';
import { ReportTargets } from '../../reports/public.ts';
import { createMessagesStore, type MessagesStore } from './service.ts';
import { registerRoutes } from './routes.ts';
import { registerMessagesExport } from './export.ts';

/** Each app's store (one per plugin context: tests run several apps in one process). */
const stores = new WeakMap<PluginContext, MessagesStore>();

export default definePluginServer({
  register(ctx: PluginContext) {
    registerMessagesExport(ctx); // the member's data archive (issue 24)
    const store = createMessagesStore({
      knex: ctx.db,
      log: ctx.log,
      accounts: ctx.services.get(AccountsService),
      notifications: () => ctx.services.maybe(NotificationsService),
      reportsGone: async (ids) => {
        const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
        if (ids.length) await reports?.contentRemoved('message', ids).catch((err) => ctx.log.error({ err }, 'messages: could not resolve the reports of removed messages'));
      },
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
    stores.set(ctx, store);
  },
  bootstrap(ctx: PluginContext) {
    // A reported message (reports plugin): the queue keeps a snapshot of it as the reporter saw it,
    // and "remove content" empties it for everyone ("Message deleted").
    const store = stores.get(ctx)!;
    const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
    reports?.register('message', {
      describe: (id, viewer) => store.describeForReport(id, viewer),
      remove: (id) => store.removeForReport(id),
    });
  },
});
