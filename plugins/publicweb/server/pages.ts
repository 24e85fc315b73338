/**
 * The public pages' server render: for each public route, the head (title, description,
 * canonical, OpenGraph/Twitter, JSON-LD, noindex), the HTTP status (404 for an unknown museum,
 * event, insight or member), readable markup for `#root` (what a crawler or a browser without
 * JavaScript shows; the web app replaces it) and the API answers the web app fetches first (its
 * SWR cache starts with them, so the page does not ask again).
 *
 * Every piece of data comes from the app's own API as the visitor (server/internal.ts): what the
 * visitor may not see is never rendered, because the owning plugin never answered it.
 */
import { formatDistance, museumsQuery, readDiscoverState, type Museum } from '../../museums/public.ts';
import type { WebPageRender } from '../../../core/app.ts';
import type { ApiGet } from './internal.ts';
import { esc, renderHead, summary, type HeadSpec } from './html.ts';
import { eventJsonLd, localToday, museumJsonLd, seasonDates, type EventLike } from './jsonld.ts';
import type { Locale, T } from './texts.ts';

export interface PageInput {
  path: string;
  /** the page's query string (Discover's filters, the events page's tab) */
  query?: URLSearchParams;
  origin: string;
  api: ApiGet;
  locale: Locale;
  t: T;
  signedIn: boolean;
  amenityLabel: (k: string) => string;
  now?: Date;
  /** answers every page primes (the app's config, the session check), filled by renderPublicPage */
  common?: Record<string, unknown>;
}

type Resolver = (m: RegExpMatchArray, p: PageInput) => Promise<WebPageRender | null>;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** The 1200×630 preview image of a museum, an event, or the site (server/og.ts). */
export const ogImagePath = (kind: 'museum' | 'event' | 'site', id: number | string, version?: string) =>
  kind === 'site' ? '/api/og/site.jpg' : `/api/og/${kind}/${id}.jpg${version ? `?v=${encodeURIComponent(version)}` : ''}`;

const museumPath = (m: { slug: string }) => `/museum/${encodeURIComponent(m.slug)}`;
const memberName = (u: { firstName?: string | null; lastName?: string | null; username: string }) => `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username;

function frame(p: PageInput, inner: string): string {
  const nav = `<nav class="curio-prerender-nav" aria-label="Curio"><a href="/">${esc(p.t('nav.home'))}</a> · <a href="/discover">${esc(p.t('nav.discover'))}</a> · <a href="/events">${esc(p.t('nav.events'))}</a>${p.signedIn ? '' : ` · <a href="/auth">${esc(p.t('nav.signIn'))}</a>`}</nav>`;
  return `<div class="curio-prerender section"><div class="container">${nav}<main>${inner}</main></div></div>`;
}

interface PageSpec extends Omit<HeadSpec, 'locale'> {
  /** SWR keys → the answers the web app asks for first on this page (its cache starts with them) */
  primed?: Record<string, unknown>;
  /** the web app renders this page on the server with these answers (signed-out visitors only) */
  ssr?: boolean;
}

function page(p: PageInput, spec: PageSpec, body: string, extra: Partial<WebPageRender> = {}): WebPageRender {
  const { primed, ssr, ...head } = spec;
  return {
    head: renderHead({ ...head, locale: p.locale }),
    // a signed-in member's page renders in the browser from the boot screen (markup replaced by
    // the app would move everything: layout shift); head, status and answers still help
    body: p.signedIn ? undefined : frame(p, body),
    personal: p.signedIn,
    primed: { ...p.common, ...primed },
    // signed-in pages stay rendered in the browser (their shell depends on the member)
    ssr: Boolean(ssr) && !p.signedIn,
    locale: p.locale,
    ...extra,
  };
}

function notFound(p: PageInput, title: string): WebPageRender {
  return page(p, { title: `${title} · Curio`, description: title, noindex: true }, `<h1>${esc(title)}</h1>`, { status: 404 });
}

function fmtDateTime(iso: string, tz: string, locale: Locale): string {
  try {
    return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-US', { timeZone: tz, dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** The week in effect today at the museum: a season's when one applies, else the default. */
function weekToday(m: Museum, today: string): { week: any; season?: string } | null {
  const oh = m.openingHours as any;
  if (!oh?.defaultHours) return null;
  for (const s of oh.seasonalHours ?? []) {
    const { from, to } = seasonDates(s.startDate, s.endDate, today);
    if (from <= today && today <= to) return { week: s.hours, season: s.name };
  }
  return { week: oh.defaultHours };
}

function hoursHtml(m: Museum, p: PageInput): string {
  const today = localToday(m.timezone, p.now);
  const w = weekToday(m, today);
  const status = m.openStatus === 'by_appointment' ? p.t('museum.byAppointment') : m.isOpen ? p.t('museum.openNow') : p.t('museum.closedNow');
  let html = `<h2>${esc(p.t('museum.hours'))}</h2><p><strong class="curio-open-status" data-open="${m.isOpen ? 'true' : 'false'}">${esc(status)}</strong> · ${esc(p.t('museum.timesIn', { zone: m.timezone }))}</p>`;
  if (w) {
    if (w.season) html += `<p>${esc(p.t('museum.season', { name: w.season }))}</p>`;
    const dayName = (d: string) => new Intl.DateTimeFormat(p.locale === 'fr' ? 'fr-FR' : 'en-US', { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + DAYS.indexOf(d as any))));
    html += '<table class="table"><tbody>';
    for (const d of DAYS) {
      const e = w.week[d];
      const v = !e?.isOpen ? p.t('museum.closed') : e.isByAppointment ? p.t('museum.byAppointment') : `${e.openTime ?? ''}–${e.closeTime ?? ''}`;
      html += `<tr><th scope="row">${esc(dayName(d))}</th><td>${esc(v)}</td></tr>`;
    }
    html += '</tbody></table>';
  }
  return html;
}

function eventListHtml(events: EventLike[], p: PageInput, tz?: string): string {
  if (!events.length) return `<p>${esc(p.t('events.none'))}</p>`;
  return `<ul>${events
    .map((e) => `<li><a href="${e.kind === 'meetup' ? '/meetups' : '/events'}/${e.id}">${esc(e.title)}</a> · <time datetime="${esc(e.dateTime)}">${esc(fmtDateTime(e.dateTime, tz ?? (e as any).timeZone ?? 'UTC', p.locale))}</time>${e.museum ? ` · ${esc(e.museum.name)}` : ''}</li>`)
    .join('')}</ul>`;
}

function museumCards(list: Array<Pick<Museum, 'slug' | 'name' | 'city' | 'country'> & { distance?: number | null }>, locale?: Locale): string {
  return `<ul>${list
    .map((m) => `<li><a href="${museumPath(m)}">${esc(m.name)}</a> · ${esc([m.city, m.country].filter(Boolean).join(', '))}${locale && typeof m.distance === 'number' ? ` · ${esc(formatDistance(m.distance, locale))}` : ''}</li>`)
    .join('')}</ul>`;
}

const museumPage: Resolver = async (match, p) => {
  const key = decodeURIComponent(match[1]);
  const url = `/api/museums/slug/${encodeURIComponent(key)}`;
  const r = await p.api<Museum>(url);
  if (!r.data) return r.status === 404 || r.status === 400 ? notFound(p, p.t('notFound.museum')) : null;
  const m = r.data;
  const canonical = p.origin + museumPath(m);
  const image = p.origin + ogImagePath('museum', m.id, m.updatedAt);
  const eventsKey = `/api/museum-events?museumId=${m.id}&limit=20`;
  // the first page of the museum's insights, as the insights plugin's list asks for it
  // (MuseumInsights: useInfiniteApi(listMuseumPostsUrl, { limit: 10 })); 404 without insights
  const insightsKey = `/api/posts/museum/${m.id}?limit=10`;
  const [upcoming, insights] = await Promise.all([p.api<EventLike[]>(eventsKey), p.api<{ items: PostLike[] } | PostLike[]>(insightsKey)]);
  const events = upcoming.data ?? [];
  const latest = insights.data ? (Array.isArray(insights.data) ? insights.data : insights.data.items ?? []) : [];
  const address = [m.address, m.address2, [m.zipCode, m.city].filter(Boolean).join(' '), m.state, m.country].filter(Boolean);
  const body =
    `<article itemscope><h1>${esc(m.name)}</h1><p>${esc([m.city, m.country].filter(Boolean).join(', '))}</p>` +
    (m.featuredImage ? `<img src="${esc(m.featuredImage)}" alt="${esc(m.name)}" width="1200" height="630" style="max-width:100%;height:auto" />` : '') +
    `<p>${esc(m.description)}</p>` +
    `<h2>${esc(p.t('museum.address'))}</h2><address>${address.map(esc).join('<br />')}</address>` +
    (m.website ? `<p><a href="${esc(m.website)}" rel="nofollow noopener">${esc(m.website)}</a></p>` : '') +
    hoursHtml(m, p) +
    `<h2>${esc(p.t('museum.upcoming'))}</h2>${eventListHtml(events, p, m.timezone)}` +
    (latest.length ? `<h2>${esc(p.t('museum.insights'))}</h2><ul>${latest.map((x) => `<li><a href="/insights/${x.id}">${esc(summary(x.content, 160))}</a> · ${esc(memberName(x.user))}</li>`).join('')}</ul>` : '') +
    '</article>';
  const jsonLd: unknown[] = [museumJsonLd(m, { url: canonical, image, amenityLabel: p.amenityLabel, now: p.now })];
  for (const e of events.slice(0, 10)) jsonLd.push(eventJsonLd(e, { url: `${p.origin}/events/${e.id}`, origin: p.origin, image: null, currency: m.admission?.currency }));
  const lastModified = [m.updatedAt, ...events.map((e) => e.updatedAt)].map((d) => new Date(d)).reduce((a, b) => (b > a ? b : a));
  const primed: Record<string, unknown> = { [url]: m };
  if (upcoming.data) primed[eventsKey] = upcoming.data;
  if (insights.data) primed[insightsKey] = insights.data;
  return page(
    p,
    {
      title: `${m.name} · Curio`,
      description: summary(m.description || `${m.name}, ${m.city}, ${m.country}`),
      canonical,
      image,
      imageAlt: m.name,
      type: 'place',
      jsonLd,
      primed,
      ssr: true,
      noindex: p.signedIn,
      feeds: [
        { type: 'application/atom+xml', title: p.t('museum.insightsFeed', { name: m.name }), href: `${p.origin}/api/feeds/museums/${m.id}/insights.atom` },
        { type: 'text/calendar', title: p.t('museum.eventsFeed', { name: m.name }), href: `${p.origin}/api/feeds/museums/${m.id}/events.ics` },
      ],
    },
    body,
    { lastModified },
  );
};

const eventPage =
  (kind: 'meetup' | 'museum_event'): Resolver =>
  async (match, p) => {
    const id = Number(match[1]);
    const url = kind === 'meetup' ? `/api/meetups/${id}` : `/api/museum-events/${id}`;
    const r = id > 0 && id < 2 ** 31 ? await p.api<EventLike & { timeZone: string }>(url) : { status: 404, data: null };
    if (!r.data) return r.status === 404 || r.status === 400 || r.status === 403 || r.status === 401 ? notFound(p, p.t('event.notFound')) : null;
    const e = r.data;
    const canonical = `${p.origin}${kind === 'meetup' ? '/meetups' : '/events'}/${e.id}`;
    const image = p.origin + ogImagePath('event', e.id, e.updatedAt);
    const where = e.museum ? `${e.museum.name}${e.location ? `, ${e.location}` : ''}` : e.location;
    const body =
      `<article><h1>${esc(e.title)}</h1>` +
      `<p><strong>${esc(p.t('event.when'))}</strong> <time datetime="${esc(e.dateTime)}">${esc(fmtDateTime(e.dateTime, e.timeZone, p.locale))}</time></p>` +
      `<p><strong>${esc(p.t('event.where'))}</strong> ${e.museum ? `<a href="${museumPath(e.museum)}">${esc(where)}</a>` : esc(where)}</p>` +
      (e.organizer ? `<p>${esc(p.t('event.organizer', { name: memberName(e.organizer) }))}</p>` : '') +
      `<p>${esc(e.description)}</p></article>`;
    return page(
      p,
      {
        title: `${e.title} · Curio`,
        description: summary(`${fmtDateTime(e.dateTime, e.timeZone, p.locale)} · ${where}. ${e.description}`),
        canonical,
        image,
        imageAlt: e.title,
        type: 'event',
        // a meetup a visitor may see only once signed in is theirs, not the web's
        noindex: p.signedIn,
        jsonLd: [eventJsonLd(e, { url: canonical, origin: p.origin, image })],
        primed: { [url]: e },
        ssr: true,
      },
      body,
      { lastModified: new Date(e.updatedAt) },
    );
  };

interface PostLike {
  id: number;
  content: string;
  imageUrl: string | null;
  user: { id: number; username: string; firstName?: string | null; lastName?: string | null; slug?: string | null; profileImageUrl?: string | null };
  museum: { id: number; slug?: string; name: string } | null;
  createdAt: string;
}

const insightPage: Resolver = async (match, p) => {
  const id = Number(match[1]);
  const url = `/api/posts/${id}`;
  const r = id > 0 && id < 2 ** 31 ? await p.api<PostLike>(url) : { status: 404, data: null };
  if (!r.data) return [400, 401, 403, 404].includes(r.status) ? notFound(p, p.t('notFound.post')) : null;
  const post = r.data;
  const name = memberName(post.user);
  const canonical = `${p.origin}/insights/${post.id}`;
  const body =
    `<article><h1>${esc(p.t('insight.title', { name }))}</h1>` +
    `<p><a href="/profile/${encodeURIComponent(post.user.slug || post.user.username)}">@${esc(post.user.username)}</a> · <time datetime="${esc(post.createdAt)}">${esc(post.createdAt.slice(0, 10))}</time></p>` +
    (post.museum?.slug ? `<p><a href="/museum/${encodeURIComponent(post.museum.slug)}">${esc(p.t('insight.about', { museum: post.museum.name }))}</a></p>` : '') +
    `<p>${esc(post.content)}</p></article>`;
  const image = post.imageUrl ? (post.imageUrl.startsWith('http') ? post.imageUrl : p.origin + post.imageUrl) : null;
  return page(
    p,
    {
      title: `${p.t('insight.title', { name })}`,
      description: summary(post.content) || p.t('insight.title', { name }),
      canonical,
      image: null,
      type: 'article',
      noindex: p.signedIn,
      jsonLd: [
        JSON.parse(
          JSON.stringify({
            '@context': 'https://schema.org',
            '@type': 'SocialMediaPosting',
            '@id': canonical,
            url: canonical,
            datePublished: post.createdAt,
            articleBody: post.content,
            image: image ?? undefined,
            author: { '@type': 'Person', name, url: `${p.origin}/profile/${encodeURIComponent(post.user.slug || post.user.username)}` },
            about: post.museum?.slug ? { '@type': 'Museum', name: post.museum.name, url: `${p.origin}/museum/${encodeURIComponent(post.museum.slug)}` } : undefined,
          }),
        ),
      ],
      primed: { [url]: post },
      ssr: true,
    },
    body,
  );
};

interface ProfileLike {
  id: number;
  slug: string | null;
  username: string;
  firstName: string | null;
  lastName: string | null;
  bio: string | null;
  profileImageUrl: string | null;
  limited: boolean;
  /** only in the member's own answer */
  profileVisibility?: string;
  insightsCount: number;
}

const profilePage: Resolver = async (match, p) => {
  const param = decodeURIComponent(match[1]);
  // the web app's keys (plugins/accounts/web/lib.ts profileKey: an id first, then a slug or username)
  const byId = /^\d+$/.test(param) && Number(param) <= 2147483647;
  const slugKey = `/api/user/slug/${encodeURIComponent(param)}`;
  let key = byId ? `/api/user/${param}` : slugKey;
  let r = await p.api<ProfileLike>(key);
  if (!r.data && byId && r.status === 404) r = await p.api<ProfileLike>((key = slugKey));
  if (!r.data) return [400, 404].includes(r.status) ? notFound(p, p.t('notFound.profile')) : null;
  const u = r.data;
  const name = memberName(u);
  const canonical = `${p.origin}/profile/${encodeURIComponent(u.slug || u.username)}`;
  // accounts' one rule decides: a profile the visitor may not see in full comes back `limited`
  // (name and avatar only) and nothing more is asked
  const open = !u.limited;
  // the first page of the INSIGHTS tab as the insights plugin's grid asks for it (ProfileInsights:
  // useInfiniteApi(listUserPostsUrl, { limit: 12 }))
  const postsKey = `/api/user/${u.id}/posts?limit=12`;
  // and the badge strip under the bio (badges plugin's BadgeStrip; 404 without badges)
  const badgesKey = `/api/user/${u.id}/badges`;
  const [posts, badges] = open ? await Promise.all([p.api<{ items: PostLike[] } | PostLike[]>(postsKey), p.api(badgesKey)]) : [null, null];
  const list = posts?.data ? (Array.isArray(posts.data) ? posts.data : posts.data.items ?? []) : [];
  const primed: Record<string, unknown> = { [key]: u };
  if (posts?.data) primed[postsKey] = posts.data;
  if (badges?.data) primed[badgesKey] = badges.data;
  const body =
    `<article><h1>${esc(name)}</h1><p>@${esc(u.username)}</p>` +
    (open
      ? `${u.bio ? `<p>${esc(u.bio)}</p>` : ''}<h2>${esc(p.t('profile.insights'))}</h2><ul>${list.map((x) => `<li><a href="/insights/${x.id}">${esc(summary(x.content, 120))}</a></li>`).join('')}</ul>`
      : `<p>${esc(p.t('profile.private'))}</p>`) +
    '</article>';
  return page(
    p,
    {
      title: p.t('profile.title', { name, username: u.username }),
      description: open && u.bio ? summary(u.bio) : p.t('profile.title', { name, username: u.username }),
      canonical,
      type: 'profile',
      // only a public profile is for search engines (a signed-out visitor sees only those in full)
      noindex: p.signedIn || !open,
      feeds: open && !p.signedIn ? [{ type: 'application/atom+xml', title: p.t('profile.feed', { name }), href: `${p.origin}/api/feeds/members/${u.id}/insights.atom` }] : [],
      primed,
      ssr: true,
    },
    body,
  );
};

const landingPage: Resolver = async (_m, p) => {
  // the landing page's own requests (plugins/accounts LandingPage, museums' FeaturedMuseums)
  const keys = ['/api/museums/featured?limit=3', '/api/museums?page=1&pageSize=1', '/api/users/stats'];
  const answers = await Promise.all(keys.map((k) => p.api(k)));
  const primed: Record<string, unknown> = {};
  keys.forEach((k, i) => {
    if (answers[i].data) primed[k] = answers[i].data;
  });
  const list = (answers[0].data as Museum[] | null) ?? [];
  return page(
    p,
    { title: p.t('landing.title'), description: p.t('siteDescription'), canonical: `${p.origin}/`, image: p.origin + ogImagePath('site', 'curio'), type: 'website', primed, ssr: true },
    p.signedIn ? '' : `<h1>${esc(p.t('landing.title'))}</h1><p>${esc(p.t('siteDescription'))}</p><h2>${esc(p.t('landing.featured'))}</h2>${museumCards(list)}`,
  );
};

/** The answers of `keys` (SWR key → answer) that came back 200; a disabled plugin's 404 is left out. */
async function primeKeys(p: PageInput, keys: string[]): Promise<Record<string, unknown>> {
  const answers = await Promise.all(keys.map((k) => p.api(k)));
  const primed: Record<string, unknown> = {};
  keys.forEach((k, i) => {
    if (answers[i].status === 200 && answers[i].data !== undefined && answers[i].data !== null) primed[k] = answers[i].data;
  });
  return primed;
}

/**
 * The SWR keys Discover (museums' DiscoverPage) asks for at its first render besides its result
 * list (primed by the page from museums' own URL parser): the trending museums; with a query of 3+
 * characters, the search answers.
 */
export function discoverKeys(query: URLSearchParams, enabled: (id: string) => boolean): string[] {
  const q = (query.get('q') ?? '').trim();
  const keys: string[] = [];
  if (enabled('insights')) keys.push('/api/trending/museums');
  if (q.length >= 3) {
    keys.push(`/api/search?q=${encodeURIComponent(q)}`);
    if (enabled('communities')) keys.push(`/api/search/communities?q=${encodeURIComponent(q)}`);
    if (enabled('events')) keys.push(`/api/search/events?q=${encodeURIComponent(q)}`);
  }
  return keys;
}

const discoverPage: Resolver = async (_m, p) => {
  // Discover's result list for the link's filters, asked as the page asks it (museums' own URL
  // parser and list request): the answer primes the same SWR key, so the browser does not ask again;
  // beside it the other keys of the first render (trending, a search's answers)
  const query = p.query ?? new URLSearchParams();
  const key = museumsQuery(readDiscoverState(query));
  const enabledPlugins = (p.common?.['/api/config'] as { plugins?: string[] } | undefined)?.plugins ?? [];
  const [r, primed] = await Promise.all([p.api<{ items: Museum[] } | Museum[]>(key), primeKeys(p, discoverKeys(query, (id) => enabledPlugins.includes(id)))]);
  const list = r.data ? (Array.isArray(r.data) ? r.data : r.data.items ?? []) : [];
  if (r.data) primed[key] = r.data;
  return page(
    p,
    { title: `${p.t('discover.title')} · Curio`, description: p.t('discover.description'), canonical: `${p.origin}/discover`, image: p.origin + ogImagePath('site', 'curio'), type: 'website', primed, ssr: true },
    `<h1>${esc(p.t('discover.title'))}</h1>${museumCards(list, p.locale)}`,
  );
};

/**
 * The SWR keys the events page (events' EventsPage) asks for at its first render, by the tab its
 * link selects: All (the default, and any unknown tab) both lists, Museums the museum events, This
 * weekend both lists of the weekend (`weekend=true`: Saturday and Sunday where each event takes
 * place, the same answer whoever asks, so the server renders it); My Groups (signed-in members
 * only; a visitor gets All) the member's meetups.
 */
export function eventsKeys(query: URLSearchParams, signedIn = false): string[] {
  const tab = query.get('tab');
  if (tab === 'weekend') return ['/api/meetups?limit=100&weekend=true', '/api/museum-events?limit=100&weekend=true'];
  if (tab === 'museums') return ['/api/museum-events?limit=100'];
  if (tab === 'myGroups' && signedIn) return ['/api/meetups?limit=100&scope=mine'];
  return ['/api/meetups?limit=100', '/api/museum-events?limit=100'];
}

const eventsPage: Resolver = async (_m, p) => {
  const query = p.query ?? new URLSearchParams();
  const keys = eventsKeys(query, p.signedIn);
  const primed = await primeKeys(p, keys);
  // what the tab shows, for a crawler or a browser without JavaScript too
  const all = keys
    .flatMap((k) => ((primed[k] as EventLike[] | undefined) ?? []).map((e) => (k.startsWith('/api/meetups') ? { ...e, kind: 'meetup' } : e)))
    .sort((a, b) => String(a.dateTime).localeCompare(String(b.dateTime))) as EventLike[];
  const tab = query.get('tab');
  const heading = tab === 'weekend' ? `${p.t('events.title')} · ${p.t('events.weekend')}` : p.t('events.title');
  return page(
    p,
    { title: `${heading} · Curio`, description: p.t('events.description'), canonical: `${p.origin}/events${tab === 'weekend' || tab === 'museums' ? `?tab=${tab}` : ''}`, image: p.origin + ogImagePath('site', 'curio'), type: 'website', primed, ssr: true },
    `<h1>${esc(heading)}</h1>${eventListHtml(all.slice(0, 50), p)}`,
  );
};

/** The public routes, first match wins (case-insensitive, as the web app matches them). */
export const ROUTES: Array<{ re: RegExp; resolve: Resolver; needs?: string }> = [
  { re: /^\/$/, resolve: landingPage },
  { re: /^\/discover\/?$/i, resolve: discoverPage },
  { re: /^\/museum\/([^/]+)\/?$/i, resolve: museumPage },
  { re: /^\/museums\/([^/]+)\/?$/i, resolve: museumPage },
  { re: /^\/events\/?$/i, resolve: eventsPage, needs: 'events' },
  // the same page (events' web routes /events and /meetups), canonical /events
  { re: /^\/meetups\/?$/i, resolve: eventsPage, needs: 'events' },
  { re: /^\/events\/([^/]+)\/?$/i, resolve: eventPage('museum_event'), needs: 'events' },
  { re: /^\/meetups\/([^/]+)\/?$/i, resolve: eventPage('meetup'), needs: 'events' },
  { re: /^\/insights\/([^/]+)\/?$/i, resolve: insightPage, needs: 'insights' },
  { re: /^\/profile\/([^/]+)\/?$/i, resolve: profilePage },
];

export async function renderPublicPage(p: PageInput, enabled: ReadonlySet<string>): Promise<WebPageRender | null> {
  for (const r of ROUTES) {
    if (r.needs && !enabled.has(r.needs)) continue;
    const m = p.path.match(r.re);
    if (!m) continue;
    const [config, user] = await Promise.all([p.api('/api/config'), p.api('/api/auth/user')]);
    const common: Record<string, unknown> = {};
    if (config.data) common['/api/config'] = config.data;
    // the web app's session check: null for a signed-out visitor (401)
    if (user.data || user.status === 401) common['/api/auth/user'] = user.data;
    return r.resolve(m, { ...p, common });
  }
  return null;
}
