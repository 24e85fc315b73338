import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { CoverUpload, EmptyState, CoverImage, Icon, Slot, Spinner, useApi, useDocumentTitle, useTranslation } from '../../../../web/src/index.ts';
import { useViewerZone, when, type EventItem } from '../lib.ts';
import { Capacity, PriceTag } from '../components/EventCard.tsx';
import { RsvpButtons, StatusBadge } from '../components/RsvpButtons.tsx';
import { EventDetails } from '../components/EventDetails.tsx';
import { Attendees } from '../components/Attendees.tsx';
import { Discussion } from '../components/Discussion.tsx';
import { Photos } from '../components/Photos.tsx';
import { AddToCalendar } from '../components/AddToCalendar.tsx';
import { MeetupFormDialog } from '../components/MeetupFormDialog.tsx';
import { MuseumEventFormDialog } from '../components/MuseumEventFormDialog.tsx';
import { ConfirmDelete } from '../components/ConfirmDelete.tsx';
import { HoursWarningNote } from '../components/HoursWarningNote.tsx';
import '../events.css';

/** /meetups/{id} (a meetup) and /events/{id} (a museum event): details, attendees, discussion, photos, calendar. */
export default function EventDetailPage() {
  const { t, i18n } = useTranslation('events');
  const { id } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const viewerZone = useViewerZone();
  const kind = pathname.toLowerCase().startsWith('/meetups') ? 'meetup' : 'museum_event';
  const numericId = /^\d+$/.test(id ?? '') ? Number(id) : 0;
  const url = numericId ? (kind === 'meetup' ? `/api/meetups/${numericId}` : `/api/museum-events/${numericId}`) : null;
  const { data: e, error, isLoading, mutate } = useApi<EventItem>(url);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const notFound = kind === 'meetup' ? t('detail.meetupNotFound') : t('detail.eventNotFound');
  useDocumentTitle(e?.title ?? (error?.status === 404 || !numericId ? notFound : undefined));

  if (isLoading) return <Spinner center size="large" />;
  if (!numericId || error?.status === 404 || (!error && !e)) {
    return (
      <section className="section">
        <EmptyState
          icon="calendar"
          title={notFound}
          description={t('detail.notFoundHelp')}
          action={
            <Link to="/events" className="button is-primary">
              {t('detail.back')}
            </Link>
          }
        />
      </section>
    );
  }
  if (error || !e) {
    return (
      <section className="section">
        <EmptyState tone="error" title={t('page.loadError')} description={error?.message} action={<button type="button" className="button" onClick={() => mutate()}>{t('page.retry')}</button>} />
      </section>
    );
  }

  const w = when(e, i18n.language, viewerZone);
  const refresh = (updated: EventItem | null) => (updated ? mutate(updated, { revalidate: false }) : mutate());

  return (
    <section className="section ev-detail">
      <div className="container">
        <p className="mb-3">
          <Link to="/events" className="is-size-7">
            <Icon name="chevron-left" size={14} /> {t('detail.back')}
          </Link>
        </p>
        <header className="ev-detail__header box">
          <figure className="image is-3by1 ev-detail__image">
            <CoverImage src={e.imageUrl} info={e.imageInfo} kind={e.kind === 'meetup' ? 'meetup' : 'event'} category={e.category} seed={e.title} className="has-ratio" sizes="(min-width: 1024px) 960px, 100vw" priority />
          </figure>
          {e.canEdit && (
            <p className="mb-2">
              <CoverUpload<EventItem> url={`/api/${e.kind === 'meetup' ? 'meetups' : 'museum-events'}/${e.id}/cover`} maxBytes={10 * 1024 * 1024} onDone={(u) => void refresh(u)} />
            </p>
          )}
          <div className="ev-card__top">
            <span className={`tag ${e.kind === 'meetup' ? 'is-primary is-light' : 'is-link is-light'}`}>{e.kind === 'meetup' ? t('card.meetup') : t('card.museumEvent')}</span>
            <PriceTag event={e} />
            <StatusBadge event={e} />
            {e.attended && (
              <span className="tag is-success" data-testid="you-attended">
                <Icon name="check" size={14} /> {t('attendance.you')}
              </span>
            )}
          </div>
          <h1 className="title is-3">{e.title}</h1>
          <p className="subtitle is-6">
            <Icon name="calendar" size={16} /> <time dateTime={e.dateTime}>{w.date}</time> · {w.time}
            {w.zone && <span className="has-text-grey"> ({w.zone})</span>}
            <br />
            <Icon name="map-pin" size={16} /> {e.location}
          </p>
          {e.hoursWarning && <HoursWarningNote warning={e.hoursWarning} organiser={e.canEdit} kind={e.kind} />}
          <div className="ev-detail__actions">
            <Capacity event={e} />
            <RsvpButtons event={e} onChange={refresh} size="normal" />
            <AddToCalendar event={e} />
            <Slot name="event.actions" eventId={e.id} event={e} />
            {e.kind === 'meetup' && <Slot name="meetup.actions" targetType="meetup" targetId={e.id} ownerId={e.organizerId} />}
            {e.canEdit && (
              <span className="buttons are-small">
                <button type="button" className="button is-small" onClick={() => setEditing(true)}>
                  <Icon name="edit" size={14} />
                  <span>{t('edit.meetup')}</span>
                </button>
                <button type="button" className="button is-small is-danger is-light" onClick={() => setDeleting(true)}>
                  <Icon name="trash" size={14} />
                  <span>{e.kind === 'meetup' ? t('delete.meetup') : t('delete.event')}</span>
                </button>
              </span>
            )}
          </div>
        </header>

        <div className="columns">
          <div className="column is-7">
            <section className="box" aria-labelledby="ev-d-details">
              <h2 className="title is-5" id="ev-d-details">
                {t('subtabs.details')}
              </h2>
              <EventDetails event={e} />
            </section>
            <section className="box" aria-labelledby="ev-d-photos">
              <h2 className="title is-5" id="ev-d-photos">
                {t('detail.photos')}
              </h2>
              <Photos event={e} onCountChange={() => mutate()} />
            </section>
            <section className="box" aria-labelledby="ev-d-discussion">
              <h2 className="title is-5" id="ev-d-discussion">
                {t('detail.discussion')}
              </h2>
              <Discussion event={e} onCountChange={() => mutate()} />
            </section>
          </div>
          <div className="column is-5">
            <section className="box" aria-labelledby="ev-d-attendees">
              <h2 className="title is-5" id="ev-d-attendees">
                {t('detail.attendees')} <span className="tag is-rounded">{e.attendees.length}</span>
              </h2>
              {e.attendedCount !== null && (
                <p className="is-size-7 mb-2" data-testid="attendance-count" title={t('attendance.help')}>
                  <Icon name="check" size={14} /> {t('attendance.count', { count: e.attendedCount })}
                </p>
              )}
              <Attendees event={e} />
            </section>
          </div>
        </div>
      </div>
      {e.kind === 'meetup' ? (
        <MeetupFormDialog open={editing} onClose={() => setEditing(false)} meetup={e} onSaved={(u) => mutate(u, { revalidate: false })} />
      ) : (
        e.museum && (
          <MuseumEventFormDialog open={editing} onClose={() => setEditing(false)} museum={{ id: e.museum.id, name: e.museum.name, timezone: e.timeZone }} event={e} onSaved={(u) => mutate(u, { revalidate: false })} />
        )
      )}
      <ConfirmDelete event={e} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => navigate('/events')} />
    </section>
  );
}
