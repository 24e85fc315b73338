/**
 * A change of a museum's fields in words, fact by fact, worded as the museum page words them:
 * hours per weekday (rangeText), seasons, dated closures and special hours (formatLocalDate, the
 * hours' texts), the public-holiday rule, prices per visitor type (formatPrice) and free-entry
 * rules (useRuleText), each accessibility fact (value and note), amenities, the category and the
 * plain fields. Other plugins get it through `web/public.ts` (the admin suggestion queue shows a
 * suggestion, e.g. a visitors' structured correction, as "fact: now → proposed").
 */
import { useTranslation } from '../../../web/src/index.ts';
import { normalizeHours, mergeDayRanges } from '../shared/opening-hours.ts';
import { DAY_KEYS, type DayKey, type HolidayPolicy, type HoursException, type Season } from '../shared/catalog.ts';
import { formatPrice, normalizeAdmission } from '../shared/admission.ts';
import { ACCESS_KEYS, normalizeAccessibility } from '../shared/accessibility.ts';
import { useRuleText } from './components/AdmissionBlock.tsx';
import { categoryLabel, dayLabel, formatLocalDate, formatTime, rangeText } from './lib.ts';

/** One fact of a field: its label, and its text now and as proposed (null: not set). */
export interface FactChange {
  key: string;
  label: string;
  current: string | null;
  proposed: string | null;
  /** an accessibility fact's photo (a stored /uploads URL), now and as proposed */
  currentPhoto?: string;
  proposedPhoto?: string;
}

interface Line {
  key: string;
  label: string;
  text: string;
  photo?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `fieldLabel(field)`: the field's name as the edit form shows it. `changes(field, proposed,
 * current)`: the facts that differ between the two values (both given), consecutive weekdays
 * with the same change merged ("Monday – Friday"); with `current` undefined (not known), every
 * fact of the proposed value. Never empty: a change no fact shows is given as the whole field.
 */
export function useFactChanges() {
  const { t, i18n } = useTranslation('museums');
  const lang = i18n.language || 'en';
  const ruleText = useRuleText();

  const fieldLabel = (field: string): string => {
    if (field === 'admission') return t('admission.title');
    if (field === 'accessibility') return t('access.title');
    return i18n.exists(`museums:fields.${field}`) ? t(`fields.${field}`) : field;
  };

  /** "Closed", "10:00 AM – 5:00 PM", "Open 24 hours" for an exception or a holiday rule's times. */
  const timesText = (closed: boolean, open?: string, close?: string): string => {
    if (closed || !open || !close) return t('hours.closed');
    if (open === close && open === '00:00') return t('hours.open24');
    return t('hours.timeRange', { open: formatTime(open, lang), close: formatTime(close, lang) });
  };

  /** A season's date: YYYY-MM-DD as on the page ("Thu, Dec 24"), MM-DD (every year) as "Dec 24". */
  const seasonDate = (d: string): string => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(d)) return formatLocalDate(d, lang);
    const m = /^(\d{2})-(\d{2})$/.exec(d);
    if (!m) return d;
    return new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, Number(m[1]) - 1, Number(m[2]))));
  };

  const weekText = (hours: unknown): string =>
    mergeDayRanges(hours)
      .map((r) => {
        const x = rangeText(t, r, lang);
        return `${x.days}: ${x.hours}`;
      })
      .join('; ');

  const holidayText = (p: HolidayPolicy | null | undefined): string | null => {
    if (!p) return null;
    const where = p.country ? ` (${[p.country, p.region].filter(Boolean).join('-')})` : '';
    if (p.mode === 'closed') return t('hours.holidayClosed') + where;
    if (p.mode === 'hours') return t('hours.holidayHours', { open: formatTime(p.openTime, lang), close: formatTime(p.closeTime, lang) }) + where;
    return t('changes.holidayNormal') + where;
  };

  const exceptionLine = (e: HoursException): Line => {
    const end = e.endDate || e.startDate;
    const label = end === e.startDate ? formatLocalDate(e.startDate, lang) : t('hours.dayRange', { from: formatLocalDate(e.startDate, lang), to: formatLocalDate(end, lang) });
    const hours = timesText(e.closed, e.openTime, e.closeTime);
    return { key: `exception:${e.startDate}:${end}`, label, text: e.note ? t('changes.withNote', { text: hours, note: e.note }) : hours };
  };

  const seasonLine = (s: Season, i: number): Line => ({
    key: `season:${s.name || i}`,
    label: t('changes.season', { name: s.name, from: seasonDate(s.startDate), to: seasonDate(s.endDate) }),
    text: weekText({ defaultHours: s.hours }),
  });

  /** Every fact of a value, one line each (weekdays one by one: merged after comparing). */
  const lines = (field: string, value: unknown): Line[] => {
    if (field === 'openingHours') {
      if (value == null) return [];
      const h = normalizeHours(value);
      const out: Line[] = [];
      for (const r of mergeDayRanges(h)) {
        const { hours } = rangeText(t, r, lang);
        for (const d of r.days) out.push({ key: `day:${d}`, label: dayLabel(t, d), text: hours });
      }
      (h.seasonalHours ?? []).forEach((s, i) => out.push(seasonLine(s, i)));
      for (const e of h.exceptions ?? []) out.push(exceptionLine(e));
      const holidays = holidayText(h.publicHolidays);
      if (holidays) out.push({ key: 'holidays', label: t('fields.mode'), text: holidays });
      return out;
    }
    if (field === 'admission') {
      const a = normalizeAdmission(value);
      if (!a) return [];
      return [
        ...a.prices.map((p) => ({ key: `price:${p.visitorType}`, label: t(`admission.visitor.${p.visitorType}`), text: p.cents === 0 ? t('admission.free') : formatPrice(p.cents, a.currency, lang) })),
        ...a.freeRules.map((r) => {
          const text = ruleText(r);
          return { key: `rule:${text}`, label: t('fields.kind'), text };
        }),
      ];
    }
    if (field === 'accessibility') {
      if (value == null) return [];
      const a = normalizeAccessibility(value);
      return ACCESS_KEYS.map((k) => {
        const f = a[k];
        const v = t(`access.values.${f.value}`);
        return { key: `access:${k}`, label: t(`access.facts.${k}`), text: f.note ? t('changes.withNote', { text: v, note: f.note }) : v, ...(f.photo ? { photo: f.photo } : {}) };
      });
    }
    if (field === 'amenities') {
      return (Array.isArray(value) ? value : []).map((a) => ({ key: `amenity:${a}`, label: t(`amenities.${a}`, { defaultValue: String(a) }), text: t('changes.offered') }));
    }
    if (value === null || value === undefined || value === '') return [];
    const text = field === 'category' ? categoryLabel(t, String(value)) : isObject(value) || Array.isArray(value) ? JSON.stringify(value) : String(value);
    return [{ key: field, label: fieldLabel(field), text }];
  };

  /**
   * The hours a date has without an exception of its own (the week or season in force then), for a
   * closure or special hours that one side has and the other has not: "now 9:00 AM – 6:00 PM,
   * proposed Closed". A range whose days differ: null.
   */
  const usualText = (hours: unknown, key: string): string | null => {
    const m = /^exception:(\d{4}-\d{2}-\d{2}):(\d{4}-\d{2}-\d{2})$/.exec(key);
    if (!m || hours == null) return null;
    const h = { ...normalizeHours(hours), exceptions: [] };
    const texts = new Set<string>();
    for (let d = m[1], n = 0; d <= m[2] && n < 31; d = nextDate(d), n++) {
      const day = DAY_KEYS[(new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7];
      const range = mergeDayRanges(h, d).find((r) => r.days.includes(day));
      if (range) texts.add(rangeText(t, range, lang).hours);
    }
    return texts.size === 1 ? [...texts][0] : null;
  };

  const changes = (field: string, proposed: unknown, current?: unknown): FactChange[] => {
    const next = lines(field, proposed);
    if (current === undefined) {
      if (!next.length) return [{ key: field, label: fieldLabel(field), current: null, proposed: null }];
      return next.map((l) => ({ key: l.key, label: l.label, current: null, proposed: l.text, ...(l.photo ? { proposedPhoto: l.photo } : {}) }));
    }
    const now = lines(field, current);
    const byKey = new Map(now.map((l) => [l.key, l]));
    const keys = [...new Set([...now.map((l) => l.key), ...next.map((l) => l.key)])];
    const nextByKey = new Map(next.map((l) => [l.key, l]));
    const rows: FactChange[] = [];
    for (const key of keys) {
      const a = byKey.get(key);
      const b = nextByKey.get(key);
      if (a?.text === b?.text && a?.photo === b?.photo) continue;
      rows.push({
        key,
        label: (b ?? a)!.label,
        current: a?.text ?? (field === 'openingHours' ? usualText(current, key) : null),
        proposed: b?.text ?? (field === 'openingHours' ? usualText(proposed, key) : null),
        ...(a?.photo ? { currentPhoto: a.photo } : {}),
        ...(b?.photo ? { proposedPhoto: b.photo } : {}),
      });
    }
    const merged = mergeWeekdays(rows, (from, to) => (from === to ? dayLabel(t, from) : t('hours.dayRange', { from: dayLabel(t, from), to: dayLabel(t, to) })));
    if (merged.length) return merged;
    const whole = (ls: Line[]) => (ls.length ? ls.map((l) => (l.key === field ? l.text : `${l.label}: ${l.text}`)).join('; ') : null);
    return [{ key: field, label: fieldLabel(field), current: whole(now), proposed: whole(next) }];
  };

  return { fieldLabel, changes };
}

function nextDate(d: string): string {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + 1);
  return x.toISOString().slice(0, 10);
}

/** Consecutive weekdays (Monday first) with the same change become one row labelled as a range. */
function mergeWeekdays(rows: FactChange[], label: (from: DayKey, to: DayKey) => string): FactChange[] {
  const out: FactChange[] = [];
  let run: { from: DayKey; to: DayKey; row: FactChange } | null = null;
  const flush = () => {
    if (run) out.push({ ...run.row, key: `days:${run.from}-${run.to}`, label: label(run.from, run.to) });
    run = null;
  };
  const days = new Map(rows.filter((r) => r.key.startsWith('day:')).map((r) => [r.key.slice(4) as DayKey, r]));
  for (const d of DAY_KEYS) {
    const r = days.get(d);
    if (!r) {
      flush();
      continue;
    }
    const cur: { from: DayKey; to: DayKey; row: FactChange } | null = run;
    if (cur && cur.row.current === r.current && cur.row.proposed === r.proposed) cur.to = d;
    else {
      flush();
      run = { from: d, to: d, row: r };
    }
  }
  flush();
  return [...out, ...rows.filter((r) => !r.key.startsWith('day:'))];
}
