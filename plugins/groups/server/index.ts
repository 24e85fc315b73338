import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { GroupsService } from '../public.ts';
import { groupRoutes } from './routes.ts';
import { createGroupsApi, onUserDeleting } from './service.ts';
import { seedGroups } from './seed.ts';
import { stripNulFrom } from '../../../core/util.ts';

const OWN_PATHS = /^\/api\/(groups|group-posts|group-comments|user\/groups)(\/|$)/;

export default definePluginServer({
  register(ctx: PluginContext) {
    ctx.services.provide(GroupsService, createGroupsApi(ctx.db));
    // Text with NUL characters would reach PostgreSQL as an encoding error: drop them on the way in.
    ctx.middleware.use(stripNulFrom(OWN_PATHS));
    groupRoutes(ctx);
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
  },
  seed: seedGroups,
});
