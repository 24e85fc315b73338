/**
 * Sample museum events from seeds/events/museum-events.json (and seeds/museums/events.json when
 * the museums data provides one). Dates are relative (daysFromNow) so samples are always to come;
 * each sample has a key, so a second run adds nothing. Samples whose museum is not in the
 * directory are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../core/config.ts';
import type { PluginContext, SeedProgress } from '../../../core/plugin-api.ts';
import type { EventsStore } from './service.ts';
import { museumTimeZone } from './deps.ts';
import { isValidTimeZone, isoDate, instantToZoned, toCents, zonedToInstant, parseTime } from '../shared/time.ts';
import { meetupColumns, normalizeTags, type MeetupBody } from './input.ts';
import type { EventRow } from './model.ts';
import { setRsvp } from './rsvp.ts';

function normalizeTagsSafe(tags: unknown): string[] {
  try {
    return normalizeTags(tags).slice(0, 20);
  } catch {
    return [];
  }
}

export interface SeedEvent {
  key?: string;
  /** museum slug (or id) */
  museum?: string | number;
  museumSlug?: string;
  museumId?: number;
  museumName?: string;
  title: string;
  description: string;
  location?: string;
  /** YYYY-MM-DD, or daysFromNow */
  date?: string;
  daysFromNow?: number;
  startTime?: string;
  endTime?: string | null;
  /** absolute ISO instants instead of date + times */
  dateTime?: string;
  endDateTime?: string | null;
  timeZone?: string;
  maxAttendees?: number | null;
  enableWaitlist?: boolean;
  tags?: string[] | string;
  category?: string;
  price?: number;
  requirements?: string;
  ticketUrl?: string;
  imageUrl?: string;
}

const slugify = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function readList(file: string): SeedEvent[] {
  if (!fs.existsSync(file)) return [];
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  const list = Array.isArray(data) ? data : Array.isArray(data?.events) ? data.events : [];
  return list.filter((e: any) => e && typeof e.title === 'string' && (typeof e.startTime === 'string' || typeof e.dateTime === 'string'));
}

export async function seedEvents(ctx: PluginContext, store: EventsStore, progress: SeedProgress): Promise<void> {
  const list = [...readList(path.join(ROOT, 'seeds', 'events', 'museum-events.json')), ...readList(path.join(ROOT, 'seeds', 'museums', 'events.json'))];
  progress.start(list.length, 'museum events');
  const museums = store.deps.museums();
  const now = new Date();
  for (const e of list) {
    try {
      const key = `museum_event:${e.key ?? slugify(`${e.museum ?? e.museumSlug ?? e.museumId ?? e.museumName}-${e.title}`)}`.slice(0, 100);
      if (await ctx.db('events_events').where({ seed_key: key }).first('id')) continue;
      const ref = e.museumId ?? e.museumSlug ?? e.museum ?? (e.museumName ? slugify(e.museumName) : undefined);
      const museum = ref !== undefined ? await museums.getMuseum(ref) : null;
      if (!museum) {
        ctx.log.debug({ key, ref }, 'sample event skipped: museum not in the directory');
        continue;
      }
      const tz = e.timeZone && isValidTimeZone(e.timeZone) ? e.timeZone : museumTimeZone(museum) ?? 'UTC';
      let start: Date;
      let end: Date | null = null;
      if (e.dateTime) {
        // absolute instants (seeds/museums/events.json: ISO with the museum's offset)
        start = new Date(e.dateTime);
        end = e.endDateTime ? new Date(e.endDateTime) : null;
        if (Number.isNaN(start.getTime()) || (end && (Number.isNaN(end.getTime()) || end <= start))) continue;
      } else {
        let date = e.date;
        if (!date || e.daysFromNow !== undefined) {
          // the local date `daysFromNow` days ahead in the museum's zone
          const today = instantToZoned(now, tz).date;
          const d = new Date(`${today}T00:00:00Z`);
          d.setUTCDate(d.getUTCDate() + (e.daysFromNow ?? 14));
          date = isoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
        }
        if (!parseTime(e.startTime ?? '')) continue;
        start = zonedToInstant(date, e.startTime!, tz);
        end = e.endTime && parseTime(e.endTime) && e.endTime > e.startTime! ? zonedToInstant(date, e.endTime, tz) : null;
      }
      await ctx.db('events_events')
        .insert({
          kind: 'museum_event',
          seed_key: key,
          museum_id: museum.id,
          title: e.title.slice(0, 200),
          description: e.description ?? '',
          location: (e.location ?? [museum.name, museum.city].filter(Boolean).join(', ')).slice(0, 300),
          date_time: start,
          end_date_time: end,
          time_zone: tz,
          max_attendees: e.maxAttendees ?? null,
          enable_waitlist: Boolean(e.enableWaitlist),
          tags: normalizeTagsSafe(e.tags),
          category: e.category ?? null,
          price_cents: toCents(e.price ?? 0) ?? 0,
          requirements: e.requirements ?? null,
          ticket_url: e.ticketUrl ?? null,
          image_url: e.imageUrl ?? null,
        })
        .onConflict('seed_key')
        .ignore();
    } catch (err) {
      ctx.log.warn({ err, title: e.title }, 'sample event skipped');
    } finally {
      progress.tick();
    }
  }
}

/** A sample meetup of seeds/events/meetups.json: the meetup form's fields, and who is who. */
export interface SeedMeetup extends Partial<Omit<MeetupBody, 'date' | 'museumId' | 'communityId' | 'groupId' | 'organizerId'>> {
  key: string;
  /** the community's name */
  community: string;
  /** username: the community's creator, or an Ambassador member */
  organizer: string;
  /** museum slug (or id): links the museum and gives the default time zone */
  museum?: string | number;
  daysFromNow: number;
  startTime: string;
  /** usernames of members who join */
  attendees?: string[];
}

export const MEETUPS_FILE = path.join(ROOT, 'seeds', 'events', 'meetups.json');

/** The local date `days` after today in `tz`, YYYY-MM-DD. */
function localDateFromNow(now: Date, tz: string, days: number): string {
  const d = new Date(`${instantToZoned(now, tz).date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/**
 * Sample meetups in the sample communities, organized by the sample Ambassadors, with the rules
 * of the API: the organizer must be the community's creator or an Ambassador member, the form's
 * checks apply (meetupColumns), attendees must be members (or the meetup open to anyone) and
 * join through setRsvp (exact counts). Runs after the accounts and communities seeds (plugin
 * dependency order). Idempotent by key (seed_key 'meetup:<key>').
 */
export async function seedMeetups(ctx: PluginContext, store: EventsStore, progress: SeedProgress, file = MEETUPS_FILE): Promise<number> {
  if (!fs.existsSync(file)) return 0;
  const list = ((JSON.parse(fs.readFileSync(file, 'utf8')) as { meetups?: SeedMeetup[] }).meetups ?? []).filter((m) => m && typeof m.key === 'string');
  progress.start(list.length, 'sample meetups');
  const { deps, knex } = store;
  const accounts = deps.accounts();
  const communities = deps.communities();
  let added = 0;
  for (const m of list) {
    try {
      const key = `meetup:${m.key}`.slice(0, 100);
      if (await knex('events_events').where({ seed_key: key }).first('id')) continue;
      const community = await communities.findByName(m.community);
      const organizer = await accounts.findUser(m.organizer);
      if (!community || !organizer) {
        ctx.log.debug({ key }, 'sample meetup skipped: its community or organizer does not exist');
        continue;
      }
      const role = await communities.roleOf(community.id, organizer.id);
      if (role !== 'creator' && (role === null || organizer.role !== 'Ambassador')) {
        ctx.log.warn({ key, organizer: m.organizer }, 'sample meetup skipped: the organizer may not create meetups in this community');
        continue;
      }
      const museum = m.museum !== undefined ? await deps.museums().getMuseum(m.museum) : null;
      const tz = m.timeZone && isValidTimeZone(m.timeZone) ? m.timeZone : museumTimeZone(museum) ?? 'UTC';
      const { key: _k, community: _c, organizer: _o, museum: _m, daysFromNow, attendees = [], ...form } = m;
      const cols = await meetupColumns(deps, knex, {
        ...(form as MeetupBody),
        museumId: museum?.id ?? null,
        timeZone: tz,
        date: localDateFromNow(new Date(), tz, daysFromNow),
      });
      const [row] = (await knex('events_events')
        .insert({ ...cols, kind: 'meetup', seed_key: key, organizer_id: organizer.id, community_id: community.id, group_id: null })
        .onConflict('seed_key')
        .ignore()
        .returning('*')) as EventRow[];
      if (!row) continue;
      added++;
      await ctx.events.emit('events.meetup.created', { eventId: row.id, organizerId: organizer.id, communityId: community.id, groupId: null });
      for (const username of attendees) {
        const u = await accounts.findUser(username);
        if (!u || u.id === organizer.id) continue;
        if (row.who_can_join === 'members_only' || community.isPrivate) {
          if ((await communities.roleOf(community.id, u.id)) === null) continue;
        }
        await store.afterRsvp(await setRsvp(knex, row.id, 'meetup', u.id, 'attending'));
      }
    } catch (err) {
      ctx.log.warn({ err, key: m.key }, 'sample meetup skipped');
    } finally {
      progress.tick();
    }
  }
  return added;
}
