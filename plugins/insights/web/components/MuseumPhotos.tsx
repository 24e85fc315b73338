import { lazy, Suspense, useState } from 'react';
import { useTranslation, useApi, EmptyState, Spinner, ResponsiveImage, Icon, toast, toastApiError, mutate } from '../../../../web/src/index.ts';
import {
  listMuseumPhotosUrl,
  listMuseumPhotos,
  getMuseumFeaturedPhotoUrl,
  setMuseumFeaturedPhoto,
  type ListMuseumPhotosResponse,
  type GetMuseumFeaturedPhotoResponse,
  type InsightPhoto,
} from '../../../../web/src/api/generated/insights.ts';
import { displayName } from '../types.ts';
// the viewer loads when a photo is opened, not with the museum page
const PhotoLightbox = lazy(() => import('./PhotoLightbox.tsx').then((m) => ({ default: m.PhotoLightbox })));

/**
 * The museum page's Photos tab: members' photo insights tagged to the museum (the server applies
 * accounts' privacy rule), three columns; the museum's manager or an Admin features one whose
 * author allowed it (credited).
 */
export function MuseumPhotos({ museumId }: { museumId: number }) {
  const { t } = useTranslation('insights');
  const [pages, setPages] = useState<number[]>([0]);
  const [open, setOpen] = useState<number | null>(null);
  const featured = useApi<GetMuseumFeaturedPhotoResponse>(getMuseumFeaturedPhotoUrl({ museumId }));
  const first = useApi<ListMuseumPhotosResponse>(listMuseumPhotosUrl({ museumId }, { limit: 30 }));
  const [more, setMore] = useState<ListMuseumPhotosResponse['items']>([]);
  const [next, setNext] = useState<number | null | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  if (first.error) return <EmptyState tone="error" icon="alert" compact title={t('photos.galleryError')} />;
  if (!first.data) return <Spinner />;
  const items = [...first.data.items, ...more];
  const canFeature = first.data.canFeature;
  const nextBefore = next === undefined ? first.data.nextBefore : next;
  const featuredId = featured.data?.photo?.id ?? null;
  if (!items.length) return <EmptyState icon="image" compact title={t('photos.galleryEmpty')} />;

  const loadMore = async () => {
    if (!nextBefore) return;
    setLoadingMore(true);
    try {
      const r = await listMuseumPhotos({ params: { museumId }, query: { limit: 30, before: nextBefore } });
      setMore((m) => [...m, ...r.items]);
      setNext(r.nextBefore);
      setPages((p) => [...p, p.length]);
    } catch (e) {
      toastApiError(e);
    } finally {
      setLoadingMore(false);
    }
  };

  const feature = async (photoId: number | null) => {
    setBusy(photoId ?? -1);
    try {
      await setMuseumFeaturedPhoto({ params: { museumId }, body: { photoId } });
      toast({ title: t('photos.featureDone'), variant: 'success' });
      await featured.mutate();
      // the museum's hero and cards read featuredImage
      void mutate((key) => typeof key === 'string' && key.includes(`/api/museums/`));
    } catch (e) {
      toastApiError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="museum-photos" data-pages={pages.length}>
      <ul className="insights-grid insights-museum-photos" aria-label={t('photos.gallery')}>
        {items.map((p, i) => (
          <li key={p.id} className="insights-museum-photo">
            <button type="button" className="insights-tile" onClick={() => setOpen(i)} aria-label={p.alt?.trim() ? `${p.alt} — ${t('photos.by', { name: displayName(p.user) })}` : t('photos.by', { name: displayName(p.user) })}>
              <ResponsiveImage
                src={p.url}
                width={p.width}
                height={p.height}
                alt=""
                srcset={p.srcset as InsightPhoto['srcset']}
                sizes="(min-width: 769px) 200px, 33vw"
                blurhash={p.blurhash}
                focalPoint={p.focalPoint}
                cover
                className={`insights-tile-picture${p.sensitive ? ' is-blurred' : ''}`}
              />
              {featuredId === p.id && (
                <span className="insights-tile-video" aria-hidden="true">
                  <Icon name="star" size={16} />
                </span>
              )}
            </button>
            {canFeature && (
              <button
                type="button"
                className={`button is-small is-fullwidth mt-1 ${featuredId === p.id ? 'is-warning' : 'is-light'}`}
                disabled={!p.allowFeature || busy !== null}
                aria-pressed={featuredId === p.id}
                title={p.allowFeature ? undefined : t('photos.featureNoConsent')}
                onClick={() => void feature(featuredId === p.id ? null : p.id)}
                data-testid={`feature-${p.id}`}
              >
                {featuredId === p.id ? t('photos.featured') : p.allowFeature ? t('photos.feature') : t('photos.featureNoConsent')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {nextBefore && (
        <div className="has-text-centered mt-3">
          <button type="button" className="button is-small" onClick={() => void loadMore()} disabled={loadingMore}>
            {t('photos.loadMore')}
          </button>
        </div>
      )}
      {open !== null && (
        <Suspense fallback={null}>
          <PhotoLightbox
            photos={items as unknown as InsightPhoto[]}
            start={open}
            author={displayName(items[open].user)}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
