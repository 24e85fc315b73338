import { useId, useState } from 'react';
import { ApiError, Icon, Modal, Spinner, toast, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import { getMeetupIcsUrl, getMuseumEventIcsUrl, rotateCalendarFeed, type CalendarToken } from '../../../../web/src/api/generated/events.ts';
import type { EventItem } from '../lib.ts';

/** "Add to calendar": the event as an .ics file, and the member's private feed of everything they attend. */
export function AddToCalendar({ event: e }: { event: Pick<EventItem, 'id' | 'kind'> }) {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const [feedOpen, setFeedOpen] = useState(false);
  const href = e.kind === 'meetup' ? getMeetupIcsUrl({ id: e.id }) : getMuseumEventIcsUrl({ id: e.id });
  return (
    <div className="buttons are-small ev-calendar">
      <a className="button is-small is-light" href={href} download>
        <Icon name="calendar" size={14} />
        <span>{t('calendar.add')}</span>
      </a>
      {user && (
        <button type="button" className="button is-small is-text" onClick={() => setFeedOpen(true)}>
          {t('page.calendarFeed')}
        </button>
      )}
      <CalendarFeedDialog open={feedOpen} onClose={() => setFeedOpen(false)} />
    </div>
  );
}

export function CalendarFeedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('events');
  const { data, mutate, isLoading } = useApi<CalendarToken>(open ? '/api/calendar/token' : null);
  const fieldId = useId();
  const address = data ? `${window.location.origin}${data.url}` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: t('calendar.copied'), variant: 'success', duration: 2000 });
    } catch {
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };
  const rotate = async () => {
    try {
      const next = await rotateCalendarFeed();
      await mutate(next, { revalidate: false });
      toast({ title: t('calendar.rotated'), variant: 'success' });
    } catch (err) {
      toast({ title: t('toast.error'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    }
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('calendar.feedTitle')}
      size="small"
      footer={
        <div className="buttons ev-dialog-buttons">
          <button type="button" className="button is-light" onClick={rotate} disabled={!data}>
            {t('calendar.rotate')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('calendar.close')}
          </button>
        </div>
      }
    >
      <p className="mb-3">{t('calendar.feedText')}</p>
      {isLoading && <Spinner size="small" />}
      {data && (
        <div className="field has-addons">
          <div className="control is-expanded">
            <label className="is-sr-only" htmlFor={fieldId}>
              {t('calendar.addressLabel')}
            </label>
            <input id={fieldId} className="input is-small" readOnly value={address} onFocus={(ev) => ev.currentTarget.select()} />
          </div>
          <div className="control">
            <button type="button" className="button is-small is-primary" onClick={copy}>
              {t('calendar.copy')}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
