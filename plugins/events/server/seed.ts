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
import { normalizeTags } from './input.ts';

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
