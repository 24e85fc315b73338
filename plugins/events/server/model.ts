/**
 * Events as stored and as answered: the row type, the viewer (what the signed-in member may do),
 * and the serializer that turns rows into the events/Event answer with a handful of queries for
 * a whole list (attendees, counts, users, museums, communities, groups).
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../../../core/plugin-api.ts';
import type { Deps } from './deps.ts';
import type { EventKind, RsvpStatus } from '../public.ts';
import { fromCents, instantToZoned } from '../shared/time.ts';

export interface EventRow {
  id: number;
  kind: EventKind;
  title: string;
  description: string;
  location: string;
  date_time: Date;
  end_date_time: Date | null;
  time_zone: string;
  max_attendees: number | null;
  current_attendees: number;
  enable_waitlist: boolean;
  tags: string[];
  allow_photo_sharing: boolean;
  allow_comments: boolean;
  museum_id: number | null;
  organizer_id: number | null;
  community_id: number | null;
  group_id: number | null;
  connect_to_museum_event: boolean;
  museum_event_id: number | null;
  expected_group_size: string | null;
  rsvp_required: boolean;
  cost: 'free' | 'donation' | 'paid';
  cost_amount_cents: number | null;
  age_restrictions: string | null;
  museum_contact: string | null;
  collaboration_status: 'discussion' | 'confirmed' | 'museum_host';
  can_museum_promote: boolean;
  who_can_join: 'members_only' | 'anyone';
  accessibility_notes: string | null;
  rain_plan: string | null;
  created_by: number | null;
  category: string | null;
  price_cents: number;
  requirements: string | null;
  ticket_url: string | null;
  image_url: string | null;
  seed_key: string | null;
  created_at: Date;
  updated_at: Date;
}

export const KIND_LABEL: Record<EventKind, string> = { meetup: 'Meetup', museum_event: 'Event' };
export const NOT_FOUND: Record<EventKind, string> = { meetup: 'Meetup not found', museum_event: 'Event not found' };

/** Without an end time, an event counts as running for this long after it starts. */
export const DEFAULT_DURATION_MS = 2 * 60 * 60 * 1000;
/** Attendees listed per event in list answers (detail answers list them all). */
export const LIST_ATTENDEES = 50;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** What the signed-in member is, cached for one request. */
export class Viewer {
  private communities?: Promise<Set<number>>;
  private groups?: Promise<Set<number>>;
  private manages = new Map<number, Promise<boolean>>();
  constructor(private deps: Deps, readonly user: AuthUser | undefined) {}

  get id(): number | null {
    return this.user?.id ?? null;
  }

  /** Under a content restriction (admin moderation): may not share photos or comment. */
  get restricted(): boolean {
    return Boolean(this.user?.restricted);
  }

  communityIds(): Promise<Set<number>> {
    if (!this.user) return Promise.resolve(new Set());
    this.communities ??= this.deps.communities().communityIdsOf(this.user.id).then((ids) => new Set(ids));
    return this.communities;
  }

  groupIds(): Promise<Set<number>> {
    const g = this.deps.groups();
    if (!this.user || !g) return Promise.resolve(new Set());
    this.groups ??= g.groupIdsOf(this.user.id).then((ids) => new Set(ids));
    return this.groups;
  }

  canManageMuseum(museumId: number): Promise<boolean> {
    if (!this.user) return Promise.resolve(false);
    let p = this.manages.get(museumId);
    if (!p) {
      p = this.deps.museums().canManage(this.user, museumId);
      this.manages.set(museumId, p);
    }
    return p;
  }

  /** A member of the meetup's community or group (the creator counts as a member). */
  async isMemberOf(row: Pick<EventRow, 'community_id' | 'group_id'>): Promise<boolean> {
    if (!this.user) return false;
    if (row.community_id !== null) return (await this.communityIds()).has(row.community_id);
    if (row.group_id !== null) return (await this.groupIds()).has(row.group_id);
    return false;
  }

  /**
   * Who takes part, and so may share photos and join the discussion: for a meetup its organizer,
   * the members of its community or group, and its attendees; for a museum event its attendees
   * (attending or interested) and the museum's managers.
   */
  async isParticipant(row: EventRow, myStatus: RsvpStatus | null): Promise<boolean> {
    if (!this.user) return false;
    if (myStatus === 'attending' || myStatus === 'interested') return true;
    if (row.kind === 'meetup') return row.organizer_id === this.user.id || (await this.isMemberOf(row));
    return row.museum_id !== null && (await this.canManageMuseum(row.museum_id));
  }

  async canEdit(row: EventRow): Promise<boolean> {
    if (!this.user) return false;
    if (row.kind === 'meetup') return row.organizer_id === this.user.id;
    return row.museum_id !== null && (await this.canManageMuseum(row.museum_id));
  }

  async canComment(row: EventRow, myStatus: RsvpStatus | null): Promise<boolean> {
    if (!this.user || !row.allow_comments || this.restricted) return false;
    // A museum event's discussion is open to every member; a meetup's to its participants.
    return row.kind === 'museum_event' ? true : this.isParticipant(row, myStatus);
  }
}

export function eventStatus(row: Pick<EventRow, 'date_time' | 'end_date_time'>, now = Date.now()): 'upcoming' | 'ongoing' | 'past' {
  const start = new Date(row.date_time).getTime();
  const end = row.end_date_time ? new Date(row.end_date_time).getTime() : start + DEFAULT_DURATION_MS;
  if (now < start) return 'upcoming';
  return now < end ? 'ongoing' : 'past';
}

export function isJoinable(row: Pick<EventRow, 'date_time'>, now = Date.now()): boolean {
  return new Date(row.date_time).getTime() > now;
}

async function countBy(knex: Knex, table: string, ids: number[], extra?: (q: Knex.QueryBuilder) => void): Promise<Map<number, number>> {
  const q = knex(table).whereIn('event_id', ids).groupBy('event_id').select('event_id').count({ n: '*' });
  extra?.(q);
  const rows = (await q) as Array<{ event_id: number; n: number | string }>;
  return new Map(rows.map((r) => [r.event_id, Number(r.n)]));
}

/** Rows → events/Event answers, in the same order. */
export async function serializeEvents(knex: Knex, deps: Deps, viewer: Viewer, rows: EventRow[], opts: { fullAttendees?: boolean } = {}): Promise<any[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const attendeeLimit = opts.fullAttendees ? null : LIST_ATTENDEES;
  const attendeeRows = (await knex
    .select('*')
    .from(
      knex('events_attendees')
        .whereIn('event_id', ids)
        .whereIn('status', ['attending', 'interested'])
        // attendees blocked either way with the viewer are not listed (accounts' rule; counts stay whole)
        .whereRaw(deps.accounts().sql.notBlocked(viewer.user && viewer.user.role !== 'Admin' ? viewer.user.id : null, 'events_attendees.user_id'))
        .select('event_id', 'user_id', 'status', 'joined_at', knex.raw('row_number() over (partition by event_id order by joined_at, user_id) as rn'))
        .as('a'),
    )
    .modify((q) => {
      if (attendeeLimit) q.where('rn', '<=', attendeeLimit);
    })
    .orderBy([{ column: 'event_id' }, { column: 'rn' }])) as Array<{ event_id: number; user_id: number; status: RsvpStatus; joined_at: Date }>;

  const [waitlists, photos, comments] = await Promise.all([
    countBy(knex, 'events_attendees', ids, (q) => q.where('status', 'waitlisted')),
    countBy(knex, 'events_photos', ids),
    countBy(knex, 'events_comments', ids),
  ]);

  const mine = new Map<number, { status: RsvpStatus; position: number | null }>();
  if (viewer.id !== null) {
    const my = (await knex('events_attendees').where('user_id', viewer.id).whereIn('event_id', ids).select('event_id', 'status', 'waitlist_seq')) as Array<{
      event_id: number;
      status: RsvpStatus;
      waitlist_seq: string | number | null;
    }>;
    for (const m of my) {
      let position: number | null = null;
      if (m.status === 'waitlisted') {
        const r = await knex('events_attendees')
          .where({ event_id: m.event_id, status: 'waitlisted' })
          .where('waitlist_seq', '<=', m.waitlist_seq as any)
          .count({ n: '*' })
          .first();
        position = Number(r?.n ?? 1);
      }
      mine.set(m.event_id, { status: m.status, position });
    }
  }

  const userIds = [...attendeeRows.map((a) => a.user_id), ...rows.map((r) => r.organizer_id).filter((x): x is number => x !== null)];
  const museumIds = [...new Set(rows.map((r) => r.museum_id).filter((x): x is number => x !== null))];
  const communityIds = [...new Set(rows.map((r) => r.community_id).filter((x): x is number => x !== null))];
  const groupIds = [...new Set(rows.map((r) => r.group_id).filter((x): x is number => x !== null))];
  const groupsApi = deps.groups();
  const [users, museums, communities, groups] = await Promise.all([
    deps.accounts().getUserSummaries(userIds),
    museumIds.length ? deps.museums().getMuseumSummaries(museumIds) : Promise.resolve(new Map()),
    communityIds.length ? deps.communities().summaries(communityIds) : Promise.resolve(new Map()),
    groupIds.length && groupsApi ? groupsApi.summaries(groupIds) : Promise.resolve(new Map()),
  ]);

  const byEvent = new Map<number, typeof attendeeRows>();
  for (const a of attendeeRows) byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a]);

  const now = Date.now();
  return Promise.all(
    rows.map(async (r) => {
      const my = mine.get(r.id) ?? null;
      const myStatus = my?.status ?? null;
      const tz = r.time_zone;
      const start = instantToZoned(r.date_time, tz);
      const end = r.end_date_time ? instantToZoned(r.end_date_time, tz) : null;
      const m = r.museum_id !== null ? museums.get(r.museum_id) : undefined;
      const c = r.community_id !== null ? communities.get(r.community_id) : undefined;
      const g = r.group_id !== null ? groups.get(r.group_id) : undefined;
      const participant = await viewer.isParticipant(r, myStatus);
      const price = r.kind === 'meetup' ? (r.cost === 'paid' ? fromCents(r.cost_amount_cents) ?? 0 : 0) : fromCents(r.price_cents) ?? 0;
      return {
        id: r.id,
        kind: r.kind,
        title: r.title,
        description: r.description,
        location: r.location,
        dateTime: iso(r.date_time),
        endDateTime: iso(r.end_date_time),
        date: start.date,
        startTime: start.time,
        endTime: end ? end.time : null,
        timeZone: tz,
        maxAttendees: r.max_attendees,
        currentAttendees: r.current_attendees,
        spotsLeft: r.max_attendees === null ? null : Math.max(0, r.max_attendees - r.current_attendees),
        isFull: r.max_attendees !== null && r.current_attendees >= r.max_attendees,
        enableWaitlist: r.enable_waitlist,
        waitlistCount: waitlists.get(r.id) ?? 0,
        attendees: (byEvent.get(r.id) ?? []).map((a) => ({
          userId: a.user_id,
          status: a.status,
          joinedAt: iso(a.joined_at),
          user: users.get(a.user_id) ?? null,
        })),
        userStatus: myStatus,
        waitlistPosition: my?.position ?? null,
        status: eventStatus(r, now),
        isJoinable: isJoinable(r, now),
        tags: r.tags ?? [],
        category: r.category,
        price,
        requirements: r.requirements,
        ticketUrl: r.ticket_url,
        imageUrl: r.image_url ?? m?.featuredImage ?? null,
        museumId: r.museum_id,
        museum: m ? { id: m.id, slug: m.slug, name: m.name, city: m.city ?? null, country: m.country ?? null, featuredImage: m.featuredImage ?? null } : null,
        organizerId: r.organizer_id,
        organizer: r.organizer_id !== null ? users.get(r.organizer_id) ?? null : null,
        communityId: r.community_id,
        community: c ? { id: c.id, name: c.name } : null,
        groupId: r.group_id,
        group: g ? { id: g.id, name: g.name } : null,
        connectToMuseumEvent: r.connect_to_museum_event,
        museumEventId: r.museum_event_id,
        expectedGroupSize: r.expected_group_size,
        rsvpRequired: r.rsvp_required,
        cost: r.cost,
        costAmount: r.cost === 'paid' ? fromCents(r.cost_amount_cents) : null,
        ageRestrictions: r.age_restrictions,
        museumContact: r.museum_contact,
        collaborationStatus: r.collaboration_status,
        canMuseumPromote: r.can_museum_promote,
        allowPhotoSharing: r.allow_photo_sharing,
        whoCanJoin: r.who_can_join,
        allowComments: r.allow_comments,
        accessibilityNotes: r.accessibility_notes,
        rainPlan: r.rain_plan,
        photoCount: photos.get(r.id) ?? 0,
        commentCount: comments.get(r.id) ?? 0,
        canEdit: await viewer.canEdit(r),
        canUploadPhotos: r.allow_photo_sharing && participant && !viewer.restricted,
        canComment: await viewer.canComment(r, myStatus),
        restricted: viewer.restricted,
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
      };
    }),
  );
}
