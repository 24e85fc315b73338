import { Link } from 'react-router-dom';
import { useTranslation } from '../../../../web/src/index.ts';
import { categoryLabel, formatDistanceIn, museumPath, type MuseumView } from '../lib.ts';
import { MuseumImage } from './MuseumImage.tsx';
import { OpenBadge } from './OpenBadge.tsx';
import { FreeBadge } from './FreeBadge.tsx';
import { BusyBadge } from './BusyBadge.tsx';

/** A museum in grids and result lists: image, name, place, open-now, insights, distance. */
export function MuseumCard({ museum, compact = false }: { museum: MuseumView; compact?: boolean }) {
  const { t, i18n } = useTranslation('museums');
  const m = museum;
  return (
    <article className={`mz-card${compact ? ' is-compact' : ''}`} data-museum-id={m.id}>
      <Link to={museumPath(m)} className="mz-card__link">
        <div className="mz-card__media">
          <MuseumImage src={m.featuredImage} info={m.featuredImageInfo} name={m.name} category={m.category} alt="" sizes="(min-width: 1024px) 320px, (min-width: 769px) 50vw, 100vw" />
          <OpenBadge openStatus={m.openStatus} className="mz-card__badge" />
        </div>
        <div className="mz-card__body">
          <h3 className="mz-card__title">{m.name}</h3>
          <p className="mz-card__place">{[m.city, m.country].filter(Boolean).join(', ')}</p>
          <FreeBadge isFreeNow={m.isFreeNow} isFreeToday={m.isFreeToday} />
          <BusyBadge busyNow={m.busyNow} className="mz-card__busy" />
          <p className="mz-card__meta">
            {m.category && <span>{categoryLabel(t, m.category)}</span>}
            <span>{t('featured.insights', { count: m.totalInsights })}</span>
            {typeof m.distance === 'number' && <span data-testid="distance">{t('discover.distanceAway', { distance: formatDistanceIn(m.distance, i18n.language) })}</span>}
          </p>
        </div>
      </Link>
    </article>
  );
}
