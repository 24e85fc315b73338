import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { ROOT } from '../../../core/config.ts';
import { AccountsService, UserBadgesProvider } from '../../accounts/public.ts';
import { NotificationsService } from '../../notifications/public.ts';
import '../../museums/public.ts';
import '../../insights/public.ts';
import '../../communities/public.ts';
import '../../events/public.ts';
import { BadgesService, type EarnedBadge } from '../public.ts';
import { createBadgesService, normalizeInput, RETRO_JOB } from './service.ts';
import { registerBadgesExport } from './export.ts';
import { englishTexts } from '../../../core/texts.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The English text of a locale key with {{param}} interpolation (notifications are stored in English and localized by the web app). */
export const english = englishTexts(path.join(HERE, '..', 'locales'), 'badges');

export default definePluginServer({
  register(ctx: PluginContext) {
    registerBadgesExport(ctx); // the member's data archive (issue 24)
    const { db: knex } = ctx;
    const svc = createBadgesService({
      knex,
      log: ctx.log,
      accounts: () => ctx.services.maybe(AccountsService),
      enqueue: (name, payload, opts) => ctx.jobs.enqueue(name, payload, opts),
      retroBatchSize: Number(ctx.config.retroBatchSize ?? 500),
      async onEarned(awards) {
        // A member's own award (a post, a check-in): the answer carries the badge; its notification
        // and event follow after the answer (issue 18). Retroactive awards run in their job.
        if (awards.every((a) => !a.retroactive)) {
          ctx.events.after(() => tell(awards));
          return;
        }
        await tell(awards);
      },
    });
    async function tell(awards: Array<{ userId: number; userBadgeId: number; badge: EarnedBadge; retroactive: boolean }>) {
      {
        // (block kept so that the body's indentation and history stay as they were)
        // One notification call per badge (retroactive awards come in batches of members).
        const byBadge = new Map<number, { badge: EarnedBadge; userIds: number[] }>();
        for (const a of awards) {
          const g = byBadge.get(a.badge.id) ?? { badge: a.badge, userIds: [] };
          g.userIds.push(a.userId);
          byBadge.set(a.badge.id, g);
        }
        const notifications = ctx.services.maybe(NotificationsService);
        if (notifications && ctx.enabled.has('notifications')) {
          for (const { badge, userIds } of byBadge.values()) {
            const params = { name: badge.name, icon: badge.icon, description: badge.description, color: badge.color, badgeId: badge.id };
            try {
              await notifications.notify(userIds, {
                type: 'badge',
                title: english('notification.title', params),
                message: english('notification.message', params),
                priority: 'normal',
                link: '/profile?tab=badges',
                template: 'badges:notification',
                params,
                dedupeKey: `badge:${badge.id}`,
              });
            } catch (err) {
              ctx.log.error({ err, badgeId: badge.id }, 'badge notification failed');
            }
          }
        }
        for (const a of awards) {
          await ctx.events.emit('badges.badge.earned', {
            userId: a.userId,
            badgeId: a.badge.id,
            userBadgeId: a.userBadgeId,
            name: a.badge.name,
            icon: a.badge.icon,
            retroactive: a.retroactive,
          });
        }
      }
    }
    ctx.services.provide(BadgesService, svc.api);

    ctx.jobs.define(RETRO_JOB, async (payload, h) => {
      const r = await svc.awardRetroactive(Number(payload.badgeId), h.progress);
      h.log.info({ badgeId: payload.badgeId, ...r }, 'retroactive badge awarding done');
      return r;
    });

    // ---- activity from the other plugins (only through the event bus) ----
    // Only verified check-ins count (issue 20): an unverified one is a visit, not an achievement.
    ctx.events.on('museums.museum.checkedIn', (p) => (p.verified === true ? svc.record(p.userId, 'check_ins', String(p.checkInId)) : undefined));
    // Museum facts a member's answer helped keep right (issue 20): once per answer, after the answer.
    ctx.events.on('museums.facts.helped', (p) => svc.record(p.userId, 'fact_confirmations', String(p.answerId)));
    ctx.events.on('museums.museum.followed', async (p) => {
      const ref = `${p.userId}:${p.museumId}`;
      if (p.following) return svc.record(p.userId, 'follows', ref);
      await svc.undo('follows', { ref });
      return undefined;
    });
    ctx.events.on('insights.post.created', (p) => svc.record(p.userId, 'posts', String(p.postId)));
    ctx.events.on('insights.post.deleted', async (p) => {
      await svc.undo('posts', { ref: String(p.postId) });
      await svc.undo('likes', { scope: p.postId });
    });
    // Likes RECEIVED by the post's author; a self-like does not count. The liker's answer gets
    // nothing back (the badge is the author's).
    ctx.events.on('insights.post.liked', async (p) => {
      if (p.userId === p.authorId) return;
      const ref = `${p.postId}:${p.userId}`;
      if (p.liked) await svc.record(p.authorId, 'likes', ref, p.postId);
      else await svc.undo('likes', { ref });
      // sixteen lanes by the author: a like and its unlike (same author) stay in order; four fell
      // behind under the mix (each lane waits its turn for a pooled connection behind the requests)
    }, { lane: (p) => String(p.authorId % 16) });
    ctx.events.on('communities.member.joined', (p) => svc.record(p.userId, 'community_joins', `${p.communityId}:${p.userId}`, p.communityId));
    ctx.events.on('communities.member.left', async (p) => {
      await svc.undo('community_joins', { ref: `${p.communityId}:${p.userId}` });
    });
    ctx.events.on('communities.community.deleting', async (p) => {
      await svc.undo('community_joins', { scope: p.communityId });
    });
    // Meetups attended, confirmed by a verified check-in at the museum during the meetup (issue 20).
    ctx.events.on('events.attendance.confirmed', (p) => svc.record(p.userId, 'meetups_attended', `${p.eventId}:${p.userId}`, p.eventId));
    ctx.events.on('events.attendance.withdrawn', async (p) => {
      await svc.undo('meetups_attended', { ref: `${p.eventId}:${p.userId}` });
    });
    ctx.events.on('events.meetup.deleted', async (p) => {
      await svc.undo('meetups_attended', { scope: p.eventId });
    });

    // ---- routes ----
    ctx.routes.add({
      method: 'GET',
      path: '/api/badges',
      operationId: 'listBadges',
      summary: 'Every badge and what earns it',
      auth: 'none',
      schema: { response: { type: 'array', items: { $ref: 'badges/Badge' } } },
      handler: () => svc.api.listBadges(),
    });

    ctx.routes.add({
      method: 'GET',
      path: '/api/badges/progress',
      operationId: 'getBadgeProgress',
      summary: "The signed-in member's counts and progress towards every badge",
      auth: 'required',
      schema: { response: { $ref: 'badges/BadgeProgress' } },
      async handler(c) {
        const userId = c.user!.id;
        const [counts, badges, mine] = await Promise.all([svc.api.counts(userId), svc.api.listBadges(), svc.api.userBadges(userId)]);
        const earned = new Map(mine.map((ub) => [ub.badgeId, ub.earnedAt]));
        return {
          counts,
          badges: badges.map((b) => ({ badge: b, current: counts[b.requirement.type] ?? 0, earnedAt: earned.get(b.id) ?? null })),
        };
      },
    });

    // GET /api/user/{id}/badges belongs to accounts (privacy rules included); it asks us.
    ctx.services.provide(UserBadgesProvider, { listUserBadges: (userId) => svc.api.userBadges(userId) });
  },

  async seed(ctx, progress) {
    const file = path.join(ROOT, 'seeds', 'badges', 'badges.json');
    const list = JSON.parse(fs.readFileSync(file, 'utf8')) as any[];
    progress.start(list.length, 'badges');
    for (const item of list) {
      const v = normalizeInput(item);
      const [row] = (
        await ctx.db.raw(
          `insert into badges (name, description, icon, color, requirement_type, requirement_count)
           values (?, ?, ?, ?, ?, ?) on conflict (name) do nothing returning id`,
          [v.name, v.description, v.icon, v.color, v.requirement.type, v.requirement.count],
        )
      ).rows;
      if (row) await ctx.jobs.enqueue(RETRO_JOB, { badgeId: Number(row.id) }, { uniqueKey: `${RETRO_JOB}:${row.id}` });
      progress.tick();
    }
  },
});
