import { Link } from 'react-router-dom';
import { ApiError, signInPath, toast, useAuth, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { joinMeetup, joinMuseumEvent, leaveMeetup, leaveMuseumEvent } from '../../../../web/src/api/generated/events.ts';
import type { EventItem } from '../lib.ts';

interface Props {
  event: EventItem;
  /** the event as the server answered after the change (or a refetch request with null) */
  onChange: (updated: EventItem | null) => void;
  size?: 'small' | 'normal';
}

/**
 * Join / RSVP / Interested / Leave for one event. At capacity a meetup shows Full and a disabled
 * button (or Join waitlist when it has one). Only events still to come can be joined.
 */
export function RsvpButtons({ event: e, onChange, size = 'small' }: Props) {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const sizeClass = size === 'small' ? 'is-small' : '';

  const join = useMutation(async (status: 'attending' | 'interested') =>
    e.kind === 'meetup' ? joinMeetup({ params: { id: e.id }, body: { status: 'attending' } }) : joinMuseumEvent({ params: { id: e.id }, body: { status } }),
  );
  const leave = useMutation(async () => (e.kind === 'meetup' ? leaveMeetup({ params: { id: e.id } }) : leaveMuseumEvent({ params: { id: e.id } })));
  const busy = join.isPending || leave.isPending;

  const fail = (err: unknown) => {
    const message = err instanceof ApiError ? err.message : undefined;
    toast({ title: t('toast.statusFailed'), description: message, variant: 'error' });
    // a 409 (Full, already started) means our copy is stale
    if (err instanceof ApiError && err.status === 409) onChange(null);
  };

  const doJoin = async (status: 'attending' | 'interested') => {
    try {
      const updated = (await join.trigger(status)) as EventItem;
      onChange(updated);
      toast({ title: updated.userStatus === 'waitlisted' ? t('toast.joinedWaitlist') : t('toast.joined'), variant: 'success', duration: 2500 });
    } catch (err) {
      fail(err);
    }
  };
  const doLeave = async () => {
    try {
      onChange((await leave.trigger()) as EventItem);
      toast({ title: t('toast.left'), variant: 'success', duration: 2500 });
    } catch (err) {
      fail(err);
    }
  };

  if (!e.isJoinable) return null;
  if (!user) {
    return (
      <Link to={signInPath()} className={`button ${sizeClass} is-primary is-outlined`}>
        {t('card.signInToJoin')}
      </Link>
    );
  }

  const full = e.isFull && !e.enableWaitlist;
  const primaryLabel = e.kind === 'meetup' ? t('card.join') : t('card.rsvp');
  const cls = `button ${sizeClass}`;

  if (e.userStatus === 'attending' || e.userStatus === 'waitlisted') {
    return (
      <button type="button" className={`${cls} is-light`} onClick={doLeave} disabled={busy} aria-busy={leave.isPending}>
        {e.userStatus === 'waitlisted' ? t('card.leaveWaitlist') : e.kind === 'meetup' ? t('card.leave') : t('card.cancelRsvp')}
      </button>
    );
  }

  return (
    <div className="buttons are-small ev-rsvp">
      {full ? (
        <button type="button" className={`${cls} is-static ev-full-button`} disabled aria-disabled="true">
          {t('card.full')}
        </button>
      ) : (
        <button type="button" className={`${cls} is-primary`} onClick={() => doJoin('attending')} disabled={busy} aria-busy={join.isPending}>
          {e.isFull ? t('card.joinWaitlist') : primaryLabel}
        </button>
      )}
      {e.kind === 'museum_event' &&
        (e.userStatus === 'interested' ? (
          <button type="button" className={`${cls} is-light`} onClick={doLeave} disabled={busy}>
            {t('card.cancelRsvp')}
          </button>
        ) : (
          <button type="button" className={`${cls} is-primary is-outlined`} onClick={() => doJoin('interested')} disabled={busy}>
            {t('card.interested')}
          </button>
        ))}
    </div>
  );
}

/** The member's status at the event, as a badge. */
export function StatusBadge({ event: e }: { event: EventItem }) {
  const { t } = useTranslation('events');
  if (e.userStatus === 'attending') return <span className="tag is-success is-light ev-status">{t('status.attending')}</span>;
  if (e.userStatus === 'interested') return <span className="tag is-info is-light ev-status">{t('status.interested')}</span>;
  if (e.userStatus === 'waitlisted')
    return <span className="tag is-warning is-light ev-status">{e.waitlistPosition ? t('status.waitlistedAt', { position: e.waitlistPosition }) : t('status.waitlisted')}</span>;
  if (e.status === 'ongoing') return <span className="tag is-link is-light ev-status">{t('status.ongoing')}</span>;
  if (e.status === 'past') return <span className="tag is-light ev-status">{t('status.past')}</span>;
  return null;
}
