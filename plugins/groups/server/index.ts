import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { GroupsService } from '../public.ts';
import { groupRoutes } from './routes.ts';
import { createGroupsApi, onUserDeleting } from './service.ts';
import { seedGroups } from './seed.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    ctx.services.provide(GroupsService, createGroupsApi(ctx.db));
    groupRoutes(ctx);
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
  },
  seed: seedGroups,
});
