/** This plugin's part of a member's data archive (issue 24): the badges they earned. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

export function registerBadgesExport(ctx: PluginContext): void {
  ctx.services.get(UserData).onExport('badges', async (userId, out) => {
    const rows = await ctx.db('user_badges as ub').join('badges as b', 'b.id', 'ub.badge_id').where('ub.user_id', userId).orderBy('ub.earned_at').select('b.name', 'b.description', 'ub.earned_at');
    out.json('badges.json', rows.map((r: any) => ({ name: r.name, description: r.description, earnedAt: new Date(r.earned_at).toISOString() })), 'Badges you earned.');
  });
}
