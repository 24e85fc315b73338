/**
 * Day plans: storage, who may read them, limits, and the checked answer (check.ts).
 *
 * Reading: the owner always; a `public` plan anyone accounts' canView rule lets see the owner
 * (a private profile's public plans only its approved followers, never across a block); a
 * `link` or `public` plan anyone holding its share token, except across a block (or a mute by
 * the viewer, or while the owner's deletion is pending). Everyone else
 * gets 404, as if the plan did not exist. Only the owner changes a plan.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import { visitDates, type MuseumsApi, type VisitFacts } from '../../museums/public.ts';
import type { EventsApi, EventSummary } from '../../events/public.ts';
import { checkPlan, walkBetween, type StopRow } from './check.ts';

export type Visibility = 'private' | 'link' | 'public';
export interface Viewer {
  id: number;
  role: string;
}
export interface StopInput {
  museumId?: number;
  eventId?: number;
  arrival?: string;
  durationMinutes?: number;
}
export interface PlanInput {
  title: string;
  date: string;
  visibility?: Visibility;
  walkingSpeedKmh?: number;
  stops?: StopInput[];
}
export interface PlanUpdate {
  title?: string;
  date?: string;
  visibility?: Visibility;
  walkingSpeedKmh?: number;
  newShareLink?: boolean;
}

export const NOT_FOUND = 'Plan not found';
const LOCK_KEY = 20300; // pg_advisory_xact_lock(LOCK_KEY, userId): one member's plan creations in turn

const iso = (d: unknown) => new Date(d as string).toISOString();
const dateOf = (d: unknown): string => String(d);
const newToken = () => crypto.randomBytes(18).toString('base64url');

export interface PlansOptions {
  knex: Knex;
  accounts: AccountsApi;
  museums: MuseumsApi;
  /** absent when the events plugin is off: event stops then show as gone */
  events: () => EventsApi | undefined;
  maxPlans: number;
  maxStops: number;
  minVisitMinutes: number;
}

export function createPlansStore(o: PlansOptions) {
  const { knex, accounts, museums } = o;
  const plansLimit = `You can have at most ${o.maxPlans} plans`;
  const stopsLimit = `A plan can have at most ${o.maxStops} stops`;

  async function stopsOf(db: Knex, planId: number): Promise<StopRow[]> {
    const rows = await db('plan_stops').where({ plan_id: planId }).orderBy([{ column: 'position' }, { column: 'id' }]).select('id', 'museum_id', 'event_id', 'arrival', 'duration_minutes');
    return rows.map((r: any) => ({ id: r.id, museumId: r.museum_id, eventId: r.event_id, arrival: r.arrival, durationMinutes: r.duration_minutes }));
  }

  /** The events of event stops as `viewer` may see them (hidden ones absent). */
  async function eventsFor(ids: number[], viewer: Viewer | undefined): Promise<Map<number, EventSummary>> {
    const api = o.events();
    if (!ids.length || !api) return new Map();
    return new Map((await api.visibleSummaries(ids, viewer)).map((e) => [e.id, e]));
  }

  /**
   * The stops as `viewer` sees them, with their events: another viewer does not see the event
   * stops hidden from them (a private community's meetup); the owner sees them as gone.
   */
  async function stopsFor(row: any, viewer: Viewer | undefined, db: Knex = knex): Promise<StopRow[]> {
    const stops = await stopsOf(db, row.id);
    const evs = await eventsFor(stops.flatMap((s) => (s.eventId ? [s.eventId] : [])), viewer);
    const owner = viewer?.id === row.user_id;
    return stops.map((s) => (s.eventId ? { ...s, event: evs.get(s.eventId) ?? null } : s)).filter((s) => owner || !s.eventId || s.event);
  }

  const museumIdsOf = (stops: StopRow[]) => stops.flatMap((s) => (s.museumId ? [s.museumId] : s.event?.museumId ? [s.event.museumId] : []));

  async function factsFor(museumIds: number[], date: string): Promise<Map<number, VisitFacts>> {
    const facts = await museums.visitFacts(museumIds, visitDates(date)!);
    return new Map(facts.map((f) => [f.id, f]));
  }

  async function answer(row: any, viewer: Viewer | undefined) {
    const date = dateOf(row.visit_date);
    const stops = await stopsFor(row, viewer);
    const facts = await factsFor(museumIdsOf(stops), date);
    const opts = { date, walkingSpeedKmh: Number(row.walking_speed_kmh), minVisitMinutes: o.minVisitMinutes };
    const check = checkPlan(stops, facts, opts);
    const owner = (await accounts.getUserSummaries([row.user_id])).get(row.user_id) ?? null;
    const isOwner = viewer?.id === row.user_id;
    return {
      id: row.id,
      title: row.title,
      date,
      visibility: row.visibility as Visibility,
      walkingSpeedKmh: Number(row.walking_speed_kmh),
      sequence: row.sequence,
      isOwner,
      owner,
      shareToken: isOwner && row.visibility !== 'private' ? row.share_token : null,
      stops: check.stops.map((s) => ({
        id: s.id,
        position: s.position,
        museumId: s.facts?.id ?? s.museumId,
        event: s.event ? { id: s.event.id, kind: s.event.kind, title: s.event.title, location: s.event.location } : null,
        museum: s.facts
          ? { id: s.facts.id, slug: s.facts.slug, name: s.facts.name, city: s.facts.city, timezone: s.facts.timezone, latitude: s.facts.latitude, longitude: s.facts.longitude, featuredImage: s.facts.featuredImage }
          : null,
        arrival: s.arrival,
        durationMinutes: s.durationMinutes,
        startsAt: (s.visit?.startsAt ?? new Date(`${date}T${s.arrival}:00Z`)).toISOString(),
        endsAt: (s.visit?.endsAt ?? new Date(new Date(`${date}T${s.arrival}:00Z`).getTime() + s.durationMinutes * 60_000)).toISOString(),
        hours: s.visit?.hours ?? 'unknown',
        special: s.visit?.special ?? null,
        opensAt: s.visit?.opensAt ?? null,
        closesAt: s.visit?.closesAt ?? null,
        openMinutes: s.visit?.openMinutes ?? 0,
        free: s.visit?.free ?? { applies: false },
        walk: s.walk,
        warnings: s.warnings,
      })),
      summary: check.summary,
      suggestion: check.suggestion,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    };
  }
  type PlanAnswer = Awaited<ReturnType<typeof answer>>;

  /** The plan row if `viewer` may read it by id (owner, or public and canView), else 404. */
  async function readable(id: number, viewer: Viewer | undefined): Promise<any> {
    const row = await knex('plans as p')
      .where('p.id', id)
      .where((q) => {
        if (viewer) q.where('p.user_id', viewer.id);
        q.orWhere((x) => x.where('p.visibility', 'public').whereRaw(accounts.sql.canView(viewer, 'p.user_id')));
      })
      .first('p.*');
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  async function byToken(token: string, viewer: Viewer | undefined): Promise<any> {
    const row = await knex('plans as p')
      .where('p.share_token', token)
      .whereIn('p.visibility', ['link', 'public'])
      .where((q) => {
        // blocks either way, the viewer's mutes, and a member in their deletion grace period hide it
        if (viewer) q.where('p.user_id', viewer.id);
        q.orWhereRaw(accounts.sql.notBlockedOrMuted(viewer, 'p.user_id'));
      })
      .first('p.*');
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  /** The owner's plan row, locked for the transaction; 404 for anyone else. */
  async function ownLocked(trx: Knex.Transaction, id: number, userId: number): Promise<any> {
    const row = await trx('plans').where({ id, user_id: userId }).forUpdate().first();
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  const bump = (trx: Knex, id: number, changes: Record<string, unknown> = {}) =>
    trx('plans').where({ id }).update({ ...changes, sequence: trx.raw('sequence + 1'), updated_at: trx.fn.now() });

  async function assertMuseums(ids: number[]): Promise<void> {
    if (!ids.length) return;
    const found = await museums.getMuseumSummaries(ids);
    if (ids.some((id) => !found.has(id))) throw new HttpError(404, 'Museum not found');
  }

  /**
   * The rows of new stops: a museum (checked to exist), or an event the member may see (its own
   * times are stored as the stop's, on the event's clock); exactly one of the two.
   */
  async function newStops(inputs: StopInput[], user: Viewer): Promise<Array<{ museum_id: number | null; event_id: number | null; arrival?: string; duration_minutes: number }>> {
    if (inputs.some((s) => (s.museumId === undefined) === (s.eventId === undefined))) throw new HttpError(400, 'A stop is a museum or an event: give museumId or eventId');
    await assertMuseums([...new Set(inputs.flatMap((s) => (s.museumId ? [s.museumId] : [])))]);
    const evIds = [...new Set(inputs.flatMap((s) => (s.eventId ? [s.eventId] : [])))];
    const evs = await eventsFor(evIds, user);
    if (evIds.some((id) => !evs.has(id))) throw new HttpError(404, 'Event not found');
    return inputs.map((s) => {
      if (s.museumId) return { museum_id: s.museumId, event_id: null, arrival: s.arrival, duration_minutes: s.durationMinutes ?? 90 };
      const e = evs.get(s.eventId!)!;
      const start = new Date(e.startsAt);
      const minutes = Math.max(15, Math.round((new Date(e.endsAt).getTime() - start.getTime()) / 60_000));
      const arrival = new Intl.DateTimeFormat('en-GB', { timeZone: e.timeZone || 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start);
      return { museum_id: null, event_id: e.id, arrival, duration_minutes: minutes };
    });
  }

  /** Where a new stop goes by default: after the last stop and the walk to it (rounded up to 5 minutes), else 10:00. */
  async function defaultArrival(row: any, museumId: number): Promise<string> {
    const date = dateOf(row.visit_date);
    const stops = await stopsFor(row, { id: row.user_id, role: '' });
    if (!stops.length) return '10:00';
    const facts = await factsFor([...museumIdsOf(stops), museumId], date);
    const check = checkPlan(stops, facts, { date, walkingSpeedKmh: Number(row.walking_speed_kmh), minVisitMinutes: o.minVisitMinutes });
    const last = check.stops[check.stops.length - 1];
    const f = facts.get(museumId);
    if (!last.visit || !f) return last.arrival;
    const walk = walkBetween(last.facts, f, Number(row.walking_speed_kmh))?.minutes ?? 0;
    const at = Math.ceil((last.visit.endsAt.getTime() + walk * 60_000) / 300_000) * 300_000;
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone: f.timezone || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(at));
    const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
    if (`${p.year}-${p.month}-${p.day}` !== date) return last.arrival;
    return `${p.hour}:${p.minute}`;
  }

  return {
    answer,
    readable,
    byToken,

    async listMine(userId: number) {
      const rows = await knex('plans').where({ user_id: userId }).orderBy([{ column: 'visit_date', order: 'desc' }, { column: 'id', order: 'desc' }]).select('*');
      return summaries(rows, { id: userId, role: '' });
    },

    /**
     * A member's public plans, when the viewer may see the member and has not muted them (accounts'
     * rule for lists of content, in SQL, as their insights on the profile); one plan opened by its
     * id or link is read under `readable`/`byToken`.
     */
    async listPublicOf(userId: number, viewer: Viewer | undefined) {
      const rows = await knex('plans as p')
        .where({ 'p.user_id': userId, 'p.visibility': 'public' })
        .whereRaw(accounts.sql.canViewContent(viewer, 'p.user_id'))
        .orderBy([{ column: 'p.visit_date', order: 'desc' }, { column: 'p.id', order: 'desc' }])
        .select('p.*');
      return summaries(rows, viewer);
    },

    async create(userId: number, input: PlanInput): Promise<PlanAnswer> {
      if ((input.stops ?? []).length > o.maxStops) throw new HttpError(400, stopsLimit);
      const stops = await newStops(input.stops ?? [], { id: userId, role: '' });
      const id = await knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(?, ?)', [LOCK_KEY, userId]);
        const [{ n }] = await trx('plans').where({ user_id: userId }).count<{ n: string }[]>({ n: '*' });
        if (Number(n) >= o.maxPlans) throw new HttpError(409, plansLimit);
        const [row] = await trx('plans')
          .insert({ user_id: userId, title: input.title.trim(), visit_date: input.date, visibility: input.visibility ?? 'private', walking_speed_kmh: input.walkingSpeedKmh ?? 4.5, share_token: newToken() })
          .returning('id');
        const planId = typeof row === 'object' ? row.id : row;
        let prevEnd = 10 * 60;
        for (const [i, s] of stops.entries()) {
          const arrival = s.arrival ?? `${String(Math.floor(prevEnd / 60) % 24).padStart(2, '0')}:${String(prevEnd % 60).padStart(2, '0')}`;
          const [h, m] = arrival.split(':').map(Number);
          prevEnd = Math.min(23 * 60, h * 60 + m + s.duration_minutes + 15);
          await trx('plan_stops').insert({ plan_id: planId, position: i, ...s, arrival });
        }
        return planId as number;
      });
      return answer(await knex('plans').where({ id }).first(), { id: userId, role: '' });
    },

    async update(id: number, user: Viewer, input: PlanUpdate): Promise<PlanAnswer> {
      await knex.transaction(async (trx) => {
        await ownLocked(trx, id, user.id);
        const changes: Record<string, unknown> = {};
        if (input.title !== undefined) changes.title = input.title.trim();
        if (input.date !== undefined) changes.visit_date = input.date;
        if (input.visibility !== undefined) changes.visibility = input.visibility;
        if (input.walkingSpeedKmh !== undefined) changes.walking_speed_kmh = input.walkingSpeedKmh;
        if (input.newShareLink) changes.share_token = newToken();
        await bump(trx, id, changes);
      });
      return answer(await knex('plans').where({ id }).first(), user);
    },

    async remove(id: number, userId: number): Promise<void> {
      const n = await knex('plans').where({ id, user_id: userId }).del();
      if (!n) throw new HttpError(404, NOT_FOUND);
    },

    async addStop(id: number, user: Viewer, input: StopInput): Promise<PlanAnswer> {
      const before = await knex('plans').where({ id, user_id: user.id }).first();
      if (!before) throw new HttpError(404, NOT_FOUND);
      const [stop] = await newStops([input], user);
      const arrival = stop.arrival ?? (await defaultArrival(before, stop.museum_id!));
      await knex.transaction(async (trx) => {
        await ownLocked(trx, id, user.id);
        const [{ n, last }] = await trx('plan_stops').where({ plan_id: id }).select(trx.raw('count(*)::int as n'), trx.raw('coalesce(max(position), -1)::int as last'));
        if (Number(n) >= o.maxStops) throw new HttpError(409, stopsLimit);
        await trx('plan_stops').insert({ plan_id: id, position: Number(last) + 1, ...stop, arrival });
        await bump(trx, id);
      });
      return answer(await knex('plans').where({ id }).first(), user);
    },

    async updateStop(id: number, stopId: number, user: Viewer, input: { arrival?: string; durationMinutes?: number }): Promise<PlanAnswer> {
      await knex.transaction(async (trx) => {
        await ownLocked(trx, id, user.id);
        const changes: Record<string, unknown> = {};
        if (input.arrival !== undefined) changes.arrival = input.arrival;
        if (input.durationMinutes !== undefined) changes.duration_minutes = input.durationMinutes;
        const stop = await trx('plan_stops').where({ id: stopId, plan_id: id }).first('event_id');
        if (!stop) throw new HttpError(404, 'Stop not found');
        if (stop.event_id) throw new HttpError(400, "An event's times come from the event");
        await trx('plan_stops').where({ id: stopId, plan_id: id }).update(changes);
        await bump(trx, id);
      });
      return answer(await knex('plans').where({ id }).first(), user);
    },

    async removeStop(id: number, stopId: number, user: Viewer): Promise<PlanAnswer> {
      await knex.transaction(async (trx) => {
        await ownLocked(trx, id, user.id);
        const n = await trx('plan_stops').where({ id: stopId, plan_id: id }).del();
        if (!n) throw new HttpError(404, 'Stop not found');
        await bump(trx, id);
      });
      return answer(await knex('plans').where({ id }).first(), user);
    },

    async reorder(id: number, user: Viewer, input: { stopIds: number[]; arrivals?: string[] }): Promise<PlanAnswer> {
      await knex.transaction(async (trx) => {
        await ownLocked(trx, id, user.id);
        const ids = (await trx('plan_stops').where({ plan_id: id }).pluck('id')) as number[];
        const have = new Set(ids);
        if (input.stopIds.length !== ids.length || input.stopIds.some((s) => !have.has(s))) throw new HttpError(400, 'stopIds must list every stop of the plan once');
        if (input.arrivals && input.arrivals.length !== input.stopIds.length) throw new HttpError(400, 'arrivals must give one time per stop');
        for (const [i, stopId] of input.stopIds.entries()) {
          await trx('plan_stops').where({ id: stopId, plan_id: id }).update({ position: i, ...(input.arrivals ? { arrival: input.arrivals[i] } : {}) });
        }
        await bump(trx, id);
      });
      return answer(await knex('plans').where({ id }).first(), user);
    },
  };

  async function summaries(rows: any[], viewer: Viewer | undefined) {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const stops = await knex('plan_stops').whereIn('plan_id', ids).orderBy([{ column: 'plan_id' }, { column: 'position' }, { column: 'id' }]).select('plan_id', 'museum_id', 'event_id');
    const names = await museums.getMuseumSummaries([...new Set(stops.flatMap((s: any) => (s.museum_id ? [s.museum_id as number] : [])))]);
    const evs = await eventsFor([...new Set(stops.flatMap((s: any) => (s.event_id ? [s.event_id as number] : [])))], viewer);
    const owners = await accounts.getUserSummaries([...new Set(rows.map((r) => r.user_id as number))]);
    return rows.map((r) => {
      const mine = stops.filter((s: any) => s.plan_id === r.id && (!s.event_id || evs.has(s.event_id) || viewer?.id === r.user_id));
      return {
        id: r.id,
        title: r.title,
        date: dateOf(r.visit_date),
        visibility: r.visibility as Visibility,
        stopCount: mine.length,
        stopNames: mine.map((s: any) => (s.event_id ? evs.get(s.event_id)?.title : names.get(s.museum_id)?.name)).filter((x: string | undefined): x is string => Boolean(x)),
        owner: (owners.get(r.user_id) as UserSummary | undefined) ?? null,
        updatedAt: iso(r.updated_at),
      };
    });
  }
}

export type PlansStore = ReturnType<typeof createPlansStore>;
