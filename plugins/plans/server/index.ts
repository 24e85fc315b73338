import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import { MuseumsService } from '../../museums/public.ts';
import { EventsService } from '../../events/public.ts';
import { createPlansStore } from './service.ts';
import { registerRoutes } from './routes.ts';
import { registerPlansExport } from './export.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    registerPlansExport(ctx);
    const store = createPlansStore({
      knex: ctx.db,
      accounts: ctx.services.get(AccountsService),
      museums: ctx.services.get(MuseumsService),
      events: () => (ctx.enabled.has('events') ? ctx.services.maybe(EventsService) : undefined),
      maxPlans: Number(ctx.config.maxPlans ?? 20),
      maxStops: Number(ctx.config.maxStops ?? 12),
      minVisitMinutes: Number(ctx.config.minVisitMinutes ?? 30),
    });
    registerRoutes(ctx, store);
  },
});
