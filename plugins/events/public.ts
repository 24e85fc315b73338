/**
 * What the events plugin offers other plugins (badges, admin analytics, profiles): a typed
 * service and the events it emits. Other plugins import only this file from events.
 */
import { serviceRef } from '../../core/services.ts';

export type EventKind = 'meetup' | 'museum_event';
/** A member's place at an event: a seat, interest (museum events only), or a waitlist place. */
export type RsvpStatus = 'attending' | 'interested' | 'waitlisted';

export interface EventsApi {
  /** How many events the user holds a seat at (attending), past and future. */
  attendedCount(userId: number): Promise<number>;
  /** Upcoming events (ids) the user attends or is interested in, soonest first. */
  upcomingEventIds(userId: number, limit?: number): Promise<number[]>;
  /** Totals for dashboards. */
  stats(): Promise<{ meetups: number; museumEvents: number; upcoming: number; rsvps: number }>;
  /**
   * Short summaries of the events `viewer` may see (a meetup of a private community or group: its
   * members and organizer only, as GET /api/meetups/{id}), in the order of ids; unknown or hidden
   * ids are absent. For plans (a day plan's event stops).
   */
  visibleSummaries(ids: number[], viewer: { id: number; role: string } | undefined): Promise<EventSummary[]>;
}

/** EventsApi.visibleSummaries's answer. */
export interface EventSummary {
  id: number;
  kind: EventKind;
  title: string;
  startsAt: string;
  /** the given end, else the start plus the default duration (2 hours) */
  endsAt: string;
  timeZone: string;
  museumId: number | null;
  location: string;
}

export const EventsService = serviceRef<EventsApi>('events.api');

/**
 * The web page of an event: meetups at /meetups/{id}, museum events at /events/{id}. Other plugins'
 * pages link events with it (Discover's search results), so that a meetup never opens as a museum event.
 */
export function eventPath(e: { id: number | string; kind?: string | null }): string {
  return e.kind === 'meetup' ? `/meetups/${e.id}` : `/events/${e.id}`;
}

declare module '../../core/events.ts' {
  interface CurioEvents {
    /**
     * A member's RSVP changed: joined (status set), switched, promoted from the waitlist, or left
     * (status null). `previousStatus` null means a new RSVP. Emitted after the change is committed.
     */
    'events.rsvp.changed': {
      eventId: number;
      kind: EventKind;
      userId: number;
      status: RsvpStatus | null;
      previousStatus: RsvpStatus | null;
      /** promoted: moved from the waitlist to a seat when someone left or capacity grew */
      reason: 'joined' | 'left' | 'promoted' | 'removed';
    };
    'events.meetup.created': { eventId: number; organizerId: number; communityId: number | null; groupId: number | null };
    'events.meetup.deleted': { eventId: number; organizerId: number };
    'events.museumEvent.created': { eventId: number; museumId: number; userId: number };
    'events.photo.uploaded': { eventId: number; userId: number; photoIds: number[] };
    /**
     * A member attending a meetup checked in (verified) at its museum during its time window: marked
     * attended, once per meetup and member (issue 20). Emitted after the mark is stored.
     */
    'events.attendance.confirmed': { eventId: number; userId: number; museumId: number; checkInId: number };
    /** The member gave up their seat after being marked attended (before the start, inside the early margin). */
    'events.attendance.withdrawn': { eventId: number; userId: number };
  }
}
