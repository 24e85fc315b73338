/**
 * The follow graph and profile privacy as insights needs them, read through the accounts and
 * museums services. The accounts service does not (yet) offer `followingIds`, `isFollowing` or a
 * batched privacy lookup: when it does, those members are used; until then a copy of the user
 * follow graph is kept from 'accounts.user.followed' events (table insights_follow_edges).
 */
import type { Knex } from 'knex';
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';

export type Visibility = 'public' | 'friends' | 'private';

/** Members of AccountsApi insights uses when present (the accounts issue adds them). */
export interface AccountsSocialExtras {
  followingIds?(userId: number): Promise<number[]>;
  isFollowing?(followerId: number, followingId: number): Promise<boolean>;
  /** preferences of many users in one query */
  getPreferencesMany?(userIds: number[]): Promise<Map<number, Record<string, unknown>>>;
  /** the owner's profileVisibility applied to a viewer (owner and Admins always may) */
  canViewProfile?(viewer: { id: number; role: string } | undefined | null, ownerId: number): Promise<boolean>;
}

export type Viewer = { id: number; role: string } | null | undefined;

export interface Social {
  followingIds(userId: number): Promise<number[]>;
  /** many users at once: follower → following ids (recommendations) */
  followingOf(userIds: number[]): Promise<Map<number, number[]>>;
  isFollowing(followerId: number, followingId: number): Promise<boolean>;
  followedMuseumIds(userId: number): Promise<number[]>;
  visibilities(userIds: number[]): Promise<Map<number, Visibility>>;
  /**
   * Which of these authors' posts the viewer may see: public profiles; the viewer's own; private
   * ones when the viewer follows them; 'friends' ones when either follows the other; Admins all.
   * `knownVisible`: authors already known to be visible (the viewer and the people they follow).
   */
  visibleAuthors(viewer: Viewer, authorIds: number[], knownVisible?: Set<number>): Promise<Set<number>>;
  /** true when the accounts service provides the follow graph itself */
  readonly usesAccountsGraph: boolean;
}

function normVisibility(v: unknown): Visibility {
  return v === 'private' || v === 'friends' ? v : 'public';
}

export function createSocial(knex: Knex, accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): Social {
  const extras = () => accounts() as AccountsApi & AccountsSocialExtras;
  const self: Social = {
    get usesAccountsGraph() {
      return typeof extras().followingIds === 'function';
    },
    async followingIds(userId) {
      const a = extras();
      if (typeof a.followingIds === 'function') return a.followingIds(userId);
      return knex('insights_follow_edges').where({ follower_id: userId }).pluck('following_id');
    },
    async followingOf(userIds) {
      const out = new Map<number, number[]>();
      if (!userIds.length) return out;
      const a = extras();
      if (typeof a.followingIds === 'function') {
        const lists = await Promise.all(userIds.map((id) => a.followingIds!(id)));
        userIds.forEach((id, i) => out.set(id, lists[i]));
        return out;
      }
      const rows = await knex('insights_follow_edges').whereIn('follower_id', userIds).select('follower_id', 'following_id');
      for (const id of userIds) out.set(id, []);
      for (const r of rows) out.get(r.follower_id)!.push(r.following_id);
      return out;
    },
    async isFollowing(followerId, followingId) {
      const a = extras();
      if (typeof a.isFollowing === 'function') return a.isFollowing(followerId, followingId);
      if (typeof a.followingIds === 'function') return (await a.followingIds(followerId)).includes(followingId);
      return Boolean(await knex('insights_follow_edges').where({ follower_id: followerId, following_id: followingId }).first('follower_id'));
    },
    async followedMuseumIds(userId) {
      const m = museums();
      return m ? m.followedMuseumIds(userId) : [];
    },
    async visibilities(userIds) {
      const ids = [...new Set(userIds)];
      const a = extras();
      if (typeof a.getPreferencesMany === 'function') {
        const m = await a.getPreferencesMany(ids);
        return new Map(ids.map((id) => [id, normVisibility(m.get(id)?.profileVisibility)]));
      }
      const prefs = await Promise.all(ids.map((id) => a.getPreferences(id).catch(() => ({}) as Record<string, unknown>)));
      return new Map(ids.map((id, i) => [id, normVisibility((prefs[i] as Record<string, unknown>)?.profileVisibility)]));
    },
    async visibleAuthors(viewer, authorIds, knownVisible) {
      const out = new Set<number>();
      const unknown: number[] = [];
      for (const id of new Set(authorIds)) {
        if (id === viewer?.id || knownVisible?.has(id) || viewer?.role === 'Admin') out.add(id);
        else unknown.push(id);
      }
      if (!unknown.length) return out;
      const vis = await self.visibilities(unknown);
      const a = extras();
      let following: Set<number> | null = null;
      for (const id of unknown) {
        const v = vis.get(id) ?? 'public';
        if (v === 'public') {
          out.add(id);
          continue;
        }
        if (!viewer) continue;
        if (typeof a.canViewProfile === 'function') {
          if (await a.canViewProfile(viewer, id)) out.add(id);
          continue;
        }
        following ??= new Set(await self.followingIds(viewer.id));
        if (following.has(id) || (v === 'friends' && (await self.isFollowing(id, viewer.id)))) out.add(id);
      }
      return out;
    },
  };
  return self;
}
