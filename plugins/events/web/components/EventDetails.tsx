import { Link } from 'react-router-dom';
import { Avatar, Icon, useTranslation } from '../../../../web/src/index.ts';
import { displayName, priceAmount, useViewerZone, when, type EventItem } from '../lib.ts';
import { Tags } from './EventCard.tsx';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** Everything the organizer told about the event: description, when and where, cost, practical notes. */
export function EventDetails({ event: e, showDescription = true }: { event: EventItem; showDescription?: boolean }) {
  const { t, i18n } = useTranslation('events');
  const w = when(e, i18n.language, useViewerZone());
  const collab = { discussion: t('form.collabDiscussion'), confirmed: t('form.collabConfirmed'), museum_host: t('form.collabMuseumHost') }[e.collaborationStatus];
  const cost =
    e.kind === 'meetup'
      ? e.cost === 'paid'
        ? t('card.price', { amount: priceAmount(e.costAmount ?? 0) })
        : e.cost === 'donation'
          ? t('card.donation')
          : t('card.free')
      : e.price === 0
        ? t('card.free')
        : t('card.price', { amount: priceAmount(e.price) });
  return (
    <div className="ev-details">
      {showDescription && <p className="ev-details__description">{e.description}</p>}
      <dl className="ev-facts">
        <Row label={t('detail.when')}>
          <time dateTime={e.dateTime}>{w.date}</time>, {w.time}
          {w.zone && <span className="has-text-grey"> ({t('detail.timeZoneNote', { zone: w.zone })})</span>}
        </Row>
        <Row label={t('detail.where')}>{e.location}</Row>
        {e.museum && (
          <Row label={t('detail.museum')}>
            <Link to={`/museum/${e.museum.slug}`}>{e.museum.name}</Link>
          </Row>
        )}
        {e.kind === 'meetup' && e.organizer && (
          <Row label={t('detail.organizer')}>
            <span className="ev-organizer">
              <Avatar src={e.organizer.profileImageUrl} info={e.organizer.profileImageInfo} name={displayName(e.organizer)} size={20} />
              <Link to={`/profile/${e.organizer.slug ?? e.organizer.username}`}>{displayName(e.organizer)}</Link>
            </span>
          </Row>
        )}
        {(e.community || e.group) && (
          <Row label={t('detail.host')}>
            {e.community ? <Link to={`/communities/${e.community.id}`}>{e.community.name}</Link> : <Link to={`/groups/${e.group!.id}`}>{e.group!.name}</Link>}
          </Row>
        )}
        <Row label={t('detail.cost')}>{cost}</Row>
        {e.category && <Row label={t('detail.category')}>{e.category}</Row>}
        {e.expectedGroupSize && <Row label={t('detail.expectedGroupSize')}>{e.expectedGroupSize}</Row>}
        {e.ageRestrictions && <Row label={t('detail.ageRestrictions')}>{e.ageRestrictions}</Row>}
        {e.requirements && <Row label={t('detail.requirements')}>{e.requirements}</Row>}
        {e.accessibilityNotes && <Row label={t('detail.accessibilityNotes')}>{e.accessibilityNotes}</Row>}
        {e.rainPlan && <Row label={t('detail.rainPlan')}>{e.rainPlan}</Row>}
        {e.kind === 'meetup' && e.museum && <Row label={t('detail.collaboration')}>{collab}</Row>}
        {e.museumContact && <Row label={t('detail.museumContact')}>{e.museumContact}</Row>}
        {e.connectToMuseumEvent && e.museumEventId && (
          <Row label={t('detail.linkedEvent')}>
            <Link to={`/events/${e.museumEventId}`}>{t('detail.viewLinkedEvent')}</Link>
          </Row>
        )}
        {e.ticketUrl && (
          <Row label={t('detail.ticket')}>
            <a href={e.ticketUrl} target="_blank" rel="noopener noreferrer">
              {new URL(e.ticketUrl).hostname} <Icon name="link" size={12} />
            </a>
          </Row>
        )}
      </dl>
      {e.rsvpRequired && <p className="tag is-warning is-light">{t('detail.rsvpRequired')}</p>}
      <Tags tags={e.tags} limit={50} />
    </div>
  );
}
