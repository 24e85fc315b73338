/**
 * The events plugin's state in one object handed to the route files: database, dependencies,
 * loading and listing events, after-commit effects (bus events, notifications), clean-ups.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { AuthUser, PluginContext } from '../../../core/plugin-api.ts';
import type { EventKind, EventsApi } from '../public.ts';
import type { Deps } from './deps.ts';
import { NOT_FOUND, Viewer, serializeEvents, type EventRow } from './model.ts';
import { removeRsvp, type RsvpChange } from './rsvp.ts';
import { formatDate, formatTime } from '../shared/time.ts';

export interface ListOptions {
  scope?: 'all' | 'mine' | 'attending';
  from?: string;
  to?: string;
  includePast?: boolean;
  museumId?: number;
  q?: string;
  limit?: number;
}

export class EventsStore {
  constructor(readonly ctx: PluginContext, readonly knex: Knex, readonly deps: Deps) {}

  viewer(user: AuthUser | undefined): Viewer {
    return new Viewer(this.deps, user);
  }

  async load(id: number, kind?: EventKind): Promise<EventRow> {
    const row = (await this.knex('events_events').where({ id }).first()) as EventRow | undefined;
    if (!row || (kind && row.kind !== kind)) throw new HttpError(404, NOT_FOUND[kind ?? 'meetup']);
    return row;
  }

  /**
   * The event as `user` may see it: a meetup of a private community or group is "not found"
   * (404, the same answer as a missing one) for everyone but its members and its organizer.
   */
  async loadFor(id: number, kind: EventKind, user: AuthUser | Viewer | undefined): Promise<EventRow> {
    const row = await this.load(id, kind);
    const viewer = user instanceof Viewer ? user : this.viewer(user);
    if (!(await this.visible([row], viewer)).length) throw new HttpError(404, NOT_FOUND[kind]);
    return row;
  }

  /**
   * The rows the viewer may see, in the same order. Museum events are public. A meetup of a
   * private community or group (or one whose community or group cannot be found, or whose groups
   * plugin is off) is for the members of that community or group and its organizer only; the
   * privacy comes from CommunitiesApi/GroupsApi.summaries(), the membership from the viewer.
   */
  async visible(rows: EventRow[], viewer: Viewer): Promise<EventRow[]> {
    const uid = viewer.id;
    const check = rows.filter((r) => r.kind === 'meetup' && (uid === null || r.organizer_id !== uid));
    if (!check.length) return rows;
    const cIds = [...new Set(check.map((r) => r.community_id).filter((x): x is number => x !== null))];
    const gIds = [...new Set(check.map((r) => r.group_id).filter((x): x is number => x !== null))];
    const groupsApi = this.deps.groups();
    const [communities, groups] = await Promise.all([
      cIds.length ? this.deps.communities().summaries(cIds) : Promise.resolve(new Map<number, { isPrivate: boolean }>()),
      gIds.length && groupsApi ? groupsApi.summaries(gIds) : Promise.resolve(new Map<number, { isPrivate: boolean }>()),
    ]);
    const hidden = new Set<number>();
    for (const r of check) {
      const open = r.community_id !== null ? communities.get(r.community_id)?.isPrivate === false : r.group_id !== null ? groups.get(r.group_id)?.isPrivate === false : true;
      if (!open && !(await viewer.isMemberOf(r))) hidden.add(r.id);
    }
    return hidden.size ? rows.filter((r) => !hidden.has(r.id)) : rows;
  }

  async one(row: EventRow, viewer: Viewer): Promise<any> {
    const [e] = await serializeEvents(this.knex, this.deps, viewer, [row], { fullAttendees: true });
    return e;
  }

  async oneById(id: number, kind: EventKind, viewer: Viewer): Promise<any> {
    return this.one(await this.load(id, kind), viewer);
  }

  async many(rows: EventRow[], viewer: Viewer): Promise<any[]> {
    return serializeEvents(this.knex, this.deps, viewer, rows);
  }

  /** Events of one kind, filtered, soonest first. `where` narrows further (community, group). */
  async list(kind: EventKind | null, viewer: Viewer, opts: ListOptions, where?: (q: Knex.QueryBuilder) => void): Promise<EventRow[]> {
    const q = this.knex('events_events').select('events_events.*');
    if (kind) q.where('kind', kind);
    where?.(q);
    if (opts.museumId) q.where('museum_id', opts.museumId);
    if (opts.from) q.where('date_time', '>=', new Date(opts.from));
    if (opts.to) q.where('date_time', '<', new Date(opts.to));
    if (!opts.includePast && !opts.from) {
      // upcoming and running events (an event without an end counts as running for 2 hours)
      q.where((w) => w.where('date_time', '>', this.knex.raw(`now() - interval '2 hours'`)).orWhere('end_date_time', '>', this.knex.raw('now()')));
    }
    const text = opts.q?.trim();
    if (text) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q.where((w) =>
        w
          .whereRaw(`(title || ' ' || location || ' ' || description) ilike ?`, [like])
          .orWhereRaw(`exists (select 1 from unnest(tags) as t(tag) where t.tag ilike ?)`, [like]),
      );
    }
    const scope = opts.scope ?? 'all';
    if (scope !== 'all') {
      if (viewer.id === null) return [];
      const uid = viewer.id;
      const attending = this.knex('events_attendees').where('user_id', uid).select('event_id');
      if (scope === 'attending' || kind === 'museum_event') q.whereIn('id', attending);
      else {
        const [communities, groups] = await Promise.all([viewer.communityIds(), viewer.groupIds()]);
        q.where((w) => {
          w.whereIn('id', attending).orWhere('organizer_id', uid);
          if (communities.size) w.orWhereIn('community_id', [...communities]);
          if (groups.size) w.orWhereIn('group_id', [...groups]);
        });
      }
    }
    q.orderBy([{ column: 'date_time' }, { column: 'id' }]);
    // Meetups the viewer may not see (private communities and groups) are left out after the
    // query, so read in batches until the page is full or the rows run out.
    const limit = opts.limit ?? 100;
    const batch = Math.max(limit, 50);
    const out: EventRow[] = [];
    for (let offset = 0; ; offset += batch) {
      const rows = (await q.clone().offset(offset).limit(batch)) as EventRow[];
      out.push(...(await this.visible(rows, viewer)));
      if (out.length >= limit || rows.length < batch) break;
    }
    return out.slice(0, limit);
  }

  /** After a committed RSVP change: bus events and notifications of promotions. */
  async afterRsvp(changes: RsvpChange[]): Promise<void> {
    for (const c of changes) {
      await this.ctx.events.emit('events.rsvp.changed', {
        eventId: c.eventId,
        kind: c.kind,
        userId: c.userId,
        status: c.status,
        previousStatus: c.previousStatus,
        reason: c.reason,
      });
    }
    const promoted = changes.filter((c) => c.reason === 'promoted');
    if (promoted.length) {
      const first = promoted[0];
      await this.deps.notify(
        promoted.map((p) => p.userId),
        {
          type: 'event_reminder',
          title: 'You have a seat',
          message: `A seat opened up at "${first.title}": you moved from the waitlist to the attendee list.`,
          link: `/${first.kind === 'meetup' ? 'meetups' : 'events'}/${first.eventId}`,
        },
      );
    }
  }

  /** Everyone holding a place at the event (seat, interest, waitlist), except `exceptUserId`. */
  async participantIds(eventId: number, exceptUserId?: number): Promise<number[]> {
    const ids = (await this.knex('events_attendees').where('event_id', eventId).pluck('user_id')) as number[];
    return ids.filter((i) => i !== exceptUserId);
  }

  describeWhen(row: Pick<EventRow, 'date_time' | 'time_zone'>): string {
    return `${formatDate(row.date_time, row.time_zone)}, ${formatTime(row.date_time, row.time_zone)}`;
  }

  async notifyChanged(row: EventRow, actorId: number): Promise<void> {
    const to = await this.participantIds(row.id, actorId);
    await this.deps.notify(to, {
      type: 'event_reminder',
      title: row.kind === 'meetup' ? 'Meetup updated' : 'Event updated',
      message: `"${row.title}" has changed. It now takes place ${this.describeWhen(row)} at ${row.location}.`,
      link: `/${row.kind === 'meetup' ? 'meetups' : 'events'}/${row.id}`,
    });
  }

  /**
   * Deletes events with their RSVPs, photos (files too) and comments. Attendees of events still to
   * come hear that they are cancelled.
   */
  async deleteEvents(rows: EventRow[], opts: { actorId?: number; reason?: string } = {}): Promise<void> {
    if (!rows.length) return;
    const ids = rows.map((r) => r.id);
    const now = Date.now();
    const toNotify = new Map<number, number[]>();
    for (const r of rows) if (new Date(r.date_time).getTime() > now) toNotify.set(r.id, await this.participantIds(r.id, opts.actorId));
    const photos = (await this.knex('events_photos').whereIn('event_id', ids).select('storage_key', 'thumbnail_url')) as Array<{ storage_key: string; thumbnail_url: string | null }>;
    await this.knex.transaction(async (trx) => {
      // Museum-event links of meetups are cleared by the foreign key (on delete set null).
      await trx('events_events').whereIn('museum_event_id', ids).update({ connect_to_museum_event: false });
      await trx('events_events').whereIn('id', ids).del();
    });
    await this.deleteFiles(photos);
    for (const r of rows) {
      if (r.kind === 'meetup' && r.organizer_id !== null) await this.ctx.events.emit('events.meetup.deleted', { eventId: r.id, organizerId: r.organizer_id });
      const to = toNotify.get(r.id);
      if (to?.length) {
        await this.deps.notify(to, {
          type: 'event_reminder',
          title: r.kind === 'meetup' ? 'Meetup cancelled' : 'Event cancelled',
          message: `"${r.title}" (${this.describeWhen(r)}) has been cancelled${opts.reason ? `: ${opts.reason}` : '.'}`,
          link: null,
        });
      }
    }
  }

  async deleteFiles(photos: Array<{ storage_key: string; thumbnail_url: string | null }>): Promise<void> {
    for (const p of photos) {
      await this.ctx.storage.delete(p.storage_key).catch(() => {});
      const thumb = p.thumbnail_url ? this.ctx.storage.keyFromUrl(p.thumbnail_url) : null;
      if (thumb) await this.ctx.storage.delete(thumb).catch(() => {});
    }
  }

  /** Releases every place the user holds, event by event (each with its own lock), promoting waitlists. */
  async releaseUser(userId: number, eventIds?: number[]): Promise<void> {
    const q = this.knex('events_attendees').where('user_id', userId).orderBy('event_id');
    if (eventIds) q.whereIn('event_id', eventIds);
    const ids = (await q.pluck('event_id')) as number[];
    for (const id of ids) {
      const changes = await removeRsvp(this.knex, id, undefined, userId, { reason: 'removed' });
      await this.afterRsvp(changes);
    }
  }

  api(): EventsApi {
    const knex = this.knex;
    return {
      async attendedCount(userId) {
        const r = await knex('events_attendees').where({ user_id: userId, status: 'attending' }).count({ n: '*' }).first();
        return Number(r?.n ?? 0);
      },
      async upcomingEventIds(userId, limit = 20) {
        return (await knex('events_attendees as a')
          .join('events_events as e', 'e.id', 'a.event_id')
          .where('a.user_id', userId)
          .whereIn('a.status', ['attending', 'interested'])
          .where('e.date_time', '>', knex.fn.now())
          .orderBy('e.date_time')
          .limit(limit)
          .pluck('e.id')) as number[];
      },
      async stats() {
        const r = (await knex('events_events')
          .select(
            knex.raw(`count(*) filter (where kind = 'meetup') as meetups`),
            knex.raw(`count(*) filter (where kind = 'museum_event') as museum_events`),
            knex.raw(`count(*) filter (where date_time > now()) as upcoming`),
          )
          .first()) as any;
        const a = await knex('events_attendees').count({ n: '*' }).first();
        return { meetups: Number(r.meetups), museumEvents: Number(r.museum_events), upcoming: Number(r.upcoming), rsvps: Number(a?.n ?? 0) };
      },
    };
  }
}
