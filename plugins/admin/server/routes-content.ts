import { HttpError } from '../../../core/errors.ts';
import type { BadgeInput } from '../../badges/public.ts';
import type { NotificationPriority } from '../../notifications/public.ts';
import { ACTIONS } from '../shared/actions.ts';
import { Deps } from './deps.ts';

const ADMIN = ['Admin'];
const ref = (n: string) => ({ $ref: `admin/${n}` });
const bref = (n: string) => ({ $ref: `badges/${n}` });
const BADGE_NOT_FOUND = 'Badge not found';
const FILL_ALL = 'Please fill in all required fields';

/** "12", 12, " 7 " → ids; "abc", 1.5, -3, "" are dropped (spec: non-numeric entries dropped). */
export function numericIds(list: unknown[]): number[] {
  const out = new Set<number>();
  for (const v of list) {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    if (!/^\d{1,10}$/.test(s)) continue;
    const n = Number(s);
    if (n >= 1 && n <= 2147483647) out.add(n);
  }
  return [...out];
}

export function registerContentRoutes(d: Deps) {
  const { ctx } = d;

  // ---- badges (delegated to the badges plugin) ----
  ctx.routes.add({
    method: 'GET',
    path: '/api/admin/badges',
    operationId: 'adminListBadges',
    summary: 'Every badge with how many members hold it',
    roles: ADMIN,
    schema: { response: { type: 'array', items: bref('Badge') } },
    handler: () => d.badges().listBadges(),
  });

  ctx.routes.add<unknown, unknown, BadgeInput>({
    method: 'POST',
    path: '/api/admin/badges',
    operationId: 'adminCreateBadge',
    summary: 'Create a badge (awarded retroactively to members who already qualify)',
    roles: ADMIN,
    status: 201,
    schema: { body: bref('BadgeInput'), response: { 201: bref('Badge') } },
    async handler(c) {
      const me = d.admin(c);
      const { id: _ignored, ...input } = c.input.body as BadgeInput & { id?: number };
      return d.audit.delegated(
        { action: ACTIONS.createBadge, targetType: 'badge', details: { after: input }, admin: me },
        () => d.badges().createBadge(input),
        (b) => ({ targetId: b.id }),
      );
    },
  });

  ctx.routes.add<{ id: number }, unknown, BadgeInput>({
    method: 'PUT',
    path: '/api/admin/badges/:id',
    operationId: 'adminUpdateBadge',
    summary: 'Edit a badge',
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, body: bref('BadgeInput'), response: bref('Badge') },
    async handler(c) {
      const me = d.admin(c);
      const id = c.input.params.id;
      const { id: _ignored, ...input } = c.input.body as BadgeInput & { id?: number };
      const badges = d.badges();
      const before = await badges.getBadge(id);
      if (!before) throw new HttpError(404, BADGE_NOT_FOUND);
      const was = { name: before.name, description: before.description, icon: before.icon, color: before.color, requirement: before.requirement };
      return d.audit.delegated(
        { action: ACTIONS.updateBadge, targetType: 'badge', targetId: id, details: { before: was, after: input }, admin: me },
        async () => {
          const b = await badges.updateBadge(id, input);
          if (!b) throw new HttpError(404, BADGE_NOT_FOUND);
          return b;
        },
      );
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/admin/badges/:id',
    operationId: 'adminDeleteBadge',
    summary: "Delete a badge and every member's copy of it",
    roles: ADMIN,
    schema: { params: { $ref: 'shared/IdParams' }, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const me = d.admin(c);
      const id = c.input.params.id;
      const badges = d.badges();
      const before = await badges.getBadge(id);
      if (!before) throw new HttpError(404, BADGE_NOT_FOUND);
      await d.audit.delegated(
        { action: ACTIONS.deleteBadge, targetType: 'badge', targetId: id, details: { name: before.name, icon: before.icon, earnedCount: before.earnedCount }, admin: me },
        async () => {
          if (!(await badges.deleteBadge(id))) throw new HttpError(404, BADGE_NOT_FOUND);
        },
      );
      return { success: true };
    },
  });

  ctx.routes.add<unknown, { limit: number }>({
    method: 'GET',
    path: '/api/admin/user-badges',
    operationId: 'adminRecentUserBadges',
    summary: 'The most recent badge earnings (10 by default)',
    roles: ADMIN,
    schema: {
      query: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 } } },
      response: { type: 'array', items: bref('UserBadge') },
    },
    handler: (c) => d.badges().recentUserBadges(c.input.query.limit),
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/admin/badges/stats',
    operationId: 'adminBadgeStats',
    summary: 'Badge completion rate: earned badges divided by badge count, as a percentage',
    roles: ADMIN,
    schema: { response: ref('BadgeStats') },
    handler: () => d.badges().stats(),
  });

  // ---- notifications ----
  ctx.routes.add<unknown, unknown, { title: string; message: string; priority: NotificationPriority; link?: string | null; targetUserIds?: unknown[] | null; preview?: boolean }>({
    method: 'POST',
    path: '/api/admin/send-notification',
    operationId: 'adminSendNotification',
    summary: 'Send a notification to every member or to listed user ids (non-numeric ids dropped); answers the recipient count. preview: only count them (nothing sent or recorded), for the confirmation step',
    roles: ADMIN,
    schema: { body: ref('SendNotificationBody'), response: ref('SendNotificationResult') },
    async handler(c) {
      const me = d.admin(c);
      const b = c.input.body;
      const title = b.title.trim();
      const message = b.message.trim();
      if (!title || !message) throw new HttpError(400, FILL_ALL, { errors: [...(!title ? [{ path: '/title', message: FILL_ALL }] : []), ...(!message ? [{ path: '/message', message: FILL_ALL }] : [])] });
      const svc = d.notifications();
      if (!svc) throw new HttpError(404, 'Notifications are not enabled');
      let userIds: number[] | null = null;
      if (Array.isArray(b.targetUserIds)) {
        userIds = numericIds(b.targetUserIds);
        if (!userIds.length) throw new HttpError(400, 'Please enter at least one valid user ID', { errors: [{ path: '/targetUserIds', message: 'Please enter at least one valid user ID' }] });
      }
      if (b.preview) {
        // The confirmation step: who a send would reach now (unknown ids dropped), nothing written.
        const count = userIds ? (await d.accounts().getUserSummaries(userIds)).size : Number((await d.accounts().userIdRange()).count);
        return { count, success: true, preview: true };
      }
      const priority = b.priority ?? 'normal';
      const link = b.link?.trim() || null;
      const count = await d.audit.delegated(
        {
          action: ACTIONS.sendNotification,
          targetType: 'notification',
          details: { title, message: message.slice(0, 500), priority, audience: userIds ? 'users' : 'all', userIds: userIds ? userIds.slice(0, 100) : null },
          admin: me,
        },
        () => svc.send({ type: 'admin', title, message, priority, link }, { userIds, sentBy: me.id }),
        (n) => ({ details: { count: n } }),
      );
      return { count, success: true };
    },
  });
}
