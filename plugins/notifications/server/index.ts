import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { every } from '../../../core/jobs.ts';
import { AccountsService, type UserSummary } from '../../accounts/public.ts';
import '../../insights/public.ts';
import { DigestSections, NotificationsService, excerptOf, type NewNotification } from '../public.ts';
import { registerNotificationEmails } from './emails.ts';
import { pushSubscribedSql, registerPush } from './push.ts';
import { createNotificationsService, FANOUT_JOB } from './service.ts';
import { registerNotificationsExport } from './export.ts';
import { englishTexts } from '../../../core/texts.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** English text of a locale key with {{param}} interpolation (stored text; the web app localizes by template). */
export const english = englishTexts(path.join(HERE, '..', 'locales'), 'notifications');

/** A notification from one of this plugin's own templates (templates.<key>.title / .message). */
function fromTemplate(key: string, params: Record<string, string | number>, rest: Omit<NewNotification, 'title' | 'message' | 'template' | 'params'>): NewNotification {
  return { ...rest, title: english(`templates.${key}.title`, params), message: english(`templates.${key}.message`, params), template: `notifications:templates.${key}`, params };
}

const displayName = (u: UserSummary | null | undefined) => (u ? `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username : 'Someone');

const NOT_FOUND = 'Notification not found';
/** lanes the likes' notifications run in, by the author told (core/events.ts) */
const LIKE_LANES = 16;
/** Read notifications are kept this long by default (PRIVACY.md; config retention.readNotificationsDays); unread ones until read. */
export const READ_NOTIFICATIONS_KEPT_DAYS = 180;

export default definePluginServer({
  register(ctx: PluginContext) {
    registerNotificationsExport(ctx); // the member's data archive (issue 24)
    const { db: knex } = ctx;
    const accounts = () => ctx.services.maybe(AccountsService);
    const svc = createNotificationsService({
      knex,
      log: ctx.log,
      accounts,
      enqueue: (name, payload, opts) => ctx.jobs.enqueue(name, payload, opts),
      batchSize: Number(ctx.config.batchSize ?? 1000),
      syncLimit: Number(ctx.config.syncLimit ?? 1000),
      live: ctx.live,
      pushSubscribed: (col) => pushSubscribedSql(knex, col),
    });
    // every stored notification is also pushed to the member's devices (push.ts)
    const push = registerPush(ctx);
    const api = {
      ...svc.api,
      async notify(userIds: number[], n: NewNotification) {
        const d = await svc.deliver(userIds, n);
        // d.push: those it was stored for who have a push subscription (read with the insert)
        if (d.push.length) await push.afterNotify(d.push, n).catch((err) => ctx.log.warn({ err }, 'could not queue push notifications'));
        return d.stored.length;
      },
    };
    ctx.services.provide(NotificationsService, api);

    // notification emails (batched) and the weekly digest
    ctx.services.provide(DigestSections, registerNotificationEmails(ctx));

    ctx.jobs.define(FANOUT_JOB, async (payload, h) => svc.runFanout(Number(payload.sendId), h.progress));

    const notify = async (userIds: number[], n: NewNotification) => {
      try {
        await api.notify(userIds, n);
      } catch (err) {
        ctx.log.error({ err, type: n.type }, 'notification failed');
      }
    };
    const profileLink = (u: UserSummary | null) => (u ? `/profile/${encodeURIComponent(u.slug || u.username)}` : null);

    // ---- what happened to members, as they chose to hear it (preferences checked in notify) ----
    // Retention (issue 24, PRIVACY.md): read notifications older than 180 days go.
    // (days: config notifications.retention.readNotificationsDays)
    const keptDays = Number(ctx.config.retention?.readNotificationsDays ?? READ_NOTIFICATIONS_KEPT_DAYS);
    ctx.jobs.repeat('notifications.retention', every(3600_000), async (_p, h) => {
      const before = new Date(h.now.getTime() - keptDays * 86400_000);
      const gone = await ctx.db('notifications').where('read', true).whereRaw('coalesce(read_at, created_at) < ?', [before]).del().returning('id');
      return { deleted: gone.length };
    });

    // Account deletion (issue 24): what the member caused in others' inboxes goes with them (their
    // own notifications and push subscriptions cascade with the user row).
    ctx.events.on('accounts.user.deleting', async ({ userId }) => {
      await ctx.db('notifications').where({ actor_id: userId }).del();
    });

    ctx.events.on('accounts.user.followed', async (p) => {
      if (!p.following || p.followerId === p.followingId) return;
      const follower = (await accounts()?.getUserSummary(p.followerId)) ?? null;
      await notify([p.followingId], fromTemplate('follow', { name: displayName(follower) }, { type: 'follow', link: profileLink(follower), dedupeKey: `follow:${p.followerId}`, actorId: p.followerId }));
    });

    // a private profile's owner approved a follow request: the requester is told
    ctx.events.on('accounts.follow.approved', async (p) => {
      const owner = (await accounts()?.getUserSummary(p.ownerId)) ?? null;
      await notify([p.requesterId], fromTemplate('followApproved', { name: displayName(owner) }, { type: 'follow', link: profileLink(owner), actorId: p.ownerId }));
    });

    ctx.events.on('insights.post.liked', async (p) => {
      if (!p.liked || p.userId === p.authorId) return;
      // the likes statement read the liker's summary (one statement fewer for each like)
      const liker = p.liker ?? (await accounts()?.getUserSummary(p.userId)) ?? null;
      // the insight itself (not the liker's profile), with its first words; the likes of one
      // insight show as one row in the inbox ("Noah and 3 others liked your insight")
      await notify(
        [p.authorId],
        fromTemplate('like', { name: displayName(liker), excerpt: excerptOf(p.excerpt) }, { type: 'like', link: `/insights/${p.postId}`, dedupeKey: `like:${p.postId}:${p.userId}`, actorId: p.userId, groupKey: `like:insight:${p.postId}` }),
      );
      // lanes by the author told: a member's likes keep their order, and likes of different members'
      // insights are told side by side (one lane, then four, fell behind under the mix: each lane
      // waits its turn for a pooled connection behind the requests)
    }, { lane: (p) => String(p.authorId % LIKE_LANES) });

    ctx.events.on('insights.comment.created', async (p) => {
      const author = (await accounts()?.getUserSummary(p.userId)) ?? null;
      const params = { name: displayName(author), excerpt: excerptOf(p.excerpt) };
      // straight to the comment on the insight's page (PostPage scrolls to it and highlights it)
      const link = `/insights/${p.postId}#comment-${p.commentId}`;
      if (p.postAuthorId !== p.userId) {
        await notify([p.postAuthorId], fromTemplate('comment', params, { type: 'comment', link, dedupeKey: `comment:${p.commentId}`, actorId: p.userId }));
      }
      // A reply also tells the author of the comment replied to (once, when that is not the post's author).
      if (p.parentAuthorId && p.parentAuthorId !== p.userId && p.parentAuthorId !== p.postAuthorId) {
        await notify([p.parentAuthorId], fromTemplate('reply', params, { type: 'comment', link, dedupeKey: `comment:${p.commentId}`, actorId: p.userId }));
      }
    }, { afterAnswer: true });

    // Comments, replies and mentions are told after the comment's answer (issue 18): the insert's
    // foreign-key check on users no longer runs inside the author's request.
    // Mentions: the insights plugin already kept only members the author may reach who allow tagging.
    ctx.events.on('insights.mentioned', async (p) => {
      const author = (await accounts()?.getUserSummary(p.authorId)) ?? null;
      const key = p.commentId ? 'mentionComment' : 'mention';
      const dedupe = p.commentId ? `mention:c${p.commentId}` : `mention:p${p.postId}`;
      const link = p.commentId ? `/insights/${p.postId}#comment-${p.commentId}` : `/insights/${p.postId}`;
      await notify(p.userIds, fromTemplate(key, { name: displayName(author), excerpt: excerptOf(p.excerpt) }, { type: 'mention', link, dedupeKey: dedupe, actorId: p.authorId }));
    }, { afterAnswer: true });

    // Suggestion decisions (museums.suggestion.approved / rejected) are notified by the museums
    // plugin itself, with the reviewer's note; listening here too would notify the suggester twice.

    // ---- the inbox ----
    ctx.routes.add<unknown, { cursor?: string; limit: number; unread?: boolean }>({
      method: 'GET',
      path: '/api/notifications',
      operationId: 'listNotifications',
      summary: "The signed-in member's notifications, newest first (cursor-paged)",
      auth: 'required',
      schema: {
        query: {
          type: 'object',
          additionalProperties: false,
          properties: {
            cursor: { type: 'string', pattern: '^[0-9]{1,19}$' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            unread: { type: 'boolean', description: 'only unread ones' },
          },
        },
        response: { $ref: 'notifications/NotificationPage' },
      },
      handler: (c) => svc.api.list(c.user!.id, c.input.query),
    });

    ctx.routes.add({
      method: 'GET',
      path: '/api/notifications/unread-count',
      operationId: 'getUnreadNotificationCount',
      summary: 'How many rows of the inbox the signed-in member has not read (a group, like the likes of one insight, counts once), up to 100: the bell shows 99+',
      auth: 'required',
      schema: {
        response: { type: 'object', additionalProperties: false, required: ['count'], properties: { count: { type: 'integer' } } },
      },
      async handler(c) {
        c.set('Cache-Control', 'no-store');
        return { count: await svc.api.unreadCount(c.user!.id) };
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: '/api/notifications/:id/read',
      operationId: 'markNotificationRead',
      summary: 'Mark one of your notifications read',
      auth: 'required',
      schema: { params: { $ref: 'shared/IdParams' }, response: { $ref: 'notifications/Notification' } },
      async handler(c) {
        const item = await svc.api.markRead(c.user!.id, c.input.params.id);
        if (!item) throw new HttpError(404, NOT_FOUND);
        return item;
      },
    });

    ctx.routes.add({
      method: 'POST',
      path: '/api/notifications/read-all',
      operationId: 'markAllNotificationsRead',
      summary: 'Mark all your notifications read; answers how many changed',
      auth: 'required',
      schema: {
        response: { type: 'object', additionalProperties: false, required: ['count'], properties: { count: { type: 'integer' } } },
      },
      async handler(c) {
        return { count: await svc.api.markAllRead(c.user!.id) };
      },
    });
  },
});
