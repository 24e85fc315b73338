import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { GroupsService } from '../public.ts';
import { groupRoutes } from './routes.ts';
import { createGroupsApi, onUserDeleting } from './service.ts';
import { seedGroups } from './seed.ts';
import { stripNulFrom } from '../../../core/util.ts';
import { registerGroupsExport } from './export.ts';

const OWN_PATHS = /^\/api\/(groups|group-posts|group-comments|user\/groups)(\/|$)/;

export default definePluginServer({
  register(ctx: PluginContext) {
    registerGroupsExport(ctx); // the member's data archive (issue 24)
    ctx.services.provide(GroupsService, createGroupsApi(ctx.db));
    // Text with NUL characters would reach PostgreSQL as an encoding error: drop them on the way in.
    ctx.middleware.use(stripNulFrom(OWN_PATHS));
    groupRoutes(ctx);
    // Cover images (POST /api/groups/:id/image): the storage sweep keeps those a group shows.
    ctx.uploads.ownFiles({
      prefixes: ['groups'],
      referenced: async (keys) => {
        const urls = keys.map((k) => ctx.storage.url(k));
        const used = (await ctx.db('groups').whereIn('image_url', urls).pluck('image_url')) as string[];
        return used.map((u) => ctx.storage.keyFromUrl(u)).filter((k): k is string => Boolean(k));
      },
    });
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
  },
  seed: seedGroups,
});
