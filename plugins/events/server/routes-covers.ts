/**
 * Covers (issue 23): a meetup's organiser, or a museum event's manager (or an Admin), uploads a
 * cover image: JPEG, PNG, WebP or GIF up to 10 MB, judged by content, re-encoded (orientation
 * applied, metadata dropped, ≤ 1600 × 900) under events/covers/; the previous stored cover is
 * deleted. Without one, the web app shows a designed cover for the event's category.
 */
import { HttpError } from '../../../core/errors.ts';
import type { EventsStore } from './service.ts';
import { EVENT } from './routes-meetups.ts';
import { ONLY_MANAGERS } from './routes-museum-events.ts';

const ID_PARAMS = { $ref: 'shared/IdParams' };
export const MAX_COVER_BYTES = 10 * 1024 * 1024;

export function registerCoverRoutes(store: EventsStore): void {
  const { ctx, knex, deps } = store;

  async function replaceCover(c: any, eventId: number) {
    const parsed = await ctx.uploads.parse(c, { maxFileSize: MAX_COVER_BYTES, maxFiles: 1, fileFields: ['image'], tooLargeMessage: 'Image too large: at most 10 MB' });
    try {
      const file = parsed.files[0];
      if (!file || file.size === 0) throw new HttpError(400, 'Please choose an image');
      const img = await ctx.uploads.processImage(file, { prefix: 'events/covers', width: 1600, height: 900, fit: 'inside', invalidMessage: 'The file is not a valid image (JPG, PNG, WebP or GIF)' });
      const [old] = await knex('events_events').where({ id: eventId }).select('image_url');
      await knex('events_events').where({ id: eventId }).update({ image_url: img.url, updated_at: knex.fn.now() });
      const oldKey = old?.image_url ? ctx.storage.keyFromUrl(old.image_url) : null;
      if (oldKey && oldKey !== img.key) await ctx.storage.delete(oldKey).catch(() => undefined);
    } finally {
      await ctx.uploads.cleanup(parsed.files);
    }
  }

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/meetups/:id/cover',
    operationId: 'uploadMeetupCover',
    summary: "Replace a meetup's cover image (multipart field 'image'; its organizer only): JPG, PNG, WebP or GIF up to 10 MB, re-encoded",
    auth: 'required',
    bodyType: 'multipart',
    schema: { params: ID_PARAMS, response: { 200: EVENT, 400: { $ref: 'shared/Error' }, 403: { $ref: 'shared/Error' }, 413: { $ref: 'shared/Error' } } },
    async handler(c) {
      const user = c.user!;
      const before = await store.loadFor(c.input.params.id, 'meetup', c.user);
      if (before.organizer_id !== user.id) throw new HttpError(403, 'Only the organizer can edit this meetup');
      await replaceCover(c, before.id);
      return store.one(await store.load(before.id, 'meetup'), store.viewer(user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'POST',
    path: '/api/museum-events/:id/cover',
    operationId: 'uploadMuseumEventCover',
    summary: "Replace a museum event's cover image (multipart field 'image'; the museum's manager or an Admin): JPG, PNG, WebP or GIF up to 10 MB, re-encoded",
    auth: 'required',
    bodyType: 'multipart',
    schema: { params: ID_PARAMS, response: { 200: EVENT, 400: { $ref: 'shared/Error' }, 403: { $ref: 'shared/Error' }, 413: { $ref: 'shared/Error' } } },
    async handler(c) {
      const user = c.user!;
      const before = await store.load(c.input.params.id, 'museum_event');
      if (!(await deps.museums().canManage(user, before.museum_id!))) throw new HttpError(403, ONLY_MANAGERS);
      await replaceCover(c, before.id);
      return store.one(await store.load(before.id, 'museum_event'), store.viewer(user));
    },
  });
}
