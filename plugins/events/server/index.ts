import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { EventsService } from '../public.ts';
import { SearchRegistry } from '../../museums/public.ts';
import { ReportTargets } from '../../reports/public.ts';
import { HttpError } from '../../../core/errors.ts';
import { makeDeps } from './deps.ts';
import { EventsStore } from './service.ts';
import { registerMeetupRoutes } from './routes-meetups.ts';
import { registerHoursCheckRoute } from './hours.ts';
import { registerCoverRoutes } from './routes-covers.ts';
import { registerMuseumEventRoutes } from './routes-museum-events.ts';
import { registerCommonRoutes } from './routes-common.ts';
import { registerCalendarRoutes } from './routes-calendar.ts';
import { registerReminders } from './reminders.ts';
import { DEFAULT_EARLY_MINUTES, registerAttendance } from './attendance.ts';
import type { EventRow } from './model.ts';
import { seedEvents, seedMeetups } from './seed.ts';
import { registerEventsExport } from './export.ts';

/** One store per app (tests run several apps in one process): keyed by the plugin's context. */
const stores = new WeakMap<PluginContext, EventsStore>();
const storeOf = (ctx: PluginContext): EventsStore => {
  const s = stores.get(ctx);
  if (!s) throw new Error('events: register() has not run for this app');
  return s;
};

export default definePluginServer({
  register(ctx: PluginContext) {
    registerEventsExport(ctx); // the member's data archive (issue 24)
    const s = new EventsStore(ctx, ctx.db, makeDeps(ctx));
    stores.set(ctx, s);
    ctx.services.provide(EventsService, s.api());
    registerMeetupRoutes(s);
    registerHoursCheckRoute(s);
    registerMuseumEventRoutes(s);
    registerCommonRoutes(s);
    registerCalendarRoutes(s);
    registerCoverRoutes(s);
    // Event and meetup photos with their thumbnails: the storage sweep keeps these.
    ctx.uploads.ownFiles({
      prefixes: ['events'],
      referenced: async (keys) => {
        const urls = keys.map((k) => ctx.storage.url(k));
        const used = [
          ...((await ctx.db('events_photos').whereIn('storage_key', keys).pluck('storage_key')) as string[]),
          ...((await ctx.db('events_photos').whereIn('thumbnail_url', urls).pluck('thumbnail_url')) as string[]).map((u) => ctx.storage.keyFromUrl(u)),
          ...((await ctx.db('events_events').whereIn('image_url', urls).pluck('image_url')) as string[]).map((u) => ctx.storage.keyFromUrl(u)),
        ];
        return used.filter((k): k is string => Boolean(k));
      },
    });
    registerReminders(s);
    registerAttendance(s, Number(ctx.config.attendanceEarlyMinutes ?? DEFAULT_EARLY_MINUTES));

    // A deleted community takes its meetups along (attendees of coming ones are told).
    ctx.events.on('communities.community.deleting', async ({ communityId }) => {
      const rows = (await ctx.db('events_events').where({ community_id: communityId })) as EventRow[];
      await s.deleteEvents(rows, { reason: 'its community was deleted' });
    });

    // A leaving member gives up their places at the community's (or group's) members-only meetups
    // still to come, unless they organise them; at every meetup still to come when the community
    // (or group) is private, since its meetups are hidden from non-members.
    const releaseMembersOnly = async (userId: number, where: Record<string, number>, isPrivate: boolean) => {
      const ids = (await ctx.db('events_events')
        .where({ kind: 'meetup', ...where })
        .modify((q) => {
          if (!isPrivate) q.where('who_can_join', 'members_only');
        })
        .whereNot('organizer_id', userId)
        .where('date_time', '>', ctx.db.fn.now())
        .pluck('id')) as number[];
      if (ids.length) await s.releaseUser(userId, ids);
    };
    ctx.events.on('communities.member.left', async ({ communityId, userId }) => {
      const community = (await s.deps.communities().summaries([communityId])).get(communityId);
      await releaseMembersOnly(userId, { community_id: communityId }, community?.isPrivate ?? true);
    });
    // A community turning private: people who are not its members give up their places at its
    // meetups still to come (they can no longer see them); the organizers keep theirs.
    ctx.events.on('communities.community.madePrivate', async ({ communityId }) => {
      const held = (await ctx.db('events_attendees as a')
        .join('events_events as e', 'e.id', 'a.event_id')
        .where({ 'e.kind': 'meetup', 'e.community_id': communityId })
        .where('e.date_time', '>', ctx.db.fn.now())
        .whereRaw('a.user_id is distinct from e.organizer_id')
        .select('a.user_id', 'a.event_id')) as Array<{ user_id: number; event_id: number }>;
      const members = new Set<number>();
      for (const uid of new Set(held.map((h) => h.user_id))) if ((await s.deps.communities().roleOf(communityId, uid)) !== null) members.add(uid);
      const byUser = new Map<number, number[]>();
      for (const h of held) if (!members.has(h.user_id)) byUser.set(h.user_id, [...(byUser.get(h.user_id) ?? []), h.event_id]);
      for (const [uid, ids] of byUser) await s.releaseUser(uid, ids);
    });
    ctx.events.on('groups.member.left', async ({ groupId, userId }) => {
      const group = (await s.deps.groups()?.summaries([groupId]))?.get(groupId);
      await releaseMembersOnly(userId, { group_id: groupId }, group?.isPrivate ?? true);
    });

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
      await ctx.db('events_attendance').where({ user_id: userId }).del();
      await ctx.db('events_events').where({ created_by: userId }).update({ created_by: null });
    });
  },

  bootstrap(ctx: PluginContext) {
    // Events in the all-in-one search (GET /api/search): upcoming ones; meetups of private communities and groups for their members only.
    const s = storeOf(ctx);
    // Meetups can be reported (reports plugin): described as the reporter may see them, removed as an Admin deletes them.
    const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
    const notFound = (e: unknown) => (e instanceof HttpError && e.status === 404 ? null : Promise.reject(e));
    reports?.register('meetup', {
      async describe(id, viewer) {
        const row = await s.loadFor(id, 'meetup', { id: viewer.id, role: viewer.role, username: '' }).catch(notFound);
        if (!row) return null;
        return { ownerId: row.organizer_id, title: row.title, text: row.description, link: `/meetups/${row.id}`, mediaUrl: row.image_url };
      },
      async remove(id) {
        const row = await s.load(id, 'meetup').catch(notFound);
        if (!row) return false;
        await s.deleteEvents([row], { reason: 'it was removed by the moderators' });
        return true;
      },
    });
    ctx.services.maybe(SearchRegistry)?.register({
      kind: 'events',
      itemSchema: 'events/EventSearchItem',
      // short summaries in one statement (issue 18); the full answers are GET /api/search/events
      statement(q, { limit, viewer }) {
        const user = viewer ? { id: viewer.id, role: viewer.role, username: '' } : undefined;
        return s.searchSummariesStatement(q, limit, s.viewer(user));
      },
    });
  },

  async seed(ctx, progress) {
    await seedEvents(ctx, storeOf(ctx), progress);
    await seedMeetups(ctx, storeOf(ctx), progress);
  },
});
