import { useTranslation } from '../../../../web/src/index.ts';

/** "Free now" / "Free today" (free for everyone under the museum's free-entry rules), or nothing. */
export function FreeBadge({ isFreeNow, isFreeToday, className = '' }: { isFreeNow: boolean; isFreeToday: boolean; className?: string }) {
  const { t } = useTranslation('museums');
  if (!isFreeNow && !isFreeToday) return null;
  return (
    <span className={`tag is-success is-light mz-free-badge ${className}`} data-free={isFreeNow ? 'now' : 'today'}>
      {isFreeNow ? t('admission.freeNow') : t('admission.freeToday')}
    </span>
  );
}
