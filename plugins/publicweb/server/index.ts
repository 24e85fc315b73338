/**
 * The public web (issue 19): the public pages' head, status and readable text (server/pages.ts,
 * put into index.html by core's serveWebBuild through `ctx.state.webPage`), link-preview images
 * (server/og.ts), sitemap and robots.txt (server/sitemap.ts), Atom and ICS feeds (server/feeds.ts).
 * Everything is read from the app's own API as the visitor (feeds, sitemap and images: as a
 * signed-out visitor), so each plugin's privacy rules apply unchanged.
 */
import crypto from 'node:crypto';
import type Koa from 'koa';
import { definePluginServer, type PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { MuseumsService, type Museum } from '../../museums/public.ts';
import { apiClient, type ApiGet } from './internal.ts';
import { renderPublicPage } from './pages.ts';
import { localeOf, texts } from './texts.ts';
import { buildAtom, buildEventsIcs, type AtomEntry } from './feeds.ts';
import { newest, sitemapIndex, urlset, type SitemapUrl } from './sitemap.ts';
import { ImageCache, fetchPicture, renderOgImage } from './og.ts';
import type { EventLike } from './jsonld.ts';
import { summary } from './html.ts';

const ID = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { $ref: 'shared/Id' } } };
const VERSION_QUERY = { type: 'object', additionalProperties: false, properties: { v: { type: 'string', maxLength: 100 } } };

const humanize = (k: string) => k.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

/**
 * The site's public address for canonical links, OpenGraph URLs, the sitemap, robots.txt and feed
 * links: config `publicUrl` (plugins.config.publicweb), else env PUBLIC_URL, else core's
 * `publicOrigin` (PUBLIC_ORIGIN, what emails use); null: each request's protocol and Host.
 */
export function configuredPublicUrl(cfg: { publicUrl?: string | null }, appPublicOrigin: string | null | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = cfg.publicUrl || env.PUBLIC_URL || appPublicOrigin || null;
  if (!raw) return null;
  const u = new URL(raw); // a malformed address stops the start (config error), never a page
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`publicweb: publicUrl must be http(s): ${raw}`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** A cacheable public answer: ETag and Last-Modified, 304 when the client's copy is current. */
function sendCached(c: Koa.Context, body: string | Buffer, type: string, opts: { lastModified?: Date | null; maxAge?: number } = {}): void {
  c.type = type;
  c.set('Cache-Control', `public, max-age=${opts.maxAge ?? 300}`);
  c.set('ETag', `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`);
  if (opts.lastModified && !Number.isNaN(opts.lastModified.getTime())) c.lastModified = opts.lastModified;
  c.status = 200;
  if (c.fresh) {
    c.status = 304;
    c.body = null;
    return;
  }
  c.body = body;
}

interface PostLike {
  id: number;
  content: string;
  createdAt: string;
  user: { id: number; username: string; firstName?: string | null; lastName?: string | null; slug?: string | null };
  museum: { id: number; name: string } | null;
}

/** Upcoming events of a list answer, page after page (by start time), up to `max`. */
async function upcoming(api: ApiGet, path: string, max: number, keep: (e: EventLike) => boolean = () => true): Promise<EventLike[]> {
  const out: EventLike[] = [];
  const seen = new Set<number>();
  let from = new Date().toISOString();
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await api<EventLike[]>(`${path}${sep}limit=200&from=${encodeURIComponent(from)}`);
    const list = r.data ?? [];
    let added = 0;
    for (const e of list) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      added++;
      if (keep(e)) out.push(e);
    }
    if (list.length < 200 || !added || out.length >= max) break;
    from = list[list.length - 1].dateTime;
  }
  return out.slice(0, max);
}

export default definePluginServer({
  register(ctx: PluginContext) {
    const cfg = ctx.config as { sitemapPageSize: number; sitemapCacheSeconds: number; imageFetchTimeoutMs: number; publicUrl?: string | null };
    const museums = () => ctx.services.get(MuseumsService);
    const publicUrl = configuredPublicUrl(ctx.config, ctx.appConfig.publicOrigin);
    const originOf = (c: Koa.Context) => publicUrl ?? `${c.protocol}://${c.host}`;
    if (!publicUrl && process.env.NODE_ENV === 'production') {
      ctx.log.warn('publicweb: no public URL configured (publicUrl, PUBLIC_URL or PUBLIC_ORIGIN): canonical links, sitemap and feeds take the address from each request (its Host header)');
    }
    const images = new ImageCache(200);

    // ---- the public pages: head, status, text (core's serveWebBuild puts them into index.html)
    // not async for the API and files: they go straight on (issue 18)
    ctx.middleware.use((kctx, next) => {
      const p = kctx.path;
      if ((kctx.method === 'GET' || kctx.method === 'HEAD') && !p.startsWith('/api') && !p.startsWith('/uploads/') && !/\.[A-Za-z0-9]{1,8}$/.test(p) && !kctx.get('x-curio-prerender')) {
        return renderPage(kctx, p).then(() => next());
      }
      return next();
    });
    const renderPage = async (kctx: Koa.Context, p: string) => {
      const signedIn = Boolean((kctx.state as any).user);
      const locale = localeOf(kctx);
      try {
        const render = await renderPublicPage(
          { path: p, query: new URLSearchParams(kctx.querystring), origin: originOf(kctx), api: apiClient(kctx, { anonymous: !signedIn }), locale, t: texts(locale), signedIn, amenityLabel: humanize },
          ctx.enabled,
        );
        if (render) kctx.state.webPage = render;
      } catch (err) {
        // the web app still renders the page in the browser
        ctx.log.warn({ err, path: p }, 'could not render the public page on the server');
      }
    };

    // ---- robots and sitemap
    ctx.routes.add({
      method: 'GET',
      path: '/robots.txt',
      operationId: 'getRobots',
      summary: 'robots.txt: everything public may be crawled; the sitemap index',
      auth: 'none',
      raw: true,
      rawContentType: 'text/plain',
      handler(c) {
        const body = ['User-agent: *', 'Disallow: /api/', 'Disallow: /auth', 'Disallow: /admin', 'Disallow: /messages', 'Disallow: /notifications', 'Disallow: /settings', 'Allow: /api/og/', 'Allow: /api/feeds/', '', `Sitemap: ${originOf(c)}/sitemap.xml`, ''].join('\n');
        sendCached(c, body, 'text/plain; charset=utf-8', { maxAge: 3600 });
      },
    });

    let built: { at: number; origin: string; urls: SitemapUrl[] } | null = null;
    let building: Promise<SitemapUrl[]> | null = null;
    async function sitemapUrls(c: Koa.Context): Promise<SitemapUrl[]> {
      const origin = originOf(c);
      if (built && built.origin === origin && Date.now() - built.at < cfg.sitemapCacheSeconds * 1000) return built.urls;
      building ??= (async () => {
        const urls: SitemapUrl[] = [];
        // museums by id, keyset-paged a sitemap page at a time (no OFFSET, no full rows)
        for (let afterId = 0; ; ) {
          const chunk = await museums().listSitemapEntries({ afterId, limit: cfg.sitemapPageSize });
          for (const m of chunk) urls.push({ loc: `${origin}/museum/${encodeURIComponent(m.slug)}`, lastmod: m.updatedAt });
          if (chunk.length < cfg.sitemapPageSize) break;
          afterId = chunk[chunk.length - 1].id;
        }
        if (ctx.enabled.has('events')) {
          const api = apiClient(c, { anonymous: true });
          for (const e of await upcoming(api, '/api/museum-events', 1_000_000)) urls.push({ loc: `${origin}/events/${e.id}`, lastmod: new Date(e.updatedAt).toISOString() });
          for (const e of await upcoming(api, '/api/meetups', 1_000_000)) urls.push({ loc: `${origin}/meetups/${e.id}`, lastmod: new Date(e.updatedAt).toISOString() });
        }
        built = { at: Date.now(), origin, urls };
        return urls;
      })().finally(() => {
        building = null;
      });
      return building;
    }

    ctx.routes.add({
      method: 'GET',
      path: '/sitemap.xml',
      operationId: 'getSitemapIndex',
      summary: 'The sitemap index: pages of at most 50,000 URLs (museums, upcoming public events and meetups)',
      auth: 'none',
      raw: true,
      rawContentType: 'application/xml',
      async handler(c) {
        const urls = await sitemapUrls(c);
        const size = cfg.sitemapPageSize;
        const pages = [];
        for (let i = 0, n = 1; i < Math.max(urls.length, 1); i += size, n++) pages.push({ n, lastmod: newest(urls.slice(i, i + size)) });
        const lm = newest(urls);
        sendCached(c, sitemapIndex(originOf(c), pages), 'application/xml; charset=utf-8', { lastModified: lm ? new Date(lm) : null, maxAge: 600 });
      },
    });

    ctx.routes.add<{ n: number }>({
      method: 'GET',
      path: '/sitemaps/:n.xml',
      operationId: 'getSitemapPage',
      summary: 'One page of the sitemap (sitemaps.org urlset)',
      auth: 'none',
      raw: true,
      rawContentType: 'application/xml',
      schema: { params: { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'integer', minimum: 1, maximum: 100000 } } } },
      async handler(c) {
        const urls = await sitemapUrls(c);
        const size = cfg.sitemapPageSize;
        const n = c.input.params.n;
        if ((n - 1) * size >= Math.max(urls.length, 1)) throw new HttpError(404, 'No such sitemap page');
        const slice = urls.slice((n - 1) * size, n * size);
        const lm = newest(slice);
        sendCached(c, urlset(slice), 'application/xml; charset=utf-8', { lastModified: lm ? new Date(lm) : null, maxAge: 600 });
      },
    });

    // ---- Atom feeds of insights
    const postEntry = (origin: string, p: PostLike): AtomEntry => {
      const name = `${p.user.firstName ?? ''} ${p.user.lastName ?? ''}`.trim() || p.user.username;
      return {
        id: `${origin}/insights/${p.id}`,
        title: summary(p.content, 80) || `${name}${p.museum ? ` · ${p.museum.name}` : ''}`,
        url: `${origin}/insights/${p.id}`,
        published: p.createdAt,
        updated: p.createdAt,
        author: { name, uri: `${origin}/profile/${encodeURIComponent(p.user.slug || p.user.username)}` },
        content: p.content,
      };
    };

    if (ctx.enabled.has('insights')) {
      ctx.routes.add<{ id: number }>({
        method: 'GET',
        path: '/api/feeds/museums/:id/insights.atom',
        operationId: 'getMuseumInsightsFeed',
        summary: "Atom feed of a museum's insights (what a signed-out visitor may read)",
        auth: 'none',
        raw: true,
        rawContentType: 'application/atom+xml',
        schema: { params: ID },
        async handler(c) {
          const origin = originOf(c);
          const m = (await museums().getMuseums([c.input.params.id]))[0] as Museum | undefined;
          if (!m) throw new HttpError(404, 'Museum not found');
          const locale = localeOf(c);
          const r = await apiClient(c, { anonymous: true })<{ items: PostLike[] }>(`/api/posts/museum/${m.id}?limit=50`);
          const feed = buildAtom({
            id: `${origin}/museum/${encodeURIComponent(m.slug)}#insights`,
            title: texts(locale)('feeds.museumInsights', { name: m.name }),
            selfUrl: `${origin}/api/feeds/museums/${m.id}/insights.atom`,
            htmlUrl: `${origin}/museum/${encodeURIComponent(m.slug)}`,
            lang: locale,
            entries: (r.data?.items ?? []).map((p) => postEntry(origin, p)),
            fallbackUpdated: m.updatedAt,
          });
          sendCached(c, feed, 'application/atom+xml; charset=utf-8');
        },
      });

      ctx.routes.add<{ id: number }>({
        method: 'GET',
        path: '/api/feeds/members/:id/insights.atom',
        operationId: 'getMemberInsightsFeed',
        summary: "Atom feed of a member's insights: public profiles only (404 otherwise)",
        auth: 'none',
        raw: true,
        rawContentType: 'application/atom+xml',
        schema: { params: ID },
        async handler(c) {
          const origin = originOf(c);
          const api = apiClient(c, { anonymous: true });
          const u = await api<{ id: number; slug: string | null; username: string; firstName: string | null; lastName: string | null; limited: boolean; createdAt: string }>(`/api/user/${c.input.params.id}`);
          // a profile that is not public has no public feed (the same answer as no member); a
          // signed-out visitor's answer is limited for every profile that is not public
          if (!u.data || u.data.limited) throw new HttpError(404, 'User not found');
          const r = await api<{ items: PostLike[] }>(`/api/user/${u.data.id}/posts?limit=50`);
          if (!r.data) throw new HttpError(404, 'User not found');
          const locale = localeOf(c);
          const name = `${u.data.firstName ?? ''} ${u.data.lastName ?? ''}`.trim() || u.data.username;
          const profileUrl = `${origin}/profile/${encodeURIComponent(u.data.slug || u.data.username)}`;
          const feed = buildAtom({
            id: `${profileUrl}#insights`,
            title: texts(locale)('feeds.memberInsights', { name }),
            selfUrl: `${origin}/api/feeds/members/${u.data.id}/insights.atom`,
            htmlUrl: profileUrl,
            lang: locale,
            entries: r.data.items.map((p) => postEntry(origin, p)),
            fallbackUpdated: u.data.createdAt,
          });
          sendCached(c, feed, 'application/atom+xml; charset=utf-8');
        },
      });
    }

    // ---- ICS subscriptions
    if (ctx.enabled.has('events')) {
      ctx.routes.add<{ id: number }>({
        method: 'GET',
        path: '/api/feeds/museums/:id/events.ics',
        operationId: 'getMuseumEventsCalendar',
        summary: "iCalendar subscription of a museum's upcoming events",
        auth: 'none',
        raw: true,
        rawContentType: 'text/calendar',
        schema: { params: ID },
        async handler(c) {
          const m = (await museums().getMuseums([c.input.params.id]))[0] as Museum | undefined;
          if (!m) throw new HttpError(404, 'Museum not found');
          const events = await upcoming(apiClient(c, { anonymous: true }), `/api/museum-events?museumId=${m.id}`, 1000);
          const body = buildEventsIcs(events, { name: texts(localeOf(c))('feeds.museumEvents', { name: m.name }), origin: originOf(c) });
          sendCached(c, body, 'text/calendar; charset=utf-8');
        },
      });

      if (ctx.enabled.has('communities')) {
        ctx.routes.add<{ id: number }>({
          method: 'GET',
          path: '/api/feeds/communities/:id/meetups.ics',
          operationId: 'getCommunityMeetupsCalendar',
          summary: "iCalendar subscription of a public community's upcoming meetups (404 for a private community)",
          auth: 'none',
          raw: true,
          rawContentType: 'text/calendar',
          schema: { params: ID },
          async handler(c) {
            const id = c.input.params.id;
            const api = apiClient(c, { anonymous: true });
            const community = await api<{ id: number; name: string; membershipType: string }>(`/api/communities/${id}`);
            if (!community.data || community.data.membershipType !== 'open') throw new HttpError(404, 'Community not found');
            // /api/meetups answers a signed-out visitor only the meetups of public communities and groups
            const events = await upcoming(api, '/api/meetups', 1000, (e) => e.community?.id === id);
            const body = buildEventsIcs(events, { name: texts(localeOf(c))('feeds.communityMeetups', { name: community.data.name }), origin: originOf(c) });
            sendCached(c, body, 'text/calendar; charset=utf-8');
          },
        });
      }
    }

    // ---- link-preview images
    async function sendImage(c: Koa.Context, key: string, make: () => Promise<Buffer>) {
      let img = images.get(key);
      if (!img) {
        img = await make();
        images.set(key, img);
      }
      sendCached(c, img, 'image/jpeg', { maxAge: 86400 });
    }
    const appBase = (c: Koa.Context) => {
      const s = c.req.socket;
      const host = (s.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
      return `http://${host.includes(':') ? `[${host}]` : host}:${s.localPort}`;
    };

    ctx.routes.add<{ id: number }, { v?: string }>({
      method: 'GET',
      path: '/api/og/museum/:id.jpg',
      operationId: 'getMuseumPreviewImage',
      summary: "A museum's 1200×630 link-preview image (its picture and name)",
      auth: 'none',
      raw: true,
      rawContentType: 'image/jpeg',
      schema: { params: ID, query: VERSION_QUERY },
      async handler(c) {
        const m = (await museums().getMuseums([c.input.params.id]))[0] as Museum | undefined;
        if (!m) throw new HttpError(404, 'Museum not found');
        await sendImage(c, `museum:${m.id}:${m.updatedAt}:${m.featuredImage}`, async () =>
          renderOgImage({ title: m.name, subtitle: [m.city, m.country].filter(Boolean).join(', '), picture: await fetchPicture(m.featuredImage, appBase(c), cfg.imageFetchTimeoutMs) }),
        );
      },
    });

    if (ctx.enabled.has('events')) {
      ctx.routes.add<{ id: number }, { v?: string }>({
        method: 'GET',
        path: '/api/og/event/:id.jpg',
        operationId: 'getEventPreviewImage',
        summary: "A public museum event's or meetup's 1200×630 link-preview image",
        auth: 'none',
        raw: true,
        rawContentType: 'image/jpeg',
        schema: { params: ID, query: VERSION_QUERY },
        async handler(c) {
          const api = apiClient(c, { anonymous: true });
          const id = c.input.params.id;
          const r = (await api<EventLike>(`/api/museum-events/${id}`)).data ?? (await api<EventLike>(`/api/meetups/${id}`)).data;
          if (!r) throw new HttpError(404, 'Event not found');
          const when = new Date(r.dateTime).toISOString().slice(0, 10);
          await sendImage(c, `event:${r.id}:${r.updatedAt}`, async () =>
            renderOgImage({ title: r.title, subtitle: [when, r.museum?.name ?? r.location].filter(Boolean).join(' · '), picture: await fetchPicture(r.imageUrl, appBase(c), cfg.imageFetchTimeoutMs) }),
          );
        },
      });
    }

    ctx.routes.add({
      method: 'GET',
      path: '/api/og/site.jpg',
      operationId: 'getSitePreviewImage',
      summary: "Curio's own 1200×630 link-preview image",
      auth: 'none',
      raw: true,
      rawContentType: 'image/jpeg',
      async handler(c) {
        const locale = localeOf(c);
        await sendImage(c, `site:${locale}`, () => renderOgImage({ title: 'Curio', subtitle: summary(texts(locale)('siteDescription'), 60), picture: null }));
      },
    });
  },
});

