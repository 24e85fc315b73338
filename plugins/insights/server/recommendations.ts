/**
 * Recommendations: people followed by people you follow, museums your network follows or that match
 * the categories you follow, trending museums (insights, check-ins and follows in 7 days) and the
 * most active members. Deleted users (no summary) and users refused by an accounts guard (bans)
 * never appear.
 */
import type { Knex } from 'knex';
import type { AccountsApi, UserSummary } from '../../accounts/public.ts';
import type { MuseumSummary, MuseumsApi } from '../../museums/public.ts';
import type { Social } from './social.ts';

const MAX_NETWORK = 200;

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
    category: m.category ?? null,
    isVerified: Boolean(m.isVerified),
  };
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

  async function trendingRows(days: number, limit: number) {
    const r = await knex.raw(
      `select museum_id, sum(i)::int as insights, sum(c)::int as checkins, sum(f)::int as follows from (
         select museum_id, 1 as i, 0 as c, 0 as f from insights_posts
           where museum_id is not null and created_at > now() - make_interval(days => ?)
         union all
         select museum_id, 0, case when kind = 'checkin' then 1 else 0 end, case when kind = 'follow' then 1 else 0 end
           from insights_museum_activity where created_at > now() - make_interval(days => ?)
       ) x group by museum_id order by sum(i) + sum(c) + sum(f) desc, museum_id desc limit ?`,
      [days, days, limit],
    );
    return r.rows as Array<{ museum_id: number; insights: number; checkins: number; follows: number }>;
  }

  return {
    async users(viewerId: number, limit: number) {
      // people followed by (up to MAX_NETWORK of) the people you follow, not you nor whom you
      // follow, ranked by how many of them follow each: one statement over accounts' follow edges
      const acc = accounts();
      const rows = await knex
        .from(acc.sql.followEdges().as('e'))
        .whereIn('e.follower_id', acc.sql.followingIds(viewerId).orderBy('following_id').limit(MAX_NETWORK))
        .whereNot('e.following_id', viewerId)
        .whereNotIn('e.following_id', acc.sql.followingIds(viewerId))
        .whereRaw(acc.sql.notBlocked(viewerId, 'e.following_id'))
        .whereRaw(acc.sql.notMuted({ id: viewerId }, 'e.following_id'))
        .groupBy('e.following_id')
        .select({ id: 'e.following_id' })
        .count({ n: '*' })
        .orderBy([
          { column: 'n', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit * 3);
      const counts = new Map<number, number>((rows as any[]).map((r) => [Number(r.id), Number(r.n)]));
      const ranked = [...counts.keys()];
      if (!ranked.length) return [];
      const users = await allowedUsers(accounts(), ranked);
      const common = await commonMuseums(viewerId, users.map((u) => u.id));
      return users
        .map((u) => ({ ...u, mutualFollowersCount: counts.get(u.id) ?? 0, commonMuseumsCount: common.get(u.id) ?? 0 }))
        .sort((a, b) => b.mutualFollowersCount - a.mutualFollowersCount || b.commonMuseumsCount - a.commonMuseumsCount || a.id - b.id)
        .slice(0, limit);
    },

    async museums(viewerId: number | null, limit: number) {
      const m = museums();
      if (!m) return [];
      if (viewerId == null) return this.trending(limit);
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
      if (rankedNetwork.length) {
        const sums = await m.getMuseumSummaries(rankedNetwork.map(([id]) => id));
        for (const [id, n] of rankedNetwork) {
          const s = sums.get(id);
          if (s && out.length < limit) {
            out.push({ ...museumOut(s), reason: 'network', networkFollowersCount: n });
            seen.add(id);
          }
        }
      }
      if (out.length < limit && mine.size) {
        // Museums active lately (insights, check-ins, follows in 90 days) in the categories you follow.
        const myCats = new Set([...(await m.getMuseumSummaries([...mine])).values()].map((s) => s.category).filter(Boolean));
        if (myCats.size) {
          const active = await trendingRows(90, 300);
          const sums = await m.getMuseumSummaries(active.map((r) => r.museum_id).filter((id) => !mine.has(id) && !seen.has(id)));
          for (const r of active) {
            const s = sums.get(r.museum_id);
            if (s && s.category && myCats.has(s.category) && out.length < limit) {
              out.push({ ...museumOut(s), reason: 'category', networkFollowersCount: 0 });
              seen.add(s.id);
            }
          }
        }
      }
      return out;
    },

    async trending(limit: number) {
      const m = museums();
      if (!m) return [];
      const rows = await trendingRows(7, limit * 2);
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
        });
      }
      return out;
    },

    /** Only members the viewer may see (accounts' canView, in the same statement): private members never appear to others. */
    async activeUsers(viewer: { id: number; role: string } | null, limit: number) {
      const exclude = viewer ? [viewer.id, ...(await social.followingIds(viewer.id))] : [];
      const canView = accounts().sql.canView(viewer, 'x.user_id').toSQL();
      const r = await knex.raw(
        `select user_id, sum(p)::int as posts, sum(score)::int as score from (
           select user_id, 1 as p, 3 as score from insights_posts where created_at > now() - interval '30 days'
           union all select user_id, 0, 2 from insights_comments where created_at > now() - interval '30 days'
           union all select user_id, 0, 1 from insights_likes where created_at > now() - interval '30 days'
         ) x where not (x.user_id = any(?::int[])) and ${canView.sql} group by user_id order by sum(score) desc, user_id desc limit ?`,
        [exclude, ...(canView.bindings as any[]), limit * 2],
      );
      const rows = r.rows as Array<{ user_id: number; posts: number; score: number }>;
      const users = await allowedUsers(accounts(), rows.map((x) => x.user_id));
      const byId = new Map(rows.map((x) => [x.user_id, x]));
      return users.slice(0, limit).map((u) => ({ ...u, recentInsightsCount: byId.get(u.id)!.posts, activityScore: byId.get(u.id)!.score }));
    },
  };
}
