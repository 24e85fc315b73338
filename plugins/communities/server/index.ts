import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { CommunitiesService } from '../public.ts';
import { makeDeps } from './deps.ts';
import { communityRoutes, searchCommunitiesStatement } from './routes-communities.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { loadPost, postRoutes } from './routes-posts.ts';
import { loadAccess, assertRead, RANK } from './access.ts';
import { ReportTargets } from '../../reports/public.ts';
import { HttpError } from '../../../core/errors.ts';
import { memberRoutes } from './routes-members.ts';
import { createCommunitiesApi, onUserDeleting } from './service.ts';
import { seedCommunities } from './seed.ts';
import { stripNulFrom } from '../../../core/util.ts';
import { registerCommunitiesExport } from './export.ts';

const OWN_PATHS = /^\/api\/(communities|community-posts|community-comments|search\/communities)(\/|$)/;

export default definePluginServer({
  register(ctx: PluginContext) {
    registerCommunitiesExport(ctx); // the member's data archive (issue 24)
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
    ctx.services.maybe(SearchRegistry)?.register({
      kind: 'communities',
      itemSchema: 'communities/CommunityCard',
      statement: (q, o) => searchCommunitiesStatement(d, q, o.limit, o.viewer?.id),
    });

    // Posts and comments can also be reported to the platform (reports plugin), described as the
    // reporter may read them. Removal stays with the community's moderators (their own queue).
    const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
    const notFound = (e: unknown) => (e instanceof HttpError && (e.status === 404 || e.status === 403) ? null : Promise.reject(e));
    const readablePost = async (id: number, viewer: { id: number; role: string }) => {
      const post = await loadPost(ctx.db, id).catch(notFound);
      if (!post) return null;
      const a = await loadAccess(ctx.db, post.community_id, { ...viewer, username: '' });
      try {
        assertRead(a);
      } catch (e) {
        return notFound(e);
      }
      if (post.status !== 'published' && post.user_id !== viewer.id && a.rank < RANK.moderator) return null;
      return post;
    };
    reports?.register('community_post', {
      async describe(id, viewer) {
        const p = await readablePost(id, viewer);
        if (!p) return null;
        return { ownerId: p.user_id, title: p.title ?? p.event_title, text: p.content, link: `/communities/${p.community_id}`, mediaUrl: p.video_url };
      },
    });
    reports?.register('community_comment', {
      async describe(id, viewer) {
        const c = await ctx.db('community_comments').where({ id }).first('id', 'post_id', 'user_id', 'content');
        if (!c || c.user_id == null) return null; // a deleted member's emptied comment: nothing to report
        const p = await readablePost(c.post_id, viewer);
        if (!p) return null;
        return { ownerId: c.user_id, text: c.content, link: `/communities/${p.community_id}`, container: { type: 'community_post', id: p.id } };
      },
    });
  },
  seed: seedCommunities,
});
