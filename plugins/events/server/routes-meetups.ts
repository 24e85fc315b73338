/**
 * Meetups: created in a community (its creator, or a member with the Ambassador role) or in a
 * group (its creator, or an Ambassador member); edited and deleted by their organizer only.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { withImageInfo } from '../../../core/images.ts';
import type { AuthUser } from '../../../core/plugin-api.ts';
import type { EventsStore } from './service.ts';
import { meetupColumns, type MeetupBody } from './input.ts';
import { promoteWaitlist, type RsvpChange } from './rsvp.ts';
import type { EventRow } from './model.ts';
import { EmailVerification } from '../../accounts/public.ts';

export const EVENT = { $ref: 'events/Event' };
export const EVENT_LIST = { $ref: 'events/EventList' };
export const ID_PARAMS = { $ref: 'shared/IdParams' };
export const LIST_QUERY = { $ref: 'events/ListQuery' };

export const ONLY_AMBASSADORS = 'Only community ambassadors can create meetups.';
/** Content restriction (admin moderation): creating an event is posting content. */
export const CREATE_RESTRICTED = {
  meetup: 'Your account is restricted from creating meetups',
  museum_event: 'Your account is restricted from creating events',
} as const;
/** The communities and groups plugins' own answers to outsiders of a private community or group. */
export const PRIVATE_COMMUNITY = 'This community is private. Only members can see its discussions and members.';
export const PRIVATE_GROUP = 'This group is private. Only its members can see it.';

/** Capacity edits: never below the attendees already seated; new seats go to the waitlist. */
export async function updateWithCapacity(knex: Knex, id: number, cols: Partial<EventRow>): Promise<{ row: EventRow; changes: RsvpChange[] }> {
  return knex.transaction(async (trx) => {
    const cur = (await trx('events_events').where({ id }).forUpdate().first()) as EventRow;
    const max = cols.max_attendees === undefined ? cur.max_attendees : cols.max_attendees;
    if (max !== null && max < cur.current_attendees) {
      throw new HttpError(409, `Capacity cannot be lower than the number of attendees (${cur.current_attendees})`, {
        errors: [{ path: '/body/maxAttendees', message: `Capacity cannot be lower than the number of attendees (${cur.current_attendees})` }],
      });
    }
    const [row] = (await trx('events_events')
      .where({ id })
      .update({ ...cols, updated_at: trx.fn.now() })
      .returning('*')) as EventRow[];
    const changes = new Date(row.date_time).getTime() > Date.now() ? await promoteWaitlist(trx, row) : [];
    return { row, changes };
  });
}

export function scheduleChanged(a: EventRow, b: EventRow): boolean {
  const t = (d: Date | null) => (d ? new Date(d).getTime() : null);
  return t(a.date_time) !== t(b.date_time) || t(a.end_date_time) !== t(b.end_date_time) || a.location !== b.location || a.title !== b.title;
}

export function registerMeetupRoutes(store: EventsStore): void {
  const { ctx, knex, deps } = store;

  async function create(user: AuthUser, body: MeetupBody, owner: { communityId: number } | { groupId: number }) {
    // a confirmed email address first (accounts' rule; 403 with its message)
    await ctx.services.maybe(EmailVerification)?.requireVerified(user.id);
    const cols = await meetupColumns(deps, knex, body);
    const [row] = (await knex('events_events')
      .insert({
        ...cols,
        kind: 'meetup',
        organizer_id: user.id,
        community_id: 'communityId' in owner ? owner.communityId : null,
        group_id: 'groupId' in owner ? owner.groupId : null,
      })
      .returning('*')) as EventRow[];
    await ctx.events.emit('events.meetup.created', { eventId: row.id, organizerId: user.id, communityId: row.community_id, groupId: row.group_id });
    // outside the museum's hours: saved all the same, with a warning for the organiser (issue 20:
    // the answer's hoursWarning)
    return store.one(row, store.viewer(user));
  }

  ctx.routes.add<{ id: number }, unknown, MeetupBody>({
    method: 'POST',
    path: '/api/communities/:id/meetups',
    operationId: 'createCommunityMeetup',
    summary: "Create a meetup in a community: its creator, or a member with the Ambassador role",
    auth: 'required',
    status: 201,
    schema: { params: ID_PARAMS, body: { $ref: 'events/MeetupBody' }, response: { 201: EVENT } },
    async handler(c) {
      const id = c.input.params.id;
      const user = c.user!;
      if (user.restricted) throw new HttpError(403, CREATE_RESTRICTED.meetup);
      const communities = deps.communities();
      if (!(await communities.exists(id))) throw new HttpError(404, 'Community not found');
      const role = await communities.roleOf(id, user.id);
      if (role !== 'creator') {
        if (user.role !== 'Ambassador') throw new HttpError(403, ONLY_AMBASSADORS);
        if (role === null) throw new HttpError(403, 'Join this community to create meetups in it');
      }
      const b = c.input.body;
      if (b.communityId != null && b.communityId !== id) throw new HttpError(400, 'communityId does not match the community', { errors: [{ path: '/body/communityId', message: 'communityId does not match the community' }] });
      return create(user, b, { communityId: id });
    },
  });

  ctx.routes.add<{ id: number }, any>({
    method: 'GET',
    path: '/api/communities/:id/meetups',
    operationId: 'listCommunityMeetups',
    summary: "A community's meetups, soonest first (past ones with includePast)",
    auth: 'required',
    schema: { params: ID_PARAMS, query: LIST_QUERY, response: EVENT_LIST },
    async handler(c) {
      const id = c.input.params.id;
      const community = (await deps.communities().summaries([id])).get(id);
      if (!community) throw new HttpError(404, 'Community not found');
      const viewer = store.viewer(c.user);
      // the community's own answer for outsiders of a private community
      if (community.isPrivate && !(await viewer.communityIds()).has(id)) throw new HttpError(403, PRIVATE_COMMUNITY);
      const rows = await store.list('meetup', viewer, c.input.query, (q) => q.where('community_id', id));
      return store.cards(rows, viewer);
    },
  });

  ctx.routes.add<{ id: number }, unknown, MeetupBody>({
    method: 'POST',
    path: '/api/groups/:id/meetups',
    operationId: 'createGroupMeetup',
    summary: 'Create a meetup in a group: its creator, or a member with the Ambassador role',
    auth: 'required',
    status: 201,
    schema: { params: ID_PARAMS, body: { $ref: 'events/MeetupBody' }, response: { 201: EVENT } },
    async handler(c) {
      const id = c.input.params.id;
      const user = c.user!;
      if (user.restricted) throw new HttpError(403, CREATE_RESTRICTED.meetup);
      const groups = deps.groups();
      if (!groups || !(await groups.exists(id))) throw new HttpError(404, 'Group not found');
      const creator = await groups.creatorId(id);
      if (creator !== user.id) {
        if (user.role !== 'Ambassador') throw new HttpError(403, 'Only group ambassadors can create meetups.');
        if (!(await groups.isMember(id, user.id))) throw new HttpError(403, 'Join this group to create meetups in it');
      }
      const b = c.input.body;
      if (b.groupId != null && b.groupId !== id) throw new HttpError(400, 'groupId does not match the group', { errors: [{ path: '/body/groupId', message: 'groupId does not match the group' }] });
      return create(user, b, { groupId: id });
    },
  });

  ctx.routes.add<{ id: number }, any>({
    method: 'GET',
    path: '/api/groups/:id/meetups',
    operationId: 'listGroupMeetups',
    summary: "A group's meetups, soonest first (past ones with includePast)",
    auth: 'required',
    schema: { params: ID_PARAMS, query: LIST_QUERY, response: EVENT_LIST },
    async handler(c) {
      const id = c.input.params.id;
      const group = (await deps.groups()?.summaries([id]))?.get(id);
      if (!group) throw new HttpError(404, 'Group not found');
      const viewer = store.viewer(c.user);
      // the group's own answer for outsiders of a private group
      if (group.isPrivate && !(await viewer.groupIds()).has(id)) throw new HttpError(403, PRIVATE_GROUP);
      const rows = await store.list('meetup', viewer, c.input.query, (q) => q.where('group_id', id));
      return store.cards(rows, viewer);
    },
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/meetup-hosts',
    operationId: 'listMeetupHosts',
    summary: 'The communities and groups where I may create meetups (as their creator, or as an Ambassador member)',
    auth: 'required',
    schema: {
      response: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'id', 'name'],
          properties: { kind: { type: 'string', enum: ['community', 'group'] }, id: { type: 'integer' }, name: { type: 'string' } },
        },
      },
    },
    async handler(c) {
      const user = c.user!;
      const ambassador = user.role === 'Ambassador';
      const out: Array<{ kind: 'community' | 'group'; id: number; name: string }> = [];
      const communities = deps.communities();
      const cIds = await communities.communityIdsOf(user.id);
      const allowedC = ambassador ? cIds : (await Promise.all(cIds.map(async (id) => ((await communities.roleOf(id, user.id)) === 'creator' ? id : null)))).filter((x): x is number => x !== null);
      const cNames = await communities.summaries(allowedC);
      for (const id of allowedC) if (cNames.has(id)) out.push({ kind: 'community', id, name: cNames.get(id)!.name });
      const groups = deps.groups();
      if (groups) {
        const gIds = await groups.groupIdsOf(user.id);
        const allowedG = ambassador ? gIds : (await Promise.all(gIds.map(async (id) => ((await groups.creatorId(id)) === user.id ? id : null)))).filter((x): x is number => x !== null);
        const gNames = await groups.summaries(allowedG);
        for (const id of allowedG) if (gNames.has(id)) out.push({ kind: 'group', id, name: gNames.get(id)!.name });
      }
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },
  });

  ctx.routes.add<unknown, any>({
    method: 'GET',
    path: '/api/meetups',
    operationId: 'listMeetups',
    summary: 'Meetups, soonest first, for visitors too (those of private communities and groups only for their members); scope=mine: of my communities and groups, or that I organise or attend (empty for visitors)',
    auth: 'optional',
    schema: { query: LIST_QUERY, response: EVENT_LIST },
    async handler(c) {
      const viewer = store.viewer(c.user);
      return store.cards(await store.list('meetup', viewer, c.input.query), viewer);
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/meetups/:id',
    operationId: 'getMeetup',
    summary: 'One meetup with all its attendees, for visitors too (a private community or group: its members only, else 404)',
    auth: 'optional',
    schema: { params: ID_PARAMS, response: EVENT },
    async handler(c) {
      const viewer = store.viewer(c.user);
      const row = await store.loadFor(c.input.params.id, 'meetup', viewer);
      // (with its hours warning) and the cover's made variant widths and placeholder beside its URL
      return withImageInfo(store.knex, store.ctx.storage, await store.one(row, viewer), 'imageUrl', 'imageInfo');
    },
  });

  ctx.routes.add<{ id: number }, unknown, MeetupBody>({
    method: 'PUT',
    path: '/api/meetups/:id',
    operationId: 'updateMeetup',
    summary: 'Edit a meetup (the whole form): its organizer only. Attendees hear about changes of time or place.',
    auth: 'required',
    schema: { params: ID_PARAMS, body: { $ref: 'events/MeetupBody' }, response: EVENT },
    async handler(c) {
      const user = c.user!;
      const before = await store.loadFor(c.input.params.id, 'meetup', c.user);
      if (before.organizer_id !== user.id) throw new HttpError(403, 'Only the organizer can edit this meetup');
      const b = c.input.body;
      if (b.communityId != null && b.communityId !== before.community_id) throw new HttpError(400, 'A meetup cannot move to another community');
      if (b.groupId != null && b.groupId !== before.group_id) throw new HttpError(400, 'A meetup cannot move to another group');
      const cols = await meetupColumns(deps, knex, b, before);
      const { row, changes } = await updateWithCapacity(knex, before.id, cols);
      await store.afterRsvp(changes);
      if (scheduleChanged(before, row)) await store.notifyChanged(row, user.id);
      return store.one(row, store.viewer(user));
    },
  });

  ctx.routes.add<{ id: number }>({
    method: 'DELETE',
    path: '/api/meetups/:id',
    operationId: 'deleteMeetup',
    summary: 'Delete a meetup with its RSVPs, photos and discussion: its organizer only. Attendees are told.',
    auth: 'required',
    schema: { params: ID_PARAMS, response: { $ref: 'shared/Ok' } },
    async handler(c) {
      const row = await store.loadFor(c.input.params.id, 'meetup', c.user);
      if (row.organizer_id !== c.user!.id) throw new HttpError(403, 'Only the organizer can delete this meetup');
      await store.deleteEvents([row], { actorId: c.user!.id });
      return { success: true, message: 'Meetup deleted successfully!' };
    },
  });
}
