import { useEffect, useRef } from 'react';
import { Spinner, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import type { MuseumView } from '../lib.ts';
import { MuseumCard } from './MuseumCard.tsx';
import '../museums.css';

/**
 * The landing page's Featured Museums grid (slot `landing.featuredMuseums`): up to 3 museums
 * from GET /api/museums/featured?limit=3 with name, place, insights count and an Open now /
 * Closed badge; the spec's empty text and failure toast.
 */
export default function FeaturedMuseums({ limit = 3 }: { limit?: number }) {
  const { t } = useTranslation('museums');
  const { data, error, isLoading } = useApi<MuseumView[]>(`/api/museums/featured?limit=${limit}`);
  const toasted = useRef(false);
  useEffect(() => {
    if (error && !toasted.current) {
      toasted.current = true;
      toast({ title: t('toasts.error'), description: t('toasts.featuredFailed'), variant: 'destructive' });
    }
  }, [error, t]);
  return (
    <section className="mz-featured" aria-labelledby="mz-featured-title">
      <h2 className="title is-4" id="mz-featured-title">
        {t('featured.title')}
      </h2>
      {isLoading ? (
        <Spinner center />
      ) : !data?.length ? (
        <p className="has-text-grey mz-featured__empty">{t('featured.empty')}</p>
      ) : (
        <div className="mz-grid">
          {data.slice(0, limit).map((m) => (
            <MuseumCard key={m.id} museum={m} />
          ))}
        </div>
      )}
    </section>
  );
}
