import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { EventsService } from '../public.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { makeDeps } from './deps.ts';
import { EventsStore } from './service.ts';
import { registerMeetupRoutes } from './routes-meetups.ts';
import { registerMuseumEventRoutes } from './routes-museum-events.ts';
import { registerCommonRoutes } from './routes-common.ts';
import { registerCalendarRoutes } from './routes-calendar.ts';
import type { EventRow } from './model.ts';
import { seedEvents } from './seed.ts';

let store: EventsStore | null = null;

export default definePluginServer({
  register(ctx: PluginContext) {
    store = new EventsStore(ctx, ctx.db, makeDeps(ctx));
    const s = store;
    ctx.services.provide(EventsService, s.api());
    registerMeetupRoutes(s);
    registerMuseumEventRoutes(s);
    registerCommonRoutes(s);
    registerCalendarRoutes(s);

    // A deleted community takes its meetups along (attendees of coming ones are told).
    ctx.events.on('communities.community.deleting', async ({ communityId }) => {
      const rows = (await ctx.db('events_events').where({ community_id: communityId })) as EventRow[];
      await s.deleteEvents(rows, { reason: 'its community was deleted' });
    });

    // A leaving member gives up their places at the community's (or group's) members-only meetups
    // still to come, unless they organise them.
    const releaseMembersOnly = async (userId: number, where: Record<string, number>) => {
      const ids = (await ctx.db('events_events')
        .where({ kind: 'meetup', who_can_join: 'members_only', ...where })
        .whereNot('organizer_id', userId)
        .where('date_time', '>', ctx.db.fn.now())
        .pluck('id')) as number[];
      if (ids.length) await s.releaseUser(userId, ids);
    };
    ctx.events.on('communities.member.left', ({ communityId, userId }) => releaseMembersOnly(userId, { community_id: communityId }));
    ctx.events.on('groups.member.left', ({ groupId, userId }) => releaseMembersOnly(userId, { group_id: groupId }));

    // Account deletion: seats released exactly (waitlists promoted), their meetups cancelled,
    // their photos (files too), comments and calendar address removed.
    ctx.events.on('accounts.user.deleting', async ({ userId }) => {
      await s.releaseUser(userId);
      const organized = (await ctx.db('events_events').where({ kind: 'meetup', organizer_id: userId })) as EventRow[];
      await s.deleteEvents(organized, { actorId: userId, reason: 'its organizer left Curio' });
      const photos = await ctx.db('events_photos').where({ user_id: userId }).select('storage_key', 'thumbnail_url');
      await ctx.db('events_photos').where({ user_id: userId }).del();
      await s.deleteFiles(photos);
      await ctx.db('events_comments').where({ user_id: userId }).del();
      await ctx.db('events_calendar_tokens').where({ user_id: userId }).del();
      await ctx.db('events_events').where({ created_by: userId }).update({ created_by: null });
    });
  },

  bootstrap(ctx: PluginContext) {
    // Events in the all-in-one search (GET /api/search): upcoming ones, meetups for members only.
    const s = store!;
    ctx.services.maybe(SearchRegistry)?.register({
      kind: 'events',
      async search(q, { limit, viewer }) {
        const user = viewer ? { id: viewer.id, role: viewer.role, username: '' } : undefined;
        const v = s.viewer(user);
        return s.many(await s.list(user ? null : 'museum_event', v, { q, limit }), v);
      },
    });
  },

  async seed(ctx, progress) {
    await seedEvents(ctx, store!, progress);
  },
});
