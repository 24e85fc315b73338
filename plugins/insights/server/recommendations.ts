/**
 * Recommendations that are never empty while the data exists (issue 21). Each surface falls back
 * in order — network → interests and home city → trending/active → most followed or popular — so a
 * brand-new member's home offers things to follow on day one:
 *  - people: followed by people you follow; then members following the museums of your interests
 *    or near your home; then the members most active in 30 days (their sums kept by the database
 *    as they write: insights_member_activity); then the most followed members.
 *    One ranking statement; accounts' rule (canView: private and friends-only profiles, blocks
 *    either way, pending deletion) and the viewer's mutes inside it; never you, whom you follow or
 *    asked to follow. Deleted users (no summary) and users refused by an accounts guard (bans)
 *    are dropped after.
 *  - museums: your network's; then active ones in the categories you follow; then your interests
 *    and home city (museums' suggestMuseums); then trending; then the most popular.
 *  - trending: the last 7 days, widening to 30 and 90 when the week is quiet, then the most popular.
 */
import type { Knex } from 'knex';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import type { MuseumSummary, MuseumsApi } from '../../museums/public.ts';
import type { Social } from './social.ts';

const MAX_NETWORK = 200;
const POPULAR_POOL = 200;
/** Trending windows, in days: the first that has activity ranks first (activity older than 90 days is purged). */
export const TRENDING_WINDOWS = [7, 30, 90] as const;

type Viewer = { id: number; role: string };

/** The users among `ids` (in that order) who exist and whom no guard refuses (bans): two statements. */
async function allowedUsers(accounts: AccountsApi, ids: number[]): Promise<UserSummary[]> {
  const map = await accounts.getUserSummaries(ids);
  const users = ids.map((id) => map.get(id)).filter((u): u is UserSummary => Boolean(u));
  const refused = await accounts.checkGuardsMany(users.map((u) => ({ id: u.id, role: u.role })));
  return users.filter((u) => !refused.has(u.id));
}

function museumOut(m: MuseumSummary) {
  return {
    id: m.id,
    slug: m.slug,
    name: m.name,
    city: m.city ?? null,
    country: m.country ?? null,
    featuredImage: m.featuredImage ?? null,
    // read with the summary (museums' getMuseumSummaries / suggestMuseums, same statement)
    featuredImageInfo: m.featuredImageInfo ?? null,
    category: m.category ?? null,
    isVerified: Boolean(m.isVerified),
  };
}

/** `sql` with its `?` bindings, from a knex builder or raw. */
const native = (q: Knex.QueryBuilder | Knex.Raw) => {
  const s = q.toSQL() as { sql: string; bindings: readonly unknown[] };
  return { sql: s.sql, bindings: [...s.bindings] as any[] };
};

interface RankedPerson {
  id: number;
  net: number;
  intr: number;
  act: number;
  posts: number;
  pop: number;
}

export function createRecommendations(knex: Knex, social: Social, accounts: () => AccountsApi, museums: () => MuseumsApi | undefined) {
  /** For each of `ids`: how many museums they follow that the viewer follows too (one statement). */
  async function commonMuseums(viewerId: number, ids: number[]): Promise<Map<number, number>> {
    const m = museums();
    const out = new Map<number, number>();
    if (!m || !ids.length) return out;
    const rows = await knex
      .from(m.sql.followEdges().as('me'))
      .whereIn('me.user_id', ids)
      .whereIn('me.museum_id', m.sql.followedMuseumIds(viewerId))
      .groupBy('me.user_id')
      .select({ id: 'me.user_id' })
      .count({ n: '*' });
    for (const r of rows as any[]) out.set(Number(r.id), Number(r.n));
    return out;
  }

  /** Museums matching the member's interests or home (ids, best first): one statement, none without either. */
  async function tasteMuseums(viewerId: number, limit: number) {
    const m = museums();
    const taste = await accounts().getMemberTaste(viewerId);
    if (!m || (!taste.interests.length && !taste.home)) return { taste, suggested: [] as Awaited<ReturnType<MuseumsApi['suggestMuseums']>> };
    const suggested = await m.suggestMuseums({ viewerId, categories: taste.interests, near: taste.home, limit });
    return { taste, suggested };
  }

  /**
   * One statement: candidates from each source with their weight per tier, filtered by accounts'
   * rule and the viewer's mutes, ranked tier by tier (network, interests, activity, popularity).
   */
  async function rankPeople(viewer: Viewer | null, opts: { network: boolean; interestMuseumIds: number[]; active: boolean; popular: boolean }, limit: number): Promise<RankedPerson[]> {
    const acc = accounts();
    const m = museums();
    const parts: Array<{ sql: string; bindings: any[] }> = [];
    const cols = (net: string, intr: string, pop: string) => `${net} as net, ${intr} as intr, ${pop} as pop`;
    if (opts.network && viewer) {
      const q = native(
        knex
          .from(acc.sql.followEdges().as('e'))
          .whereIn('e.follower_id', acc.sql.followingIds(viewer.id).orderBy('following_id').limit(MAX_NETWORK))
          .select({ id: 'e.following_id' }),
      );
      parts.push({ sql: q.sql.replace(/^select /, `select ${cols('1', '0', '0')}, `), bindings: q.bindings });
    }
    if (opts.interestMuseumIds.length && m) {
      const q = native(knex.from(m.sql.followEdges().as('me')).whereIn('me.museum_id', opts.interestMuseumIds).select({ id: 'me.user_id' }));
      parts.push({ sql: q.sql.replace(/^select /, `select ${cols('0', '1', '0')}, `), bindings: q.bindings });
    }
    // Who may be suggested: never the viewer, whom they follow or asked to follow (a private
    // profile's pending request: Follow would withdraw it), and only whom accounts' rule lets them
    // see and they did not mute. Decided per person (`col`), never per activity row.
    const filters = (col: string) => {
      const where: Array<{ sql: string; bindings: any[] }> = [];
      if (viewer) {
        where.push({ sql: `${col} <> ?`, bindings: [viewer.id] });
        const f = native(acc.sql.followingIds(viewer.id));
        where.push({ sql: `${col} not in (${f.sql})`, bindings: f.bindings });
        const r = native(acc.sql.requestedIds(viewer.id));
        where.push({ sql: `${col} not in (${r.sql})`, bindings: r.bindings });
      }
      where.push(native(acc.sql.canView(viewer, col)));
      where.push(native(acc.sql.notMuted(viewer, col)));
      return { sql: where.map((w) => w.sql).join(' and '), bindings: where.flatMap((w) => w.bindings) };
    };
    if (opts.active) {
      // The most active members the viewer may be shown, from the sums the database keeps
      // (insights_member_activity, migration 20261207000300) through its index: the `limit` best
      // by (score, id) are enough, since a member left out has `limit` others before them
      // whatever the popularity that breaks ties below.
      const f = filters('ma.user_id');
      parts.push({
        sql: `select ${cols('0', '0', '0')}, x.user_id as id from (
            select ma.user_id from insights_member_activity ma where ma.score > 0 and ${f.sql}
             order by ma.score desc, ma.user_id asc limit ?
          ) x`,
        bindings: [...f.bindings, limit],
      });
    }
    if (opts.popular) {
      // the rule before the pool's limit: cut first, a viewer who follows (or may not see) the most
      // followed POPULAR_POOL members had no popular suggestion at all (the tier that keeps the list
      // from being empty)
      const f = filters('users.id');
      const q = native(acc.sql.popularMembers(POPULAR_POOL).whereRaw(f.sql, f.bindings));
      parts.push({ sql: `select ${cols('0', '0', 'pm.followers_count')}, pm.user_id as id from (${q.sql}) pm`, bindings: q.bindings });
    }
    if (!parts.length) return [];
    // Each candidate's activity is read once, after the candidates' rows are summed.
    const where = filters('g.id');
    const r = await knex.raw(
      `select g.id, g.net, g.intr, coalesce(ma.score, 0) as act, coalesce(ma.posts, 0) as posts, g.pop from (
         select c.id, sum(c.net)::int as net, sum(c.intr)::int as intr, max(c.pop)::int as pop
           from (${parts.map((p) => p.sql).join(' union all ')}) c
          group by c.id
        ) g
        left join insights_member_activity ma on ma.user_id = g.id
        where ${where.sql}
        order by g.net desc, g.intr desc, coalesce(ma.score, 0) desc, g.pop desc, g.id asc
        limit ?`,
      [...parts.flatMap((p) => p.bindings), ...where.bindings, limit],
    );
    return (r.rows as any[]).map((x) => ({ id: Number(x.id), net: x.net, intr: x.intr, act: x.act, posts: x.posts, pop: x.pop }));
  }

  const reasonOf = (p: RankedPerson) => (p.net > 0 ? 'network' : p.intr > 0 ? 'interests' : p.act > 0 ? 'active' : 'popular');

  async function trendingRows(limit: number, excludeIds: number[] = []) {
    const [w1, w2, w3] = TRENDING_WINDOWS;
    const f = (w: number) => `filter (where at > now() - make_interval(days => ${w}))`;
    const r = await knex.raw(
      `select museum_id,
              coalesce(sum(i + c + f) ${f(w1)}, 0)::int as s1, coalesce(sum(i + c + f) ${f(w2)}, 0)::int as s2, coalesce(sum(i + c + f), 0)::int as s3,
              coalesce(sum(i) ${f(w1)}, 0)::int as i1, coalesce(sum(c) ${f(w1)}, 0)::int as c1, coalesce(sum(f) ${f(w1)}, 0)::int as f1,
              coalesce(sum(i) ${f(w2)}, 0)::int as i2, coalesce(sum(c) ${f(w2)}, 0)::int as c2, coalesce(sum(f) ${f(w2)}, 0)::int as f2,
              coalesce(sum(i), 0)::int as i3, coalesce(sum(c), 0)::int as c3, coalesce(sum(f), 0)::int as f3
         from (
           select museum_id, created_at as at, 1 as i, 0 as c, 0 as f from insights_posts
             where museum_id is not null and museum_id > 0 and created_at > now() - make_interval(days => ${w3})
           union all
           select museum_id, created_at, 0, case when kind = 'checkin' then 1 else 0 end, case when kind = 'follow' then 1 else 0 end
             from insights_museum_activity where created_at > now() - make_interval(days => ${w3})
         ) x
        where not (museum_id = any(?::int[]))
        group by museum_id
        order by 2 desc, 3 desc, 4 desc, museum_id desc
        limit ?`,
      [excludeIds, limit],
    );
    return (r.rows as any[]).map((x) => {
      const k = x.s1 > 0 ? 1 : x.s2 > 0 ? 2 : 3;
      return { museum_id: Number(x.museum_id), windowDays: TRENDING_WINDOWS[k - 1], insights: x[`i${k}`], checkins: x[`c${k}`], follows: x[`f${k}`] };
    });
  }

  /** `mine`: the museums the viewer follows (left out), when there is a viewer. */
  async function trending(limit: number, opts: { viewerId?: number | null; mine?: Set<number>; excludeIds?: number[] } = {}) {
    const m = museums();
    if (!m) return [];
    const exclude = opts.excludeIds ?? [];
    const mine = opts.mine ?? new Set<number>();
    const rows = (await trendingRows(limit * 2 + mine.size, exclude)).filter((r) => !mine.has(r.museum_id));
    const sums = await m.getMuseumSummaries(rows.map((r) => r.museum_id));
    const out: any[] = [];
    for (const r of rows) {
      const s = sums.get(r.museum_id);
      if (!s || out.length >= limit) continue;
      out.push({
        ...museumOut(s),
        reason: 'trending',
        recentInsightsCount: r.insights,
        recentCheckInsCount: r.checkins,
        recentFollowsCount: r.follows,
        trendingScore: r.insights + r.checkins + r.follows,
        trendingWindowDays: r.windowDays,
      });
    }
    // a quiet quarter: the most popular museums fill the list (never empty while museums exist)
    if (out.length < limit) {
      const popular = await m.suggestMuseums({ viewerId: opts.viewerId ?? null, excludeIds: [...exclude, ...out.map((x) => x.id)], limit: limit - out.length });
      for (const s of popular) out.push({ ...museumOut(s), reason: 'popular', trendingScore: 0 });
    }
    return out;
  }

  return {
    async users(viewer: Viewer, limit: number) {
      const { suggested } = await tasteMuseums(viewer.id, 30);
      const interestMuseumIds = suggested.filter((s) => s.reason !== 'popular').map((s) => s.id);
      const ranked = await rankPeople(viewer, { network: true, interestMuseumIds, active: true, popular: true }, limit * 3);
      if (!ranked.length) return [];
      const byId = new Map(ranked.map((p) => [p.id, p]));
      const users = await allowedUsers(accounts(), ranked.map((p) => p.id));
      const top = users.slice(0, limit);
      const common = await commonMuseums(viewer.id, top.map((u) => u.id));
      return top.map((u) => {
        const p = byId.get(u.id)!;
        return { ...u, mutualFollowersCount: p.net, commonMuseumsCount: common.get(u.id) ?? 0, reason: reasonOf(p), recentInsightsCount: p.posts };
      });
    },

    async museums(viewerId: number | null, limit: number) {
      const m = museums();
      if (!m) return [];
      if (viewerId == null) return trending(limit);
      const mine = new Set(await social.followedMuseumIds(viewerId));
      // museums followed by (up to MAX_NETWORK of) the people you follow and not by you, ranked by
      // how many of them follow each: one statement over both plugins' follow edges
      const networkRows = await knex
        .from(m.sql.followEdges().as('me'))
        .whereIn('me.user_id', accounts().sql.followingIds(viewerId).orderBy('following_id').limit(MAX_NETWORK))
        .whereNotIn('me.museum_id', m.sql.followedMuseumIds(viewerId))
        .groupBy('me.museum_id')
        .select({ id: 'me.museum_id' })
        .count({ n: '*' })
        .orderBy([
          { column: 'n', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit * 2);
      const rankedNetwork: Array<[number, number]> = (networkRows as any[]).map((r) => [Number(r.id), Number(r.n)]);
      const out: any[] = [];
      const seen = new Set<number>();
      const add = (x: any) => {
        if (out.length < limit && !seen.has(x.id) && !mine.has(x.id)) {
          out.push(x);
          seen.add(x.id);
        }
      };
      if (rankedNetwork.length) {
        const sums = await m.getMuseumSummaries(rankedNetwork.map(([id]) => id));
        for (const [id, n] of rankedNetwork) {
          const s = sums.get(id);
          if (s) add({ ...museumOut(s), reason: 'network', networkFollowersCount: n });
        }
      }
      if (out.length < limit && mine.size) {
        // Museums active lately (insights, check-ins, follows in 90 days) in the categories you follow.
        const myCats = new Set([...(await m.getMuseumSummaries([...mine])).values()].map((s) => s.category).filter(Boolean));
        if (myCats.size) {
          const active = await trendingRows(300);
          const sums = await m.getMuseumSummaries(active.map((r) => r.museum_id).filter((id) => !mine.has(id) && !seen.has(id)));
          for (const r of active) {
            const s = sums.get(r.museum_id);
            if (s && s.category && myCats.has(s.category)) add({ ...museumOut(s), reason: 'category', networkFollowersCount: 0 });
          }
        }
      }
      if (out.length >= limit) return out;
      // then your interests and home city, then trending, then the most popular
      const { suggested } = await tasteMuseums(viewerId, limit * 2);
      for (const s of suggested) if (s.reason !== 'popular') add({ ...museumOut(s), reason: s.reason === 'nearby' ? 'nearby' : 'interest', networkFollowersCount: 0 });
      if (out.length < limit) for (const t of await trending(limit - out.length, { viewerId, mine, excludeIds: [...seen] })) add({ ...t, networkFollowersCount: 0 });
      return out;
    },

    trending: (limit: number) => trending(limit),

    /**
     * The most active members of 30 days, then the most followed: only members the viewer may see
     * (accounts' canView, in the same statement): private members never appear to others.
     */
    async activeUsers(viewer: Viewer | null, limit: number) {
      const ranked = await rankPeople(viewer, { network: false, interestMuseumIds: [], active: true, popular: true }, limit * 2);
      const byId = new Map(ranked.map((p) => [p.id, p]));
      const users = await allowedUsers(accounts(), ranked.map((x) => x.id));
      return users.slice(0, limit).map((u) => ({ ...u, recentInsightsCount: byId.get(u.id)!.posts, activityScore: byId.get(u.id)!.act, reason: reasonOf(byId.get(u.id)!) }));
    },
  };
}
