/**
 * Museum events: public to read, created and edited by the museum's manager or an Admin
 * (MuseumsApi.canManage).
 */
import { HttpError } from '../../../core/errors.ts';
import { withImageInfo } from '../../../core/images.ts';
import type { EventsStore } from './service.ts';
import { museumEventColumns, type MuseumEventBody } from './input.ts';
import type { EventRow } from './model.ts';
import { CREATE_RESTRICTED, EVENT, EVENT_LIST, ID_PARAMS, LIST_QUERY, scheduleChanged, updateWithCapacity } from './routes-meetups.ts';

export const ONLY_MANAGERS = "Only the museum's manager or an Admin can manage its events";

export function registerMuseumEventRoutes(store: EventsStore): void {
  const { ctx, knex, deps } = store;

  ctx.routes.add<unknown, any>({
    method: 'GET',
    path: '/api/museum-events',
    operationId: 'listMuseumEvents',
    publicCache: 30,
    summary: 'Museum events, soonest first (open to visitors); museumId for one museum',
    auth: 'optional',
    schema: { query: LIST_QUERY, response: EVENT_LIST },
    async handler(c) {
      const viewer = store.viewer(c.user);
      return store.cards(await store.list('museum_event', viewer, c.input.query), viewer);
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/museum-events/:id',
    operationId: 'getMuseumEvent',
    publicCache: 30,
    summary: 'One museum event with all its attendees (open to visitors)',
    auth: 'optional',
    schema: { params: ID_PARAMS, response: EVENT },
    async handler(c) {
      // the cover's made variant widths and placeholder beside its URL
      return withImageInfo(store.knex, store.ctx.storage, await store.oneById(c.input.params.id, 'museum_event', store.viewer(c.user)), 'imageUrl', 'imageInfo');
    },
  });

  ctx.routes.add<unknown, unknown, MuseumEventBody>({
    method: 'POST',
    path: '/api/museum-events',
    operationId: 'createMuseumEvent',
    summary: "Create a museum event: the museum's manager or an Admin",
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'events/MuseumEventBody' }, response: { 201: EVENT } },
    async handler(c) {
      const user = c.user!;
      if (user.restricted) throw new HttpError(403, CREATE_RESTRICTED.museum_event);
      const b = c.input.body;
      const museum = await deps.museums().getMuseum(b.museumId);
      if (!museum) throw new HttpError(404, 'Museum not found');
      if (!(await deps.museums().canManage(user, museum.id))) throw new HttpError(403, ONLY_MANAGERS);
      const cols = await museumEventColumns(deps, b, museum);
      const [row] = (await knex('events_events')
        .insert({ ...cols, kind: 'museum_event', created_by: user.id })
        .returning('*')) as EventRow[];
      await ctx.events.emit('events.museumEvent.created', { eventId: row.id, museumId: museum.id, userId: user.id });
      return store.one(row, store.viewer(user));
    },
  });

  ctx.routes.add<{ id: number }, unknown, MuseumEventBody>({
    method: 'PUT',
    path: '/api/museum-events/:id',
    operationId: 'updateMuseumEvent',
    summary: "Edit a museum event: the museum's manager or an Admin",
    auth: 'required',
    schema: { params: ID_PARAMS, body: { $ref: 'events/MuseumEventBody' }, response: EVENT },
    async handler(c) {
      const user = c.user!;
      const before = await store.load(c.input.params.id, 'museum_event');
      if (!(await deps.museums().canManage(user, before.museum_id!))) throw new HttpError(403, ONLY_MANAGERS);
      const b = c.input.body;
      if (b.museumId !== before.museum_id) throw new HttpError(400, 'An event cannot move to another museum', { errors: [{ path: '/body/museumId', message: 'An event cannot move to another museum' }] });
      const museum = await deps.museums().getMuseum(before.museum_id!);
      if (!museum) throw new HttpError(404, 'Museum not found');
      const cols = await museumEventColumns(deps, b, museum, before);
      const { row, changes } = await updateWithCapacity(knex, before.id, cols);
      await store.afterRsvp(changes);
      if (scheduleChanged(before, row)) await store.notifyChanged(row, user.id);
      return store.one(row, store.viewer(user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/museum-events/:id',
    operationId: 'deleteMuseumEvent',
    summary: "Cancel and delete a museum event: the museum's manager or an Admin. Attendees are told.",
    auth: 'required',
    schema: { params: ID_PARAMS, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const row = await store.load(c.input.params.id, 'museum_event');
      if (!(await deps.museums().canManage(c.user!, row.museum_id!))) throw new HttpError(403, ONLY_MANAGERS);
      await store.deleteEvents([row], { actorId: c.user!.id });
      return { success: true, message: 'Event deleted' };
    },
  });
}
