import { Fragment, useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  useTranslation,
  useAuth,
  useApi,
  useInfiniteApi,
  useCreateDialog,
  useAppConfig,
  Avatar,
  Icon,
  Spinner,
  EmptyState,
  InfiniteList,
  useDocumentTitle,
  useLiveEvent,
  STREAM_OPEN,
  apiRequest,
  CoverImage,
  Slot,
} from '../../../../web/src/index.ts';
import { useOnFollowed } from '../components/follow.ts';
import { getPersonalizedFeedUrl, listPostsUrl } from '../../../../web/src/api/generated/insights.ts';
import { getFeaturedMuseumsUrl, type Museum } from '../../../../web/src/api/generated/museums.ts';
import { PostCard } from '../components/PostCard.tsx';
import { CompactRecommendations, FullRecommendations, usePeople } from '../components/RecommendationsPanel.tsx';
import { displayName, museumPath, profilePath, type Post } from '../types.ts';
import { useOnPosted } from '../components/events.ts';
import '../components/insights.css';

const PAGE = 10;

/** 'Your Story' (opens the dialog), up to 6 suggested people, or a Discover tile when there are none. */
function StoriesRow() {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const { open } = useCreateDialog();
  const { people, isLoading } = usePeople(6);
  const me = user ? displayName(user) : '';
  return (
    <nav className="insights-stories box mb-4" aria-label={t('stories.label')}>
      <button type="button" className="insights-story" onClick={() => open()}>
        <span className="insights-story-add" style={{ position: 'relative' }}>
          {user?.profileImageUrl ? <Avatar src={user.profileImageUrl} info={user.profileImageInfo} name={me} size={60} decorative /> : <Icon name="plus" size={28} />}
        </span>
        <span className="insights-story-label">{t('stories.yourStory')}</span>
      </button>
      {!isLoading && people.length === 0 && (
        <Link to="/discover" className="insights-story">
          <span className="insights-story-add">
            <Icon name="compass" size={28} />
          </span>
          <span className="insights-story-label">{t('stories.discover')}</span>
        </Link>
      )}
      {people.slice(0, 6).map((p) => {
        const name = displayName(p);
        return (
          <Link key={p.id} to={profilePath(p)} className="insights-story" aria-label={t('stories.profileOf', { name })}>
            <span className="insights-story-ring">
              <Avatar src={p.profileImageUrl} info={p.profileImageInfo} name={name} size={56} decorative />
            </span>
            <span className="insights-story-label">{p.firstName || p.username}</span>
          </Link>
        );
      })}
    </nav>
  );
}

/** A live museum: the first featured one. */
function MuseumSpotlight() {
  const { t } = useTranslation('insights');
  const { data, isLoading } = useApi<Museum[]>(getFeaturedMuseumsUrl({ limit: 1 }));
  const m = Array.isArray(data) ? data[0] : null;
  // while it loads, a block of the card's height keeps the posts below it from moving
  if (!m) return isLoading ? <div className="card mb-4 insights-spotlight-placeholder" aria-hidden="true" /> : null;
  return (
    <aside className="card mb-4" aria-label={t('spotlight.label')}>
      <div className="insights-spotlight-cover">
        <CoverImage src={m.featuredImage} info={m.featuredImageInfo} kind="museum" category={m.category} seed={m.name} sizes="(min-width: 769px) 600px, 100vw" />
      </div>
      <div className="card-content py-3 px-4">
        <p className="is-size-7 has-text-grey is-uppercase has-text-weight-semibold">{t('spotlight.title')}</p>
        <p className="title is-5 mb-1">
          <Link to={museumPath(m)} className="has-text-dark">
            {m.name}
          </Link>
        </p>
        <p className="is-size-7 has-text-grey mb-2">{[m.city, m.country].filter(Boolean).join(', ')}</p>
        <div className="is-flex is-align-items-center" style={{ gap: '0.5rem' }}>
          <span className={`tag ${m.isOpen ? 'is-success' : 'is-light'}`}>{m.isOpen ? t('spotlight.open') : t('spotlight.closed')}</span>
          <span className="is-size-7">{t('spotlight.insights', { count: m.totalInsights ?? 0 })}</span>
          <Link to={museumPath(m)} className="button is-small is-link is-light ml-auto">
            {t('spotlight.visit')}
          </Link>
        </div>
      </div>
    </aside>
  );
}

/** `onFullRecommendations` hears whether the empty feed's full recommendations are shown. */
function Feed({ onFullRecommendations }: { onFullRecommendations: (shown: boolean) => void }) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const { appName } = useAppConfig();
  const personal = useInfiniteApi<Post>(user ? getPersonalizedFeedUrl() : null, { limit: PAGE });
  // falls back to the general list when signed out or when the personalised request fails
  const useGeneral = !user || Boolean(personal.error);
  const general = useInfiniteApi<Post>(useGeneral ? listPostsUrl() : null, { limit: PAGE });
  const feed = useGeneral ? general : personal;
  const onDeleted = () => void feed.mutate();
  useOnPosted(() => void feed.mutate());
  // a suggestion followed from this page (the empty feed's, the sidebar's): their insights come in
  const refresh = feed.mutate;
  useOnFollowed(useCallback(() => void refresh(), [refresh]));
  // "N new insights": the live stream says something may be new; the server counts what this viewer may see
  const newest = useGeneral ? null : personal.items[0];
  const [fresh, setFresh] = useState(0);
  useEffect(() => setFresh(0), [newest?.id]);
  // feed.new is sent only to open streams: when this tab's opens (again), it asks too
  useLiveEvent(['feed.new', STREAM_OPEN], () => {
    if (!newest) return void personal.mutate();
    apiRequest<{ count: number }>('GET', `/api/feed/new-count?since=${encodeURIComponent(newest.createdAt)}&sinceId=${newest.id}`)
      .then((r) => setFresh(r.count))
      .catch(() => undefined);
  });
  useEffect(() => onFullRecommendations(feed.isEmpty), [feed.isEmpty, onFullRecommendations]);
  const showNew = () => {
    setFresh(0);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    void personal.mutate();
  };
  return (
    <>
      {fresh > 0 && (
        <div className="curio-new-pill">
          <button type="button" className="button is-link is-rounded is-small" onClick={showNew} data-testid="feed-new-pill">
            {t('home.newInsights', { count: fresh })}
          </button>
        </div>
      )}
      <section aria-label={t('home.feedLabel')}>
        <InfiniteList<Post>
          items={feed.items}
          getKey={(p) => p.id}
          hasMore={feed.hasMore}
          loadMore={feed.loadMore}
          isLoading={feed.isLoading}
          isLoadingMore={feed.isLoadingMore}
          error={feed.error}
          errorState={
            <EmptyState
              tone="error"
              icon="alert"
              className="is-fill"
              title={t('home.loadError')}
              action={
                <button type="button" className="button is-small" onClick={() => void feed.mutate()}>
                  {t('home.retry')}
                </button>
              }
            />
          }
          empty={
            <EmptyState
              icon="inbox"
              className="is-fill"
              title={t('home.welcomeTitle', { appName })}
              description={t('home.welcomeText')}
              action={
                <Link to="/discover" className="button is-link is-light">
                  {t('home.discoverCta')}
                </Link>
              }
            />
          }
          renderItem={(p, i) => (
            <Fragment>
              <PostCard post={p} onDeleted={onDeleted} priority={i === 0} />
              {i === 1 && <MuseumSpotlight />}
            </Fragment>
          )}
        />
      </section>
      {/* an empty feed: the full recommendations help a new member find people and museums */}
      {feed.isEmpty && (
        <div className="box mt-4">
          <FullRecommendations />
        </div>
      )}
    </>
  );
}

export default function HomePage() {
  const { t } = useTranslation('insights');
  useDocumentTitle(t('home.title'));
  const { isLoading } = useAuth();
  // the empty feed shows the full recommendations: the sidebar does not list the same people again
  const [fullRecs, setFullRecs] = useState(false);
  if (isLoading) return <Spinner center />;
  return (
    <div className="container px-3 py-4">
      <div className="columns">
        <div className="column is-8-desktop is-12-tablet">
          {/* e.g. accounts' "Finish setting up" while an onboarding was begun and left */}
          <Slot name="home.top" />
          <StoriesRow />
          <Feed onFullRecommendations={setFullRecs} />
        </div>
        <div className="column is-4-desktop is-hidden-touch">
          <div style={{ position: 'sticky', top: '4.5rem' }}>
            <CompactRecommendations people={!fullRecs} />
          </div>
        </div>
      </div>
    </div>
  );
}
