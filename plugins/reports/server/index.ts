import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService } from '../../accounts/public.ts';
import { NotificationsService } from '../../notifications/public.ts';
import '../../insights/public.ts';
import '../../events/public.ts';
import { ReportTargets, type ReportTargetsApi } from '../public.ts';
import { Describers, createReportStore } from './store.ts';
import { registerMemberRoutes } from './routes-member.ts';
import { registerAdminRoutes } from './routes-admin.ts';
import { registerReportsExport } from './export.ts';

export default definePluginServer({
  register(ctx: PluginContext) {
    registerReportsExport(ctx); // the member's data archive (issue 24)
    const knex = ctx.db;
    const describers = new Describers();
    const notifications = () => (ctx.enabled.has('notifications') ? ctx.services.maybe(NotificationsService) : undefined);
    const store = createReportStore(knex, ctx.log, notifications);

    const api: ReportTargetsApi = {
      register: (type, d) => describers.register(type, d),
      contentRemoved: (type, id) => store.contentRemoved(type, id),
    };
    ctx.services.provide(ReportTargets, api);

    // Members are described by accounts' public service (their profile as the reporter may see it).
    describers.register('user', {
      async describe(id, viewer) {
        const accounts = ctx.services.get(AccountsService);
        const u = await accounts.getUserSummary(id);
        if (!u) return null;
        const bio = (await accounts.getUserBios([id], viewer)).get(id) ?? null;
        const name = `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim();
        return { ownerId: u.id, title: name ? `${name} (@${u.username})` : `@${u.username}`, text: bio, link: `/profile/${encodeURIComponent(u.slug || u.username)}`, mediaUrl: u.profileImageUrl };
      },
    });

    // Content that goes away takes its open reports with it.
    const gone = (type: Parameters<typeof store.contentRemoved>[0], id: number) =>
      store.contentRemoved(type, id).catch((err) => ctx.log.error({ err, type, id }, 'could not resolve the reports of removed content'));
    ctx.events.on('insights.post.deleted', ({ postId }) => gone('insight', postId));
    ctx.events.on('insights.comment.deleted', ({ commentId }) => gone('comment', commentId));
    ctx.events.on('events.meetup.deleted', ({ eventId }) => gone('meetup', eventId));
    ctx.events.on('accounts.user.deleted', async ({ userId }) => {
      await gone('user', userId);
      // the account's own content went with it (every plugin deletes a deleted member's content)
      await store.ownerRemoved(userId).catch((err) => ctx.log.error({ err, userId }, 'could not resolve the reports of a deleted account’s content'));
    });

    registerMemberRoutes(ctx, store, describers);
    registerAdminRoutes(ctx, store, describers);
  },
});
