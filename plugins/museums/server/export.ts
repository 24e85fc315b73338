/** This plugin's part of a member's data archive (issue 24): museums followed, check-ins, "Still right?" answers, suggestions. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerMuseumsExport(ctx: PluginContext, d: { followIfNot(userId: number, museumId: number): Promise<boolean> }): void {
  const knex = ctx.db;
  // the import of follows: museum slugs (or ids) from museum-follows.csv or `museum:<slug>` handles
  ctx.services.get(UserData).onFollowImport('museum', async (userId, refs) => {
    const r = { followed: 0, requested: 0, already: 0, refused: 0, notFound: [] as string[] };
    for (const ref of refs) {
      const m = await knex('museums')
        .where('slug', ref.toLowerCase())
        .modify((q) => {
          if (/^\d{1,9}$/.test(ref)) q.orWhere('id', Number(ref));
        })
        .first('id');
      if (!m) r.notFound.push(ref);
      else if (await d.followIfNot(userId, m.id)) r.followed++;
      else r.already++;
    }
    return r;
  });
  ctx.services.get(UserData).onExport('museums', async (userId, out) => {
    const follows = await knex('museum_follows as f').join('museums as m', 'm.id', 'f.museum_id').where('f.user_id', userId).orderBy('f.created_at').select('m.id', 'm.name', 'm.slug', 'f.created_at');
    out.csv('museum-follows.csv', ['museum_id', 'name', 'slug', 'since'], follows.map((r: any) => [r.id, r.name, r.slug, iso(r.created_at)]), 'Museums you follow (this file can be imported to follow them again).');
    const checkins = await knex('museum_checkins as c').join('museums as m', 'm.id', 'c.museum_id').where('c.user_id', userId).orderBy('c.created_at').select('m.id', 'm.name', 'c.local_date', 'c.created_at', 'c.verified', 'c.latitude', 'c.longitude');
    out.csv(
      'check-ins.csv',
      ['museum_id', 'name', 'local_date', 'at', 'verified', 'latitude', 'longitude'],
      checkins.map((r: any) => [r.id, r.name, r.local_date instanceof Date ? r.local_date.toISOString().slice(0, 10) : String(r.local_date), iso(r.created_at), r.verified, r.latitude, r.longitude]),
      'Your museum check-ins (with the position your browser gave, if any).',
    );
    // "Still right?" after a visit: each answer, the correction given with a no, and the suggestion it went into
    const answers = await knex('museum_fact_answers as a')
      .join('museums as m', 'm.id', 'a.museum_id')
      .leftJoin('museum_edit_suggestions as s', 's.id', 'a.suggestion_id')
      .where('a.user_id', userId)
      .orderBy('a.id')
      .select('m.id as museum_id', 'm.name', 'a.fact_group', knex.raw(`to_char(a.local_date, 'YYYY-MM-DD') as local_date`), 'a.agrees', 'a.correction', 'a.changes', 'a.created_at', 's.id as suggestion_id', 's.status as suggestion_status');
    out.json(
      'still-right-answers.json',
      answers.map((a: any) => ({
        museumId: a.museum_id,
        museum: a.name,
        facts: a.fact_group,
        visitDate: a.local_date,
        stillRight: a.agrees,
        correction: a.correction ?? null,
        changes: (typeof a.changes === 'string' ? JSON.parse(a.changes) : a.changes) ?? null,
        answeredAt: iso(a.created_at),
        suggestion: a.suggestion_id ? { id: a.suggestion_id, status: a.suggestion_status } : null,
      })),
      'Your answers to "Still right?" after a visit: whether a museum\'s hours, admission, accessibility or contact were still right, the correction you gave, and the suggestion it went into.',
    );
    const edits = await knex('museum_edit_suggestions').where({ user_id: userId }).orderBy('id').select('museum_id', 'suggested_changes', 'reason', 'status', 'created_at');
    const added = await knex('museum_suggestions').where({ user_id: userId }).orderBy('id').select('name', 'address', 'city', 'country', 'status', 'created_at');
    out.json(
      'museum-suggestions.json',
      {
        edits: edits.map((e: any) => ({ museumId: e.museum_id, changes: e.suggested_changes, reason: e.reason, status: e.status, createdAt: iso(e.created_at) })),
        newMuseums: added.map((s: any) => ({ name: s.name, address: s.address, city: s.city, country: s.country, status: s.status, createdAt: iso(s.created_at) })),
      },
      'Changes and new museums you suggested.',
    );
  });
}
