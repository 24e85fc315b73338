import { Link } from 'react-router-dom';
import { useTranslation, useApi } from '../../../../web/src/index.ts';
import { getMuseumFeaturedPhotoUrl, type GetMuseumFeaturedPhotoResponse } from '../../../../web/src/api/generated/insights.ts';
import './insights.css';
import { displayName, profilePath } from '../types.ts';

/** Slot `museum.heroCredit`: credits the member whose photo the museum features (with their consent). */
export default function FeaturedCredit({ museumId, featuredImage }: { museumId?: number; featuredImage?: string | null }) {
  const { t } = useTranslation('insights');
  const r = useApi<GetMuseumFeaturedPhotoResponse>(museumId && featuredImage?.startsWith('/uploads/insights/photos/') ? getMuseumFeaturedPhotoUrl({ museumId }) : null);
  const p = r.data?.photo;
  if (!p) return null;
  return (
    <p className="insights-hero-credit is-size-7" data-testid="featured-credit">
      <Link to={profilePath(p.user)}>{t('photos.featuredCredit', { name: displayName(p.user) })}</Link>
    </p>
  );
}
