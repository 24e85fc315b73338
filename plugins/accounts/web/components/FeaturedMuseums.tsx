import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { CoverImage, Spinner, toast, useApi, useTranslation, type ImageInfo } from '../../../../web/src/index.ts';

interface FeaturedMuseum {
  id: number;
  slug?: string | null;
  name: string;
  city?: string | null;
  country?: string | null;
  featuredImage?: string | null;
  /** the featured image's made widths, size and placeholder (the museums' answer carries it) */
  featuredImageInfo?: ImageInfo | null;
  category?: string | null;
  totalInsights?: number;
  isOpen?: boolean;
}

/** The museum's image through its variants, or its designed cover (never initials on a gradient). */
function MuseumImage({ museum }: { museum: FeaturedMuseum }) {
  return <CoverImage src={museum.featuredImage} info={museum.featuredImageInfo} kind="museum" category={museum.category} seed={museum.name} sizes="(min-width: 769px) 33vw, 100vw" />;
}

/**
 * The landing page's Featured Museums grid when no plugin contributes one to `landing.featuredMuseums`:
 * up to 3 museums from GET /api/museums/featured?limit=3 (name, city, country, insights count, an
 * Open now / Closed badge, a designed cover when the image is missing or fails).
 */
export default function FeaturedMuseums({ limit = 3 }: { limit?: number }) {
  const { t } = useTranslation('accounts');
  const { data, error, isLoading } = useApi<FeaturedMuseum[]>(`/api/museums/featured?limit=${limit}`);
  const toasted = useRef(false);
  useEffect(() => {
    if (error && !toasted.current) {
      toasted.current = true;
      toast({ title: t('landing.errorTitle'), description: t('landing.featuredFailed'), variant: 'destructive' });
    }
  }, [error, t]);
  const list = Array.isArray(data) ? data.slice(0, limit) : [];
  return (
    <section className="acc-featured" aria-labelledby="acc-featured-title">
      <h2 className="title is-4" id="acc-featured-title">
        {t('landing.featuredTitle')}
      </h2>
      {isLoading ? (
        <Spinner center />
      ) : list.length === 0 ? (
        <p className="has-text-grey">{t('landing.featuredEmpty')}</p>
      ) : (
        <ul className="acc-featured__grid">
          {list.map((m) => (
            <li key={m.id}>
              <Link className="acc-museum" to={`/museum/${m.slug || m.id}`}>
                <div className="acc-museum__media">
                  <MuseumImage museum={m} />
                  <span className={`tag acc-museum__status ${m.isOpen ? 'is-success' : 'is-dark'}`}>{m.isOpen ? t('landing.openNow') : t('landing.closed')}</span>
                </div>
                <div className="acc-museum__body">
                  <p className="acc-museum__name">{m.name}</p>
                  <p className="acc-museum__place">{[m.city, m.country].filter(Boolean).join(', ')}</p>
                  <p className="acc-museum__meta">{t('landing.insightsCount', { count: m.totalInsights ?? 0 })}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
