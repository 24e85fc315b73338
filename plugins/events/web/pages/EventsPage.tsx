import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { EmptyState, Icon, Page, Spinner, TabPanel, Tabs, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import type { EventItem } from '../lib.ts';
import { EventCard } from '../components/EventCard.tsx';
import { MeetupFormDialog } from '../components/MeetupFormDialog.tsx';
import { CalendarFeedDialog } from '../components/AddToCalendar.tsx';
import '../events.css';

type TabId = 'all' | 'myGroups' | 'museums' | 'weekend';
const TABS: TabId[] = ['all', 'myGroups', 'museums', 'weekend'];

function qs(params: Record<string, string | number | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) sp.set(k, String(v));
  return sp.toString();
}

function byDate(a: EventItem, b: EventItem) {
  return a.dateTime.localeCompare(b.dateTime) || a.id - b.id;
}

/**
 * /events and /meetups: meetups and museum events, live data only, with the tabs All, My Groups,
 * Museums and This Weekend (Saturday and Sunday where each event takes place). Visitors see museum
 * events and the meetups of open communities and groups (the server leaves private ones out), and
 * are asked to sign in to join.
 */
export default function EventsPage() {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as TabId | null;
  const tab: TabId = requested && TABS.includes(requested) && (requested !== 'myGroups' || user) ? requested : 'all';
  const [creating, setCreating] = useState(false);
  const [feedOpen, setFeedOpen] = useState(false);

  // "This weekend": Saturday and Sunday where each event takes place (the date its card shows),
  // decided by the server, so the page's keys are the same on the server that renders it and in
  // the browser that hydrates it (publicweb primes them: eventsKeys)
  const range = tab === 'weekend' ? { weekend: 'true' } : {};
  const wantMeetups = tab !== 'museums' && (tab !== 'myGroups' || !!user);
  const wantMuseum = tab !== 'myGroups';
  const meetups = useApi<EventItem[]>(wantMeetups ? `/api/meetups?${qs({ limit: 100, scope: tab === 'myGroups' ? 'mine' : undefined, ...range })}` : null);
  const museumEvents = useApi<EventItem[]>(wantMuseum ? `/api/museum-events?${qs({ limit: 100, ...range })}` : null);

  const loading = (wantMeetups && meetups.isLoading) || (wantMuseum && museumEvents.isLoading);
  const error = (wantMeetups && meetups.error) || (wantMuseum && museumEvents.error) || null;
  const items = useMemo(
    () => [...(wantMeetups ? meetups.data ?? [] : []), ...(wantMuseum ? museumEvents.data ?? [] : [])].sort(byDate),
    [wantMeetups, wantMuseum, meetups.data, museumEvents.data],
  );

  const onChange = (e: EventItem | null) => {
    if (!e) {
      void meetups.mutate();
      void museumEvents.mutate();
      return;
    }
    const target = e.kind === 'meetup' ? meetups : museumEvents;
    void target.mutate((cur) => (cur ?? []).map((x) => (x.id === e.id ? e : x)), { revalidate: false });
  };

  const tabs = TABS.filter((id) => id !== 'myGroups' || user).map((id) => ({ id, label: t(`tabs.${id}`) }));
  const isAmbassador = user?.role === 'Ambassador';

  return (
    <Page
      title={t('page.title')}
      subtitle={t('page.subtitle')}
      width="wide"
      className="ev-page"
      actions={
        <div className="buttons">
          {user && (
            <button type="button" className="button is-light" onClick={() => setFeedOpen(true)}>
              <Icon name="calendar" size={16} />
              <span>{t('page.calendarFeed')}</span>
            </button>
          )}
          {isAmbassador && (
            <button type="button" className="button is-primary" onClick={() => setCreating(true)}>
              <Icon name="plus" size={16} />
              <span>{t('page.createMeetup')}</span>
            </button>
          )}
        </div>
      }
    >
      <Tabs
        idPrefix="events"
        label={t('tabs.label')}
        tabs={tabs}
        active={tab}
        onChange={(id) => {
          const next = new URLSearchParams(params);
          if (id === 'all') next.delete('tab');
          else next.set('tab', id);
          setParams(next, { replace: true });
        }}
      />
      {!user && (
        <p className="notification is-info is-light ev-signin-note">
          {t('page.signInForMeetups')}{' '}
          <Link to="/auth" className="has-text-weight-semibold">
            {t('page.signIn')}
          </Link>
        </p>
      )}
      <TabPanel idPrefix="events" id={tab} active={tab}>
        {loading && <Spinner center size="large" />}
        {!loading && error && (
          <EmptyState
            tone="error"
            title={t('page.loadError')}
            description={error.message}
            action={
              <button
                type="button"
                className="button"
                onClick={() => {
                  void meetups.mutate();
                  void museumEvents.mutate();
                }}
              >
                {t('page.retry')}
              </button>
            }
          />
        )}
        {!loading && !error && items.length === 0 && <EmptyState icon="calendar" title={t('empty.events')} description={t('empty.eventsHelp')} />}
        {!loading && !error && items.length > 0 && (
          <div className="ev-grid" data-testid="events-list">
            {items.map((e) => (
              <EventCard key={`${e.kind}-${e.id}`} event={e} onChange={onChange} />
            ))}
          </div>
        )}
      </TabPanel>
      {isAmbassador && <MeetupFormDialog open={creating} onClose={() => setCreating(false)} onSaved={() => void meetups.mutate()} />}
      {user && <CalendarFeedDialog open={feedOpen} onClose={() => setFeedOpen(false)} />}
    </Page>
  );
}
