import { Link } from 'react-router-dom';
import { useTranslation } from '../../../../web/src/index.ts';
import { categoryLabel, formatMiles, museumPath, type MuseumView } from '../lib.ts';
import { MuseumImage } from './MuseumImage.tsx';
import { OpenBadge } from './OpenBadge.tsx';
import { FreeBadge } from './FreeBadge.tsx';

/** A museum in grids and result lists: image, name, place, open-now, insights, distance. */
export function MuseumCard({ museum, compact = false }: { museum: MuseumView; compact?: boolean }) {
  const { t } = useTranslation('museums');
  const m = museum;
  return (
    <article className={`mz-card${compact ? ' is-compact' : ''}`} data-museum-id={m.id}>
      <Link to={museumPath(m)} className="mz-card__link">
        <div className="mz-card__media">
          <MuseumImage src={m.featuredImage} name={m.name} alt="" />
          <OpenBadge openStatus={m.openStatus} className="mz-card__badge" />
        </div>
        <div className="mz-card__body">
          <h3 className="mz-card__title">{m.name}</h3>
          <p className="mz-card__place">{[m.city, m.country].filter(Boolean).join(', ')}</p>
          <FreeBadge isFreeNow={m.isFreeNow} isFreeToday={m.isFreeToday} />
          <p className="mz-card__meta">
            {m.category && <span>{categoryLabel(t, m.category)}</span>}
            <span>{t('featured.insights', { count: m.totalInsights })}</span>
            {typeof m.distance === 'number' && <span>{t('discover.milesAway', { distance: formatMiles(m.distance) })}</span>}
          </p>
        </div>
      </Link>
    </article>
  );
}
