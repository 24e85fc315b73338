/** This plugin's part of a member's data archive (issue 24): their plans and stops. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

export function registerPlansExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('plans', async (userId, out) => {
    const plans = await knex('plans').where({ user_id: userId }).orderBy('id').select('id', 'title', 'visit_date', 'visibility', 'walking_speed_kmh', 'created_at', 'updated_at');
    if (!plans.length) return;
    const stops = await knex('plan_stops as s')
      .leftJoin('museums as m', 'm.id', 's.museum_id')
      .whereIn('s.plan_id', plans.map((p: any) => p.id))
      .orderBy(['s.plan_id', 's.position'])
      .select('s.plan_id', 'm.name', 's.event_id', 's.arrival', 's.duration_minutes');
    out.json(
      'plans.json',
      plans.map((p: any) => ({
        title: p.title,
        date: p.visit_date,
        visibility: p.visibility,
        walkingSpeedKmh: Number(p.walking_speed_kmh),
        stops: stops.filter((s: any) => s.plan_id === p.id).map((s: any) => (s.event_id ? { eventId: s.event_id } : { museum: s.name, arrival: s.arrival, durationMinutes: s.duration_minutes })),
        createdAt: new Date(p.created_at).toISOString(),
        updatedAt: new Date(p.updated_at).toISOString(),
      })),
      'Your day plans and their stops.',
    );
  });
}
