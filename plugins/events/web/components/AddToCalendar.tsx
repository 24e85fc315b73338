import { useId, useState } from 'react';
import { ApiError, Icon, Modal, Spinner, toast, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import { getMeetupIcsUrl, getMuseumEventIcsUrl, rotateCalendarFeed, type CalendarFeed } from '../../../../web/src/api/generated/events.ts';
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
  // GET only reads the feed: a member without one gets nulls and makes it with the button below (POST)
  const { data, mutate, isLoading } = useApi<CalendarFeed>(open ? '/api/calendar/token' : null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const address = data?.url ? `${window.location.origin}${data.url}` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: t('calendar.copied'), variant: 'success', duration: 2000 });
    } catch {
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };
  // the same POST makes the first address and replaces an existing one
  const rotate = async () => {
    const first = !data?.token;
    setBusy(true);
    try {
      const next = await rotateCalendarFeed();
      await mutate(next, { revalidate: false });
      toast({ title: first ? t('calendar.created') : t('calendar.rotated'), variant: 'success' });
    } catch (err) {
      toast({ title: t('toast.error'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    } finally {
      setBusy(false);
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
          {data?.token && (
            <button type="button" className="button is-light" onClick={rotate} disabled={busy}>
              {t('calendar.rotate')}
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            {t('calendar.close')}
          </button>
        </div>
      }
    >
      <p className="mb-3">{t('calendar.feedText')}</p>
      {isLoading && <Spinner size="small" />}
      {data && !data.token && (
        <div>
          <p className="mb-3">{t('calendar.none')}</p>
          <button type="button" className={`button is-primary${busy ? ' is-loading' : ''}`} onClick={rotate} disabled={busy}>
            {t('calendar.create')}
          </button>
        </div>
      )}
      {data?.token && (
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
