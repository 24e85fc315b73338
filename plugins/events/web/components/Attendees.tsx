import { Link } from 'react-router-dom';
import { Avatar, useTranslation } from '../../../../web/src/index.ts';
import { displayName, type EventItem } from '../lib.ts';

/** Who is coming (and who is interested, for museum events), with the waitlist size. */
export function Attendees({ event: e, max }: { event: EventItem; max?: number }) {
  const { t } = useTranslation('events');
  const list = max ? e.attendees.slice(0, max) : e.attendees;
  return (
    <div className="ev-attendees">
      {e.attendees.length === 0 ? (
        <p className="has-text-grey is-size-7">{t('detail.noAttendees')}</p>
      ) : (
        <ul className="ev-attendee-list" data-testid="attendee-list">
          {list.map((a) => (
            <li key={a.userId} className="ev-attendee">
              <Avatar src={a.user?.profileImageUrl} info={a.user?.profileImageInfo} name={displayName(a.user) || String(a.userId)} size={28} />
              {a.user ? (
                <Link to={`/profile/${a.user.slug ?? a.user.username}`}>{displayName(a.user)}</Link>
              ) : (
                <span>{a.userId}</span>
              )}
              {a.status === 'interested' && <span className="tag is-info is-light is-small">{t('status.interested')}</span>}
              {a.attended && (
                <span className="tag is-success is-light is-small" data-testid="attended-tag">
                  {t('attendance.attended')}
                </span>
              )}
            </li>
          ))}
          {max && e.attendees.length > max && <li className="has-text-grey is-size-7">{t('card.moreTags', { count: e.attendees.length - max })}</li>}
        </ul>
      )}
      {e.waitlistCount > 0 && <p className="has-text-grey is-size-7 ev-waitlist">{t('detail.waitlist', { count: e.waitlistCount })}</p>}
    </div>
  );
}
