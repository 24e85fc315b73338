import fsp from 'node:fs/promises';
import type { Knex } from 'knex';
import type { ImageInfo } from '../../../core/images.ts';
import { definePluginServer, type PluginContext, type ApiContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import { every } from '../../../core/jobs.ts';
import { CUSTOM_PLAN } from '../../../core/plan-cache.ts';
import { AccountsService, UserStatsProvider, type AccountsApi } from '../../accounts/public.ts';
import { earnedBadgesFrom } from '../../badges/public.ts';
import { MuseumsService, SearchRegistry, type MuseumsApi } from '../../museums/public.ts';
import { registerInsightsDigest } from './digest.ts';
import { InsightsService, type InsightsApi } from '../public.ts';
import { ReportTargets, type ReportTargetDescriber } from '../../reports/public.ts';
import { createSocial, type Viewer } from './social.ts';
import {
  allPostsSource,
  createHydrator,
  decodeCursor,
  museumPostsSource,
  readPage,
  userPostsSource,
  byTime,
  filteredSource,
  readableRows,
  type PostRow,
  type ReadScope,
  POST_COLUMNS,
  prefixed,
  prefixedColumnsSql,
  summaryOf,
} from './posts.ts';
import { createRecommendations } from './recommendations.ts';
import { resolveMentions, type Mention } from './mentions.ts';
import { personalFeedSource, registerLive } from './live.ts';
import { probeVideo, remux, makePoster, VideoRejected, VideoBusy } from './video.ts';
import { checkVideoTools, type VideoTools } from './video-tools.ts';
import { registerPhotos, referencedPhotoKeys, type PhotoInput } from './photos.ts';
import { registerInsightsExport } from './export.ts';
import { containsPattern } from '../../../core/util.ts';

/** Each app's answer to "can this server process videos?", asked when the plugin registers. */
const videoTools = new WeakMap<PluginContext, Promise<VideoTools>>();

export const MAX_VIDEO_BYTES = 100 * 1024 * 1024;
export const MAX_VIDEO_SECONDS = 60;
/** Recorders stop "at 60 s" a few frames late; allow that much. */
const DURATION_TOLERANCE = 0.5;
/** Moves the 30-day window of members' activity (insights_member_activity) every 10 minutes. */
export const MEMBER_ACTIVITY_WINDOW_JOB = 'insights.member-activity-window';

export const MESSAGES = {
  textRequired: 'Please add some content to your text insight.',
  videoRequired: 'Please record or upload a video for your insight.',
  videoUsed: 'This video is already shared in another insight.',
  tooLarge: 'File too large',
  tooLong: 'Video is too long: at most 60 seconds.',
  notVideo: 'This file is not a video we can play. Please upload an MP4 or WebM video.',
  noVideoFile: 'Please choose a video file to upload.',
  museumNotFound: 'Museum not found',
  suggestionNotFound: 'Museum suggestion not found',
  postNotFound: 'Insight not found',
  commentNotFound: 'Comment not found',
  commentRequired: 'Please write a comment.',
  notYourPost: 'You can only delete your own insights.',
  notYourComment: 'You can only delete your own comments.',
  privateProfile: 'This profile is private.',
  restricted: 'Your account is restricted from posting.',
  busy: 'Video processing is busy. Please try again in a moment.',
  videoUnavailable: 'Video insights are not available on this server.',
};

const POST = { $ref: 'insights/InsightPost' };

const PAGE = { $ref: 'insights/InsightPage' };
const ERR = { $ref: 'shared/Error' };
const ID_PARAMS = { $ref: 'shared/IdParams' };

function normalizeTags(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of list) {
    const tag = String(t).trim().replace(/^#/, '').trim();
    if (!tag) continue;
    if (tag.length > 50) throw new HttpError(400, 'A tag can be at most 50 characters.');
    const k = tag.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(tag);
  }
  if (out.length > 20) throw new HttpError(400, 'At most 20 tags.');
  return out;
}

/** Work register() prepares for bootstrap(), per app (tests run several apps in one process). */
const searchers = new WeakMap<PluginContext, (q: string, limit: number, viewer?: { id: number; role: string }) => Promise<any[]>>();
/** Describers of insights and comments for the reports plugin (registered in bootstrap, when it is there). */
const reportDescribers = new WeakMap<PluginContext, { insight: ReportTargetDescriber; comment: ReportTargetDescriber }>();

export default definePluginServer({
  async bootstrap(ctx: PluginContext) {
    // Without ffmpeg the server cannot take videos: say so once at start, and tell the web app
    // (GET /api/config → pluginConfig.insights.videoEnabled) so the Create dialog says it up front.
    const tools = await (videoTools.get(ctx) ?? checkVideoTools());
    ctx.publicConfig.set('videoEnabled', tools.ok);
    if (!tools.ok) {
      ctx.log.warn(`Video insights are disabled: ${tools.missing.join(' and ')} not found. Install Debian's ffmpeg package (sudo apt-get install -y ffmpeg) or set FFMPEG_PATH / FFPROBE_PATH, then restart.`);
    }
    const search = searchers.get(ctx);
    // GET /api/search answers posts through the museums plugin's search registry
    if (search) ctx.services.maybe(SearchRegistry)?.register({ kind: 'posts', itemSchema: 'insights/InsightPost', search: (q, o) => search(q, o.limit, o.viewer) });
    const reports = ctx.enabled.has('reports') ? ctx.services.maybe(ReportTargets) : undefined;
    const d = reportDescribers.get(ctx);
    if (reports && d) {
      reports.register('insight', d.insight);
      reports.register('comment', d.comment);
    }
  },

  register(ctx: PluginContext) {
    registerInsightsExport(ctx); // the member's data archive (issue 24)
    videoTools.set(ctx, checkVideoTools());
    const knex = ctx.db;
    const accounts = () => ctx.services.get(AccountsService);
    const museums = () => ctx.services.maybe(MuseumsService);
    const social = createSocial(accounts, museums);
    registerInsightsDigest(ctx, accounts, museums);
    const hydrate = createHydrator(knex, accounts, museums);
    const recs = createRecommendations(knex, social, accounts, museums);
    // Videos and posters: kept while their upload row or an insight points at them (unshared
    // uploads are removed after a day by sweepUnusedVideos); the storage sweep deletes the rest.
    ctx.uploads.ownFiles({
      prefixes: ['insights'],
      referenced: async (keys) => {
        const urls = keys.map((k) => ctx.storage.url(k));
        const used = [
          ...((await knex('insights_videos').whereIn('storage_key', keys).pluck('storage_key')) as string[]),
          ...((await knex('insights_videos').whereIn('poster_key', keys).pluck('poster_key')) as string[]),
          ...((await knex('insights_posts').whereIn('video_url', urls).pluck('video_url')) as string[]).map((u) => ctx.storage.keyFromUrl(u)),
          ...((await knex('insights_posts').whereIn('poster_url', urls).pluck('poster_url')) as string[]).map((u) => ctx.storage.keyFromUrl(u)),
          ...(await referencedPhotoKeys(knex, keys)),
        ];
        return used.filter((k): k is string => Boolean(k));
      },
    });

    const api: InsightsApi = {
      async countByUser(userId) {
        const r = await knex('insights_posts').where({ user_id: userId }).count<{ n: string }[]>({ n: '*' });
        return Number(r[0].n);
      },
      async countsByUsers(userIds) {
        const out = new Map<number, number>();
        if (!userIds.length) return out;
        const rows = await knex('insights_posts').whereIn('user_id', [...new Set(userIds)]).groupBy('user_id').select('user_id').count({ n: '*' });
        for (const r of rows as any[]) out.set(r.user_id, Number(r.n));
        return out;
      },
      async countByMuseum(museumId) {
        const r = await knex('insights_posts').where({ museum_id: museumId }).count<{ n: string }[]>({ n: '*' });
        return Number(r[0].n);
      },
    };
    ctx.services.provide(InsightsService, api);
    // Profiles show insightsCount through the accounts extension point.
    ctx.services.provide(UserStatsProvider, { insightsCounts: (ids: number[]) => api.countsByUsers(ids) });

    /** Pages read for this viewer answer authors, privacy and likes in their own statement. */
    const scope = (viewer: Viewer): ReadScope => ({ viewer, accounts: accounts(), museums: museums() });
    // live updates: feed.new, post.commented, and the count behind the "N new insights" pill
    registerLive(ctx, { knex, accounts, museums, scope });

    /** The post, if the viewer may see its author's posts (accounts' rule read in the same statement). */
    async function loadVisiblePost(id: number, viewer: Viewer, trx: Knex = knex): Promise<PostRow> {
      const canView = accounts().sql.canView(viewer, 'p.user_id').toSQL();
      const row = await trx('insights_posts as p')
        .where('p.id', id)
        .first([...POST_COLUMNS, trx.raw(`${canView.sql} as author_visible`, canView.bindings as any[])]);
      if (!row || !row.author_visible) throw new HttpError(404, MESSAGES.postNotFound);
      delete row.author_visible;
      return row;
    }

    async function adjustMuseum(museumId: number | null, delta: number) {
      if (museumId == null || !delta) return;
      try {
        await museums()?.adjustInsightCount(museumId, delta);
      } catch (err) {
        ctx.log.error({ err, museumId, delta }, 'could not adjust the museum insight count');
      }
    }

    async function removeFiles(urls: Array<string | null | undefined>) {
      for (const u of urls) {
        if (!u) continue;
        const key = ctx.storage.keyFromUrl(u);
        if (key) await ctx.storage.delete(key).catch(() => undefined);
      }
    }

    // photo insights: uploads, alt text, variants, museum gallery (server/photos.ts)
    const photos = registerPhotos(ctx, { accounts, museums });

    // ---------- creating ----------
    ctx.routes.add<unknown, unknown, { type: 'text' | 'video' | 'photo'; content?: string; videoUrl?: string | null; museumId?: number | null; tags?: string[] | string; photos?: PhotoInput[]; sensitive?: boolean }>({
      method: 'POST',
      path: '/api/posts',
      operationId: 'createPost',
      summary: 'Share a text or video insight, optionally tagged to a museum or a pending museum suggestion',
      auth: 'required',
      status: 201,
      schema: { body: { $ref: 'insights/CreateInsightBody' }, response: { 201: { $ref: 'insights/CreatedInsightPost' } } },
      async handler(c) {
        const me = c.user!;
        if (me.restricted) throw new HttpError(403, MESSAGES.restricted);
        const b = c.input.body;
        const content = (b.content ?? '').trim();
        const tags = normalizeTags(b.tags);
        if (b.type === 'text' && !content) throw new HttpError(400, MESSAGES.textRequired, { errors: [{ path: '/content', message: MESSAGES.textRequired }] });
        let video: any = null;
        if (b.type === 'video') {
          const url = (b.videoUrl ?? '').trim();
          if (!url) throw new HttpError(400, MESSAGES.videoRequired, { errors: [{ path: '/videoUrl', message: MESSAGES.videoRequired }] });
          video = await knex('insights_videos').where({ url, user_id: me.id }).first();
          if (!video) throw new HttpError(400, MESSAGES.videoRequired, { errors: [{ path: '/videoUrl', message: MESSAGES.videoRequired }] });
          if (video.post_id) throw new HttpError(409, MESSAGES.videoUsed);
        }
        const photoList = b.type === 'photo' ? await photos.checkPhotos(me.id, b.photos) : null;
        let museumId: number | null = null;
        let museumCard: { id: number; slug: string; name: string; city?: string | null; country?: string | null; featuredImage?: string | null; featuredImageInfo?: ImageInfo | null } | null = null;
        let pendingSuggestionId: number | null = null;
        if (b.museumId != null && b.museumId > 0) {
          const m = museums();
          const museum = m ? await m.getMuseum(b.museumId) : null;
          if (!museum) throw new HttpError(400, MESSAGES.museumNotFound, { errors: [{ path: '/museumId', message: MESSAGES.museumNotFound }] });
          museumId = museum.id;
          museumCard = museum;
        } else if (b.museumId != null && b.museumId < 0) {
          // A pending new-museum suggestion (museumId -id): its suggester's alone. Anyone else gets the
          // same answer as for a suggestion that does not exist, so ids reveal nothing.
          const sid = -b.museumId;
          const s = await museums()?.getMuseumSuggestion(sid);
          if (!s || s.userId !== me.id || s.status === 'rejected' || (s.status === 'approved' && !s.museumId)) {
            throw new HttpError(400, MESSAGES.suggestionNotFound, { errors: [{ path: '/museumId', message: MESSAGES.suggestionNotFound }] });
          }
          if (s.status === 'approved') museumId = s.museumId;
          else pendingSuggestionId = sid; // linked on 'museums.suggestion.approved'
        }
        const mentions = await resolveMentions(knex, accounts(), me, content);
        const fields = {
          user_id: me.id,
          type: b.type,
          content,
          mentions: JSON.stringify(mentions),
          tags,
          museum_id: museumId,
          pending_suggestion_id: pendingSuggestionId,
          video_url: video?.url ?? null,
          poster_url: video?.poster_url ?? null,
          ...(photoList ? { photos: JSON.stringify(photoList.map(() => ({}))), sensitive: Boolean(b.sensitive) } : {}),
        };
        // A text insight: the row and its author's summary in one statement, no transaction (issue 18).
        // A video or photo insight claims its uploads in the same transaction as the row.
        const post =
          video || photoList
            ? await knex.transaction(async (trx) => {
                const [row] = await trx('insights_posts').insert(fields).returning('*');
                if (photoList) {
                  await photos.attachPhotos(trx, row.id, me.id, photoList);
                  Object.assign(row, await trx('insights_posts').where({ id: row.id }).first('photos'));
                }
                if (video) {
                  const n = affected(await trx('insights_videos').where({ id: video.id }).whereNull('post_id').update({ post_id: row.id }));
                  if (!n) throw new HttpError(409, MESSAGES.videoUsed);
                }
                return row as PostRow;
              })
            : ((await knex
                .with('ins', knex('insights_posts').insert(fields).returning('*'))
                .from('ins')
                .join('users', 'users.id', 'ins.user_id')
                .first('ins.*', prefixed(accounts().summaryColumns), { is_liked: knex.raw('false') })) as PostRow);
        if (pendingSuggestionId !== null) {
          // Approved between the check and the insert: its 'approved' event found no post to link, so link it here.
          const s = await museums()?.getMuseumSuggestion(pendingSuggestionId);
          if (s?.status === 'approved' && s.museumId) {
            const linked = await knex('insights_posts').where({ id: post.id, pending_suggestion_id: pendingSuggestionId }).update({ museum_id: s.museumId, pending_suggestion_id: null }).returning('*');
            if (linked.length) Object.assign(post, linked[0]);
            museumId = linked.length ? s.museumId : museumId;
          } else if (s?.status === 'rejected') {
            await knex('insights_posts').where({ id: post.id }).update({ pending_suggestion_id: null });
            post.pending_suggestion_id = null;
          }
        }
        await adjustMuseum(museumId, 1);
        await tellMentioned(mentions, me.id, post.id, null, post.content);
        const results = await ctx.events.emit('insights.post.created', { postId: post.id, userId: me.id, museumId, type: post.type });
        // the museum card is the one read above (hydrating reads it again only when it changed meanwhile)
        if (museumCard && post.museum_id === museumCard.id) {
          Object.assign(post, { m_id: museumCard.id, m_slug: museumCard.slug, m_name: museumCard.name, m_city: museumCard.city ?? null, m_country: museumCard.country ?? null, m_featuredImage: museumCard.featuredImage ?? null,
            // the featured image's made widths and placeholder, read with the museum (museums' toSummary)
            m_featuredImageInfo: museumCard.featuredImageInfo ?? null,
          });
        }
        const [out] = await hydrate.posts([post], me.id);
        return { ...out, badges: earnedBadgesFrom(results) };
      },
    });

    ctx.routes.add({
      method: 'POST',
      path: '/api/posts/video',
      operationId: 'uploadInsightVideo',
      summary: 'Upload a video (multipart field "video"; at most 100 MB and 60 seconds, checked from its content)',
      auth: 'required',
      bodyType: 'multipart',
      status: 201,
      schema: { response: { 201: { $ref: 'insights/InsightVideoUpload' }, 400: ERR, 413: ERR, 503: ERR } },
      async handler(c) {
        const me = c.user!;
        if (me.restricted) throw new HttpError(403, MESSAGES.restricted);
        if (!(await (videoTools.get(ctx) ?? checkVideoTools())).ok) throw new HttpError(503, MESSAGES.videoUnavailable);
        const parsed = await ctx.uploads.parse(c as any, { maxFileSize: MAX_VIDEO_BYTES, maxFiles: 1, fileFields: ['video', 'file'], tooLargeMessage: MESSAGES.tooLarge });
        const file = parsed.files[0];
        const temps: string[] = parsed.files.map((f) => f.path);
        try {
          if (!file || file.size === 0) throw new HttpError(400, MESSAGES.noVideoFile);
          let probed;
          try {
            probed = await probeVideo(file.path);
          } catch (e) {
            if (e instanceof VideoRejected) throw new HttpError(400, MESSAGES.notVideo);
            if (e instanceof VideoBusy) throw new HttpError(503, MESSAGES.busy, { headers: { 'Retry-After': '10' } });
            throw e;
          }
          if (probed.duration > MAX_VIDEO_SECONDS + DURATION_TOLERANCE) throw new HttpError(400, MESSAGES.tooLong);
          let clean: string;
          try {
            // cut at the limit whatever was measured, and the result measured again before it is kept
            clean = await remux(file.path, probed, ctx.uploads.tmpDir, MAX_VIDEO_SECONDS + DURATION_TOLERANCE);
            temps.push(clean);
            probed = await probeVideo(clean);
          } catch (e) {
            if (e instanceof VideoRejected) throw new HttpError(400, MESSAGES.notVideo);
            if (e instanceof VideoBusy) throw new HttpError(503, MESSAGES.busy, { headers: { 'Retry-After': '10' } });
            throw e;
          }
          if (probed.duration > MAX_VIDEO_SECONDS + DURATION_TOLERANCE) throw new HttpError(400, MESSAGES.tooLong);
          const poster = await makePoster(clean, probed.duration);
          const size = (await fsp.stat(clean)).size;
          const key = ctx.storage.randomKey('insights/videos', probed.container);
          const videoUrl = await ctx.storage.put(key, { path: clean }, probed.container === 'mp4' ? 'video/mp4' : 'video/webm');
          let posterKey: string | null = null;
          let posterUrl: string | null = null;
          if (poster) {
            posterKey = key.replace(/\.[a-z0-9]+$/, '_poster.jpg');
            posterUrl = await ctx.storage.put(posterKey, { buffer: poster }, 'image/jpeg');
            await ctx.uploads.queueVariants(posterKey);
          }
          await knex('insights_videos').insert({
            user_id: me.id,
            storage_key: key,
            url: videoUrl,
            poster_key: posterKey,
            poster_url: posterUrl,
            duration: probed.duration,
            width: probed.width,
            height: probed.height,
            size,
          });
          void sweepUnusedVideos();
          return {
            videoUrl,
            posterUrl,
            duration: Math.round(probed.duration * 100) / 100,
            width: probed.width,
            height: probed.height,
            size,
            contentType: probed.container === 'mp4' ? 'video/mp4' : 'video/webm',
          };
        } finally {
          await Promise.all(temps.map((p) => fsp.rm(p, { force: true })));
        }
      },
    });

    /** Uploads never shared in an insight are removed after a day (a few per upload, bounded work). */
    async function sweepUnusedVideos() {
      try {
        const stale = await knex('insights_videos').whereNull('post_id').where('created_at', '<', knex.raw(`now() - interval '1 day'`)).orderBy('created_at').limit(20).select('id', 'url', 'poster_url');
        if (!stale.length) return;
        const gone = await knex('insights_videos').whereIn('id', stale.map((v: any) => v.id)).whereNull('post_id').del().returning(['url', 'poster_url']);
        await removeFiles(gone.flatMap((v: any) => [v.url, v.poster_url]));
      } catch (err) {
        ctx.log.warn({ err }, 'sweeping unused videos failed');
      }
    }

    // ---------- reading ----------
    type PageQuery = { cursor?: string; limit: number; page?: number };

    ctx.routes.add<unknown, PageQuery>({
      method: 'GET',
      path: '/api/posts',
      operationId: 'listPosts',
      summary: 'All insights, newest first (keyset paged)',
      auth: 'optional',
      schema: { query: { $ref: 'insights/InsightsQuery' }, response: PAGE },
      async handler(c) {
        const viewer = c.user?.id ?? null;
        const q = c.input.query;
        const page = await readPage(allPostsSource(knex, scope(c.user)), { limit: q.limit, cursor: decodeCursor(q.cursor), offset: offsetOf(q), visible: readableRows });
        return { items: await hydrate.posts(page.rows, viewer), nextCursor: page.nextCursor };
      },
    });

    ctx.routes.add<unknown, PageQuery>({
      method: 'GET',
      path: '/api/feed/personalized',
      operationId: 'getPersonalizedFeed',
      summary: "The viewer's own insights and those of followed people and museums, newest first",
      auth: 'required',
      schema: { query: { $ref: 'insights/InsightsQuery' }, response: PAGE },
      async handler(c) {
        const viewer = c.user!.id;
        const q = c.input.query;
        const source = personalFeedSource(knex, accounts(), museums(), viewer, scope(c.user));
        const page = await readPage(source, { limit: q.limit, cursor: decodeCursor(q.cursor), visible: readableRows });
        return { items: await hydrate.posts(page.rows, viewer), nextCursor: page.nextCursor };
      },
    });

    ctx.routes.add<{ museumId: number }, PageQuery>({
      method: 'GET',
      path: '/api/posts/museum/:museumId',
      operationId: 'listMuseumPosts',
      summary: "A museum's community insights, newest first, with their latest comments",
      auth: 'optional',
      schema: {
        params: { type: 'object', required: ['museumId'], additionalProperties: false, properties: { museumId: { $ref: 'shared/Id' } } },
        query: { $ref: 'insights/InsightsQuery' },
        response: PAGE,
      },
      async handler(c) {
        const viewer = c.user?.id ?? null;
        const q = c.input.query;
        const page = await readPage(museumPostsSource(knex, c.input.params.museumId, scope(c.user)), { limit: q.limit, cursor: decodeCursor(q.cursor), offset: offsetOf(q), visible: readableRows });
        return { items: await hydrate.posts(page.rows, viewer, { comments: 3, viewer: c.user }), nextCursor: page.nextCursor };
      },
    });

    ctx.routes.add<{ id: number }, PageQuery>({
      method: 'GET',
      path: '/api/user/:id/posts',
      operationId: 'listUserPosts',
      summary: "A member's insights, newest first (cursor or page number); private profiles only for followers",
      auth: 'optional',
      schema: { params: ID_PARAMS, query: { $ref: 'insights/InsightsQuery' }, response: { 200: PAGE, 403: ERR, 404: ERR } },
      async handler(c) {
        const viewer = c.user?.id ?? null;
        const userId = c.input.params.id;
        const user = await accounts().getUserSummary(userId);
        if (!user) throw new HttpError(404, 'User not found');
        // a block either way: the member does not exist for the other (accounts' rule)
        if (c.user && c.user.role !== 'Admin' && (await accounts().isBlockedEitherWay(c.user.id, userId))) throw new HttpError(404, 'User not found');
        if (!(await accounts().canViewProfile(c.user, userId))) throw new HttpError(403, MESSAGES.privateProfile);
        // muted by the viewer: their insights are hidden from the muter, on their profile too (the page says so)
        if (c.user && (await accounts().isMuted(c.user.id, userId))) return { items: [], nextCursor: null };
        const q = c.input.query;
        const page = await readPage(userPostsSource(knex, userId, scope(c.user)), { limit: q.limit, cursor: decodeCursor(q.cursor), offset: offsetOf(q), visible: async (r) => r });
        return { items: await hydrate.posts(page.rows, viewer), nextCursor: page.nextCursor };
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: '/api/posts/:id',
      operationId: 'getPost',
      summary: 'One insight',
      auth: 'optional',
      schema: { params: ID_PARAMS, response: { 200: POST, 404: ERR } },
      async handler(c) {
        const viewer = c.user?.id ?? null;
        const row = await loadVisiblePost(c.input.params.id, c.user);
        const [out] = await hydrate.posts([row], viewer);
        if (!out) throw new HttpError(404, MESSAGES.postNotFound);
        return out;
      },
    });

    // ---------- likes ----------
    ctx.routes.add<{ id: number }>({
      method: 'POST',
      path: '/api/posts/:id/like',
      operationId: 'togglePostLike',
      summary: 'Like an insight, or take the like back',
      auth: 'required',
      schema: { params: ID_PARAMS, response: { 200: { $ref: 'insights/InsightLikeResult' }, 404: ERR } },
      async handler(c) {
        const me = c.user!.id;
        const postId = c.input.params.id;
        // The visibility check, the toggle and its counter in one statement (issue 18: a like costs
        // 2 statements with the session's); the counter moves by exactly the rows inserted or
        // deleted. A post the member may not see (or none) changes nothing and answers 404.
        const canView = accounts().sql.canView(c.user, 'p.user_id').toSQL();
        const toggle = async () => {
          // with the liker's summary for the author's notification (accounts' summary columns, shaped
          // by summaryOf as the pages' authors are), which it would otherwise read after the answer
          const r = await knex.raw(
            `with post as (select p.id, p.user_id, p.content from insights_posts p where p.id = ? and ${canView.sql}),
              del as (delete from insights_likes where post_id = (select id from post) and user_id = ? returning post_id),
              ins as (insert into insights_likes (post_id, user_id) select id, ?::int from post where not exists (select 1 from del) on conflict do nothing returning post_id),
              upd as (update insights_posts set likes_count = likes_count + (select count(*) from ins) - (select count(*) from del) where id = (select id from post) returning likes_count)
            select (select count(*) from ins)::int as inserted, (select count(*) from del)::int as deleted, (select likes_count from upd) as likes_count,
              (select user_id from post) as author_id, (select content from post) as content,
              (select row_to_json(s) from (select ${prefixedColumnsSql(accounts().summaryColumns)} from users where users.id = ?) s) as liker`,
            [postId, ...(canView.bindings as any[]), me, me, me],
          );
          return r.rows[0] as { inserted: number; deleted: number; likes_count: number | null; author_id: number | null; content: string | null; liker: Record<string, unknown> | null };
        };
        // Each answer is exactly one committed transition (insert when absent, delete when present),
        // so one member's concurrent toggles alternate (a double click cancels out); a statement that
        // lost both races to other toggles of the same member changed nothing and runs again with a
        // fresh snapshot.
        let row = await toggle();
        for (let attempt = 1; !row.inserted && !row.deleted && row.likes_count != null; attempt++) {
          if (attempt > 20) throw new HttpError(409, 'Too many simultaneous changes, please try again');
          row = await toggle();
        }
        if (row.likes_count == null) throw new HttpError(404, MESSAGES.postNotFound);
        const result = { liked: row.inserted > 0, likesCount: Number(row.likes_count), changed: row.inserted + row.deleted > 0 };
        if (result.changed) {
          // the author's notification and badge count after the answer
          ctx.events.defer('insights.post.liked', { postId, userId: me, authorId: Number(row.author_id), liked: result.liked, likesCount: result.likesCount, excerpt: String(row.content ?? '').slice(0, 300), liker: row.liker ? summaryOf(row.liker) : undefined });
        }
        return { liked: result.liked, likesCount: result.likesCount };
      },
    });

    // ---------- comments ----------
    ctx.routes.add<{ id: number }>({
      method: 'GET',
      path: '/api/posts/:id/comments',
      operationId: 'listPostComments',
      summary: "An insight's comments, oldest first, each with its replies",
      auth: 'optional',
      schema: { params: ID_PARAMS, response: { 200: { type: 'array', items: { $ref: 'insights/InsightComment' } }, 404: ERR } },
      async handler(c) {
        const viewer = c.user?.id ?? null;
        const post = await loadVisiblePost(c.input.params.id, c.user);
        const rows = await knex('insights_comments as c')
          .where({ post_id: post.id })
          .whereRaw(accounts().sql.canViewContent(c.user, 'c.user_id')) // accounts' rule: privacy, blocks, mutes
          .orderBy([{ column: 'created_at' }, { column: 'id' }])
          .limit(2000)
          .select('c.*');
        const all = await hydrate.comments(rows);
        const top = all.filter((x) => x.parentId == null).map((x) => ({ ...x, replies: [] as any[] }));
        const byId = new Map(top.map((t) => [t.id, t]));
        for (const r of all) if (r.parentId != null) byId.get(r.parentId)?.replies.push(r);
        for (const t of top) t.replies.sort(byTime);
        return top;
      },
    });

    ctx.routes.add<{ id: number }, unknown, { content: string; parentId?: number | null }>({
      method: 'POST',
      path: '/api/posts/:id/comments',
      operationId: 'createPostComment',
      summary: 'Comment on an insight, or reply to a comment (one level: a reply to a reply joins its thread)',
      auth: 'required',
      status: 201,
      schema: { params: ID_PARAMS, body: { $ref: 'insights/CreateInsightCommentBody' }, response: { 201: { $ref: 'insights/InsightComment' }, 400: ERR, 404: ERR } },
      async handler(c) {
        const me = c.user!;
        if (me.restricted) throw new HttpError(403, MESSAGES.restricted);
        const content = c.input.body.content.trim();
        if (!content) throw new HttpError(400, MESSAGES.commentRequired, { errors: [{ path: '/content', message: MESSAGES.commentRequired }] });
        const post = await loadVisiblePost(c.input.params.id, me);
        let parentId: number | null = null;
        let parentAuthorId: number | null = null;
        if (c.input.body.parentId != null) {
          const parent = await knex('insights_comments').where({ id: c.input.body.parentId, post_id: post.id }).first('id', 'parent_id', 'user_id');
          if (!parent) throw new HttpError(400, MESSAGES.commentNotFound);
          // no replies across a block (accounts' rule): the comment is not there for the replier
          // (a deleted member's emptied comment has no author: nobody to be blocked by)
          if (me.role !== 'Admin' && parent.user_id != null && (await accounts().isBlockedEitherWay(me.id, parent.user_id))) throw new HttpError(400, MESSAGES.commentNotFound);
          parentId = parent.parent_id ?? parent.id;
          parentAuthorId = parent.user_id;
        }
        const mentions = await resolveMentions(knex, accounts(), me, content);
        // The comment and its post's counter in one statement (issue 18); the post's author and the
        // mentioned members are told after the answer (notifications are afterAnswer handlers).
        const inserted = await knex
          .raw(
            `with p as (update insights_posts set comments_count = comments_count + 1 where id = ? returning id)
             insert into insights_comments (post_id, user_id, parent_id, content, mentions) select p.id, ?::int, ?::int, ?::text, ?::jsonb from p returning *`,
            [post.id, me.id, parentId, content, JSON.stringify(mentions)],
          )
          .catch((e) => {
            if (e?.code === '23503') throw new HttpError(404, parentId ? MESSAGES.commentNotFound : MESSAGES.postNotFound);
            throw e;
          });
        const row = inserted.rows[0];
        if (!row) throw new HttpError(404, MESSAGES.postNotFound);
        await ctx.events.emit('insights.comment.created', { commentId: row.id, postId: post.id, userId: me.id, postAuthorId: post.user_id, parentId, parentAuthorId, excerpt: content.slice(0, 300) });
        await tellMentioned(mentions, me.id, post.id, row.id, content);
        const [out] = await hydrate.comments([row]);
        return { ...out, replies: [] };
      },
    });

    // ---------- deleting ----------
    ctx.routes.add<{ id: number }>({
      method: 'DELETE',
      path: '/api/posts/:id',
      operationId: 'deletePost',
      summary: 'Delete one of your insights (admins may delete any)',
      auth: 'required',
      schema: { params: ID_PARAMS, response: { 200: { $ref: 'shared/Ok' }, 403: ERR, 404: ERR } },
      async handler(c) {
        const me = c.user!;
        const row = await knex('insights_posts').where({ id: c.input.params.id }).first();
        if (!row) throw new HttpError(404, MESSAGES.postNotFound);
        if (row.user_id !== me.id && me.role !== 'Admin') throw new HttpError(403, MESSAGES.notYourPost);
        const deleted = await deletePosts(knex, [row.id]);
        if (!deleted.length) throw new HttpError(404, MESSAGES.postNotFound);
        return { success: true };
      },
    });

    ctx.routes.add<{ id: number }>({
      method: 'DELETE',
      path: '/api/comments/:id',
      operationId: 'deleteComment',
      summary: 'Delete one of your comments and its replies (admins may delete any)',
      auth: 'required',
      schema: { params: ID_PARAMS, response: { 200: { $ref: 'shared/Ok' }, 403: ERR, 404: ERR } },
      async handler(c) {
        const me = c.user!;
        await deleteComment(c.input.params.id, me);
        return { success: true };
      },
    });

    /** Tells the notifications (and anyone listening) who was mentioned; the author is not told about themself. */
    async function tellMentioned(mentions: Mention[], authorId: number, postId: number, commentId: number | null, text?: string | null) {
      const userIds = [...new Set(mentions.map((m) => m.userId))].filter((id) => id !== authorId);
      if (userIds.length) await ctx.events.emit('insights.mentioned', { authorId, postId, commentId, userIds, excerpt: String(text ?? '').slice(0, 300) });
    }

    /** Deletes a comment and its replies (the author or an Admin), fixes the post's counter, tells others. */
    async function deleteComment(id: number, me: { id: number; role: string }): Promise<boolean> {
      const removed = await knex.transaction(async (trx) => {
        const row = await trx('insights_comments').where({ id }).forUpdate().first();
        if (!row) throw new HttpError(404, MESSAGES.commentNotFound);
        if (row.user_id !== me.id && me.role !== 'Admin') throw new HttpError(403, MESSAGES.notYourComment);
        const rows = await trx('insights_comments').where({ id: row.id }).orWhere({ parent_id: row.id }).del().returning(['id', 'post_id', 'user_id']);
        // the last reply under a deleted member's emptied comment: that comment goes too
        if (row.parent_id != null) {
          const gone = await trx.raw(
            `delete from insights_comments c where c.id = ? and c.user_id is null
               and not exists (select 1 from insights_comments r where r.parent_id = c.id) returning id, post_id, user_id`,
            [row.parent_id],
          );
          rows.push(...gone.rows);
        }
        await trx('insights_posts').where({ id: row.post_id }).decrement('comments_count', rows.length);
        return rows as Array<{ id: number; post_id: number; user_id: number | null }>;
      });
      for (const r of removed) await ctx.events.emit('insights.comment.deleted', { commentId: r.id, postId: r.post_id, userId: r.user_id });
      return removed.length > 0;
    }

    reportDescribers.set(ctx, {
      insight: {
        async describe(id, viewer) {
          const p = await loadVisiblePost(id, viewer).catch((e) => (e instanceof HttpError && e.status === 404 ? null : Promise.reject(e)));
          if (!p) return null;
          return { ownerId: p.user_id, text: p.content ?? '', link: `/insights/${p.id}`, mediaUrl: p.images?.[0] ?? p.poster_url ?? p.video_url ?? null };
        },
        async remove(id) {
          return (await deletePosts(knex, [id])).length > 0;
        },
      },
      comment: {
        async describe(id, viewer) {
          const row = await knex('insights_comments').where({ id }).first('id', 'post_id', 'user_id', 'content');
          // a deleted member's emptied comment has nothing to report
          if (!row || row.user_id == null) return null;
          const p = await loadVisiblePost(row.post_id, viewer).catch((e) => (e instanceof HttpError && e.status === 404 ? null : Promise.reject(e)));
          if (!p) return null;
          return { ownerId: row.user_id, text: row.content, link: `/insights/${p.id}`, container: { type: 'insight', id: p.id } };
        },
        async remove(id, admin) {
          return deleteComment(id, admin).catch((e) => (e instanceof HttpError && e.status === 404 ? false : Promise.reject(e)));
        },
      },
    });

    /**
     * Removes the tag names no post carries any more (the search's names of tags in use, migration
     * 20261207000100_add_tag_names): a deleted member's tags do not outlive their posts. When a post
     * is being written at that instant, the database answers false and removes nothing; tried
     * again a few times (a name left over matches no post, so giving up loses nothing).
     */
    async function pruneTagNames(tags: string[]) {
      const names = [...new Set(tags)];
      if (!names.length) return;
      for (let attempt = 0; attempt < 5; attempt++) {
        const r = await knex.raw('select insights_prune_tag_names(?::text[]) as done', [names]);
        if (r.rows[0]?.done) return;
        await new Promise((res) => setTimeout(res, 20 * (attempt + 1)));
      }
      ctx.log.warn({ names: names.length }, 'tag names left to prune: posts were being written');
    }

    /** Deletes posts (likes and comments go with them), fixes museum counters, removes files, tells others. */
    async function deletePosts(db: Knex, ids: number[]): Promise<PostRow[]> {
      if (!ids.length) return [];
      const photoFiles = await photos.filesOfPosts(db, ids); // their rows go with the posts
      const rows: PostRow[] = await db('insights_posts').whereIn('id', ids).del().returning('*');
      await pruneTagNames(rows.flatMap((r) => r.tags ?? []));
      await photos.removeFiles(photoFiles);
      const perMuseum = new Map<number, number>();
      for (const r of rows) if (r.museum_id != null) perMuseum.set(r.museum_id, (perMuseum.get(r.museum_id) ?? 0) + 1);
      for (const [m, n] of perMuseum) await adjustMuseum(m, -n);
      const videos = await knex('insights_videos').whereIn('url', rows.map((r) => r.video_url).filter(Boolean) as string[]).del().returning(['url', 'poster_url']);
      await removeFiles(videos.flatMap((v: any) => [v.url, v.poster_url]));
      for (const r of rows) await ctx.events.emit('insights.post.deleted', { postId: r.id, userId: r.user_id, museumId: r.museum_id });
      return rows;
    }

    // ---------- recommendations ----------
    const LIMIT = { $ref: 'insights/InsightsLimitQuery' };
    ctx.routes.add<unknown, { limit: number }>({
      method: 'GET',
      path: '/api/recommendations/users',
      operationId: 'recommendUsers',
      summary: 'People to follow, never empty while members exist: followed by people you follow, then following museums of your interests or near your home, then the most active, then the most followed (empty when signed out)',
      auth: 'optional',
      schema: { query: LIMIT, response: { type: 'array', items: { $ref: 'insights/RecommendedUser' } } },
      async handler(c) {
        if (!c.user) return [];
        return recs.users(c.user, c.input.query.limit);
      },
    });
    ctx.routes.add<unknown, { limit: number }>({
      method: 'GET',
      path: '/api/recommendations/museums',
      operationId: 'recommendMuseums',
      summary: 'Museums your network follows, active in categories you follow, of your interests or near your home, then trending, then popular; never one you follow (trending when signed out)',
      auth: 'optional',
      schema: { query: LIMIT, response: { type: 'array', items: { $ref: 'insights/RecommendedMuseum' } } },
      async handler(c) {
        return recs.museums(c.user?.id ?? null, c.input.query.limit);
      },
    });
    ctx.routes.add<unknown, { limit: number }>({
      method: 'GET',
      path: '/api/trending/museums',
      operationId: 'trendingMuseums',
      summary: 'Museums with the most insights, check-ins and follows in the last 7 days, widening to 30 and 90 days when the week is quiet, then the most popular',
      auth: 'optional',
      schema: { query: LIMIT, response: { type: 'array', items: { $ref: 'insights/RecommendedMuseum' } } },
      async handler(c) {
        return recs.trending(c.input.query.limit);
      },
    });
    ctx.routes.add<unknown, { limit: number }>({
      method: 'GET',
      path: '/api/users/active',
      operationId: 'activeUsers',
      summary: 'Members most active in the last 30 days, then the most followed, whom the viewer may see (private profiles only to those allowed; for a signed-in viewer: not yourself, people you follow nor people you asked to follow)',
      auth: 'optional',
      schema: { query: LIMIT, response: { type: 'array', items: { $ref: 'insights/ActiveUser' } } },
      async handler(c) {
        return recs.activeUsers(c.user ?? null, c.input.query.limit);
      },
    });

    // ---------- search ----------
    searchers.set(ctx, async (q, limit, viewer) => {
      const term = containsPattern(q);
      const source = filteredSource(
        knex,
        // Planned for its pattern on every run (core/plan-cache.ts): a common word is found by a scan
        // by time, a rare one by the indexes; one generic plan for both was 4-8x slower. A tag
        // matches through the names of the tags in use (migration 20261207000100_add_tag_names).
        (query) =>
          query.where((w) =>
            w.whereILike('p.content', term).orWhereRaw(`p.tags && array(select n.name from insights_tag_names n where n.name ilike ?) ${CUSTOM_PLAN}`, [term]),
          ),
        scope(viewer),
      );
      // a preview of the best matches: one page statement whatever the query (issue 18: search ≤ 6
      // statements); posts the viewer may not see are left out in that statement
      const page = await readPage(source, { limit, cursor: null, visible: readableRows, oneStatement: true });
      return hydrate.posts(page.rows, viewer?.id ?? null);
    });

    // ---------- events from other plugins ----------
    ctx.events.on('accounts.user.deleting', async ({ userId }) => {
      await purgeUser(userId);
    });
    // Insights' tables have no foreign key to users: what the member wrote in the very instant of
    // their deletion (after the first pass) is removed by a second pass once the user row is gone.
    ctx.events.on('accounts.user.deleted', async ({ userId }) => {
      await purgeUser(userId);
    });

    async function purgeUser(userId: number) {
      await knex.transaction(async (trx) => {
        await trx.raw(
          `update insights_posts p set likes_count = p.likes_count - 1 from insights_likes l where l.post_id = p.id and l.user_id = ?`,
          [userId],
        );
        await trx('insights_likes').where({ user_id: userId }).del();
        // Their comments that others replied under stay as "deleted member" (no author, no content)
        // so the others' replies keep their thread; the rest of their comments go.
        await trx.raw(
          `update insights_comments c set user_id = null, content = '', mentions = '[]'::jsonb
            where c.user_id = ? and c.parent_id is null
              and exists (select 1 from insights_comments r where r.parent_id = c.id and r.user_id is distinct from ?)`,
          [userId, userId],
        );
        // their own replies under those go (they are the member's words)
        await trx.raw(
          `update insights_posts p set comments_count = p.comments_count - d.n from (
             select post_id, count(*)::int as n from insights_comments where user_id = ? and parent_id in (select id from insights_comments where user_id is null)
             group by post_id) d where d.post_id = p.id`,
          [userId],
        );
        await trx.raw(`delete from insights_comments where user_id = ? and parent_id in (select id from insights_comments where user_id is null)`, [userId]);
        // comments by the user (no one else replied), and the replies under them
        await trx.raw(
          `update insights_posts p set comments_count = p.comments_count - d.n from (
             select post_id, count(*)::int as n from insights_comments
             where user_id = ? or parent_id in (select id from insights_comments where user_id = ?)
             group by post_id) d where d.post_id = p.id`,
          [userId, userId],
        );
        await trx('insights_comments').where({ user_id: userId }).del();
        await trx('insights_museum_activity').where({ user_id: userId }).del();
      });
      const ids = await knex('insights_posts').where({ user_id: userId }).pluck('id');
      await deletePosts(knex, ids);
      const videos = await knex('insights_videos').where({ user_id: userId }).del().returning(['url', 'poster_url']);
      await removeFiles(videos.flatMap((v: any) => [v.url, v.poster_url]));
      await photos.purgeUser(userId);
      // their sums of 30 days, at zero once their posts, comments and likes are gone
      await knex('insights_member_activity').where({ user_id: userId }).del();
    }

    ctx.events.on('museums.museum.followed', async ({ userId, museumId, following }) => {
      if (following) {
        await knex.raw(
          `insert into insights_museum_activity (kind, museum_id, user_id) values ('follow', ?, ?) on conflict (user_id, museum_id) where kind = 'follow' do update set created_at = now()`,
          [museumId, userId],
        );
      } else await knex('insights_museum_activity').where({ kind: 'follow', museum_id: museumId, user_id: userId }).del();
    });

    // Members' activity of 30 days (people suggestions) is kept by the database as rows are written
    // (migration 20261207000300); this moves its window: what left it stops counting.
    ctx.jobs.repeat(MEMBER_ACTIVITY_WINDOW_JOB, every(10 * 60_000), async () => {
      await knex.raw('select insights_expire_member_activity()');
    });

    // Activity older than 90 days counts nowhere (trending: 7 days, category recommendations: 90).
    let activityEvents = 0;
    // trending data: after the check-in's answer
    ctx.events.on(
      'museums.museum.checkedIn',
      async ({ userId, museumId }) => {
        await knex('insights_museum_activity').insert({ kind: 'checkin', museum_id: museumId, user_id: userId });
        if (++activityEvents % 500 === 0) await knex('insights_museum_activity').where('created_at', '<', knex.raw(`now() - interval '90 days'`)).del();
      },
      { afterAnswer: true },
    );

    ctx.events.on('museums.suggestion.approved', async ({ suggestionId, museumId, userId, kind }) => {
      if (kind !== 'new') return;
      if (!museumId) {
        await knex('insights_posts').where({ pending_suggestion_id: suggestionId }).update({ pending_suggestion_id: null });
        return;
      }
      const linked = await knex('insights_posts')
        .where({ pending_suggestion_id: suggestionId, user_id: userId })
        .update({ museum_id: museumId, pending_suggestion_id: null })
        .returning('id');
      await knex('insights_posts').where({ pending_suggestion_id: suggestionId }).update({ pending_suggestion_id: null });
      await adjustMuseum(museumId, linked.length);
    });

    ctx.events.on('museums.suggestion.rejected', async ({ suggestionId, kind }) => {
      if (kind !== 'new') return;
      await knex('insights_posts').where({ pending_suggestion_id: suggestionId }).update({ pending_suggestion_id: null });
    });
  },
});

/** Rows a write touched (knex answers a number on pg, sometimes the driver's result on PGlite). */
export function affected(r: unknown): number {
  if (typeof r === 'number') return r;
  if (Array.isArray(r)) return r.length;
  const o = r as { rowCount?: number; affectedRows?: number } | null;
  return Number(o?.rowCount ?? o?.affectedRows ?? 0);
}

function offsetOf(q: { cursor?: string; page?: number; limit: number }): number {
  return !q.cursor && q.page && q.page > 1 ? (q.page - 1) * q.limit : 0;
}

export type { ApiContext, AccountsApi };
