/**
 * Reading insights: keyset pages (created_at, id) over the posts table, privacy filtering and
 * hydration (authors, museums, the viewer's likes) with one batched call per kind of data.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import { imageInfoSql, toImageInfo } from '../../../core/images.ts';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';
import type { Viewer } from './social.ts';
import { storedMentions, type Mention } from './mentions.ts';
import { photosOfRow } from './photos.ts';

export interface PostRow {
  id: number;
  user_id: number;
  type: 'text' | 'video' | 'photo';
  content: string;
  tags: string[];
  museum_id: number | null;
  pending_suggestion_id: number | null;
  video_url: string | null;
  poster_url: string | null;
  images: string[];
  /** photo insights: their photos (jsonb copy kept by server/photos.ts) */
  photos?: unknown;
  sensitive?: boolean;
  likes_count: number;
  comments_count: number;
  mentions?: unknown;
  created_at: Date;
  video_duration?: number | null;
}

export interface Cursor {
  t: string; // ISO time, millisecond precision
  id: number;
}

export const POST_COLUMNS = [
  'p.id',
  'p.user_id',
  'p.type',
  'p.content',
  'p.tags',
  'p.museum_id',
  'p.pending_suggestion_id',
  'p.video_url',
  'p.poster_url',
  'p.images',
  'p.likes_count',
  'p.comments_count',
  'p.mentions',
  'p.created_at',
  'p.photos',
  'p.sensitive',
];

export function encodeCursor(row: { created_at: Date | string; id: number }): string {
  const t = row.created_at instanceof Date ? row.created_at.toISOString() : new Date(row.created_at).toISOString();
  return Buffer.from(`${t}|${row.id}`).toString('base64url');
}

export function decodeCursor(s: string | undefined | null): Cursor | null {
  if (!s) return null;
  const raw = Buffer.from(s, 'base64url').toString();
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z)\|(\d{1,10})$/.exec(raw);
  if (!m || Number.isNaN(Date.parse(m[1])) || Number(m[2]) > 2147483647) throw new HttpError(400, 'Invalid cursor');
  return { t: m[1], id: Number(m[2]) };
}

/** A source answers up to n rows strictly older than `before` (newest first). */
export type Source = (before: Cursor | null, n: number, offset: number) => Promise<PostRow[]>;

/**
 * Who reads a page. With it, the page statement leaves out the posts the viewer may not see
 * (accounts' rule for content, readable()) and also answers each post's author (summary columns)
 * and whether the viewer liked the post: privacy and hydration need no further statements.
 */
export interface ReadScope {
  viewer: Viewer;
  accounts: AccountsApi;
  /** when the museums plugin is enabled: each post's museum card is read in the same statement */
  museums?: MuseumsApi;
}

/** What a page statement read with a post when it had a ReadScope. */
export interface EnrichedRow extends PostRow {
  u_id: number | null;
  is_liked: boolean;
  /** the museum's card columns (m_id, m_slug, …) when the scope had museums */
  m_id?: number | null;
}

export function isEnriched(row: PostRow): row is EnrichedRow {
  return 'is_liked' in row;
}

/**
 * The rows of a scoped page that can be shown: accounts' rule already left out, before the page's
 * limit, what the viewer may not see (readable()); a post whose author row is gone is left out here.
 */
export async function readableRows(rows: PostRow[]): Promise<PostRow[]> {
  return rows.filter((r) => isEnriched(r) && r.u_id != null);
}

type Inner = Knex.QueryBuilder | { sql: string; bindings: unknown[] };

/** A page statement's enrichment around its inner select, as text before and after it (outerText). */
interface Outer {
  head: string;
  tail: string;
}

/** Per app (its knex) and shape of scope: the enrichment's text, compiled by knex once. */
const outers = new WeakMap<Knex, Map<string, Outer>>();
const PAGE_MARK = '(/*curio:page*/)';

/**
 * The statement around a scoped page: the author's summary columns and avatar, a video's poster,
 * whether the viewer liked the post and, with museums, the museum's card. Its text depends only on
 * whether there is a viewer and a museums plugin, so knex compiles it once per shape: it was built
 * and compiled on every page read (a museum's page of insights: 41–43 µs of CPU for the statement's
 * text, 15–16 µs with the enrichment compiled once, of which 11 µs is the inner select's own); the
 * only value it binds is the viewer's id, which comes before the inner select's values.
 */
function outerText(knex: Knex, scope: ReadScope): Outer {
  const key = `${scope.viewer ? 'viewer' : 'anonymous'}:${scope.museums ? 'museums' : '-'}`;
  let byShape = outers.get(knex);
  if (!byShape) outers.set(knex, (byShape = new Map()));
  const known = byShape.get(key);
  if (known) return known;
  const q = knex
    .select('page_row.*')
    .select(prefixed(scope.accounts.summaryColumns))
    // the author's avatar: its made widths and placeholder, in the same statement
    .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'u_profileImageInfo']))
    // a video's poster: its made widths, size and placeholder (posterInfo), in the same statement
    .select(knex.raw('? as ??', [imageInfoSql(knex, 'page_row.poster_url'), 'poster_info']))
    .select(
      scope.viewer
        ? knex.raw('exists (select 1 from insights_likes l where l.post_id = page_row.id and l.user_id = ?) as is_liked', [0])
        : knex.raw('false as is_liked'),
    )
    .from(knex.raw(`${PAGE_MARK} as "page_row"`))
    .leftJoin('users', 'users.id', 'page_row.user_id');
  if (scope.museums) {
    const cols = Object.fromEntries(Object.entries(scope.museums.sql.cardColumns).map(([k, v]) => [`m_${k}`, v]));
    q.select(cols).leftJoin('museums', 'museums.id', 'page_row.museum_id');
    // the museum card's featured image: its made widths and placeholder, in the same statement
    q.select(knex.raw('? as ??', [imageInfoSql(knex, scope.museums.sql.cardColumns.featuredImage), 'm_featuredImageInfo']));
  }
  q.orderBy([
    { column: 'page_row.created_at', order: 'desc' },
    { column: 'page_row.id', order: 'desc' },
  ]);
  const { sql, bindings } = q.toSQL();
  const at = sql.indexOf(PAGE_MARK);
  // the viewer's id is the only value, and it sits before the page (the caller binds it first)
  if (at < 0 || sql.indexOf(PAGE_MARK, at + 1) >= 0 || bindings.length !== (scope.viewer ? 1 : 0) || sql.slice(at).includes('?')) {
    throw new Error('insights: the page enrichment statement is not of the expected shape');
  }
  const outer = { head: `${sql.slice(0, at)}(`, tail: `)${sql.slice(at + PAGE_MARK.length)}` };
  byShape.set(key, outer);
  return outer;
}

/**
 * Runs a page's inner select (posts, newest first, limited), enriched when a scope is given; a
 * scoped inner select has already applied accounts' rule (readable()).
 */
async function run(knex: Knex, inner: Inner, scope: ReadScope | undefined): Promise<PostRow[]> {
  const isRaw = !('then' in inner);
  if (!scope) return isRaw ? ((await knex.raw(inner.sql, inner.bindings as any[])).rows as PostRow[]) : ((await inner) as PostRow[]);
  const { head, tail } = outerText(knex, scope);
  const page = isRaw ? inner : (inner as Knex.QueryBuilder).toSQL();
  const bindings = scope.viewer ? [scope.viewer.id, ...page.bindings] : page.bindings;
  return (await knex.raw(head + page.sql + tail, bindings as any[])).rows as PostRow[];
}

function keyset(q: Knex.QueryBuilder, knex: Knex, before: Cursor | null) {
  if (before) q.whereRaw('(p.created_at, p.id) < (?::timestamptz, ?)', [before.t, before.id]);
  return q.orderBy([
    { column: 'p.created_at', order: 'desc' },
    { column: 'p.id', order: 'desc' },
  ]);
}

/**
 * Accounts' rule for lists of content (visibility, blocks either way, the viewer's mutes), applied
 * before a page's limit: a page reads only posts its viewer may see, so it is read in one statement
 * however many hidden posts lie among the newest (a museum's insights by private strangers made
 * nearly every page read twice). Every scoped source applies it inside its page statement; the
 * enrichment around the page (run()) does not evaluate it again.
 */
function readable(scope: ReadScope, userIdColumn: string): Knex.Raw {
  return scope.accounts.sql.canViewContent(scope.viewer, userIdColumn);
}

/** Posts of the query `where` adds conditions to (all posts when none), newest first. */
export function filteredSource(knex: Knex, where: (q: Knex.QueryBuilder) => void, scope?: ReadScope): Source {
  return (before, n, offset) => {
    const q = knex('insights_posts as p').select(POST_COLUMNS);
    where(q);
    if (scope) q.where(readable(scope, 'p.user_id'));
    return run(knex, keyset(q, knex, before).limit(n).offset(offset), scope);
  };
}

export function allPostsSource(knex: Knex, scope?: ReadScope): Source {
  return filteredSource(knex, () => {}, scope);
}

export function userPostsSource(knex: Knex, userId: number, scope?: ReadScope): Source {
  return filteredSource(knex, (q) => q.where('p.user_id', userId), scope);
}

export function museumPostsSource(knex: Knex, museumId: number, scope?: ReadScope): Source {
  return filteredSource(knex, (q) => q.where('p.museum_id', museumId), scope);
}

/** A select of ids (one int column) as SQL: whom or what a viewer follows (accounts' and museums' fragments). */
export type IdsSql = Knex.QueryBuilder | Knex.Raw;

/**
 * Posts by any of the people or about any of the museums that `follows` selects, newest first, in
 * one statement (the follow lists are read inside it, not by a statement before it).
 * Usually one index range scan per followed person and museum (each stops after n rows), merged:
 * the cost depends on how many people and museums the viewer follows and on n, not on the size of
 * the posts table. For members who follow very many (over `lateralLimit`), one backward scan of
 * the time index filtered by the follow sets finds a page sooner; the statement takes one way or
 * the other as it runs (PostgreSQL's one-time filters: the other is never executed).
 */
export function personalSource(knex: Knex, follows: { users: IdsSql; museums?: IdsSql | null }, opts: { lateralLimit?: number; scope?: ReadScope } = {}): Source {
  const lateralLimit = opts.lateralLimit ?? 400;
  return async (before, n) => {
    const t = before?.t ?? '9999-12-31T00:00:00.000Z';
    const id = before?.id ?? 2147483647;
    const users = follows.users.toSQL();
    const museums = follows.museums ? follows.museums.toSQL() : { sql: 'select null::int where false', bindings: [] };
    // accounts' rule before the limit, on the merged candidates (newest first, until n pass), and on
    // each post inside the followed museums' scans and the time scan
    const rule = opts.scope ? readable(opts.scope, 'c.user_id').toSQL() : null;
    const postRule = opts.scope ? readable(opts.scope, 'p.user_id').toSQL() : null;
    // Each followed person's and museum's newest n posts by key only (backward index-only scans of
    // (user_id | museum_id, created_at, id)), merged and cut to the n newest the viewer may see;
    // only then the n rows themselves. Carrying whole rows through the merge read every candidate's
    // heap page and hashed its content for the union: 3 times the time on a member following 20 at
    // 100,000 insights (4.3 → 1.4 ms).
    // The three ways are disjoint, so their rows are appended (union all), not hashed for
    // duplicates: a followed museum's way leaves out the followed people's posts, which their own
    // way reads (the users array holds distinct ids, a person followed twice would be read twice, and
    // no null, which would make `<> all` leave out every museum post). A
    // museum's way applies accounts' rule before its limit, like the time scan: its newest n posts
    // can all be by people the viewer may not see (private strangers), and cut after them it missed
    // a visible post older than those but newer than the page's last (never shown, on no page). A
    // followed person's posts are all visible or all not, so their way needs the rule only once merged.
    const sql = `with g as materialized (select array(select distinct u from (${users.sql}) s(u) where u is not null)::int[] as users, array(${museums.sql})::int[] as museums),
      few as (select cardinality(users) + cardinality(museums) <= ? as yes from g)
      select ${POST_COLUMNS.join(', ')} from (
        select c.id from (
          select k.id, k.created_at, k.user_id from (
            select x.id, x.created_at, a.uid as user_id from unnest((select users from g)) as a(uid) cross join lateral (
              select p.id, p.created_at from insights_posts p where p.user_id = a.uid and (p.created_at, p.id) < (?::timestamptz, ?)
              order by p.created_at desc, p.id desc limit ?) x
            where (select yes from few)
            union all
            select x.id, x.created_at, x.user_id from unnest((select museums from g)) as m(mid) cross join lateral (
              select p.id, p.created_at, p.user_id from insights_posts p where p.museum_id = m.mid and p.user_id <> all((select users from g)::int[])
                and (p.created_at, p.id) < (?::timestamptz, ?)${postRule ? ` and ${postRule.sql}` : ''}
              order by p.created_at desc, p.id desc limit ?) x
            where (select yes from few)
            union all
            (select p.id, p.created_at, p.user_id from insights_posts p
              where not (select yes from few)
                and (p.user_id = any((select users from g)::int[]) or p.museum_id = any((select museums from g)::int[]))
                and (p.created_at, p.id) < (?::timestamptz, ?)${postRule ? ` and ${postRule.sql}` : ''}
              order by p.created_at desc, p.id desc limit ?)
          ) k order by k.created_at desc, k.id desc offset 0
        ) c${rule ? ` where ${rule.sql}` : ''} order by c.created_at desc, c.id desc limit ?
      ) top join insights_posts p on p.id = top.id
      order by p.created_at desc, p.id desc`;
    const bindings = [
      ...users.bindings,
      ...museums.bindings,
      lateralLimit,
      t, id, n,
      t, id, ...(postRule?.bindings ?? []), n,
      t, id, ...(postRule?.bindings ?? []), n,
      ...(rule?.bindings ?? []),
      n,
    ];
    return run(knex, { sql, bindings }, opts.scope);
  };
}

export interface PageResult {
  rows: PostRow[];
  nextCursor: string | null;
}

/**
 * Reads a page from a source, skipping posts the viewer may not see (private profiles), reading on
 * until the page is full or the source ends (a bounded number of rounds; then the cursor continues
 * where scanning stopped). A source with a ReadScope already leaves those posts out in SQL, so its
 * page takes one round.
 */
export async function readPage(
  source: Source,
  opts: {
    limit: number;
    cursor: Cursor | null;
    offset?: number;
    visible: (rows: PostRow[]) => Promise<PostRow[]>;
    /** one statement only (search previews, issue 18): answers what the first read found visible */
    oneStatement?: boolean;
  },
): Promise<PageResult> {
  const { limit } = opts;
  const out: PostRow[] = [];
  let before = opts.cursor;
  let offset = opts.offset ?? 0;
  for (let round = 0; round < (opts.oneStatement ? 1 : 8); round++) {
    const want = limit + 1 - out.length;
    // a scoped source answers only posts the viewer may see (readable()): the first round fills the page
    const n = round === 0 ? want : Math.min(200, want * 4);
    const rows = await source(before, n, offset);
    offset = 0;
    const kept = await opts.visible(rows);
    out.push(...kept);
    if (out.length > limit) return { rows: out.slice(0, limit), nextCursor: encodeCursor(out[limit - 1]) };
    if (rows.length < n) return { rows: out, nextCursor: null };
    before = { t: new Date(rows[rows.length - 1].created_at).toISOString(), id: rows[rows.length - 1].id };
  }
  // Scanned a long run of hidden posts: hand back what we have and where to go on.
  return { rows: out, nextCursor: before ? Buffer.from(`${before.t}|${before.id}`).toString('base64url') : null };
}

export interface CommentOut {
  id: number;
  postId: number;
  parentId: number | null;
  content: string;
  mentions: Mention[];
  /** null: a deleted member's comment kept, emptied, because others replied under it (issue 24) */
  user: UserSummary | null;
  createdAt: string;
  replies?: CommentOut[];
}

export function iso(d: Date | string): string {
  return d instanceof Date ? d.toISOString() : new Date(d).toISOString();
}

export interface Hydrator {
  /** `opts.viewer`: whose rule filters the latest comments (accounts' canViewContent) */
  posts(rows: PostRow[], viewerId: number | null, opts?: { comments?: number; viewer?: Viewer }): Promise<any[]>;
  comments(rows: any[], users?: Map<number, UserSummary>): Promise<CommentOut[]>;
}

export function createHydrator(knex: Knex, accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): Hydrator {
  const self: Hydrator = {
    async comments(rows, known) {
      const users = known ?? (await accounts().getUserSummaries(rows.map((r) => r.user_id).filter((id) => id != null)));
      const out: CommentOut[] = [];
      for (const r of rows) {
        // a deleted member's anonymised comment (no author, no content) keeps others' replies in place
        const user = r.user_id == null ? null : users.get(r.user_id);
        if (user === undefined) continue;
        out.push({ id: r.id, postId: r.post_id, parentId: r.parent_id ?? null, content: r.content, mentions: storedMentions(r.mentions), user, createdAt: iso(r.created_at) });
      }
      return out;
    },
    async posts(rows, viewerId, opts = {}) {
      if (!rows.length) return [];
      const ids = rows.map((r) => r.id);
      const museumIds = [...new Set(rows.map((r) => r.museum_id).filter((m): m is number => m != null))];
      const m = museums();
      // Authors and the viewer's likes: read with the page when its statement had a ReadScope
      // (EnrichedRow), else in one statement here (accounts' summary columns are offered for such
      // joins); museums in one batch call, latest comments in two.
      const enriched = rows.every(isEnriched);
      const [authors, museumMap, comments] = await Promise.all([
        enriched
          ? Promise.resolve(rows.filter((r) => r.u_id != null).map((r) => ({ ...r, post_id: r.id })))
          : knex('insights_posts as p')
              .join('users', 'users.id', 'p.user_id')
              .whereIn('p.id', ids)
              .select({ post_id: 'p.id', ...prefixed(accounts().summaryColumns) })
              .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'u_profileImageInfo']))
              .select(knex.raw('? as ??', [imageInfoSql(knex, 'p.poster_url'), 'poster_info']))
              .select(viewerId ? knex.raw('exists (select 1 from insights_likes l where l.post_id = p.id and l.user_id = ?) as is_liked', [viewerId]) : knex.raw('false as is_liked')),
        !m || !museumIds.length
          ? Promise.resolve(new Map())
          : enriched && rows.every((r) => 'm_id' in r)
            ? Promise.resolve(new Map(rows.filter((r: any) => r.m_id != null).map((r: any) => [Number(r.m_id), museumCard(r)])))
            : m.getMuseumSummaries(museumIds),
        opts.comments ? latestComments(ids, opts.comments, opts.viewer) : Promise.resolve(null),
      ]);
      const users = new Map<number, UserSummary>();
      const likedSet = new Set<number>();
      const posterInfos = new Map<number, unknown>();
      for (const a of authors as any[]) {
        users.set(Number(a.u_id), summaryOf(a));
        if (a.is_liked) likedSet.add(Number(a.post_id));
        if ('poster_info' in a) posterInfos.set(Number(a.post_id), a.poster_info);
      }
      const out: any[] = [];
      for (const r of rows) {
        const user = users.get(r.user_id);
        if (!user) continue; // author gone
        const photos = r.type === 'photo' ? photosOfRow(r.photos) : null;
        const images = photos ? photos.map((p) => p.url) : r.images?.length ? r.images : r.poster_url ? [r.poster_url] : [];
        const mu = r.museum_id != null ? museumMap.get(r.museum_id) : undefined;
        const post: any = {
          id: r.id,
          type: r.type,
          content: r.content,
          mentions: storedMentions(r.mentions),
          tags: r.tags ?? [],
          images,
          imageUrl: images[0] ?? null,
          imageUrls: images,
          videoUrl: r.video_url,
          posterUrl: r.poster_url,
          // the poster's real size and made widths (a frame fit inside 1280 × 720: a portrait video's is narrower)
          posterInfo: r.poster_url ? toImageInfo(posterInfos.get(r.id)) : null,
          user,
          museum: mu
            ? { id: mu.id, slug: mu.slug, name: mu.name, city: mu.city ?? null, country: mu.country ?? null, featuredImage: mu.featuredImage ?? null, featuredImageInfo: mu.featuredImageInfo ?? null }
            : null,
          museumId: r.museum_id,
          pendingMuseumSuggestionId: r.pending_suggestion_id,
          likesCount: Number(r.likes_count),
          commentsCount: Number(r.comments_count),
          isLiked: likedSet.has(r.id),
          createdAt: iso(r.created_at),
        };
        if (photos) {
          post.photos = photos;
          post.sensitive = Boolean(r.sensitive);
        }
        if (comments) post.comments = comments.get(r.id) ?? [];
        out.push(post);
      }
      return out;
    },
  };

  /** The latest n top-level comments of each post, each with up to n replies (oldest first). */
  async function latestComments(postIds: number[], n: number, viewer?: Viewer): Promise<Map<number, CommentOut[]>> {
    // comments the viewer may see (accounts' rule, in these statements)
    const seen = accounts().sql.canViewContent(viewer, 'c.user_id').toSQL();
    // authors joined through accounts' summary columns: no separate users statement
    const userCols = prefixedColumnsSql(accounts().summaryColumns);
    // the latest n top-level comments of each post and the latest n replies to each of them, in one
    // statement (the replies' CTE reads the top comments' ids)
    const rows = (
      await knex.raw(
        `with top as (
           select x.* from (
             select c.*, row_number() over (partition by c.post_id order by c.created_at desc, c.id desc) rn
             from insights_comments c where c.post_id = any(?::int[]) and c.parent_id is null and ${seen.sql}) x
           where x.rn <= ?),
         replies as (
           select x.* from (
             select c.*, row_number() over (partition by c.parent_id order by c.created_at desc, c.id desc) rn
             from insights_comments c where c.parent_id in (select id from top) and ${seen.sql}) x
           where x.rn <= ?)
         select y.id, y.post_id, y.user_id, y.parent_id, y.content, y.mentions, y.created_at, ${userCols}
         from (select * from top union all select * from replies) y left join users on users.id = y.user_id`,
        [postIds, ...(seen.bindings as any[]), n, ...(seen.bindings as any[]), n],
      )
    ).rows as any[];
    const top = rows.filter((r) => r.parent_id == null);
    const replies = rows.filter((r) => r.parent_id != null);
    const users = new Map<number, UserSummary>();
    for (const r of [...top, ...replies]) if (r.u_id != null) users.set(Number(r.u_id), summaryOf(r));
    const byParent = new Map<number, CommentOut[]>();
    for (const c of (await self.comments(replies, users)).sort(byTime)) {
      const list = byParent.get(c.parentId!) ?? [];
      list.push(c);
      byParent.set(c.parentId!, list);
    }
    const out = new Map<number, CommentOut[]>();
    for (const c of (await self.comments(top, users)).sort(byTime)) {
      c.replies = byParent.get(c.id) ?? [];
      const list = out.get(c.postId) ?? [];
      list.push(c);
      out.set(c.postId, list);
    }
    return out;
  }
  return self;
}

/** Accounts' summary columns under `u_` aliases (so they never clash with a post's columns). */
export function prefixed(cols: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(cols).map(([k, v]) => [`u_${k}`, v]));
}

const prefixedSql = new WeakMap<Record<string, string>, string>();

/**
 * prefixed(cols) as a raw select list (`"users"."id" as "u_id", …`), for statements written as
 * text; built once per column set (accounts' summary columns are one constant object).
 */
export function prefixedColumnsSql(cols: Record<string, string>): string {
  let text = prefixedSql.get(cols);
  if (text === undefined) {
    text = Object.entries(prefixed(cols))
      .map(([alias, col]) => `${col.split('.').map((x) => `"${x}"`).join('.')} as "${alias}"`)
      .join(', ');
    prefixedSql.set(cols, text);
  }
  return text;
}

/** A museum card from the m_-prefixed columns a scoped page statement read. */
function museumCard(r: Record<string, any>) {
  return {
    id: Number(r.m_id),
    slug: r.m_slug,
    name: r.m_name,
    city: r.m_city ?? null,
    country: r.m_country ?? null,
    featuredImage: r.m_featuredImage ?? null,
    featuredImageInfo: toImageInfo(r.m_featuredImageInfo),
  };
}

/** A member's summary from the u_-prefixed columns (prefixed(accounts' summaryColumns)) a statement read. */
export function summaryOf(r: Record<string, any>): UserSummary {
  return {
    id: Number(r.u_id),
    slug: r.u_slug,
    username: r.u_username,
    firstName: r.u_firstName ?? '',
    lastName: r.u_lastName ?? '',
    profileImageUrl: r.u_profileImageUrl ?? null,
    role: r.u_role,
    ...('u_profileImageInfo' in r ? { profileImageInfo: toImageInfo(r.u_profileImageInfo) } : {}),
  };
}

export function byTime(a: { createdAt: string; id: number }, b: { createdAt: string; id: number }): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id;
}
