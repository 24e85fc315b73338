import { Icon, useTranslation } from '../../../../web/src/index.ts';
import type { HoursWarning } from '../../../../web/src/api/generated/events.ts';
import { timeLabel } from '../lib.ts';

/** The one sentence of a meetup or museum event outside the museum's opening hours (issue 20), in the viewer's language. */
export function useHoursWarningText(): (w: HoursWarning) => { title: string; detail: string | null } {
  const { t, i18n } = useTranslation('events');
  return (w) => {
    const time = (v: string | null) => (v ? timeLabel(v, i18n.language) : '');
    if (w.status === 'closed_day') {
      const reason = w.note ?? w.holiday;
      return { title: reason ? t('hours.closedDayReason', { reason }) : t('hours.closedDay'), detail: w.holiday && !w.note ? t('hours.holiday') : null };
    }
    if (w.status === 'by_appointment') return { title: t('hours.byAppointment'), detail: null };
    return {
      title: t('hours.outside'),
      detail: w.openTime && w.closeTime ? t('hours.openThatDay', { open: time(w.openTime), close: time(w.closeTime) }) : null,
    };
  };
}

/** A warning block; `organiser` adds that the meetup (or museum event, `kind`) is saved all the same. */
export function HoursWarningNote({ warning, organiser = false, live = false, kind = 'meetup' }: { warning: HoursWarning; organiser?: boolean; live?: boolean; kind?: 'meetup' | 'museum_event' }) {
  const { t } = useTranslation('events');
  const text = useHoursWarningText()(warning);
  return (
    <div className="notification is-warning is-light ev-hours-warning" role={live ? 'status' : undefined} data-testid="hours-warning">
      <p className="has-text-weight-semibold">
        <Icon name="clock" size={16} /> {text.title}
      </p>
      {text.detail && <p className="is-size-7">{text.detail}</p>}
      {organiser && <p className="is-size-7">{kind === 'museum_event' ? t('hours.stillSavedEvent') : t('hours.stillSaved')}</p>}
    </div>
  );
}
