import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, intlLocale } from '../lib/format.ts';

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", "in 2 days" in the given language. */
export function formatRelative(date: Date, locale: string, now = Date.now()): string {
  const diff = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' });
  if (abs < 45) return rtf.format(0, 'second');
  for (const [unit, secs] of UNITS) {
    if (abs >= secs || unit === 'second') return rtf.format(Math.round(diff / secs), unit);
  }
  return rtf.format(diff, 'second');
}

export { formatDateTime };

export interface RelativeTimeProps {
  date: string | number | Date | null | undefined;
  className?: string;
}

/** A <time> with relative text, the full date as tooltip, updated every minute. */
export function RelativeTime({ date, className }: RelativeTimeProps) {
  const { i18n } = useTranslation('core');
  const [now, setNow] = useState(() => Date.now());
  // the full date depends on the browser's time zone: given once mounted, so a page rendered on
  // the server (publicweb) hydrates without a mismatch; the relative text may differ by a minute
  // between the two renders (suppressHydrationWarning) and is brought up to date at mount
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(id);
  }, []);
  if (date === null || date === undefined || date === '') return null;
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return null;
  const lng = i18n.resolvedLanguage || i18n.language || 'en';
  return (
    <time className={className} dateTime={d.toISOString()} title={mounted ? formatDateTime(d, lng) : undefined} suppressHydrationWarning>
      {formatRelative(d, lng, now)}
    </time>
  );
}
