import { Link } from 'react-router-dom';
import { useTranslation, useApi, Avatar, Spinner, CoverImage } from '../../../../web/src/index.ts';
import { recommendUsersUrl, recommendMuseumsUrl } from '../../../../web/src/api/generated/insights.ts';
import { displayName, museumPath, profilePath, type RecommendedUser, type RecommendedMuseum } from '../types.ts';
import { useFollowList, type FollowState } from './follow.ts';
import './insights.css';

export function FollowToggle({ state, onFollow, label }: { state: FollowState; onFollow: () => void; label: string }) {
  const { t } = useTranslation('insights');
  const done = state === 'following' || state === 'requested';
  return (
    <button
      type="button"
      className={`button is-small ${done ? 'is-light' : 'is-link'}${state === 'pending' ? ' is-loading' : ''}`}
      onClick={onFollow}
      disabled={state !== 'idle'}
      aria-label={done ? undefined : t('recs.followName', { name: label })}
    >
      {state === 'following' ? t('recs.following') : state === 'requested' ? t('recs.requested') : t('recs.follow')}
    </button>
  );
}

function Section({ title, id, count, allDone, onFollowAll, children }: { title: string; id: string; count: number; allDone: boolean; onFollowAll: () => void; children: React.ReactNode }) {
  const { t } = useTranslation('insights');
  return (
    <section className="mb-5" aria-labelledby={id}>
      <div className="is-flex is-justify-content-space-between is-align-items-center mb-3" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
        <h2 className="title is-5 mb-0" id={id}>
          {title}
        </h2>
        {count > 0 && (
          <button type="button" className="button is-small is-link is-light" onClick={onFollowAll} disabled={allDone} data-testid={`${id}-follow-all`}>
            {allDone ? t('recs.allFollowed') : t('recs.followAll')}
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

export function museumReason(t: (k: string, o?: any) => string, m: RecommendedMuseum): string {
  switch (m.reason) {
    case 'network':
      return t('recs.networkFollowers', { count: m.networkFollowersCount ?? 0 });
    case 'category':
      return t('recs.sameCategory');
    case 'interest':
      return t('recs.matchesInterests');
    case 'nearby':
      return t('recs.nearYou');
    case 'popular':
      return t('recs.popularMuseum');
    default:
      return t('recs.recentActivity', { count: m.trendingScore ?? 0 });
  }
}

export function personReason(t: (k: string, o?: any) => string, p: RecommendedUser): string {
  if (p.mutualFollowersCount > 0) return t('recs.mutual', { count: p.mutualFollowersCount });
  if (p.reason === 'interests') return t('recs.sameInterests');
  if (p.reason === 'active' && p.recentInsightsCount) return t('recs.recentInsights', { count: p.recentInsightsCount });
  if (p.reason === 'popular') return t('recs.popularPerson');
  return `@${p.username}`;
}

/** Step 3 of onboarding (slot onboarding.suggestions): museums and people to follow, one click each or all at once. */
export default function OnboardingSuggestions() {
  const { t } = useTranslation('insights');
  const museums = useApi<RecommendedMuseum[]>(recommendMuseumsUrl({ limit: 6 }), { revalidateOnFocus: false });
  const people = useApi<RecommendedUser[]>(recommendUsersUrl({ limit: 6 }), { revalidateOnFocus: false });
  const mf = useFollowList('museum');
  const pf = useFollowList('user');
  // the lists stay as first loaded while the member follows from them
  const ms = museums.data ?? [];
  const ps = people.data ?? [];
  return (
    <div className="insights-onboarding">
      <Section title={t('recs.museumsForYou')} id="onb-museums" count={ms.length} allDone={ms.every((m) => mf.stateOf(m.id) !== 'idle')} onFollowAll={() => void mf.followAll(ms.map((m) => m.id))}>
        {museums.isLoading ? (
          <Spinner />
        ) : ms.length ? (
          <ul className="insights-onboarding-grid">
            {ms.map((m) => (
              <li key={m.id} className="box p-0 mb-0 insights-onboarding-card">
                <div className="insights-onboarding-cover">
                  <CoverImage src={m.featuredImage} info={m.featuredImageInfo} kind="museum" category={m.category} seed={m.name} sizes="(min-width: 769px) 33vw, 100vw" />
                </div>
                <div className="p-3 is-flex is-flex-direction-column" style={{ gap: '0.25rem', flex: 1 }}>
                  <Link to={museumPath(m)} className="has-text-weight-semibold has-text-dark">
                    {m.name}
                  </Link>
                  <p className="is-size-7 has-text-grey">{[m.city, m.country].filter(Boolean).join(', ')}</p>
                  <p className="is-size-7">{museumReason(t, m)}</p>
                  <div className="mt-auto pt-2">
                    <FollowToggle state={mf.stateOf(m.id)} onFollow={() => void mf.follow(m.id)} label={m.name} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="has-text-grey">{t('recs.none')}</p>
        )}
      </Section>
      <Section title={t('recs.peopleToFollow')} id="onb-people" count={ps.length} allDone={ps.every((p) => pf.stateOf(p.id) !== 'idle')} onFollowAll={() => void pf.followAll(ps.map((p) => p.id))}>
        {people.isLoading ? (
          <Spinner />
        ) : ps.length ? (
          <ul className="insights-onboarding-people">
            {ps.map((p) => {
              const name = displayName(p);
              return (
                <li key={p.id} className="is-flex is-align-items-center mb-3" style={{ gap: '0.6rem' }}>
                  <Avatar src={p.profileImageUrl} info={p.profileImageInfo} name={name} size={40} decorative />
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <Link to={profilePath(p)} className="has-text-weight-semibold has-text-dark is-block" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {name}
                    </Link>
                    <p className="is-size-7 has-text-grey">{personReason(t, p)}</p>
                  </div>
                  <FollowToggle state={pf.stateOf(p.id)} onFollow={() => void pf.follow(p.id)} label={name} />
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="has-text-grey">{t('recs.none')}</p>
        )}
      </Section>
    </div>
  );
}
