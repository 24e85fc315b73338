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
import type { MuseumSummary, VisitHours } from '../../museums/public.ts';

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
  /** memberships read with the event in one statement (issue 18), by 'community:id' / 'group:id' */
  private known = new Map<string, boolean>();
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

  /** Records a membership already read in SQL (CommunitiesApi.sql / GroupsApi.sql.isMember), so isMemberOf asks no more. */
  know(of: 'community' | 'group', id: number, member: boolean): void {
    this.known.set(`${of}:${id}`, member);
  }

  /** A member of the meetup's community or group (the creator counts as a member). */
  async isMemberOf(row: Pick<EventRow, 'community_id' | 'group_id'>): Promise<boolean> {
    if (!this.user) return false;
    if (row.community_id !== null) return this.known.get(`community:${row.community_id}`) ?? (await this.communityIds()).has(row.community_id);
    if (row.group_id !== null) return this.known.get(`group:${row.group_id}`) ?? (await this.groupIds()).has(row.group_id);
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

/** The events/HoursWarning answer of MuseumsApi.visitHours' fit (null when inside the hours or unknown). */
export interface HoursWarning {
  status: 'closed_day' | 'outside_hours' | 'by_appointment';
  date: string;
  startTime: string;
  endTime: string | null;
  openTime: string | null;
  closeTime: string | null;
  note: string | null;
  holiday: string | null;
}

export function toWarning(v: VisitHours | null): HoursWarning | null {
  if (!v || v.status === 'open') return null;
  return {
    status: v.status,
    date: v.date,
    startTime: v.startTime,
    endTime: v.endTime,
    openTime: v.openTime,
    closeTime: v.closeTime,
    note: v.special?.reason === 'exception' ? v.special.note ?? null : null,
    holiday: v.special?.reason === 'holiday' ? v.special.holiday ?? null : null,
  };
}

/**
 * Events checked against their museum's opening hours (issue 20): every event at a museum, meetups
 * and museum events alike (a manager may mean an evening opening the hours do not show yet: a
 * warning, never a refusal).
 */
export function checksHours(row: Pick<EventRow, 'kind' | 'museum_id'>): boolean {
  return row.museum_id !== null;
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

/** Community and group summaries the caller already read (with the event, in one statement). */
export interface KnownSummaries {
  communities?: Map<number, { id: number; name: string; isPrivate: boolean }>;
  groups?: Map<number, { id: number; name: string; isPrivate: boolean }>;
}

/** Rows → events/Event answers, in the same order. */
export async function serializeEvents(knex: Knex, deps: Deps, viewer: Viewer, rows: EventRow[], opts: { fullAttendees?: boolean; known?: KnownSummaries } = {}): Promise<any[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const attendeeLimit = opts.fullAttendees ? null : LIST_ATTENDEES;
  // Attendees are listed as accounts' rule allows (counts stay whole): never one blocked either way
  // with the viewer, and only those whose profile the viewer may see (canView: a private or
  // friends-only profile is not shown to strangers, nor to signed-out visitors of a public meetup
  // page) and who are not muted by the viewer (an event's member list, as notBlockedOrMuted's), except
  // to the meetup's organizer, who sees everyone coming — but for members whose deletion is pending,
  // hidden from everyone but Admins (accounts' grace period). Admins see everyone.
  const acc = deps.accounts().sql;
  const admin = viewer.user?.role === 'Admin';
  const intArray = (xs: number[]) => `{${xs.map((i) => Math.trunc(Number(i))).join(',')}}`;
  const organized = rows.filter((r) => viewer.id !== null && r.organizer_id === viewer.id).map((r) => r.id);
  const attendeeRule = admin
    ? knex.raw('true')
    : knex.raw('(? and (? or (a.event_id = any(?::int[]) and ?)))', [
        acc.notBlocked(viewer.id, 'a.user_id'),
        acc.canViewContent(viewer.user ?? null, 'a.user_id'),
        intArray(organized),
        acc.notPendingDeletion('a.user_id'),
      ]);

  // The attendees (first LIST_ATTENDEES in joining order, or all), the counts and the viewer's own
  // RSVP (with its waitlist place) of every event in one statement (issue 18: were an attendee
  // query, three counts, the viewer's row and one count per waitlisted event).
  const counted = (
    await knex.raw(
      `select e.id as event_id,
         (select count(*) from events_attendees w where w.event_id = e.id and w.status = 'waitlisted')::int as waitlisted,
         (select count(*) from events_photos p where p.event_id = e.id)::int as photos,
         (select count(*) from events_comments c where c.event_id = e.id)::int as comments,
         my.status as my_status,
         case when my.status = 'waitlisted'
           then (select count(*) from events_attendees w where w.event_id = e.id and w.status = 'waitlisted' and w.waitlist_seq <= my.waitlist_seq)::int end as my_position,
         exists (select 1 from events_attendance t where t.event_id = e.id and t.user_id = ?) as my_attended,
         (select count(*) from events_attendance t where t.event_id = e.id)::int as attended,
         (select coalesce(json_agg(json_build_object('user_id', x.user_id, 'status', x.status, 'joined_at', x.joined_at, 'attended', x.attended) order by x.rn), '[]'::json)
            from (select a.user_id, a.status, a.joined_at, row_number() over (order by a.joined_at, a.user_id) as rn,
                         exists (select 1 from events_attendance t where t.event_id = a.event_id and t.user_id = a.user_id) as attended
                    from events_attendees a
                   where a.event_id = e.id and a.status in ('attending', 'interested') and ?) x
           where ?::int is null or x.rn <= ?::int) as attendees
       from unnest(?::int[]) as e(id)
       left join events_attendees my on my.event_id = e.id and my.user_id = ?`,
      [viewer.id ?? null, attendeeRule, attendeeLimit, attendeeLimit, intArray(ids), viewer.id ?? null],
    )
  ).rows as Array<{ event_id: number; waitlisted: number; photos: number; comments: number; my_status: RsvpStatus | null; my_position: number | null; my_attended: boolean; attended: number; attendees: unknown }>;
  const waitlists = new Map(counted.map((r) => [Number(r.event_id), Number(r.waitlisted)]));
  const photos = new Map(counted.map((r) => [Number(r.event_id), Number(r.photos)]));
  const comments = new Map(counted.map((r) => [Number(r.event_id), Number(r.comments)]));
  const mine = new Map<number, { status: RsvpStatus; position: number | null }>();
  // attendance confirmed by check-in (attendance.ts): the viewer's own, and for the organizer (and
  // admins) the count and who among the listed attendees
  const myAttended = new Set(counted.filter((r) => r.my_attended).map((r) => Number(r.event_id)));
  const attendedCounts = new Map(counted.map((r) => [Number(r.event_id), Number(r.attended)]));
  type AttendeeRow = { event_id: number; user_id: number; status: RsvpStatus; joined_at: Date | string; attended: boolean };
  const byEvent = new Map<number, AttendeeRow[]>();
  const attendeeRows: AttendeeRow[] = [];
  for (const r of counted) {
    if (r.my_status) mine.set(Number(r.event_id), { status: r.my_status, position: r.my_position == null ? null : Number(r.my_position) });
    const list = (typeof r.attendees === 'string' ? JSON.parse(r.attendees) : r.attendees ?? []) as Array<{ user_id: number; status: RsvpStatus; joined_at: string; attended: boolean }>;
    const mapped = list.map((a) => ({ event_id: Number(r.event_id), user_id: Number(a.user_id), status: a.status, joined_at: a.joined_at, attended: Boolean(a.attended) }));
    byEvent.set(Number(r.event_id), mapped);
    attendeeRows.push(...mapped);
  }

  const userIds = [...attendeeRows.map((a) => a.user_id), ...rows.map((r) => r.organizer_id).filter((x): x is number => x !== null)];
  const museumIds = [...new Set(rows.map((r) => r.museum_id).filter((x): x is number => x !== null))];
  const communityIds = [...new Set(rows.map((r) => r.community_id).filter((x): x is number => x !== null))];
  const groupIds = [...new Set(rows.map((r) => r.group_id).filter((x): x is number => x !== null))];
  const groupsApi = deps.groups();
  const knownC = opts.known?.communities;
  const knownG = opts.known?.groups;
  // the museums' summaries and, in the same statement, each event's fit with its museum's opening
  // hours (issue 20: the meetup page's warning, on every list's cards too; MuseumsApi's one rule)
  const checked = rows.filter(checksHours);
  const [users, { summaries: museums, visits }, communities, groups] = await Promise.all([
    deps.accounts().getUserSummaries(userIds),
    museumIds.length
      ? deps.museums().summariesWithVisitHours(
          museumIds,
          checked.map((r) => ({ museumId: r.museum_id!, start: new Date(r.date_time), end: r.end_date_time ? new Date(r.end_date_time) : null })),
        )
      : Promise.resolve({ summaries: new Map<number, MuseumSummary>(), visits: [] as Array<VisitHours | null> }),
    communityIds.length && !(knownC && communityIds.every((i) => knownC.has(i))) ? deps.communities().summaries(communityIds) : Promise.resolve(knownC ?? new Map()),
    groupIds.length && groupsApi && !(knownG && groupIds.every((i) => knownG.has(i))) ? groupsApi.summaries(groupIds) : Promise.resolve(knownG ?? new Map()),
  ]);

  const warnings = new Map(checked.map((r, i) => [r.id, toWarning(visits[i] ?? null)]));
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
      const seesAttendance = r.kind === 'meetup' && (admin || (viewer.id !== null && r.organizer_id === viewer.id));
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
          ...(seesAttendance ? { attended: a.attended } : {}),
        })),
        attended: myAttended.has(r.id),
        attendedCount: seesAttendance ? attendedCounts.get(r.id) ?? 0 : null,
        hoursWarning: warnings.get(r.id) ?? null,
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
