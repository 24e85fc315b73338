import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import {
  apiRequest,
  Avatar,
  EmptyState,
  Icon,
  Page,
  RoleBadge,
  Spinner,
  TabPanel,
  Tabs,
  toast,
  useApi,
  useAuth,
  usePluginEnabled,
  useTranslation,
  type ApiError,
} from '../../../../web/src/index.ts';
import { CATEGORIES } from '../../shared/catalog.ts';
import { catKey, formatMiles, museumPath, NEW_YORK, type MuseumView } from '../lib.ts';
import { MuseumCard } from '../components/MuseumCard.tsx';
import { eventPath } from '../../../events/public.ts';
import type { MapState } from '../components/MuseumMap.tsx';
import '../museums.css';

const MuseumMap = lazy(() => import('../components/MuseumMap.tsx'));

interface ListPage<T> {
  items: T[];
  total: number;
}
type Item = { id: number | string } & Record<string, any>;
interface SearchAnswer {
  museums: MuseumView[];
  users: Item[];
  posts: Item[];
  communities: Item[];
  events: Item[];
}

/** Accessibility facts offered as Discover filters (each must be "yes"). */
const ACCESS_FILTERS = ['stepFreeEntrance', 'accessibleToilets', 'wheelchairLoan', 'quietHours'] as const;

const MIN_QUERY = 3; // "longer than 2 characters"

/** The viewer's position, or New York when geolocation is unavailable or denied. */
function usePosition() {
  const [pos, setPos] = useState<{ lat: number; lng: number; fromBrowser: boolean } | null>(null);
  useEffect(() => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setPos({ ...NEW_YORK, fromBrowser: false });
      return;
    }
    let done = false;
    const fallback = setTimeout(() => {
      if (!done) setPos({ ...NEW_YORK, fromBrowser: false });
    }, 8000);
    navigator.geolocation.getCurrentPosition(
      (p) => {
        done = true;
        clearTimeout(fallback);
        setPos({ lat: p.coords.latitude, lng: p.coords.longitude, fromBrowser: true });
      },
      () => {
        done = true;
        clearTimeout(fallback);
        setPos({ ...NEW_YORK, fromBrowser: false });
      },
      { timeout: 7000, maximumAge: 10 * 60 * 1000 },
    );
    return () => clearTimeout(fallback);
  }, []);
  return pos;
}

/** Optional lists of other plugins (communities, events search): a 404 or a disabled plugin is just empty. */
function useOptionalList(url: string | null) {
  const res = useApi<unknown>(url, { shouldRetryOnError: false });
  const items = useMemo<Item[]>(() => {
    const d = res.data as any;
    if (Array.isArray(d)) return d;
    if (d && Array.isArray(d.items)) return d.items;
    return [];
  }, [res.data]);
  return { items, isLoading: res.isLoading, failed: !!res.error && (res.error as ApiError).status !== 404 };
}

function mergeById(a: Item[], b: Item[]): Item[] {
  const seen = new Set(a.map((x) => String(x.id)));
  return [...a, ...b.filter((x) => !seen.has(String(x.id)))];
}

const personName = (u: Item) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username || '';
const profilePath = (u: Item) => `/profile/${u.slug || u.username || u.id}`;

/** /discover, /search and /map: search, category chips, map, Nearby, People to Follow, Trending. */
export default function DiscoverPage() {
  const { t } = useTranslation('museums');
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const openNow = params.get('open') === 'now';
  const freeNow = params.get('free') === 'now';
  const access = (params.get('access') ?? '').split(',').filter((k) => (ACCESS_FILTERS as readonly string[]).includes(k));
  const toggleAccess = (k: string) => {
    const next = new URLSearchParams(params);
    const list = access.includes(k) ? access.filter((x) => x !== k) : [...access, k];
    if (list.length) next.set('access', list.join(','));
    else next.delete('access');
    setParams(next, { replace: true });
  };
  const [text, setText] = useState(q);
  const inputRef = useRef<HTMLInputElement>(null);
  const mapRef = useRef<HTMLDivElement>(null);
  const pos = usePosition();
  const [mapState, setMapState] = useState<MapState>('loading');

  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (pathname.toLowerCase().startsWith('/search')) inputRef.current?.focus();
    if (pathname.toLowerCase().startsWith('/map')) mapRef.current?.scrollIntoView({ block: 'start' });
  }, [pathname]);

  // Search as you type (debounced), only past 2 characters.
  useEffect(() => {
    const v = text.trim();
    if (v === q) return;
    const h = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (v.length >= MIN_QUERY) next.set('q', v);
      else next.delete('q');
      setParams(next, { replace: true });
    }, 350);
    return () => clearTimeout(h);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps

  const searching = q.trim().length >= MIN_QUERY;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const v = text.trim();
    const next = new URLSearchParams(params);
    if (v.length >= MIN_QUERY) next.set('q', v);
    else next.delete('q');
    setParams(next);
  };
  const setCategory = (c: string) => {
    const next = new URLSearchParams(params);
    if (c) next.set('category', c);
    else next.delete('category');
    setParams(next, { replace: true });
  };

  const toggleFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (next.get(name) === value) next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
  };
  // The filters travel in the URL (?category=…&open=now), so a filtered Discover can be shared.
  const filterQuery = `${category ? `&category=${encodeURIComponent(category)}` : ''}${openNow ? '&open=now' : ''}${freeNow ? '&free=now' : ''}${access.length ? `&access=${access.join(',')}` : ''}`;
  const filtering = !!category || openNow || freeNow || access.length > 0;
  const nearUrl = pos ? `/api/museums?near=${pos.lat.toFixed(4)},${pos.lng.toFixed(4)}&pageSize=4${filterQuery}` : null;
  const nearby = useApi<ListPage<MuseumView>>(nearUrl);
  const categoryList = useApi<ListPage<MuseumView>>(filtering ? `/api/museums?pageSize=24${filterQuery}${pos ? `&near=${pos.lat.toFixed(4)},${pos.lng.toFixed(4)}` : ''}` : null);
  const mapMuseums = filtering ? categoryList.data?.items ?? [] : nearby.data?.items ?? [];

  return (
    <Page title={t('discover.title')} subtitle={t('discover.subtitle')} width="wide" className="mz-discover">
      <form role="search" onSubmit={onSubmit} className="mz-search">
        <label className="label is-sr-only" htmlFor="mz-search-input">
          {t('discover.searchLabel')}
        </label>
        <div className="control has-icons-left">
          <input
            ref={inputRef}
            id="mz-search-input"
            className="input is-medium is-rounded"
            type="search"
            value={text}
            maxLength={200}
            placeholder={t('discover.searchPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="mz-search-help"
          />
          <span className="icon is-left">
            <Icon name="search" size={18} />
          </span>
        </div>
        <p className="help" id="mz-search-help">
          {text.trim().length > 0 && text.trim().length < MIN_QUERY ? t('discover.minChars') : '\u00a0'}
        </p>
      </form>

      <div className="mz-chips" role="group" aria-label={t('discover.categoriesLabel')}>
        <button type="button" className={`mz-chip${!category ? ' is-active' : ''}`} aria-pressed={!category} onClick={() => setCategory('')}>
          {t('discover.allCategories')}
        </button>
        {CATEGORIES.map((c) => (
          <button type="button" key={c} className={`mz-chip${category === c ? ' is-active' : ''}`} aria-pressed={category === c} onClick={() => setCategory(c)}>
            {t(`categories.${catKey(c)}`)}
          </button>
        ))}
      </div>
      <div className="mz-chips" role="group" aria-label={t('discover.filtersLabel')} data-testid="discover-filters">
        <button type="button" className={`mz-chip${openNow ? ' is-active' : ''}`} aria-pressed={openNow} data-filter="open" onClick={() => toggleFilter('open', 'now')}>
          <Icon name="clock" size={14} /> {t('discover.openNow')}
        </button>
        <button type="button" className={`mz-chip${freeNow ? ' is-active' : ''}`} aria-pressed={freeNow} data-filter="free" onClick={() => toggleFilter('free', 'now')}>
          {t('admission.freeNow')}
        </button>
        {ACCESS_FILTERS.map((k) => (
          <button type="button" key={k} className={`mz-chip${access.includes(k) ? ' is-active' : ''}`} aria-pressed={access.includes(k)} data-filter={k} onClick={() => toggleAccess(k)}>
            {t(`access.filters.${k}`)}
          </button>
        ))}
      </div>

      {searching ? (
        <SearchResults q={q.trim()} category={category} />
      ) : (
        filtering && (
          <section className="mz-block" aria-labelledby="mz-cat-title" data-testid="filtered">
            <h2 className="title is-5" id="mz-cat-title">
              {category ? t(`categories.${catKey(category)}`) : t('discover.filtered')}
            </h2>
            {categoryList.isLoading ? (
              <Spinner center />
            ) : categoryList.data?.items.length ? (
              <div className="mz-grid">
                {categoryList.data.items.map((m) => (
                  <MuseumCard key={m.id} museum={m} />
                ))}
              </div>
            ) : (
              <EmptyState compact icon="museum" title={openNow || freeNow || access.length ? t('discover.noMatches') : t('discover.noMuseumsInCategory')} />
            )}
          </section>
        )
      )}

      <div className="columns is-variable is-5 mt-2">
        <div className="column is-8">
          <section className="mz-block" ref={mapRef} aria-label={t('map.label')} data-testid="map-block" data-state={mapState}>
            <Suspense
              fallback={
                <div className="mz-map mz-map--loading" data-map-state="loading">
                  <Spinner label={t('map.loading')} showLabel />
                </div>
              }
            >
              <MuseumMap museums={mapMuseums} center={pos ?? NEW_YORK} onStateChange={setMapState} />
            </Suspense>
          </section>

          <section className="mz-block" aria-labelledby="mz-nearby-title">
            <h2 className="title is-5" id="mz-nearby-title">
              {t('discover.nearby')}
            </h2>
            {pos && <p className="help mb-3">{pos.fromBrowser ? t('discover.nearYou') : t('discover.nearNewYork')}</p>}
            {!pos || nearby.isLoading ? (
              <Spinner center />
            ) : nearby.error ? (
              <EmptyState compact tone="error" title={t('discover.loadFailed')} />
            ) : nearby.data?.items.length ? (
              <div className="mz-grid is-4" data-testid="nearby">
                {nearby.data.items.slice(0, 4).map((m) => (
                  <MuseumCard key={m.id} museum={m} compact />
                ))}
              </div>
            ) : (
              <EmptyState compact icon="map-pin" title={t('discover.noNearby')} />
            )}
          </section>
        </div>
        <aside className="column is-4">
          <PeopleToFollow />
          <Trending />
        </aside>
      </div>
    </Page>
  );
}

function SearchResults({ q, category }: { q: string; category: string }) {
  const { t } = useTranslation('museums');
  const [tab, setTab] = useState('all');
  const communitiesOn = usePluginEnabled('communities');
  const eventsOn = usePluginEnabled('events');
  const all = useApi<SearchAnswer>(`/api/search?q=${encodeURIComponent(q)}`);
  const communities = useOptionalList(communitiesOn ? `/api/search/communities?q=${encodeURIComponent(q)}` : null);
  const events = useOptionalList(eventsOn ? `/api/search/events?q=${encodeURIComponent(q)}` : null);
  const loading = all.isLoading;
  const data = all.data;
  const museums = (data?.museums ?? []).filter((m) => !category || m.category === category).slice(0, 6);
  const users = data?.users ?? [];
  const posts = data?.posts ?? [];
  const comms = mergeById(data?.communities ?? [], communities.items);
  const evs = mergeById(data?.events ?? [], events.items);
  const total = museums.length + users.length + posts.length + comms.length + evs.length;

  if (loading) return <Spinner center label={t('discover.searching')} showLabel />;
  if (all.error) return <EmptyState compact tone="error" title={t('discover.searchFailed')} description={all.error.message} />;

  const createLink = (
    <p className="mz-create-hint" data-testid="create-museum-hint">
      {t('discover.cantFind')}{' '}
      <Link to="/create-museum" className="has-text-weight-semibold">
        {t('discover.createMuseum')}
      </Link>
    </p>
  );

  const museumList = museums.length ? (
    <div className="mz-grid">
      {museums.map((m) => (
        <MuseumCard key={m.id} museum={m} />
      ))}
    </div>
  ) : null;
  const userList = users.length ? (
    <ul className="mz-list">
      {users.map((u) => (
        <li key={String(u.id)}>
          <Link to={profilePath(u)} className="mz-person">
            <Avatar src={u.profileImageUrl} name={personName(u)} size={40} decorative />
            <span>
              <strong>{personName(u)}</strong> <span className="has-text-grey">@{u.username}</span>
            </span>
            {u.role && <RoleBadge role={u.role} hideTraveler />}
          </Link>
        </li>
      ))}
    </ul>
  ) : null;
  const communityList = comms.length ? (
    <ul className="mz-list">
      {comms.map((c) => (
        <li key={String(c.id)}>
          <Link to={`/communities/${c.id}`} className="mz-list__link">
            <strong>{c.name ?? c.title}</strong>
            {typeof c.memberCount === 'number' && <span className="has-text-grey"> · {t('discover.members', { count: c.memberCount })}</span>}
            {c.description && <span className="mz-list__sub">{String(c.description).slice(0, 140)}</span>}
          </Link>
        </li>
      ))}
    </ul>
  ) : null;
  const eventList = evs.length ? (
    <ul className="mz-list">
      {evs.map((e) => (
        <li key={String(e.id)}>
          <Link to={eventPath({ id: e.id, kind: e.kind })} className="mz-list__link" data-event-kind={e.kind}>
            <strong>{e.title ?? e.name}</strong>
            {e.dateTime && <span className="has-text-grey"> · {new Date(e.dateTime).toLocaleDateString()}</span>}
            {e.location && <span className="mz-list__sub">{e.location}</span>}
          </Link>
        </li>
      ))}
    </ul>
  ) : null;
  const postList = posts.length ? (
    <ul className="mz-list">
      {posts.map((p) => (
        <li key={String(p.id)} className="mz-list__link">
          {p.user && (
            <Link to={profilePath(p.user)} className="has-text-weight-semibold">
              {personName(p.user)}
            </Link>
          )}
          <span className="mz-list__sub">{String(p.content ?? p.title ?? t('discover.untitledPost')).slice(0, 200)}</span>
        </li>
      ))}
    </ul>
  ) : null;

  const tabs = [
    { id: 'all', label: t('discover.tabs.all'), count: total },
    { id: 'museums', label: t('discover.tabs.museums'), count: museums.length },
    { id: 'people', label: t('discover.tabs.people'), count: users.length },
    { id: 'communities', label: t('discover.tabs.communities'), count: comms.length },
    { id: 'events', label: t('discover.tabs.events'), count: evs.length },
    { id: 'posts', label: t('discover.tabs.posts'), count: posts.length },
  ];
  const section = (title: string, body: React.ReactNode) =>
    body ? (
      <section className="mz-results__group">
        <h3 className="title is-6">{title}</h3>
        {body}
      </section>
    ) : null;
  const none = <EmptyState compact icon="search" title={t('discover.noResults')} />;

  return (
    <section className="mz-block mz-results" aria-labelledby="mz-results-title" data-testid="search-results">
      <h2 className="title is-5" id="mz-results-title">
        {t('discover.results')}
      </h2>
      <Tabs tabs={tabs} active={tab} onChange={setTab} idPrefix="mz-results" label={t('discover.results')} />
      <TabPanel idPrefix="mz-results" id="all" active={tab}>
        {total === 0 ? none : null}
        {section(t('discover.tabs.museums'), museumList)}
        {section(t('discover.tabs.people'), userList)}
        {section(t('discover.tabs.communities'), communityList)}
        {section(t('discover.tabs.events'), eventList)}
        {section(t('discover.tabs.posts'), postList)}
        {!museums.length && createLink}
      </TabPanel>
      <TabPanel idPrefix="mz-results" id="museums" active={tab}>
        {museumList ?? none}
        {!museums.length && createLink}
      </TabPanel>
      <TabPanel idPrefix="mz-results" id="people" active={tab}>
        {userList ?? none}
      </TabPanel>
      <TabPanel idPrefix="mz-results" id="communities" active={tab}>
        {communityList ?? none}
      </TabPanel>
      <TabPanel idPrefix="mz-results" id="events" active={tab}>
        {eventList ?? none}
      </TabPanel>
      <TabPanel idPrefix="mz-results" id="posts" active={tab}>
        {postList ?? none}
      </TabPanel>
    </section>
  );
}

/** Live recommendations (insights plugin's GET /api/recommendations/users); absent routes render an empty block. */
function PeopleToFollow() {
  const { t } = useTranslation('museums');
  const { user } = useAuth();
  const res = useApi<Item[]>(user ? '/api/recommendations/users' : null, { shouldRetryOnError: false });
  const [followed, setFollowed] = useState<Set<string>>(new Set());
  const list = Array.isArray(res.data) ? res.data.slice(0, 5) : [];
  const follow = async (u: Item) => {
    try {
      const r = await apiRequest<{ following?: boolean }>('POST', `/api/user/${u.id}/follow`);
      if (r?.following !== false) setFollowed((s) => new Set(s).add(String(u.id)));
    } catch (e) {
      toast({ title: t('toasts.error'), description: (e as ApiError).message, variant: 'destructive' });
    }
  };
  return (
    <section className="box mz-side" aria-labelledby="mz-people-title" data-testid="people-to-follow">
      <h2 className="title is-6" id="mz-people-title">
        {t('discover.peopleToFollow')}
      </h2>
      {!user ? (
        <p className="has-text-grey is-size-7">{t('discover.signInForPeople')}</p>
      ) : res.isLoading ? (
        <Spinner />
      ) : list.length ? (
        <ul className="mz-list">
          {list.map((u) => {
            const done = followed.has(String(u.id));
            return (
              <li key={String(u.id)} className="mz-person-row">
                <Link to={profilePath(u)} className="mz-person">
                  <Avatar src={u.profileImageUrl} name={personName(u)} size={36} decorative />
                  <span>
                    <strong>{personName(u)}</strong>
                    <span className="has-text-grey is-block is-size-7">@{u.username}</span>
                  </span>
                </Link>
                <button type="button" className={`button is-small ${done ? 'is-light' : 'is-primary is-outlined'}`} disabled={done} onClick={() => void follow(u)}>
                  {done ? t('discover.following') : t('discover.follow')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="has-text-grey is-size-7">{t('discover.noPeople')}</p>
      )}
    </section>
  );
}

/** Live trending museums (insights plugin's GET /api/trending/museums). */
function Trending() {
  const { t } = useTranslation('museums');
  const res = useApi<Item[]>('/api/trending/museums', { shouldRetryOnError: false });
  const list = Array.isArray(res.data) ? res.data.slice(0, 5) : [];
  return (
    <section className="box mz-side" aria-labelledby="mz-trending-title" data-testid="trending">
      <h2 className="title is-6" id="mz-trending-title">
        {t('discover.trending')}
      </h2>
      {res.isLoading ? (
        <Spinner />
      ) : list.length ? (
        <ol className="mz-trending">
          {list.map((m) => (
            <li key={String(m.id)}>
              <Link to={museumPath({ id: Number(m.id), slug: m.slug })}>
                <strong>{m.name}</strong>
                <span className="has-text-grey is-block is-size-7">
                  {[m.city, m.country].filter(Boolean).join(', ')}
                  {typeof m.distance === 'number' ? ` · ${formatMiles(m.distance)} mi` : ''}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      ) : (
        <p className="has-text-grey is-size-7">{t('discover.noTrending')}</p>
      )}
    </section>
  );
}
