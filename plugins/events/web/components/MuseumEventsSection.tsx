import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, Icon, Spinner, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import type { EventItem } from '../lib.ts';
import { EventCard } from './EventCard.tsx';
// the form loads for the museum's managers only, not with every museum page
const MuseumEventFormDialog = lazy(() => import('./MuseumEventFormDialog.tsx').then((m) => ({ default: m.MuseumEventFormDialog })));
import '../events.css';

interface MuseumProps {
  id: number;
  name: string;
  managerId?: number | null;
  timezone?: string | null;
}

/** The museum page's events (slot museum.events): upcoming events, and Add event for its manager or an Admin. */
export default function MuseumEventsSection({ museumId, museum }: { museumId: number; museum?: MuseumProps }) {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const [adding, setAdding] = useState(false);
  const list = useApi<EventItem[]>(`/api/museum-events?museumId=${museumId}&limit=20`);
  const canManage = !!user && (user.role === 'Admin' || (user.role === 'Museum Manager' && museum?.managerId === user.id));
  const replace = (updated: EventItem | null) => {
    if (!updated) return void list.mutate();
    list.mutate((cur) => (cur ?? []).map((x) => (x.id === updated.id ? updated : x)), { revalidate: false });
  };
  return (
    <div className="ev-museum-events">
      {canManage && museum && (
        <div className="ev-section-head">
          <button type="button" className="button is-small is-primary is-outlined" onClick={() => setAdding(true)}>
            <Icon name="plus" size={14} />
            <span>{t('museumEvents.add')}</span>
          </button>
        </div>
      )}
      {list.isLoading && <Spinner size="small" />}
      {list.error && <EmptyState compact tone="error" title={list.error.message} />}
      {list.data && list.data.length === 0 && <EmptyState compact icon="calendar" title={t('museumEvents.empty')} />}
      {list.data && list.data.length > 0 && (
        <div className="ev-list ev-list--compact">
          {list.data.map((e) => (
            <EventCard key={e.id} event={e} onChange={replace} />
          ))}
        </div>
      )}
      <p className="mt-3">
        <Link to="/events" className="is-size-7">
          {t('museumEvents.all')}
        </Link>
      </p>
      {canManage && museum && (
        <Suspense fallback={null}>
          <MuseumEventFormDialog open={adding} onClose={() => setAdding(false)} museum={museum} onSaved={() => list.mutate()} />
        </Suspense>
      )}
    </div>
  );
}
