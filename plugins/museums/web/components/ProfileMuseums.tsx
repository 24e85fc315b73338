import { Link } from 'react-router-dom';
import { EmptyState, Spinner, useApi, useTranslation } from '../../../../web/src/index.ts';
import type { GetUserMuseumsResponse } from '../../../../web/src/api/generated/museums.ts';
import { MuseumCard } from './MuseumCard.tsx';
import '../museums.css';

/** Slot `profile.museums` (accounts' profile page, MUSEUMS tab): museums followed and visited. */
export default function ProfileMuseums({ userId, isOwn }: { userId?: number; isOwn?: boolean }) {
  const { t, i18n } = useTranslation('museums');
  const { data, error, isLoading } = useApi<GetUserMuseumsResponse>(userId ? `/api/museums/user/${userId}` : null);
  if (!userId) return null;
  if (isLoading) return <Spinner center />;
  if (error?.status === 403) return <EmptyState compact icon="shield" title={t('profileMuseums.private')} />;
  if (error) return <EmptyState compact tone="error" title={t('profileMuseums.loadError')} />;
  const following = data?.following ?? [];
  const visited = data?.visited ?? [];
  if (!following.length && !visited.length) {
    return (
      <EmptyState
        icon="museum"
        title={t('profileMuseums.empty')}
        description={isOwn ? t('profileMuseums.emptyOwn') : t('profileMuseums.emptyOther')}
        action={
          isOwn ? (
            <Link className="button is-primary" to="/discover">
              {t('profileMuseums.discover')}
            </Link>
          ) : undefined
        }
      />
    );
  }
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language, { dateStyle: 'medium' });
  return (
    <div className="mz-profile-museums" data-testid="profile-museums">
      {visited.length > 0 && (
        <section className="mz-block">
          <h3 className="title is-6">{t('profileMuseums.visited')}</h3>
          <div className="mz-grid">
            {visited.map((v) => (
              <div key={v.museum.id}>
                <MuseumCard museum={v.museum} compact />
                <p className="help">
                  {t('profileMuseums.visits', { count: v.visits })} · {t('profileMuseums.lastVisit', { date: date(v.lastVisitAt) })}
                </p>
              </div>
            ))}
          </div>
        </section>
      )}
      {following.length > 0 && (
        <section className="mz-block">
          <h3 className="title is-6">{t('profileMuseums.following')}</h3>
          <div className="mz-grid">
            {following.map((m) => (
              <MuseumCard key={m.id} museum={m} compact />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
