/** This plugin's part of a member's data archive (issue 24): their notifications and push subscriptions. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerNotificationsExport(ctx: PluginContext): void {
  ctx.services.get(UserData).onExport('notifications', async (userId, out) => {
    const rows = await ctx.db('notifications').where({ user_id: userId }).orderBy('id', 'desc').limit(10_000).select('type', 'title', 'message', 'link', 'read', 'created_at');
    const subs = await ctx.db('push_subscriptions').where({ user_id: userId }).select('user_agent', 'created_at');
    out.json(
      'notifications.json',
      {
        notifications: rows.map((n: any) => ({ type: n.type, title: n.title, message: n.message, link: n.link, read: n.read, createdAt: iso(n.created_at) })),
        pushSubscriptions: subs.map((s: any) => ({ device: s.user_agent, createdAt: iso(s.created_at) })),
      },
      'Your notifications (newest first) and the browsers that receive your push notifications.',
    );
  });
}
