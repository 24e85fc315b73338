/**
 * What meetups and museum events share, registered once per kind: RSVP (join / leave), the
 * .ics download, photos and the discussion.
 */
import type { ApiContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import type { ProcessedImage } from '../../../core/uploads.ts';
import type { EventKind, RsvpStatus } from '../public.ts';
import type { EventsStore } from './service.ts';
import { setRsvpAndCount, removeRsvp } from './rsvp.ts';
import { buildIcs } from './calendar.ts';
import { EVENT } from './routes-meetups.ts';
import type { EventRow } from './model.ts';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTOS_PER_UPLOAD = 10;
export const PHOTO_MESSAGES = {
  none: 'Please select at least one photo',
  tooLarge: 'Each photo must be at most 10 MB',
  notImage: 'Only image files (PNG, JPG, GIF) can be uploaded',
  off: 'Photo sharing is turned off for this event',
  members: 'Only members can upload photos',
  caption: 'Caption must be at most 500 characters',
  restricted: 'Your account is restricted from sharing photos',
};

/** Content restriction (admin moderation) refusing the discussion. */
export const COMMENT_RESTRICTED = 'Your account is restricted from commenting';

export function origin(store: EventsStore, c: ApiContext): string {
  return (store.ctx.appConfig.publicOrigin ?? `${c.protocol}://${c.host}`).replace(/\/$/, '');
}

interface KindSpec {
  kind: EventKind;
  prefix: string;
  /** name of the event id parameter in photo paths ({meetupId} as the spec writes it) */
  photoParam: string;
  op: string;
  label: string;
  read: 'required' | 'optional';
}

const KINDS: KindSpec[] = [
  // Reading (detail, .ics, photos, discussion) is open to visitors for both kinds; a meetup of a private
  // community or group stays its members' (store.loadFor answers 404 to anyone else).
  { kind: 'meetup', prefix: '/api/meetups', photoParam: 'meetupId', op: 'Meetup', label: 'meetup', read: 'optional' },
  { kind: 'museum_event', prefix: '/api/museum-events', photoParam: 'id', op: 'MuseumEvent', label: 'museum event', read: 'optional' },
];

const idParams = (...names: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, { $ref: 'shared/Id' }])),
});

export function registerCommonRoutes(store: EventsStore): void {
  const { ctx, knex, deps } = store;

  async function statusOf(eventId: number, userId: number | null): Promise<RsvpStatus | null> {
    if (userId === null) return null;
    const r = await knex('events_attendees').where({ event_id: eventId, user_id: userId }).first('status');
    return (r?.status as RsvpStatus) ?? null;
  }

  async function photoAnswers(rows: any[], viewerId: number | null, ev: EventRow, canModerate: boolean) {
    const users = await deps.accounts().getUserSummaries(rows.map((r) => r.user_id));
    return rows.map((p) => ({
      id: p.id,
      eventId: p.event_id,
      url: p.url,
      thumbnailUrl: p.thumbnail_url,
      width: p.width,
      height: p.height,
      caption: p.caption,
      createdAt: new Date(p.created_at).toISOString(),
      userId: p.user_id,
      user: users.get(p.user_id) ?? null,
      canDelete: viewerId !== null && (p.user_id === viewerId || canModerate),
    }));
  }

  async function commentAnswers(rows: any[], viewerId: number | null, canModerate: boolean) {
    const users = await deps.accounts().getUserSummaries(rows.map((r) => r.user_id));
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      content: r.content,
      createdAt: new Date(r.created_at).toISOString(),
      userId: r.user_id,
      user: users.get(r.user_id) ?? null,
      canDelete: viewerId !== null && (r.user_id === viewerId || canModerate),
    }));
  }

  for (const k of KINDS) {
    const P = k.photoParam;

    ctx.routes.add<{ id: number }, unknown, { status: 'attending' | 'interested' }>({
      method: 'POST',
      path: `${k.prefix}/:id/join`,
      operationId: `join${k.op}`,
      summary:
        k.kind === 'meetup'
          ? 'Join a meetup (status attending). Full meetups answer 409 Full, or a waitlist place when the meetup has a waitlist. Members-only meetups are for members of the community or group.'
          : 'RSVP to a museum event: attending (a seat, or a waitlist place) or interested. The same status again changes nothing.',
      auth: 'required',
      schema: { params: { $ref: 'shared/IdParams' }, body: { $ref: 'events/JoinBody' }, response: EVENT },
      async handler(c) {
        const user = c.user!;
        // Issue 18: 5 statements in all (session, this read with the membership and the community or
        // group, the RSVP in one call of events_set_rsvp(), attendees and counts, users); the answer
        // takes current_attendees from the RSVP's result instead of reading the event again (an RSVP
        // changes nothing else of the row).
        const viewer = store.viewer(user);
        const { row, known } = await store.loadWithAccess(c.input.params.id, k.kind, viewer);
        const status = c.input.body.status ?? 'attending';
        if (status === 'interested' && k.kind === 'meetup') {
          throw new HttpError(400, 'Interested is only available for museum events', { errors: [{ path: '/body/status', message: 'Interested is only available for museum events' }] });
        }
        if (k.kind === 'meetup' && row.who_can_join === 'members_only' && row.organizer_id !== user.id && !(await viewer.isMemberOf(row))) {
          throw new HttpError(403, row.group_id !== null ? 'Only members of this group can join this meetup' : 'Only members of this community can join this meetup');
        }
        const { changes, current } = await setRsvpAndCount(knex, row.id, k.kind, user.id, status);
        await store.afterRsvp(changes);
        return store.one({ ...row, current_attendees: current }, viewer, known);
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'DELETE',
      path: `${k.prefix}/:id/join`,
      operationId: `leave${k.op}`,
      summary: 'Cancel my RSVP (seat, interest or waitlist place); a freed seat goes to the first on the waitlist. Not after the start.',
      auth: 'required',
      schema: { params: { $ref: 'shared/IdParams' }, response: EVENT },
      async handler(c) {
        const user = c.user!;
        const row = await store.loadFor(c.input.params.id, k.kind, c.user);
        const changes = await removeRsvp(knex, row.id, k.kind, user.id);
        await store.afterRsvp(changes);
        return store.oneById(row.id, k.kind, store.viewer(user));
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: `${k.prefix}/:id/ics`,
      operationId: `get${k.op}Ics`,
      summary: `The ${k.label} as an iCalendar file (text/calendar), in its own time zone`,
      auth: k.read,
      raw: true,
      rawContentType: 'text/calendar',
      schema: { params: { $ref: 'shared/IdParams' } },
      async handler(c) {
        const row = await store.loadFor(c.input.params.id, k.kind, c.user);
        c.status = 200;
        c.set('Content-Type', 'text/calendar; charset=utf-8');
        c.set('Content-Disposition', `attachment; filename="${k.kind === 'meetup' ? 'meetup' : 'event'}-${row.id}.ics"`);
        c.set('Cache-Control', 'private, no-cache');
        c.body = buildIcs([row], { origin: origin(store, c), name: row.title });
      },
    });

    // ---- photos ----
    ctx.routes.add<Record<string, number>>({
      method: 'GET',
      path: `${k.prefix}/:${P}/photos`,
      operationId: `list${k.op}Photos`,
      summary: `Photos of the ${k.label}, newest first`,
      auth: k.read,
      schema: { params: idParams(P), response: { type: 'array', items: { $ref: 'events/Photo' } } },
      async handler(c) {
        const row = await store.loadFor(c.input.params[P], k.kind, c.user);
        const viewer = store.viewer(c.user);
        // accounts' rule for content whose audience the event decides (as the discussion below): no
        // uploader blocked either way or muted by the viewer, nor one whose deletion is pending, in SQL before the limit
        const rows = await knex('events_photos')
          .where('event_id', row.id)
          .whereRaw(deps.accounts().sql.notBlockedOrMuted(c.user, 'events_photos.user_id'))
          .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
          .limit(500);
        return photoAnswers(rows, viewer.id, row, await viewer.canEdit(row));
      },
    });

    ctx.routes.add<Record<string, number>>({
      method: 'POST',
      path: `${k.prefix}/:${P}/photos`,
      operationId: `upload${k.op}Photos`,
      summary:
        `Share photos of the ${k.label} (multipart: one or more "files", optional "caption"), where photo sharing is on, by its participants. ` +
        'Images only (checked on content), at most 10 MB each and 10 per upload; re-encoded without metadata (GPS), with a thumbnail.',
      auth: 'required',
      bodyType: 'multipart',
      status: 201,
      schema: { params: idParams(P), response: { 201: { type: 'array', items: { $ref: 'events/Photo' } } } },
      async handler(c) {
        const user = c.user!;
        const row = await store.loadFor(c.input.params[P], k.kind, c.user);
        const viewer = store.viewer(user);
        // refused before reading the upload: a restricted member's files are never stored
        if (viewer.restricted) throw new HttpError(403, PHOTO_MESSAGES.restricted);
        if (!row.allow_photo_sharing) throw new HttpError(403, PHOTO_MESSAGES.off);
        if (!(await viewer.isParticipant(row, await statusOf(row.id, user.id)))) throw new HttpError(403, PHOTO_MESSAGES.members);
        const parsed = await ctx.uploads.parse(c as any, {
          maxFileSize: MAX_PHOTO_BYTES,
          maxFiles: MAX_PHOTOS_PER_UPLOAD,
          fileFields: ['files'],
          tooLargeMessage: PHOTO_MESSAGES.tooLarge,
        });
        const stored: ProcessedImage[] = [];
        try {
          const files = parsed.files.filter((f) => f.size > 0);
          if (!files.length) throw new HttpError(400, PHOTO_MESSAGES.none);
          const caption = (parsed.fields.caption ?? '').trim();
          if (caption.length > 500) throw new HttpError(400, PHOTO_MESSAGES.caption);
          for (const f of files) {
            stored.push(
              await ctx.uploads.processImage(f, {
                prefix: `events/${row.id}`,
                width: 2048,
                height: 2048,
                thumbnail: { width: 480, height: 480 },
                invalidMessage: PHOTO_MESSAGES.notImage,
              }),
            );
          }
          const inserted = await knex('events_photos')
            .insert(
              stored.map((s) => ({
                event_id: row.id,
                user_id: user.id,
                storage_key: s.key,
                url: s.url,
                thumbnail_url: s.thumbnailUrl ?? null,
                width: s.width,
                height: s.height,
                caption: caption || null,
              })),
            )
            .returning('*');
          await ctx.events.emit('events.photo.uploaded', { eventId: row.id, userId: user.id, photoIds: inserted.map((p: any) => p.id) });
          return photoAnswers(inserted, user.id, row, await viewer.canEdit(row));
        } catch (e) {
          await store.deleteFiles(stored.map((s) => ({ storage_key: s.key, thumbnail_url: s.thumbnailUrl ?? null })));
          throw e;
        } finally {
          await ctx.uploads.cleanup(parsed.files);
        }
      },
    });

    ctx.routes.add<Record<string, number>>({
      method: 'DELETE',
      path: `${k.prefix}/:${P}/photos/:photoId`,
      operationId: `delete${k.op}Photo`,
      summary: k.kind === 'meetup' ? 'Delete a photo: its uploader or the organizer' : "Delete a photo: its uploader or the museum's manager",
      auth: 'required',
      schema: { params: idParams(P, 'photoId'), response: { $ref: 'shared/Ok' } },
      async handler(c) {
        const row = await store.loadFor(c.input.params[P], k.kind, c.user);
        const photo = await knex('events_photos').where({ id: c.input.params.photoId, event_id: row.id }).first();
        if (!photo) throw new HttpError(404, 'Photo not found');
        const viewer = store.viewer(c.user);
        if (photo.user_id !== c.user!.id && !(await viewer.canEdit(row))) throw new HttpError(403, 'Only the uploader or the organizer can delete this photo');
        await knex('events_photos').where({ id: photo.id }).del();
        await store.deleteFiles([photo]);
        return { success: true };
      },
    });

    // ---- discussion ----
    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: `${k.prefix}/:id/comments`,
      operationId: `list${k.op}Comments`,
      summary: `The ${k.label}'s discussion, oldest first (the latest 500)`,
      auth: k.read,
      schema: { params: { $ref: 'shared/IdParams' }, response: { type: 'array', items: { $ref: 'events/Comment' } } },
      async handler(c) {
        const row = await store.loadFor(c.input.params.id, k.kind, c.user);
        const viewer = store.viewer(c.user);
        const rows = (await knex('events_comments').where('event_id', row.id).whereRaw(deps.accounts().sql.notBlockedOrMuted(c.user, 'events_comments.user_id')).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(500)).reverse();
        return commentAnswers(rows, viewer.id, await viewer.canEdit(row));
      },
    });

    ctx.routes.add<{ id: number }, unknown, { content: string }>({
      method: 'POST',
      path: `${k.prefix}/:id/comments`,
      operationId: `add${k.op}Comment`,
      summary: k.kind === 'meetup' ? "Comment on a meetup: its participants (members of its community or group, attendees), where comments are allowed" : 'Comment on a museum event: any member, where comments are allowed',
      auth: 'required',
      status: 201,
      schema: { params: { $ref: 'shared/IdParams' }, body: { $ref: 'events/CommentBody' }, response: { 201: { $ref: 'events/Comment' } } },
      async handler(c) {
        const user = c.user!;
        const row = await store.loadFor(c.input.params.id, k.kind, c.user);
        if (!row.allow_comments) throw new HttpError(403, 'Comments are turned off for this event');
        const viewer = store.viewer(user);
        if (viewer.restricted) throw new HttpError(403, COMMENT_RESTRICTED);
        if (!(await viewer.canComment(row, await statusOf(row.id, user.id)))) throw new HttpError(403, 'Only members can join the discussion');
        const [inserted] = await knex('events_comments').insert({ event_id: row.id, user_id: user.id, content: c.input.body.content.trim() }).returning('*');
        const [answer] = await commentAnswers([inserted], user.id, await viewer.canEdit(row));
        return answer;
      },
    });

    ctx.routes.add<{ id: number; commentId: number }>({
      method: 'DELETE',
      path: `${k.prefix}/:id/comments/:commentId`,
      operationId: `delete${k.op}Comment`,
      summary: 'Delete a comment: its author or the organizer (museum: its manager)',
      auth: 'required',
      schema: { params: idParams('id', 'commentId'), response: { $ref: 'shared/Ok' } },
      async handler(c) {
        const row = await store.loadFor(c.input.params.id, k.kind, c.user);
        const comment = await knex('events_comments').where({ id: c.input.params.commentId, event_id: row.id }).first();
        if (!comment) throw new HttpError(404, 'Comment not found');
        if (comment.user_id !== c.user!.id && !(await store.viewer(c.user).canEdit(row))) throw new HttpError(403, 'Only the author or the organizer can delete this comment');
        await knex('events_comments').where({ id: comment.id }).del();
        return { success: true };
      },
    });
  }
}
