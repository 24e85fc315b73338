/**
 * Admission prices and free-entry rules (schema museums/Admission): "Free today" and "Free now"
 * on the museum's local calendar and clock (Intl, so right on daylight-saving change days).
 * Isomorphic. A rule for an age group (free under 18) never makes the museum free for everyone.
 */
import { DAY_KEYS, type DayKey } from './catalog.ts';
import { localDateTime, timeToMinutes, isoDate } from './opening-hours.ts';

export type VisitorType = 'adult' | 'reduced' | 'child' | 'member';
export type FreeRuleKind = 'always' | 'weekly' | 'nthWeekday' | 'age' | 'dateRange';
export interface FreeRule {
  kind: FreeRuleKind;
  weekday?: DayKey;
  /** 1–4, or -1 for the last such weekday of the month */
  nth?: number;
  from?: string;
  to?: string;
  maxAge?: number;
  startDate?: string;
  endDate?: string;
  note?: string;
}
export interface Admission {
  currency: string;
  prices: Array<{ visitorType: VisitorType; cents: number }>;
  freeRules: FreeRule[];
}
export interface FreeStatus {
  /** Some rule for everyone applies at some time of the local day. */
  freeToday: boolean;
  /** Some rule for everyone applies at this instant. */
  freeNow: boolean;
  /** The rules for everyone of the local day (with their windows and notes). */
  todayRules: FreeRule[];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a rule for everyone covers a local date (times aside). */
export function ruleAppliesOn(rule: FreeRule, date: { year: number; month: number; day: number }, weekday: DayKey): boolean {
  switch (rule.kind) {
    case 'always':
      return true;
    case 'weekly':
      return rule.weekday === weekday;
    case 'nthWeekday': {
      if (rule.weekday !== weekday || !rule.nth) return false;
      if (rule.nth === -1) return date.day + 7 > daysInMonth(date.year, date.month);
      return Math.ceil(date.day / 7) === rule.nth;
    }
    case 'dateRange': {
      const d = isoDate(date);
      return !!rule.startDate && !!rule.endDate && rule.startDate <= d && d <= rule.endDate;
    }
    default:
      return false; // age rules are for some visitors only
  }
}

/** Whether a local time (minutes) lies in the rule's window; no window = all day. */
export function inWindow(rule: FreeRule, minutes: number): boolean {
  const f = timeToMinutes(rule.from);
  const t = timeToMinutes(rule.to);
  if (f === null && t === null) return true;
  const a = f ?? 0;
  const b = t === null || t === 0 ? 1440 : t;
  return a <= minutes && minutes < b;
}

/** Free today / free now at the museum for an instant, in its time zone. */
export function freeStatusAt(admission: Admission | null | undefined, instant: Date, timeZone: string): FreeStatus {
  if (!admission) return { freeToday: false, freeNow: false, todayRules: [] };
  const now = localDateTime(instant, timeZone);
  const todayRules = admission.freeRules.filter((r) => ruleAppliesOn(r, now, now.weekday));
  return { freeToday: todayRules.length > 0, freeNow: todayRules.some((r) => inWindow(r, now.minutes)), todayRules };
}

/** Cleans stored or submitted admission: upper-case currency, one price per visitor type, known rules only. */
export function normalizeAdmission(v: unknown): Admission | null {
  if (!v || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  const currency = typeof a.currency === 'string' ? a.currency.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  const seen = new Set<string>();
  const prices = (Array.isArray(a.prices) ? a.prices : []).filter((p: any) => {
    if (!p || !['adult', 'reduced', 'child', 'member'].includes(p.visitorType) || !Number.isInteger(p.cents) || p.cents < 0 || seen.has(p.visitorType)) return false;
    seen.add(p.visitorType);
    return true;
  }).map((p: any) => ({ visitorType: p.visitorType as VisitorType, cents: p.cents as number }));
  const freeRules = (Array.isArray(a.freeRules) ? a.freeRules : [])
    .filter((r: any) => r && ['always', 'weekly', 'nthWeekday', 'age', 'dateRange'].includes(r.kind))
    .map((r: any) => {
      const out: FreeRule = { kind: r.kind };
      if ((DAY_KEYS as readonly string[]).includes(r.weekday)) out.weekday = r.weekday;
      for (const k of ['nth', 'maxAge'] as const) if (Number.isInteger(r[k])) out[k] = r[k];
      for (const k of ['from', 'to', 'startDate', 'endDate', 'note'] as const) if (typeof r[k] === 'string' && r[k].trim()) out[k] = r[k].trim();
      return out;
    });
  return { currency, prices, freeRules };
}

/** 1250 + EUR → "€12.50" in the viewer's language. */
export function formatPrice(cents: number, currency: string, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}
