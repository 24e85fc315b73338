import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, Icon, Spinner, TabPanel, Tabs, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import { eventPath, useViewerZone, when, type EventItem } from '../lib.ts';
import { CardHoursNote, Capacity, PriceTag } from './EventCard.tsx';
import { RsvpButtons, StatusBadge } from './RsvpButtons.tsx';
import { EventDetails } from './EventDetails.tsx';
import { Attendees } from './Attendees.tsx';
import { Discussion } from './Discussion.tsx';
import { Photos } from './Photos.tsx';
import { AddToCalendar } from './AddToCalendar.tsx';
import { MeetupFormDialog, type MeetupHost } from './MeetupFormDialog.tsx';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import '../events.css';

/** One meetup in a community or group: a card with Details, Discussion and Photos sub-tabs. */
export function MeetupPanel({ meetup: m, onChange, onDeleted }: { meetup: EventItem; onChange: (e: EventItem | null) => void; onDeleted: () => void }) {
  const { t, i18n } = useTranslation('events');
  const [tab, setTab] = useState('details');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const prefix = useId();
  const viewerZone = useViewerZone();
  const w = when(m, i18n.language, viewerZone);
  return (
    <article className="card ev-card ev-meetup-panel" data-testid="meetup-panel" data-event-id={m.id} aria-labelledby={`${prefix}-title`}>
      <div className="card-content">
        <div className="ev-card__top">
          <PriceTag event={m} />
          <StatusBadge event={m} />
          {m.canEdit && (
            <span className="ev-owner-actions">
              <button type="button" className="button is-small is-text" onClick={() => setEditing(true)}>
                <Icon name="edit" size={14} />
                <span>{t('edit.meetup')}</span>
              </button>
              <button type="button" className="button is-small is-text has-text-danger" onClick={() => setDeleting(true)}>
                <Icon name="trash" size={14} />
                <span>{t('delete.meetup')}</span>
              </button>
            </span>
          )}
        </div>
        <h3 className="title is-5 ev-card__title" id={`${prefix}-title`}>
          <Link to={eventPath(m)}>{m.title}</Link>
        </h3>
        <p className="ev-card__when">
          <Icon name="calendar" size={14} />
          <span className="ev-card__text">
            <time dateTime={m.dateTime}>{w.date}</time> · {w.time}
            {w.zone && <span className="has-text-grey"> ({w.zone})</span>}
          </span>
        </p>
        <CardHoursNote event={m} />
        <div className="ev-card__footer">
          <Capacity event={m} />
          <RsvpButtons event={m} onChange={onChange} />
        </div>
        <Tabs
          idPrefix={prefix}
          label={t('subtabs.label')}
          active={tab}
          onChange={setTab}
          className="is-small ev-subtabs"
          tabs={[
            { id: 'details', label: t('subtabs.details') },
            { id: 'discussion', label: t('subtabs.discussion'), count: m.commentCount || undefined },
            { id: 'photos', label: t('subtabs.photos'), count: m.photoCount || undefined },
          ]}
        />
        <TabPanel idPrefix={prefix} id="details" active={tab}>
          <EventDetails event={m} />
          <h4 className="title is-6 mt-4">{t('detail.attendees')}</h4>
          <Attendees event={m} max={12} />
          <AddToCalendar event={m} />
        </TabPanel>
        <TabPanel idPrefix={prefix} id="discussion" active={tab}>
          <Discussion event={m} onCountChange={() => onChange(null)} />
        </TabPanel>
        <TabPanel idPrefix={prefix} id="photos" active={tab}>
          <Photos event={m} onCountChange={() => onChange(null)} />
        </TabPanel>
      </div>
      <MeetupFormDialog open={editing} onClose={() => setEditing(false)} meetup={m} onSaved={(e) => onChange(e)} />
      <ConfirmDelete event={m} open={deleting} onClose={() => setDeleting(false)} onDeleted={onDeleted} />
    </article>
  );
}

interface HostInfo {
  isMember?: boolean;
  isCreator?: boolean;
  creatorId?: number | null;
  creator?: { id: number } | null;
  name?: string;
}

/**
 * The Meetups tab of a community (slot community.meetups, props communityId) or group (slot
 * group.meetups, props groupId). Optional props isMember / isCreator / name save a request.
 */
export default function MeetupsSection(props: { communityId?: number; groupId?: number; isMember?: boolean; isCreator?: boolean; name?: string }) {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const kind: MeetupHost['kind'] = props.groupId ? 'group' : 'community';
  const id = (props.groupId ?? props.communityId)!;
  const base = kind === 'group' ? `/api/groups/${id}` : `/api/communities/${id}`;
  const [showPast, setShowPast] = useState(false);
  const [creating, setCreating] = useState(false);
  const info = useApi<HostInfo>(props.isMember === undefined || props.isCreator === undefined || !props.name ? base : null);
  const list = useApi<EventItem[]>(`${base}/meetups${showPast ? '?includePast=true&limit=200' : ''}`);

  const isCreator = props.isCreator ?? (info.data?.isCreator ?? (!!user && (info.data?.creatorId ?? info.data?.creator?.id) === user.id));
  const isMember = props.isMember ?? (isCreator || !!info.data?.isMember);
  const canCreate = !!user && (isCreator || (user.role === 'Ambassador' && isMember));
  const host: MeetupHost = { kind, id, name: props.name ?? info.data?.name ?? '' };

  const replace = (updated: EventItem | null) => {
    if (!updated) return void list.mutate();
    list.mutate((cur) => (cur ?? []).map((x) => (x.id === updated.id ? updated : x)), { revalidate: false });
  };

  return (
    <section className="ev-meetups-section" aria-label={t('card.meetup')}>
      <div className="ev-section-head">
        {canCreate ? (
          <button type="button" className="button is-primary" onClick={() => setCreating(true)}>
            <Icon name="plus" size={16} />
            <span>{t('page.createMeetup')}</span>
          </button>
        ) : (
          user && isMember && <p className="has-text-grey ev-only-ambassadors">{t('community.onlyAmbassadors')}</p>
        )}
        <button type="button" className="button is-small is-text" onClick={() => setShowPast((v) => !v)} aria-pressed={showPast}>
          {showPast ? t('community.hidePast') : t('community.showPast')}
        </button>
      </div>
      {list.isLoading && <Spinner center />}
      {list.error && <EmptyState compact tone="error" title={list.error.message} />}
      {list.data && list.data.length === 0 && <EmptyState icon="calendar" title={t('community.noMeetups')} />}
      {list.data && list.data.length > 0 && (
        <div className="ev-meetup-list">
          {list.data.map((m) => (
            <MeetupPanel key={m.id} meetup={m} onChange={replace} onDeleted={() => list.mutate()} />
          ))}
        </div>
      )}
      {canCreate && <MeetupFormDialog open={creating} onClose={() => setCreating(false)} host={host} onSaved={() => list.mutate()} />}
    </section>
  );
}
