import { useTranslation } from '../../../../web/src/index.ts';

/** "Usually quiet / busy now" (issue 20) from the museum answer's busyNow; nothing below the minimum of check-ins. */
export function BusyBadge({ busyNow, className = '' }: { busyNow: 'quiet' | 'average' | 'busy' | null | undefined; className?: string }) {
  const { t } = useTranslation('museums');
  if (!busyNow) return null;
  return (
    <span className={`tag is-light mz-busy ${className}`} data-busy={busyNow}>
      {t(`busy.${busyNow}`)}
    </span>
  );
}
