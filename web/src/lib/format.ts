/**
 * The one place the web app turns dates and times into text: always `Intl` in the viewer's
 * language (French reads 11:00, English 11:00 AM), never a hand-built "AM/PM" or padStart.
 * Plugins import these from web/src/index.ts.
 */

/** 'fr' → 'fr-FR', 'en' → 'en-US' (Intl accepts both; the region fixes the 12/24-hour clock). */
export function intlLocale(lang: string | undefined | null): string {
  const l = (lang || 'en').toLowerCase();
  if (l.startsWith('fr')) return 'fr-FR';
  if (l.startsWith('en')) return 'en-US';
  return lang || 'en-US';
}

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(lang: string, opts: Intl.DateTimeFormatOptions): { format: (d: Date) => string } {
  const key = `${lang}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(lang), opts);
    if (cache.size > 200) cache.clear();
    cache.set(key, f);
  }
  const fmt = f;
  // newer ICU puts a narrow no-break space before AM/PM: one ordinary space, the same text in
  // every browser, on the server and in Node (tests, server-rendered pages)
  return { format: (d: Date) => fmt.format(d).replace(/\u202f/g, ' ') };
}

/** An instant as date and time ("Nov 25, 2026, 11:00 AM" / "25 nov. 2026, 11:00"); any Intl options. */
export function formatDateTime(date: Date | string | number, lang: string, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return formatter(lang, opts).format(new Date(date));
}

/** An instant's date ("Nov 25, 2026" / "25 nov. 2026"), in `timeZone` when given (else the viewer's). */
export function formatDate(date: Date | string | number, lang: string, timeZone?: string): string {
  return formatter(lang, { month: 'short', day: 'numeric', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(new Date(date));
}

/** An instant's time of day ("11:00 AM" / "11:00"), in `timeZone` when given (else the viewer's). */
export function formatTimeOfDay(date: Date | string | number, lang: string, timeZone?: string): string {
  return formatter(lang, { hour: 'numeric', minute: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(new Date(date));
}

/** A wall-clock time 'HH:MM' (museum hours, a form's time choice) in the viewer's words ("6:30 PM" / "18:30"); other text as it is. */
export function formatClock(hhmm: string | null | undefined, lang: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(String(hhmm ?? '').trim());
  if (!m) return String(hhmm ?? '');
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59) return String(hhmm);
  // 24:00 (closing at midnight) reads as midnight
  return formatter(lang, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, h % 24, min)));
}
