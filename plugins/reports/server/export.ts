/** This plugin's part of a member's data archive (issue 24): the reports they filed (not what others reported). */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerReportsExport(ctx: PluginContext): void {
  ctx.services.get(UserData).onExport('reports', async (userId, out) => {
    const rows = await ctx.db('reports').where({ reporter_id: userId }).orderBy('id').select('target_type', 'target_id', 'category', 'note', 'status', 'resolution', 'created_at', 'resolved_at');
    out.json(
      'reports.json',
      rows.map((r: any) => ({ targetType: r.target_type, targetId: r.target_id, category: r.category, note: r.note, status: r.status, resolution: r.resolution, createdAt: iso(r.created_at), resolvedAt: iso(r.resolved_at) })),
      'Reports you filed.',
    );
  });
}
