/**
 * The plan check (pure): each stop against its museum's calendar on the plan's date (museums'
 * checkVisit, through museums/public.ts), the straight-line walk between stops, and a suggested
 * order. README.md states the rules.
 */
import { checkVisit, distanceMeters, localToInstant, type VisitCheck, type VisitFacts } from '../../museums/public.ts';
import type { EventSummary } from '../../events/public.ts';

export type Warning =
  | 'closed'
  | 'by_appointment'
  | 'before_opening'
  | 'after_closing'
  | 'too_short'
  | 'walk_overlap'
  | 'unknown_hours'
  | 'no_location'
  | 'museum_missing'
  | 'event_missing'
  | 'event_other_day';

/**
 * A stop: a museum visit (museumId, arrival, duration), or an event or meetup (eventId: its own
 * times, at its museum when it has one; `event` is what the viewer may see of it, null when
 * hidden or gone).
 */
export interface StopRow {
  id: number;
  museumId: number | null;
  arrival: string;
  durationMinutes: number;
  eventId?: number | null;
  event?: EventSummary | null;
}

export interface CheckedStop extends StopRow {
  position: number;
  facts: VisitFacts | null;
  visit: VisitCheck | null;
  walk: { distanceMeters: number; minutes: number; gapMinutes: number } | null;
  warnings: Warning[];
}

export interface CheckOptions {
  date: string;
  walkingSpeedKmh: number;
  minVisitMinutes: number;
}

export interface Suggestion {
  stopIds: number[];
  arrivals: string[];
  warnings: number;
  walkMinutes: number;
}

export interface PlanCheck {
  stops: CheckedStop[];
  summary: { warnings: number; walkMinutes: number; distanceMeters: number; freeStops: number };
  suggestion: Suggestion | null;
}

const MINUTE = 60_000;

type VisitFn = (f: VisitFacts, v: { date: string; arrival: string; durationMinutes: number }) => VisitCheck;
/** checkVisit remembered for one plan check (the suggestion asks the same visits many times). */
function memoVisit(): VisitFn {
  const memo = new Map<string, VisitCheck>();
  return (f, v) => {
    const key = `${f.id}|${v.date}|${v.arrival}|${v.durationMinutes}`;
    let r = memo.get(key);
    if (!r) memo.set(key, (r = checkVisit(f, f.holidays, v)));
    return r;
  };
}

/** Straight-line walking: metres and whole minutes (rounded up) at `speedKmh`. */
export function walkBetween(a: VisitFacts | null, b: VisitFacts | null, speedKmh: number): { distanceMeters: number; minutes: number } | null {
  if (!a || !b || a.latitude == null || a.longitude == null || b.latitude == null || b.longitude == null) return null;
  const m = distanceMeters({ latitude: a.latitude, longitude: a.longitude }, { latitude: b.latitude, longitude: b.longitude });
  return { distanceMeters: Math.round(m), minutes: Math.ceil(m / ((speedKmh * 1000) / 60)) };
}

/** The warnings of one visit on its own (the walk is added by checkPlan). */
export function visitWarnings(v: VisitCheck | null, facts: VisitFacts | null, minVisitMinutes: number): Warning[] {
  if (!facts || !v) return ['museum_missing'];
  const w: Warning[] = [];
  if (v.hours === 'unknown') w.push('unknown_hours');
  else if (v.hours === 'closed') w.push('closed');
  else if (v.hours === 'by_appointment') w.push('by_appointment');
  else {
    if (v.beforeOpening) w.push('before_opening');
    if (v.afterClosing) w.push('after_closing');
    if (v.openMinutes < minVisitMinutes) w.push('too_short');
  }
  return w;
}

/** An event stop's times as a visit: the event's own instants, no hours to check. */
function eventVisit(ev: EventSummary): VisitCheck {
  const startsAt = new Date(ev.startsAt);
  const endsAt = new Date(ev.endsAt);
  return { startsAt, endsAt, hours: 'unknown', beforeOpening: false, afterClosing: false, openMinutes: Math.round((endsAt.getTime() - startsAt.getTime()) / MINUTE), free: { applies: false } };
}

const dateIn = (at: Date, tz: string) => {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
};

/** Checks the stops in their order. */
export function checkStops(stops: StopRow[], facts: Map<number, VisitFacts>, o: CheckOptions, visitOf: VisitFn = memoVisit()): CheckedStop[] {
  const out: CheckedStop[] = [];
  let prev: CheckedStop | null = null;
  for (const [i, s] of stops.entries()) {
    let f: VisitFacts | null;
    let visit: VisitCheck | null;
    let warnings: Warning[];
    if (s.eventId) {
      f = s.event?.museumId ? (facts.get(s.event.museumId) ?? null) : null;
      visit = s.event ? eventVisit(s.event) : null;
      warnings = !s.event ? ['event_missing'] : dateIn(visit!.startsAt, s.event.timeZone) !== o.date ? ['event_other_day'] : [];
    } else {
      f = s.museumId ? (facts.get(s.museumId) ?? null) : null;
      visit = f ? visitOf(f, { date: o.date, arrival: s.arrival, durationMinutes: s.durationMinutes }) : null;
      warnings = visitWarnings(visit, f, o.minVisitMinutes);
    }
    let walk: CheckedStop['walk'] = null;
    if (prev && visit) {
      const wb = walkBetween(prev.facts, f, o.walkingSpeedKmh);
      if (!wb && prev.visit) warnings.push('no_location'); // one end has no coordinates (an event away from museums)
      if (prev.visit) {
        const gapMinutes = Math.round((visit.startsAt.getTime() - prev.visit.endsAt.getTime()) / MINUTE);
        walk = { distanceMeters: wb?.distanceMeters ?? 0, minutes: wb?.minutes ?? 0, gapMinutes };
        if (gapMinutes < (wb?.minutes ?? 0)) warnings.push('walk_overlap');
      }
    }
    const c: CheckedStop = { ...s, position: i, facts: f, visit, walk, warnings };
    out.push(c);
    prev = c;
  }
  return out;
}

const countWarnings = (stops: CheckedStop[]) => stops.reduce((n, s) => n + s.warnings.filter((w) => w !== 'unknown_hours' && w !== 'no_location').length, 0);
const walkTotal = (stops: CheckedStop[]) => stops.reduce((n, s) => n + (s.walk?.minutes ?? 0), 0);

const formatters = new Map<string, { time: Intl.DateTimeFormat; date: Intl.DateTimeFormat }>();
function fmt(tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = {
      time: new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      date: new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }),
    };
    formatters.set(tz, f);
  }
  return f;
}
const hhmm = (facts: VisitFacts, at: number): string => fmt(facts.timezone || 'UTC').time.format(new Date(at));
const localDate = (facts: VisitFacts, at: number): string => fmt(facts.timezone || 'UTC').date.format(new Date(at));

/** Rounds an instant up to the next 5 minutes. */
const ceil5 = (ms: number) => Math.ceil(ms / (5 * MINUTE)) * 5 * MINUTE;

interface Step {
  row: StopRow;
  facts: VisitFacts;
  /** when the visit ends */
  end: number;
  /** the visit alone has no warning */
  ok: boolean;
}

/**
 * The next stop of a tour: arrival after the walk from the previous stop (rounded up to 5
 * minutes), or at the museum's opening when it opens later that day. Null when the arrival would
 * fall on another date than the plan's.
 */
function step(prev: Step | null, start: number, s: StopRow, f: VisitFacts, o: CheckOptions, visitOf: VisitFn): Step | null {
  let t = prev ? ceil5(prev.end + (walkBetween(prev.facts, f, o.walkingSpeedKmh)?.minutes ?? 0) * MINUTE) : start;
  if (localDate(f, t) !== o.date) return null;
  let v = visitOf(f, { date: o.date, arrival: hhmm(f, t), durationMinutes: s.durationMinutes });
  if (v.opensAt && (v.beforeOpening || v.hours === 'closed')) {
    const [h, m] = v.opensAt.split(':').map(Number);
    const [y, mo, d] = o.date.split('-').map(Number);
    const opens = localToInstant({ year: y, month: mo, day: d }, h * 60 + m, f.timezone).getTime();
    if (opens > t) {
      t = opens;
      if (localDate(f, t) !== o.date) return null;
      v = visitOf(f, { date: o.date, arrival: hhmm(f, t), durationMinutes: s.durationMinutes });
    }
  }
  return { row: { ...s, arrival: hhmm(f, t) }, facts: f, end: t + s.durationMinutes * MINUTE, ok: visitWarnings(v, f, o.minVisitMinutes).length === 0 };
}

/**
 * A nearest-neighbour order that respects opening times: from each stop as the first, take next
 * the nearest stop whose whole visit fits its opening hours when you would get there (else the
 * nearest); keep the tour with the fewest warnings, then the shortest walk. Offered only when it
 * beats the plan as it is (fewer warnings, or as few and a shorter walk).
 */
export function suggestOrder(stops: StopRow[], facts: Map<number, VisitFacts>, current: CheckedStop[], o: CheckOptions, visitOf: VisitFn = memoVisit()): Suggestion | null {
  // events keep their own times: a plan with one is left in its order
  if (stops.length < 2 || stops.some((s) => s.eventId || s.museumId === null || !facts.has(s.museumId))) return null;
  const starts = current.map((c) => c.visit?.startsAt.getTime()).filter((x): x is number => x !== undefined);
  if (!starts.length) return null;
  const start = Math.min(...starts);
  let best: { rows: StopRow[]; warnings: number; walk: number } | null = null;
  for (const first of stops) {
    const head = step(null, start, first, facts.get(first.museumId!)!, o, visitOf);
    if (!head) continue;
    const tour: Step[] = [head];
    const left = stops.filter((s) => s !== first);
    while (left.length) {
      const prev = tour[tour.length - 1];
      let pick: { i: number; next: Step; d: number } | null = null;
      for (const [i, cand] of left.entries()) {
        const next = step(prev, start, cand, facts.get(cand.museumId!)!, o, visitOf);
        if (!next) continue;
        const d = walkBetween(prev.facts, next.facts, o.walkingSpeedKmh)?.distanceMeters ?? Number.MAX_SAFE_INTEGER;
        if (!pick || (next.ok && !pick.next.ok) || (next.ok === pick.next.ok && d < pick.d)) pick = { i, next, d };
      }
      if (!pick) break;
      left.splice(pick.i, 1);
      tour.push(pick.next);
    }
    if (left.length) continue;
    const rows = tour.map((t) => t.row);
    const checked = checkStops(rows, facts, o, visitOf);
    const cand = { rows, warnings: countWarnings(checked), walk: walkTotal(checked) };
    if (!best || cand.warnings < best.warnings || (cand.warnings === best.warnings && cand.walk < best.walk)) best = cand;
  }
  if (!best) return null;
  const nowWarnings = countWarnings(current);
  const nowWalk = walkTotal(current);
  const better = best.warnings < nowWarnings || (best.warnings === nowWarnings && best.walk < nowWalk);
  if (!better) return null;
  return { stopIds: best.rows.map((r) => r.id), arrivals: best.rows.map((r) => r.arrival), warnings: best.warnings, walkMinutes: best.walk };
}

export function checkPlan(stops: StopRow[], facts: Map<number, VisitFacts>, o: CheckOptions): PlanCheck {
  const visitOf = memoVisit();
  const checked = checkStops(stops, facts, o, visitOf);
  return {
    stops: checked,
    summary: {
      warnings: countWarnings(checked),
      walkMinutes: walkTotal(checked),
      distanceMeters: checked.reduce((n, s) => n + (s.walk?.distanceMeters ?? 0), 0),
      freeStops: checked.filter((s) => s.visit?.free.applies).length,
    },
    suggestion: suggestOrder(stops, facts, checked, o, visitOf),
  };
}
