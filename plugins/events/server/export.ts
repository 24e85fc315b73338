/** This plugin's part of a member's data archive (issue 24): RSVPs, meetups organised, comments, photos. */
import path from 'node:path';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerEventsExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('events', async (userId, out) => {
    const rsvps = await knex('events_attendees as a').join('events_events as e', 'e.id', 'a.event_id').where('a.user_id', userId).orderBy('a.joined_at').select('e.id', 'e.kind', 'e.title', 'e.date_time', 'a.status', 'a.joined_at');
    const organised = await knex('events_events').where({ organizer_id: userId }).orderBy('id').select('id', 'kind', 'title', 'description', 'location', 'date_time', 'end_date_time', 'time_zone', 'max_attendees', 'current_attendees', 'community_id', 'group_id', 'created_at');
    const comments = await knex('events_comments').where({ user_id: userId }).orderBy('id').select('id', 'event_id', 'content', 'created_at');
    const photos = await knex('events_photos').where({ user_id: userId }).orderBy('id').select('id', 'event_id', 'storage_key', 'caption', 'created_at');
    const photoItems = [];
    for (const p of photos) {
      const file = p.storage_key ? await out.file(`media/events/${p.event_id}-${path.basename(p.storage_key)}`, p.storage_key) : null;
      photoItems.push({ id: p.id, eventId: p.event_id, caption: p.caption, file, createdAt: iso(p.created_at) });
    }
    out.json(
      'events.json',
      {
        rsvps: rsvps.map((r: any) => ({ eventId: r.id, kind: r.kind, title: r.title, startsAt: iso(r.date_time), status: r.status, since: iso(r.joined_at) })),
        meetupsOrganised: organised.map((e: any) => ({
          id: e.id,
          kind: e.kind,
          title: e.title,
          description: e.description,
          location: e.location,
          startsAt: iso(e.date_time),
          endsAt: iso(e.end_date_time),
          timeZone: e.time_zone,
          maxAttendees: e.max_attendees,
          attendees: e.current_attendees,
          communityId: e.community_id,
          groupId: e.group_id,
          createdAt: iso(e.created_at),
        })),
        comments: comments.map((c: any) => ({ id: c.id, eventId: c.event_id, content: c.content, createdAt: iso(c.created_at) })),
        photos: photoItems,
      },
      'Events and meetups you signed up for or organised, your comments and photos (in media/events/).',
    );
  });
}
