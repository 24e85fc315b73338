import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { CommunitiesService } from '../public.ts';
import { makeDeps } from './deps.ts';
import { communityRoutes } from './routes-communities.ts';
import { postRoutes } from './routes-posts.ts';
import { memberRoutes } from './routes-members.ts';
import { createCommunitiesApi, onUserDeleting } from './service.ts';
import { seedCommunities } from './seed.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    ctx.services.provide(CommunitiesService, createCommunitiesApi(ctx.db));
    const d = makeDeps(ctx);
    communityRoutes(d);
    postRoutes(d);
    memberRoutes(d);
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
  },
  seed: seedCommunities,
});
