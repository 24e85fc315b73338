import { EmptyState, Spinner, formatDateTime, useApi, useTranslation } from '../../../../web/src/index.ts';
import { BadgeIcon } from './BadgeIcon.tsx';
import { profileUserId, userBadgesKey, type ProfileBadge, type ProfileSlotProps } from './types.ts';
import type { GetBadgeProgressResponse } from '../../../../web/src/api/generated/badges.ts';

function Progress({ own }: { own: boolean }) {
  const { t } = useTranslation('badges');
  const { data } = useApi<GetBadgeProgressResponse>(own ? '/api/badges/progress' : null);
  const todo = (data?.badges ?? []).filter((b) => !b.earnedAt);
  if (!own || !todo.length) return null;
  return (
    <section className="mt-5" aria-labelledby="curio-badges-next">
      <h3 id="curio-badges-next" className="title is-6 mb-3">
        {t('tab.next')}
      </h3>
      <ul className="curio-badge-grid">
        {todo.map(({ badge, current }) => {
          const pct = Math.min(100, Math.round((current / badge.requirement.count) * 100));
          return (
            <li key={badge.id} className="curio-badge-card is-locked">
              <BadgeIcon icon={badge.icon} color={badge.color} size={44} locked />
              <div className="curio-badge-card__body">
                <p className="curio-badge-card__name">{badge.name}</p>
                <p className="curio-badge-card__description">{badge.description}</p>
                <progress className="progress is-small is-link mb-1" value={Math.min(current, badge.requirement.count)} max={badge.requirement.count} aria-label={t('tab.progressLabel', { name: badge.name })}>
                  {pct}%
                </progress>
                <p className="curio-badge-card__meta">{t(`requirement.${badge.requirement.type}`, { current: Math.min(current, badge.requirement.count), count: badge.requirement.count })}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Profile BADGES tab: every badge earned, newest first, with its date; on your own profile, the ones still to earn. */
export default function BadgesTab(props: ProfileSlotProps) {
  const { t, i18n } = useTranslation('badges');
  const id = profileUserId(props);
  const { data, error, isLoading, mutate } = useApi<ProfileBadge[]>(userBadgesKey(id));
  const lng = i18n.resolvedLanguage || 'en';
  if (isLoading) return <Spinner center label={t('tab.loading')} />;
  if (error)
    return (
      <EmptyState
        tone="error"
        title={t('tab.error')}
        action={
          <button type="button" className="button is-small is-light" onClick={() => void mutate()}>
            {t('tab.retry')}
          </button>
        }
      />
    );
  const list = data ?? [];
  return (
    <div className="curio-badges-tab">
      {list.length === 0 ? (
        <EmptyState icon="award" title={t('tab.empty')} description={props.isOwn ? t('tab.emptyOwn') : t('tab.emptyOther')} />
      ) : (
        <ul className="curio-badge-grid" aria-label={t('tab.label')}>
          {list.map((ub) => (
            <li key={ub.id} className="curio-badge-card">
              <BadgeIcon icon={ub.badge.icon} color={ub.badge.color} size={44} />
              <div className="curio-badge-card__body">
                <p className="curio-badge-card__name">{ub.badge.name}</p>
                <p className="curio-badge-card__description">{ub.badge.description}</p>
                <p className="curio-badge-card__meta">
                  <time dateTime={ub.earnedAt}>{t('tab.earnedOn', { date: formatDateTime(new Date(ub.earnedAt), lng, { dateStyle: 'medium' }) })}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Progress own={!!props.isOwn} />
    </div>
  );
}
