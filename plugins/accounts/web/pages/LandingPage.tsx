import { Link } from 'react-router-dom';
import { Icon, Slot, useApi, useAppConfig, useDocumentTitle, usePluginEnabled, useTranslation } from '../../../../web/src/index.ts';
import { roundedCount } from '../lib.ts';
import FeaturedMuseums from '../components/FeaturedMuseums.tsx';
import '../accounts.css';


const FEATURES = [
  { key: 'share', icon: 'video' },
  { key: 'discover', icon: 'compass' },
  { key: 'badges', icon: 'award' },
  { key: 'connect', icon: 'users' },
] as const;

function Stats() {
  const { t } = useTranslation('accounts');
  const museumsOn = usePluginEnabled('museums');
  const museums = useApi<{ total?: number }>(museumsOn ? '/api/museums?page=1&pageSize=1' : null);
  const users = useApi<{ travelersCount: number }>('/api/users/stats');
  const items: Array<{ key: string; value: number }> = [];
  if (typeof museums.data?.total === 'number' && museums.data.total > 0) items.push({ key: 'museumsStat', value: museums.data.total });
  if (typeof users.data?.travelersCount === 'number' && users.data.travelersCount > 0) items.push({ key: 'travelersStat', value: users.data.travelersCount });
  // while the counts load, an empty block of the same height keeps the page below from moving
  if (!items.length) return museums.isLoading || users.isLoading ? <div className="acc-hero__stats" aria-hidden="true" /> : null;
  return (
    <dl className="acc-hero__stats" aria-label={t('landing.statsLabel')}>
      {items.map((s) => (
        <div key={s.key}>
          <dt>{t(`landing.${s.key}`)}</dt>
          <dd>{roundedCount(s.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The signed-out home page (spec part 1 §2 Landing page). */
export default function LandingPage() {
  const { t } = useTranslation('accounts');
  const { appName } = useAppConfig();
  const museumsOn = usePluginEnabled('museums');
  const eventsOn = usePluginEnabled('events');
  useDocumentTitle(null);
  return (
    <div className="acc-landing">
      <header className="acc-landing__header">
        <div className="container acc-landing__bar">
          <Link to="/" className="acc-brand" aria-label={appName}>
            <span className="acc-brand__mark" aria-hidden="true">
              <Icon name="museum" size={20} />
            </span>
            <span className="acc-brand__name">{appName}</span>
          </Link>
          <nav aria-label={t('landing.navLabel')} className="acc-landing__nav">
            <Link to="/" aria-current="page">
              {t('landing.home')}
            </Link>
            {museumsOn && <Link to="/discover">{t('landing.discover')}</Link>}
            {eventsOn && <Link to="/events">{t('landing.events')}</Link>}
            <Link to="/auth" className="button is-primary is-small acc-landing__signin">
              {t('landing.signIn')}
            </Link>
          </nav>
        </div>
      </header>

      <section className="acc-hero">
        <div className="container">
          <h1 className="acc-hero__title">{t('landing.heroTitle')}</h1>
          <p className="acc-hero__text">{t('landing.heroText')}</p>
          <Link to={museumsOn ? '/discover' : '/auth'} className="button is-white is-medium acc-hero__cta">
            <span>{t('landing.startExploring')}</span>
            <Icon name="compass" size={18} />
          </Link>
          <Stats />
        </div>
      </section>

      <section className="section acc-features" aria-labelledby="acc-features-title">
        <div className="container">
          <h2 className="title is-4 has-text-centered" id="acc-features-title">
            {t('landing.featuresTitle')}
          </h2>
          <ul className="acc-features__grid">
            {FEATURES.map((f) => (
              <li key={f.key} className="acc-feature">
                <span className="acc-feature__icon" aria-hidden="true">
                  <Icon name={f.icon} size={24} />
                </span>
                <h3 className="acc-feature__title">{t(`landing.${f.key}Title`)}</h3>
                <p className="acc-feature__text">{t(`landing.${f.key}Text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {museumsOn && (
        <section className="section acc-featured-section">
          <div className="container">
            <Slot name="landing.featuredMuseums" limit={3} fallback={<FeaturedMuseums limit={3} />} />
          </div>
        </section>
      )}

      <section className="section">
        <div className="container">
          <div className="acc-join">
            <h2 className="title is-4">{t('landing.joinTitle')}</h2>
            <p>{t('landing.joinText')}</p>
            <Link to="/auth?tab=register" className="button is-primary is-medium">
              {t('landing.join')}
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
