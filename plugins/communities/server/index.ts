import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { CommunitiesService } from '../public.ts';
import { makeDeps } from './deps.ts';
import { communityRoutes, searchCommunities } from './routes-communities.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { postRoutes } from './routes-posts.ts';
import { memberRoutes } from './routes-members.ts';
import { createCommunitiesApi, onUserDeleting } from './service.ts';
import { seedCommunities } from './seed.ts';
import { stripNulFrom } from '../../../core/util.ts';

const OWN_PATHS = /^\/api\/(communities|community-posts|community-comments|search\/communities)(\/|$)/;

export default definePluginServer({
  register(ctx: PluginContext) {
    ctx.services.provide(CommunitiesService, createCommunitiesApi(ctx.db));
    // Text with NUL characters would reach PostgreSQL as an encoding error: drop them on the way in.
    ctx.middleware.use(stripNulFrom(OWN_PATHS));
    const d = makeDeps(ctx);
    communityRoutes(d);
    postRoutes(d);
    memberRoutes(d);
    ctx.events.on('accounts.user.deleting', ({ userId }) => onUserDeleting(ctx, userId));
    // Community photos (and any stored video a post points at): the storage sweep keeps these.
    ctx.uploads.ownFiles({
      prefixes: ['communities'],
      referenced: async (keys) => {
        const urls = keys.map((k) => ctx.storage.url(k));
        const used = [
          ...((await ctx.db('communities').whereIn('image_url', urls).pluck('image_url')) as string[]),
          ...((await ctx.db('community_posts').whereIn('video_url', urls).pluck('video_url')) as string[]),
        ];
        return used.map((u) => ctx.storage.keyFromUrl(u)!).filter(Boolean);
      },
    });
  },
  bootstrap(ctx: PluginContext) {
    // Communities in the Discover search (GET /api/search), when the museums plugin is enabled.
    const d = makeDeps(ctx);
    ctx.services.maybe(SearchRegistry)?.register({ kind: 'communities', search: (q, o) => searchCommunities(d, q, o.limit, o.viewer?.id) });
  },
  seed: seedCommunities,
});
