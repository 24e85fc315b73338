import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import {
  apiRequest,
  Avatar,
  CoverImage,
  formatDate,
  EmptyState,
  Icon,
  Page,
  ResponsiveImage,
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
import { formatDistanceIn, museumPath, type MuseumView } from '../lib.ts';
import { MuseumCard } from '../components/MuseumCard.tsx';
import { eventPath } from '../../../events/public.ts';
import { DiscoverFilters, DiscoverResults } from '../components/DiscoverBrowse.tsx';
import '../museums.css';

type Item = { id: number | string } & Record<string, any>;
interface SearchAnswer {
  museums: MuseumView[];
  users: Item[];
  posts: Item[];
  communities: Item[];
  events: Item[];
}

const MIN_QUERY = 3; // "longer than 2 characters"

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

/**
 * /discover, /search and /map: search, then the museum browser (category and filter chips, near
 * me, one result list with distance, sorting, a map view with a maps key; all in the URL), with
 * People to Follow and Trending beside it.
 */
export default function DiscoverPage() {
  const { t } = useTranslation('museums');
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const [text, setText] = useState(q);
  const inputRef = useRef<HTMLInputElement>(null);
  const browseRef = useRef<HTMLDivElement>(null);

  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (pathname.toLowerCase().startsWith('/search')) inputRef.current?.focus();
    if (pathname.toLowerCase().startsWith('/map')) browseRef.current?.scrollIntoView({ block: 'start' });
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

      <div className="columns is-variable is-5 mt-2">
        <div className="column is-8" ref={browseRef}>
          {searching ? (
            <>
              <DiscoverFilters categoriesOnly />
              <SearchResults q={q.trim()} category={category} />
            </>
          ) : (
            <>
              <DiscoverFilters />
              <DiscoverResults />
            </>
          )}
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
  const { t, i18n } = useTranslation('museums');
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
            <Avatar src={u.profileImageUrl} info={u.profileImageInfo} name={personName(u)} size={40} decorative />
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
            {/* the cover through its made widths with its placeholder (imageInfo), else the designed cover */}
            <CoverImage src={c.imageUrl} info={c.imageInfo} kind="community" seed={String(c.name ?? c.id)} sizes="56px" className="mz-list__thumb" />
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
            <CoverImage src={e.imageUrl} info={e.imageInfo} kind={e.kind === 'meetup' ? 'meetup' : 'event'} seed={String(e.title ?? e.id)} sizes="56px" className="mz-list__thumb" />
            <strong>{e.title ?? e.name}</strong>
            {/* the date where the event takes place, as its cards show it (and the same on the server and in the browser) */}
            {e.dateTime && <span className="has-text-grey"> · {formatDate(e.dateTime, i18n.language, typeof e.timeZone === 'string' ? e.timeZone : undefined)}</span>}
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
          {p.type === 'photo' && p.photos?.[0] && (
            <ResponsiveImage
              src={p.photos[0].url}
              width={p.photos[0].width}
              height={p.photos[0].height}
              alt={p.photos[0].alt ?? ''}
              srcset={p.photos[0].srcset}
              sizes="56px"
              blurhash={p.photos[0].blurhash}
              focalPoint={p.photos[0].focalPoint}
              cover
              className={`mz-list__thumb${p.sensitive ? ' is-blurred' : ''}`}
            />
          )}
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
  // after a click: following, or requested (a private profile waits for its owner's approval)
  const [followed, setFollowed] = useState<Map<string, 'following' | 'requested'>>(new Map());
  const list = Array.isArray(res.data) ? res.data.slice(0, 5) : [];
  const follow = async (u: Item) => {
    try {
      const r = await apiRequest<{ following?: boolean; requested?: boolean }>('POST', `/api/user/${u.id}/follow`);
      const state = r?.requested ? 'requested' : r?.following !== false ? 'following' : null;
      if (state) setFollowed((s) => new Map(s).set(String(u.id), state));
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
            const state = followed.get(String(u.id));
            const done = Boolean(state);
            return (
              <li key={String(u.id)} className="mz-person-row">
                <Link to={profilePath(u)} className="mz-person" title={`${personName(u)} (@${u.username})`}>
                  <Avatar src={u.profileImageUrl} info={u.profileImageInfo} name={personName(u)} size={36} decorative />
                  <span>
                    <strong>{personName(u)}</strong>
                    <span className="has-text-grey is-block is-size-7">@{u.username}</span>
                  </span>
                </Link>
                <button type="button" className={`button is-small ${done ? 'is-light' : 'is-primary is-outlined'}`} disabled={done} onClick={() => void follow(u)}>
                  {state === 'requested' ? t('discover.requested') : done ? t('discover.following') : t('discover.follow')}
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
  const { t, i18n } = useTranslation('museums');
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
                  {typeof m.distance === 'number' ? ` · ${formatDistanceIn(m.distance, i18n.language)}` : ''}
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
