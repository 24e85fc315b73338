/**
 * The events plugin's state in one object handed to the route files: database, dependencies,
 * loading and listing events, after-commit effects (bus events, notifications), clean-ups.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { imageInfoSql, toImageInfo, withImageInfos } from '../../../core/images.ts';
import type { AuthUser, PluginContext } from '../../../core/plugin-api.ts';
import type { EventKind, EventsApi } from '../public.ts';
import type { Deps } from './deps.ts';
import { DEFAULT_DURATION_MS, NOT_FOUND, Viewer, eventStatus, serializeEvents, type EventRow, type KnownSummaries } from './model.ts';
import { removeRsvp, type RsvpChange } from './rsvp.ts';
import { formatDate, formatTime, isThisWeekend } from '../shared/time.ts';
import { likeEscape } from '../../../core/util.ts';

export interface ListOptions {
  scope?: 'all' | 'mine' | 'attending';
  from?: string;
  to?: string;
  includePast?: boolean;
  /** this weekend where each event takes place (shared/time.ts isThisWeekend) */
  weekend?: boolean;
  museumId?: number;
  q?: string;
  limit?: number;
}

export class EventsStore {
  constructor(readonly ctx: PluginContext, readonly knex: Knex, readonly deps: Deps) {}

  /** Queues reminders for an event's attendees (or some of them) at their times (reminders.ts). */
  scheduleReminders: ((eventId: number, userIds?: number[]) => Promise<void>) | null = null;

  viewer(user: AuthUser | undefined): Viewer {
    return new Viewer(this.deps, user);
  }

  /**
   * The event row, else 404. With `viewer`: also 404 when its organizer fails accounts' rule for the
   * viewer (organizerRule 'detail'), read in the same statement.
   */
  async load(id: number, kind?: EventKind, viewer?: Viewer): Promise<EventRow> {
    const q = this.knex('events_events').where({ id });
    if (viewer) q.whereRaw('?', [this.organizerRule(viewer, 'detail', 'events_events.organizer_id')]);
    const row = (await q.first()) as EventRow | undefined;
    if (!row || (kind && row.kind !== kind)) throw new HttpError(404, NOT_FOUND[kind ?? 'meetup']);
    return row;
  }

  /**
   * Accounts' rule for the meetup's organizer (a member; museum events have none: a null column
   * passes), as a boolean SQL expression on `col`. Lists (`'list'`): `notBlockedOrMuted` — no block
   * either way, no mute by the viewer, no pending deletion — as the weekly digest applies it. One
   * event opened by its link (`'detail'`): no block either way and no pending deletion (404 like a
   * missing one, as insights answers a blocked author's post), while a mute only hides from lists
   * (insights opens a muted author's post by its link). The organizer and Admins always pass.
   */
  organizerRule(viewer: Viewer, mode: 'list' | 'detail', col: string): Knex.Raw {
    const user = viewer.user ? { id: viewer.user.id, role: viewer.user.role } : null;
    if (user?.role === 'Admin') return this.knex.raw('true');
    const acc = this.deps.accounts().sql;
    const rule = mode === 'list' ? acc.notBlockedOrMuted(user, col) : this.knex.raw('(? and ?)', [acc.notPendingDeletion(col), acc.notBlocked(user?.id ?? null, col)]);
    return user ? this.knex.raw('(?? is null or ?? = ? or ?)', [col, col, user.id, rule]) : this.knex.raw('(?? is null or ?)', [col, rule]);
  }

  /**
   * The event as `user` may see it: a meetup of a private community or group is "not found"
   * (404, the same answer as a missing one) for everyone but its members and its organizer, and so
   * is a meetup whose organizer blocked the viewer or was blocked by them, or whose deletion is
   * pending (organizerRule 'detail', read with the row).
   */
  async loadFor(id: number, kind: EventKind, user: AuthUser | Viewer | undefined): Promise<EventRow> {
    const viewer = user instanceof Viewer ? user : this.viewer(user);
    const row = await this.load(id, kind, viewer);
    if (!(await this.privacyVisible([row], viewer)).length) throw new HttpError(404, NOT_FOUND[kind]);
    return row;
  }

  /**
   * The rows the viewer may see, in the same order: those loadFor opens. The organizer's rule
   * (organizerRule 'detail') in one statement when a row has an organizer other than the viewer,
   * then privacyVisible.
   */
  async visible(rows: EventRow[], viewer: Viewer): Promise<EventRow[]> {
    const check = rows.filter((r) => r.organizer_id !== null && r.organizer_id !== viewer.id);
    let kept = rows;
    if (check.length && viewer.user?.role !== 'Admin') {
      const ok = new Set(
        (await this.knex('events_events')
          .whereIn('id', check.map((r) => r.id))
          .whereRaw('?', [this.organizerRule(viewer, 'detail', 'events_events.organizer_id')])
          .pluck('id')) as number[],
      );
      kept = rows.filter((r) => r.organizer_id === null || r.organizer_id === viewer.id || ok.has(r.id));
    }
    return this.privacyVisible(kept, viewer);
  }

  /**
   * The rows the viewer may see by their community's or group's privacy, in the same order. Museum
   * events are public. A meetup of a private community or group (or one whose community or group
   * cannot be found, or whose groups plugin is off) is for the members of that community or group
   * and its organizer only; the privacy comes from CommunitiesApi/GroupsApi.summaries(), the
   * membership from the viewer.
   */
  private async privacyVisible(rows: EventRow[], viewer: Viewer): Promise<EventRow[]> {
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

  /**
   * loadFor in one statement (issue 18): the row, the viewer's membership of its community or group
   * (CommunitiesApi.sql / GroupsApi.sql, recorded on the viewer so that isMemberOf asks no more) and
   * their summaries for the answer (`known`, handed to one()). The same rule as loadFor(): a meetup
   * of a private community or group, or of one that cannot be found, is "not found" for everyone but
   * its members and its organizer; so is one whose organizer fails organizerRule 'detail' (same statement).
   */
  async loadWithAccess(id: number, kind: EventKind, viewer: Viewer): Promise<{ row: EventRow; known: KnownSummaries }> {
    const cs = this.deps.communities().sql;
    const gs = this.deps.groups()?.sql;
    const uid = viewer.id;
    const raw = (await this.knex('events_events as e')
      .where('e.id', id)
      .first(
        'e.*',
        this.knex.raw('? as x_community', [cs.summary('e.community_id')]),
        this.knex.raw('? as x_community_member', [cs.isMember(uid, 'e.community_id')]),
        gs ? this.knex.raw('? as x_group', [gs.summary('e.group_id')]) : this.knex.raw('null::json as x_group'),
        gs ? this.knex.raw('? as x_group_member', [gs.isMember(uid, 'e.group_id')]) : this.knex.raw('false as x_group_member'),
        this.knex.raw('? as x_organizer_ok', [this.organizerRule(viewer, 'detail', 'e.organizer_id')]),
      )) as (EventRow & { x_community: unknown; x_community_member: boolean; x_group: unknown; x_group_member: boolean; x_organizer_ok: boolean }) | undefined;
    if (!raw || raw.kind !== kind || !raw.x_organizer_ok) throw new HttpError(404, NOT_FOUND[kind]);
    const { x_community, x_community_member, x_group, x_group_member, x_organizer_ok: _ok, ...rest } = raw;
    const row = rest as EventRow;
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as { id: number; name: string; isPrivate: boolean } | null;
    const community = json(x_community);
    const group = json(x_group);
    const known: KnownSummaries = { communities: new Map(), groups: new Map() };
    if (community) known.communities!.set(Number(community.id), { id: Number(community.id), name: community.name, isPrivate: Boolean(community.isPrivate) });
    if (group) known.groups!.set(Number(group.id), { id: Number(group.id), name: group.name, isPrivate: Boolean(group.isPrivate) });
    if (row.community_id !== null) viewer.know('community', row.community_id, Boolean(x_community_member));
    if (row.group_id !== null && gs) viewer.know('group', row.group_id, Boolean(x_group_member));
    if (row.kind === 'meetup' && (uid === null || row.organizer_id !== uid)) {
      const open = row.community_id !== null ? community?.isPrivate === false : row.group_id !== null ? group?.isPrivate === false : true;
      if (!open && !(await viewer.isMemberOf(row))) throw new HttpError(404, NOT_FOUND[kind]);
    }
    return { row, known };
  }

  async one(row: EventRow, viewer: Viewer, known?: KnownSummaries): Promise<any> {
    const [e] = await serializeEvents(this.knex, this.deps, viewer, [row], { fullAttendees: true, known });
    return e;
  }

  async oneById(id: number, kind: EventKind, viewer: Viewer): Promise<any> {
    return this.one(await this.load(id, kind), viewer);
  }

  async many(rows: EventRow[], viewer: Viewer): Promise<any[]> {
    return serializeEvents(this.knex, this.deps, viewer, rows);
  }

  /** A list's answers (event cards), with each cover's made widths and placeholder (imageInfo): one query for the whole list. */
  async cards(rows: EventRow[], viewer: Viewer): Promise<any[]> {
    return withImageInfos(this.knex, this.ctx.storage, await this.many(rows, viewer), 'imageUrl', 'imageInfo');
  }

  /** Events of one kind, filtered, soonest first. `where` narrows further (community, group). */
  async list(kind: EventKind | null, viewer: Viewer, opts: ListOptions, where?: (q: Knex.QueryBuilder) => void): Promise<EventRow[]> {
    const q = this.knex('events_events').select('events_events.*');
    if (kind) q.where('kind', kind);
    where?.(q);
    if (opts.museumId) q.where('museum_id', opts.museumId);
    if (opts.from) q.where('date_time', '>=', new Date(opts.from));
    if (opts.to) q.where('date_time', '<', new Date(opts.to));
    // this weekend on each event's own clock: narrowed in SQL to the instants any zone's weekend
    // can cover (Saturday 00:00 is at most 2 days back, Monday 00:00 at most 7 days ahead), then
    // decided per row with the shared rule below
    const now = new Date();
    if (opts.weekend) q.where('date_time', '>=', this.knex.raw(`now() - interval '3 days'`)).where('date_time', '<', this.knex.raw(`now() + interval '8 days'`));
    const keep = (r: EventRow) => !opts.weekend || isThisWeekend(r.date_time, r.time_zone, now);
    if (!opts.includePast && !opts.from && !opts.weekend) this.whereUpcoming(q);
    this.whereText(q, opts.q);
    // accounts' rule for the organizer (blocks either way, mutes, pending deletion), in SQL before the limit
    q.whereRaw('?', [this.organizerRule(viewer, 'list', 'events_events.organizer_id')]);
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
    // Meetups the viewer may not see by privacy (private communities and groups) are left out after
    // the query, so read in batches until the page is full or the rows run out.
    const limit = opts.limit ?? 100;
    const batch = Math.max(limit, 50);
    const out: EventRow[] = [];
    for (let offset = 0; ; offset += batch) {
      const rows = (await q.clone().offset(offset).limit(batch)) as EventRow[];
      out.push(...(await this.privacyVisible(rows.filter(keep), viewer)));
      if (out.length >= limit || rows.length < batch) break;
    }
    return out.slice(0, limit);
  }

  /**
   * Events for the all-in-one search (GET /api/search): a statement not yet run, read with the other
   * kinds' (issue 18: the full answers cost 6 statements more), and its answer from the rows.
   * Upcoming and running events matching `q`, soonest first, as short summaries (the Discover page
   * shows title, date and place and links to the event; the full answers are GET
   * /api/search/events). The meetups of private communities and groups are for their members and
   * organizers only, decided in SQL by CommunitiesApi.sql / GroupsApi.sql.visibleTo; accounts' rule
   * for the organizer (organizerRule 'list') in the same statement.
   */
  searchSummariesStatement(q: string, limit: number, viewer: Viewer): { query: Knex.QueryBuilder; answer: (rows: any[]) => any[] } {
    const uid = viewer.id;
    const cs = this.deps.communities().sql;
    const gs = this.deps.groups()?.sql;
    const query = this.knex('events_events as e').select(
      'e.id',
      'e.kind',
      'e.title',
      'e.location',
      'e.date_time',
      'e.end_date_time',
      'e.time_zone',
      'e.museum_id',
      'e.community_id',
      'e.group_id',
      'e.image_url',
      // the cover's made widths and placeholder (issue 23), in this statement
      this.knex.raw('? as ??', [imageInfoSql(this.knex, 'e.image_url'), 'image_info']),
    );
    this.whereUpcoming(query);
    this.whereText(query, q);
    // accounts' rule for the organizer, as list() applies it
    query.whereRaw('?', [this.organizerRule(viewer, 'list', 'e.organizer_id')]);
    query.where((w) => {
      w.whereNot('e.kind', 'meetup');
      if (uid !== null) w.orWhere('e.organizer_id', uid);
      w.orWhere((c) => c.whereNotNull('e.community_id').whereRaw('?', [cs.visibleTo(uid, 'e.community_id')]));
      if (gs) w.orWhere((c) => c.whereNull('e.community_id').whereNotNull('e.group_id').whereRaw('?', [gs.visibleTo(uid, 'e.group_id')]));
      w.orWhere((c) => c.whereNull('e.community_id').whereNull('e.group_id'));
    });
    query.orderBy([{ column: 'e.date_time' }, { column: 'e.id' }]).limit(limit);
    const answer = (rows: any[]) => {
      const now = Date.now();
      return rows.map((r: any) => ({
        id: r.id,
        kind: r.kind,
        title: r.title,
        location: r.location,
        dateTime: new Date(r.date_time).toISOString(),
        endDateTime: r.end_date_time ? new Date(r.end_date_time).toISOString() : null,
        timeZone: r.time_zone,
        status: eventStatus(r, now),
        museumId: r.museum_id,
        communityId: r.community_id,
        groupId: r.group_id,
        imageUrl: r.image_url,
        imageInfo: toImageInfo(r.image_info),
      }));
    };
    return { query, answer };
  }

  /** upcoming and running events (an event without an end counts as running for 2 hours) */
  private whereUpcoming(q: Knex.QueryBuilder): void {
    q.where((w) => w.where('date_time', '>', this.knex.raw(`now() - interval '2 hours'`)).orWhere('end_date_time', '>', this.knex.raw('now()')));
  }

  /** title, place, description or a tag containing `text` (case-insensitive) */
  private whereText(q: Knex.QueryBuilder, text: string | undefined): void {
    const t = text?.trim();
    if (!t) return;
    const like = `%${likeEscape(t)}%`;
    q.where((w) =>
      w
        .whereRaw(`(title || ' ' || location || ' ' || description) ilike ?`, [like])
        .orWhereRaw(`exists (select 1 from unnest(tags) as t(tag) where t.tag ilike ?)`, [like]),
    );
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
    const attending = changes.filter((c) => c.status === 'attending');
    // the reminders' jobs are queued after the answer (the member does not wait for them; should the
    // process die first, the 5-minute scan queues them)
    for (const eventId of new Set(attending.map((c) => c.eventId))) {
      const userIds = attending.filter((c) => c.eventId === eventId).map((c) => c.userId);
      this.ctx.events.after(() => this.scheduleReminders?.(eventId, userIds));
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
    // a moved event: its reminders at the new times (those queued for the old one are dropped)
    await this.scheduleReminders?.(row.id);
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
      visibleSummaries: async (ids, viewer) => {
        const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i > 0))];
        if (!unique.length) return [];
        const rows = (await knex('events_events').whereIn('id', unique)) as EventRow[];
        const seen = await this.visible(rows, this.viewer(viewer ? { id: viewer.id, role: viewer.role, username: '' } : undefined));
        const byId = new Map(seen.map((r) => [r.id, r]));
        return unique.flatMap((id) => {
          const r = byId.get(id);
          if (!r) return [];
          const start = new Date(r.date_time);
          const end = r.end_date_time ? new Date(r.end_date_time) : new Date(start.getTime() + DEFAULT_DURATION_MS);
          return [{ id: r.id, kind: r.kind, title: r.title, startsAt: start.toISOString(), endsAt: end.toISOString(), timeZone: r.time_zone, museumId: r.museum_id, location: r.location ?? '' }];
        });
      },
    };
  }
}
