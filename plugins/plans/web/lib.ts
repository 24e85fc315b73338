/** Formatting and warning texts shared by the plan pages (Intl in the viewer's language). */
import type { TFunction } from 'i18next';
import type { PlanStop } from '../../../web/src/api/generated/plans.ts';

/** A local date (YYYY-MM-DD) as the viewer reads it: "Monday 30 November 2026". */
export function formatPlanDate(date: string, lang: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);
}

/** An instant on the museum's clock, in the viewer's language ("10:00", "10:00 AM"). */
export function formatStopTime(iso: string, timeZone: string, lang: string): string {
  try {
    return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
  } catch {
    return iso.slice(11, 16);
  }
}

/** "HH:MM" of the museum's day in the viewer's language. */
export function formatClock(hhmm: string, lang: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (!Number.isFinite(h) || !Number.isFinite(m)) return hhmm;
  return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2001, 0, 1, h, m)));
}

export function formatDistance(meters: number, lang: string): string {
  return meters >= 1000
    ? new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 }).format(meters / 1000)
    : new Intl.NumberFormat(lang, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 }).format(Math.round(meters / 10) * 10);
}

export function formatSpeed(kmh: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilometer-per-hour', maximumFractionDigits: 1 }).format(kmh);
}

export function formatMinutes(min: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(min);
}

/** The viewer's date today (YYYY-MM-DD, their own zone). */
export function todayLocal(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** One warning of a stop, as a sentence. */
export function warningText(t: TFunction, w: PlanStop['warnings'][number], s: PlanStop, lang: string): string {
  switch (w) {
    case 'closed':
      if (s.special?.reason === 'exception') return s.special.note ? t('warning.closedException', { note: s.special.note }) : t('warning.closedExceptionNoNote');
      if (s.special?.reason === 'holiday') return t('warning.closedHoliday', { holiday: s.special.holiday ?? '' });
      if (s.opensAt && s.closesAt) return t('warning.closedOpens', { open: formatClock(s.opensAt, lang), close: formatClock(s.closesAt, lang) });
      return t('warning.closed');
    case 'before_opening':
      return t('warning.before_opening', { time: formatClock(s.opensAt ?? '', lang) });
    case 'after_closing':
      return t('warning.after_closing', { time: formatClock(s.closesAt ?? '', lang) });
    case 'too_short':
      return t('warning.too_short', { count: s.openMinutes });
    case 'walk_overlap':
      return t('warning.walk_overlap', { walk: s.walk?.minutes ?? 0, gap: s.walk?.gapMinutes ?? 0 });
    default:
      return t(`warning.${w}`);
  }
}
