import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { GroupsService } from '../public.ts';
import { groupRoutes } from './routes.ts';
import { createGroupsApi, onUserDeleting } from './service.ts';
import { seedGroups } from './seed.ts';
import { stripNul } from './util.ts';

const OWN_PATHS = /^\/api\/(groups|group-posts|group-comments|user\/groups)(\/|$)/;

export default definePluginServer({
  register(ctx: PluginContext) {
    ctx.services.provide(GroupsService, createGroupsApi(ctx.db));
    // Text with NUL characters would reach PostgreSQL as an encoding error: drop them on the way in.
    ctx.middleware.use(async (k, next) => {
      if (OWN_PATHS.test(k.path)) {
        const req = k.request as any;
        if (req.body && typeof req.body === 'object') stripNul(req.body);
        if (k.querystring.includes('%00')) k.query = stripNul({ ...k.query });
      }
      await next();
    });
    groupRoutes(ctx);
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
  },
  seed: seedGroups,
});
