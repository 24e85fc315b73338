import { useTranslation } from '../../../../web/src/index.ts';

/** Open now / Closed / By appointment, from the museum's isOpen and openStatus. */
export function OpenBadge({ openStatus, className = '' }: { openStatus: 'open' | 'closed' | 'by_appointment'; className?: string }) {
  const { t } = useTranslation('museums');
  const cls = openStatus === 'open' ? 'is-success' : openStatus === 'by_appointment' ? 'is-info' : 'is-danger is-light';
  const text = openStatus === 'open' ? t('hours.openNow') : openStatus === 'by_appointment' ? t('hours.byAppointmentNow') : t('hours.closedNow');
  return (
    <span className={`tag ${cls} mz-open-badge ${className}`} data-status={openStatus}>
      {text}
    </span>
  );
}
