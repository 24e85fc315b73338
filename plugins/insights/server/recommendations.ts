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

async function allowedUsers(accounts: AccountsApi, ids: number[]): Promise<UserSummary[]> {
  const map = await accounts.getUserSummaries(ids);
  const users = ids.map((id) => map.get(id)).filter((u): u is UserSummary => Boolean(u));
  const refusals = await Promise.all(users.map((u) => accounts.checkGuards({ id: u.id, role: u.role }).catch(() => null)));
  return users.filter((_, i) => !refusals[i]);
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
  async function commonMuseums(viewerId: number, ids: number[]): Promise<Map<number, number>> {
    const mine = new Set(await social.followedMuseumIds(viewerId));
    const out = new Map<number, number>();
    const lists = await Promise.all(ids.map((id) => (mine.size ? social.followedMuseumIds(id) : Promise.resolve([] as number[]))));
    ids.forEach((id, i) => out.set(id, lists[i].filter((m) => mine.has(m)).length));
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
      const following = (await social.followingIds(viewerId)).slice(0, MAX_NETWORK);
      if (!following.length) return [];
      const followSet = new Set(following);
      const graph = await social.followingOf(following);
      const counts = new Map<number, number>();
      for (const list of graph.values()) {
        for (const c of list) if (c !== viewerId && !followSet.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
      }
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit * 3).map(([id]) => id);
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
      const following = (await social.followingIds(viewerId)).slice(0, MAX_NETWORK);
      const lists = await Promise.all(following.map((f) => social.followedMuseumIds(f)));
      const network = new Map<number, number>();
      for (const list of lists) for (const id of list) if (!mine.has(id)) network.set(id, (network.get(id) ?? 0) + 1);
      const rankedNetwork = [...network].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit * 2);
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

    async activeUsers(viewerId: number | null, limit: number) {
      const exclude = viewerId != null ? [viewerId, ...(await social.followingIds(viewerId))] : [];
      const r = await knex.raw(
        `select user_id, sum(p)::int as posts, sum(score)::int as score from (
           select user_id, 1 as p, 3 as score from insights_posts where created_at > now() - interval '30 days'
           union all select user_id, 0, 2 from insights_comments where created_at > now() - interval '30 days'
           union all select user_id, 0, 1 from insights_likes where created_at > now() - interval '30 days'
         ) x where not (user_id = any(?::int[])) group by user_id order by sum(score) desc, user_id desc limit ?`,
        [exclude, limit * 2],
      );
      const rows = r.rows as Array<{ user_id: number; posts: number; score: number }>;
      const users = await allowedUsers(accounts(), rows.map((x) => x.user_id));
      const byId = new Map(rows.map((x) => [x.user_id, x]));
      return users.slice(0, limit).map((u) => ({ ...u, recentInsightsCount: byId.get(u.id)!.posts, activityScore: byId.get(u.id)!.score }));
    },
  };
}
