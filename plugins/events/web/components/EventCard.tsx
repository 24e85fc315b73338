import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CoverImage, Icon, useTranslation } from '../../../../web/src/index.ts';
import { CARD_TAGS, eventPath, priceAmount, useViewerZone, when, type EventItem } from '../lib.ts';
import { RsvpButtons, StatusBadge } from './RsvpButtons.tsx';
import { useHoursWarningText } from './HoursWarningNote.tsx';

export function PriceTag({ event: e }: { event: EventItem }) {
  const { t } = useTranslation('events');
  if (e.kind === 'meetup' && e.cost === 'donation') return <span className="tag is-light ev-price">{t('card.donation')}</span>;
  return <span className="tag is-light ev-price">{e.price === 0 ? t('card.free') : t('card.price', { amount: priceAmount(e.price) })}</span>;
}

export function Tags({ tags, limit = CARD_TAGS }: { tags: string[]; limit?: number }) {
  const { t } = useTranslation('events');
  if (!tags.length) return null;
  const shown = tags.slice(0, limit);
  return (
    <div className="tags ev-tags">
      {shown.map((tag) => (
        <span key={tag} className="tag is-rounded">
          {tag}
        </span>
      ))}
      {tags.length > limit && <span className="tag is-rounded is-white ev-more-tags">{t('card.moreTags', { count: tags.length - limit })}</span>}
    </div>
  );
}

export function Capacity({ event: e }: { event: EventItem }) {
  const { t } = useTranslation('events');
  return (
    <span className="ev-capacity">
      <Icon name="users" size={14} />{' '}
      {e.maxAttendees !== null ? t('card.attendingOf', { count: e.currentAttendees, max: e.maxAttendees }) : t('card.attending', { count: e.currentAttendees })}
      {e.isFull && (
        <span className="tag is-danger is-light ev-full" data-testid="full-badge">
          {t('card.full')}
        </span>
      )}
      {!e.isFull && e.spotsLeft !== null && e.spotsLeft <= 5 && e.isJoinable && <span className="ev-spots"> · {t('card.spotsLeft', { count: e.spotsLeft })}</span>}
    </span>
  );
}

/**
 * The meetup page's "outside the museum's opening hours" warning (issue 20) as a line of the card:
 * its sentence (with the closure's note or the holiday when there is one) and that day's hours.
 * Text, not colour alone; the icon is decoration.
 */
export function CardHoursNote({ event: e }: { event: EventItem }) {
  if (!e.hoursWarning) return null;
  return <CardHoursLine event={e} />;
}

function CardHoursLine({ event: e }: { event: EventItem }) {
  const text = useHoursWarningText()(e.hoursWarning!);
  return (
    <p className="ev-card__hours" data-testid="card-hours-warning">
      <Icon name="clock" size={14} />
      <span className="ev-card__text">
        {text.title}
        {text.detail && ` · ${text.detail}`}
      </span>
    </p>
  );
}

/** One event in a list: when, where, tags (3 and +N more), price, the member's status, RSVP. */
export function EventCard({ event: e, onChange, extra }: { event: EventItem; onChange: (updated: EventItem | null) => void; extra?: ReactNode }) {
  const { t, i18n } = useTranslation('events');
  const w = when(e, i18n.language, useViewerZone());
  return (
    <article className="card ev-card" data-testid="event-card" data-event-id={e.id} aria-labelledby={`ev-card-${e.kind}-${e.id}`}>
      <div className="card-image">
        <figure className="image is-3by1 ev-card__image">
          <CoverImage src={e.imageUrl} info={e.imageInfo} kind={e.kind === 'meetup' ? 'meetup' : 'event'} category={e.category} seed={e.title} className="has-ratio" sizes="(min-width: 1024px) 50vw, 100vw" />
        </figure>
      </div>
      <div className="card-content">
        <div className="ev-card__top">
          <span className={`tag is-small ${e.kind === 'meetup' ? 'is-primary is-light' : 'is-link is-light'}`}>{e.kind === 'meetup' ? t('card.meetup') : t('card.museumEvent')}</span>
          <PriceTag event={e} />
          <StatusBadge event={e} />
        </div>
        <h3 className="title is-5 ev-card__title" id={`ev-card-${e.kind}-${e.id}`}>
          <Link to={eventPath(e)}>{e.title}</Link>
        </h3>
        <p className="ev-card__when">
          <Icon name="calendar" size={14} />
          <span className="ev-card__text">
            <time dateTime={e.dateTime}>{w.date}</time> · {w.time}
            {w.zone && <span className="has-text-grey"> ({w.zone})</span>}
          </span>
        </p>
        <p className="ev-card__where">
          <Icon name="map-pin" size={14} />
          <span className="ev-card__text">
            {e.location}
            {e.community && <span className="has-text-grey"> · {t('card.in', { name: e.community.name })}</span>}
            {e.group && <span className="has-text-grey"> · {t('card.in', { name: e.group.name })}</span>}
            {!e.community && !e.group && e.museum && !e.location.includes(e.museum.name) && <span className="has-text-grey"> · {e.museum.name}</span>}
          </span>
        </p>
        <CardHoursNote event={e} />
        <Tags tags={e.tags} />
        <div className="ev-card__footer">
          <Capacity event={e} />
          <div className="ev-card__actions">
            <Link to={eventPath(e)} className="button is-small is-text">
              {t('card.details')}
            </Link>
            <RsvpButtons event={e} onChange={onChange} />
          </div>
        </div>
        {extra}
      </div>
    </article>
  );
}
