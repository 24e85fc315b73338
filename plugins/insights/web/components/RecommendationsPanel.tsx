import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation, useApi, useAuth, Avatar, RoleBadge, Icon, Spinner, apiRequest, toast, CoverImage, ResponsiveImage, storedSrcsets, infoSrcsets } from '../../../../web/src/index.ts';
import { recommendUsersUrl, recommendMuseumsUrl, trendingMuseumsUrl, activeUsersUrl } from '../../../../web/src/api/generated/insights.ts';
import { displayName, museumPath, profilePath, type RecommendedUser, type RecommendedMuseum, type ActiveUser } from '../types.ts';
import { FOLLOWED_EVENT, useFollowList } from './follow.ts';
import { FollowToggle, museumReason } from './OnboardingSuggestions.tsx';
import './insights.css';

type Person = RecommendedUser | ActiveUser;

/** Follow is one-way here: once followed the button shows Following, disabled (part 1 §4). */
function FollowButton({ userId, size = 'is-small' }: { userId: number; size?: string }) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const [state, setState] = useState<'idle' | 'pending' | 'following' | 'requested'>('idle');
  const follow = async () => {
    if (!user) {
      toast({ title: t('recs.signInRequired'), description: t('recs.signInFollow'), variant: 'warning' });
      return;
    }
    setState('pending');
    try {
      const r = await apiRequest<{ following: boolean; requested?: boolean }>('POST', `/api/user/${userId}/follow`);
      // a private profile: a request now waits for its owner (asking again would withdraw it)
      if (r?.requested) return setState('requested');
      if (r?.following === false) await apiRequest('POST', `/api/user/${userId}/follow`); // it was a toggle back: follow again
      setState('following');
      window.dispatchEvent(new CustomEvent(FOLLOWED_EVENT, { detail: { kind: 'user', id: userId } }));
    } catch (e) {
      console.error('follow failed', e); // spec: only logged here
      setState('idle');
    }
  };
  return (
    <button type="button" className={`button ${size} ${state === 'following' || state === 'requested' ? 'is-light' : 'is-link'}`} onClick={follow} disabled={state !== 'idle'}>
      {state === 'following' ? t('recs.following') : state === 'requested' ? t('recs.requested') : t('recs.follow')}
    </button>
  );
}

/** With `enabled` false nothing is asked (the list is not shown). */
function usePeople(limit: number, enabled = true) {
  const { user } = useAuth();
  const recs = useApi<RecommendedUser[]>(user && enabled ? recommendUsersUrl({ limit }) : null);
  const noRecs = Boolean(recs.data && recs.data.length === 0) || Boolean(recs.error);
  const active = useApi<ActiveUser[]>(user && noRecs ? activeUsersUrl({ limit }) : null);
  const people: Person[] = recs.data?.length ? recs.data : active.data ?? [];
  return { people, isLoading: recs.isLoading || active.isLoading, fallback: !recs.data?.length, signedIn: Boolean(user) };
}

export { usePeople };

function PersonRow({ p }: { p: Person }) {
  const { t } = useTranslation('insights');
  const name = displayName(p);
  const mutual = 'mutualFollowersCount' in p ? p.mutualFollowersCount ?? 0 : 0;
  return (
    <li className="is-flex is-align-items-center mb-3" style={{ gap: '0.6rem' }}>
      <Link to={profilePath(p)} aria-label={name}>
        <Avatar src={p.profileImageUrl} info={p.profileImageInfo} name={name} size={36} decorative />
      </Link>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Link to={profilePath(p)} className="has-text-weight-semibold has-text-dark is-size-7 is-block" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {name}
        </Link>
        <p className="is-size-7 has-text-grey">{mutual > 0 ? t('recs.mutual', { count: mutual }) : `@${p.username}`}</p>
      </div>
      <FollowButton userId={p.id} />
    </li>
  );
}

function MuseumRow({ m }: { m: RecommendedMuseum }) {
  const { t } = useTranslation('insights');
  const score = m.trendingScore ?? (m.recentInsightsCount ?? 0) + (m.recentCheckInsCount ?? 0) + (m.recentFollowsCount ?? 0);
  return (
    <li className="is-flex is-align-items-center mb-3" style={{ gap: '0.6rem' }}>
      {m.featuredImage ? (
        <ResponsiveImage
          className="curio-picture--contents"
          src={m.featuredImage}
          srcset={m.featuredImageInfo ? infoSrcsets(m.featuredImage, m.featuredImageInfo) : storedSrcsets(m.featuredImage)}
          blurhash={m.featuredImageInfo?.blurhash}
          sizes="40px"
          alt=""
          width={40}
          height={40}
          cover
          style={{ borderRadius: 6, width: 40, height: 40, flex: 'none' }}
        />
      ) : (
        <span className="insights-story-add" style={{ width: 40, height: 40, borderRadius: 6 }} aria-hidden="true">
          <Icon name="museum" size={18} />
        </span>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <Link to={museumPath(m)} className="has-text-weight-semibold has-text-dark is-size-7 is-block">
          {m.name}
        </Link>
        <p className="is-size-7 has-text-grey">
          {[m.city, m.country].filter(Boolean).join(', ')}
          {score > 0 && ` · ${t('recs.recentActivity', { count: score })}`}
        </p>
      </div>
    </li>
  );
}

/**
 * Compact (home sidebar): People to Follow (3), Trending Museums (2), View All → /discover.
 * `people={false}` leaves the people out (the page already shows the full recommendations).
 */
export function CompactRecommendations({ people: withPeople = true }: { people?: boolean }) {
  const { t } = useTranslation('insights');
  const { people, isLoading, signedIn } = usePeople(3, withPeople);
  const trending = useApi<RecommendedMuseum[]>(trendingMuseumsUrl({ limit: 2 }));
  const showPeople = signedIn && withPeople;
  return (
    <aside aria-label={showPeople ? t('recs.peopleToFollow') : t('recs.trendingMuseums')}>
      {showPeople && (
        <div className="box">
          <div className="is-flex is-justify-content-space-between is-align-items-center mb-3">
            <h2 className="title is-6 mb-0">{t('recs.peopleToFollow')}</h2>
            <Link to="/discover" className="is-size-7">
              {t('recs.viewAll')}
            </Link>
          </div>
          {isLoading ? <Spinner size="small" /> : people.length ? <ul>{people.slice(0, 3).map((p) => <PersonRow key={p.id} p={p} />)}</ul> : <p className="is-size-7 has-text-grey">{t('recs.none')}</p>}
        </div>
      )}
      <div className="box">
        <div className="is-flex is-justify-content-space-between is-align-items-center mb-3">
          <h2 className="title is-6 mb-0">{t('recs.trendingMuseums')}</h2>
          <Link to="/discover" className="is-size-7">
            {t('recs.viewAll')}
          </Link>
        </div>
        {trending.isLoading ? (
          <Spinner size="small" />
        ) : trending.data?.length ? (
          <ul>{trending.data.slice(0, 2).map((m) => <MuseumRow key={m.id} m={m} />)}</ul>
        ) : (
          <p className="is-size-7 has-text-grey">{t('recs.noTrending')}</p>
        )}
      </div>
    </aside>
  );
}

/** Full variant: People You May Know and Museums For You grids with mutual and common counts. */
export function FullRecommendations() {
  const { t } = useTranslation('insights');
  const { people, isLoading, signedIn, fallback } = usePeople(12);
  const pf = useFollowList('user');
  const museums = useApi<RecommendedMuseum[]>(recommendMuseumsUrl({ limit: 8 }), { revalidateOnFocus: false });
  const mf = useFollowList('museum');
  return (
    <section aria-label={t('recs.peopleYouMayKnow')}>
      {signedIn && (
        <div className="mb-5">
          <div className="is-flex is-justify-content-space-between is-align-items-center mb-4" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
            <h2 className="title is-5 mb-0">{fallback ? t('recs.activeUsers') : people[0]?.reason === 'network' ? t('recs.peopleYouMayKnow') : t('recs.peopleToFollow')}</h2>
            {people.length > 0 && (
              <button type="button" className="button is-small is-link is-light" disabled={people.every((p) => pf.stateOf(p.id) !== 'idle')} onClick={() => void pf.followAll(people.map((p) => p.id))}>
                {people.every((p) => pf.stateOf(p.id) !== 'idle') ? t('recs.allFollowed') : t('recs.followAll')}
              </button>
            )}
          </div>
          {isLoading ? (
            <Spinner />
          ) : people.length ? (
            <div className="insights-rec-users">
              {people.map((p) => {
                const name = displayName(p);
                const mutual = 'mutualFollowersCount' in p ? p.mutualFollowersCount ?? 0 : 0;
                const common = 'commonMuseumsCount' in p ? p.commonMuseumsCount ?? 0 : 0;
                return (
                  <div key={p.id} className="box has-text-centered p-4 mb-0">
                    <Link to={profilePath(p)} aria-label={name} className="is-inline-block">
                      <Avatar src={p.profileImageUrl} info={p.profileImageInfo} name={name} size={64} decorative />
                    </Link>
                    <p className="has-text-weight-semibold mt-2">
                      <Link to={profilePath(p)} className="has-text-dark">
                        {name}
                      </Link>
                    </p>
                    <RoleBadge role={p.role} hideTraveler />
                    {p.reason === 'interests' ? (
                      <p className="is-size-7 has-text-grey mt-1 mb-2">{t('recs.sameInterests')}</p>
                    ) : p.reason === 'popular' ? (
                      <p className="is-size-7 has-text-grey mt-1 mb-2">{t('recs.popularPerson')}</p>
                    ) : p.reason === 'active' || !('mutualFollowersCount' in p) ? (
                      <p className="is-size-7 has-text-grey mt-1 mb-2">{t('recs.recentInsights', { count: p.recentInsightsCount ?? 0 })}</p>
                    ) : (
                      <>
                        <p className="is-size-7 has-text-grey mt-1">{t('recs.mutual', { count: mutual })}</p>
                        <p className="is-size-7 has-text-grey mb-2">{t('recs.commonMuseums', { count: common })}</p>
                      </>
                    )}
                    <FollowToggle state={pf.stateOf(p.id)} onFollow={() => void pf.follow(p.id)} label={name} />
                  </div>
                );
              })}
            </div>
          ) : (
            <p className="has-text-grey">{t('recs.none')}</p>
          )}
        </div>
      )}
      <div>
        <div className="is-flex is-justify-content-space-between is-align-items-center mb-4" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
          <h2 className="title is-5 mb-0">{t('recs.museumsForYou')}</h2>
          {signedIn && museums.data?.length ? (
            <button
              type="button"
              className="button is-small is-link is-light"
              disabled={museums.data.every((m) => mf.stateOf(m.id) !== 'idle')}
              onClick={() => void mf.followAll(museums.data!.map((m) => m.id))}
            >
              {museums.data.every((m) => mf.stateOf(m.id) !== 'idle') ? t('recs.allFollowed') : t('recs.followAll')}
            </button>
          ) : null}
        </div>
        {museums.isLoading ? (
          <Spinner />
        ) : museums.data?.length ? (
          <div className="columns is-multiline">
            {museums.data.map((m) => (
              <div key={m.id} className="column is-half-tablet is-one-quarter-desktop">
                <div className="card" style={{ height: '100%' }}>
                  <div className="insights-spotlight-cover" style={{ height: 120 }}>
                    <CoverImage src={m.featuredImage} info={m.featuredImageInfo} kind="museum" category={m.category} seed={m.name} sizes="(min-width: 1024px) 25vw, (min-width: 769px) 50vw, 100vw" />
                  </div>
                  <div className="card-content p-3">
                    <Link to={museumPath(m)} className="has-text-weight-semibold has-text-dark">
                      {m.name}
                    </Link>
                    <p className="is-size-7 has-text-grey">{[m.city, m.country].filter(Boolean).join(', ')}</p>
                    <p className="is-size-7 mt-1">{museumReason(t, m)}</p>
                    {signedIn && (
                      <div className="mt-2">
                        <FollowToggle state={mf.stateOf(m.id)} onFollow={() => void mf.follow(m.id)} label={m.name} />
                      </div>
                    )}
                  </div>
                </div>
              </div>
            ))}
          </div>
        ) : (
          <p className="has-text-grey">{t('recs.none')}</p>
        )}
      </div>
    </section>
  );
}

export default FullRecommendations;
