import { useState } from 'react';
import { useTranslation, useAuth, useInfiniteApi, useCreateDialog, EmptyState, InfiniteList, Tabs, TabPanel } from '../../../../web/src/index.ts';
import { MuseumPhotos } from './MuseumPhotos.tsx';
import { listMuseumPostsUrl } from '../../../../web/src/api/generated/insights.ts';
import { PostCard } from './PostCard.tsx';
import type { Post } from '../types.ts';
import { useOnPosted } from './events.ts';
import './insights.css';

export interface MuseumInsightsProps {
  museumId?: number;
  museum?: { id: number; name: string; city?: string | null; country?: string | null } | null;
  /** the museum page's own empty text, when it passes one */
  emptyText?: string;
}

/** Slot `museum.insights`: the museum page's Community Insights (part 2 §2). */
export default function MuseumInsights({ museumId, museum, emptyText }: MuseumInsightsProps) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const { open } = useCreateDialog();
  const id = museumId ?? museum?.id;
  const list = useInfiniteApi<Post>(id ? listMuseumPostsUrl({ museumId: id }) : null, { limit: 10 });
  const [tab, setTab] = useState<'insights' | 'photos'>('insights');
  useOnPosted(() => void list.mutate());
  if (!id) return null;
  return (
    <section aria-labelledby={`museum-insights-${id}`}>
      <div className="is-flex is-justify-content-space-between is-align-items-center mb-3">
        <h2 id={`museum-insights-${id}`} className="title is-5 mb-0">
          {t('museum.title')}
        </h2>
        {user && (
          <button type="button" className="button is-small is-primary" onClick={() => open({ museum: museum ?? { id, name: '' }, initialTab: 'text' })}>
            {t('museum.share')}
          </button>
        )}
      </div>
      <Tabs
        idPrefix={`museum-insights-${id}`}
        label={t('museum.title')}
        active={tab}
        onChange={(v) => setTab(v as 'insights' | 'photos')}
        tabs={[
          { id: 'insights', label: t('museum.title') },
          { id: 'photos', label: t('photos.gallery') },
        ]}
      />
      <TabPanel idPrefix={`museum-insights-${id}`} id="photos" active={tab}>
        {tab === 'photos' && <MuseumPhotos museumId={id} />}
      </TabPanel>
      <TabPanel idPrefix={`museum-insights-${id}`} id="insights" active={tab}>
      <InfiniteList<Post>
        items={list.items}
        getKey={(p) => p.id}
        hasMore={list.hasMore}
        loadMore={list.loadMore}
        isLoading={list.isLoading}
        isLoadingMore={list.isLoadingMore}
        error={list.error}
        errorState={<EmptyState tone="error" icon="alert" compact title={t('museum.loadError')} />}
        empty={<EmptyState icon="message" compact title={emptyText || t('museum.empty')} />}
        renderItem={(p) => <PostCard post={p} hideMuseum onDeleted={() => void list.mutate()} />}
      />
      </TabPanel>
    </section>
  );
}
