/**
 * The follow graph and profile privacy as insights needs them, read only through the accounts and
 * museums services (never their tables).
 */
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';

export type Visibility = 'public' | 'friends' | 'private';
export type Viewer = { id: number; role: string } | null | undefined;

export interface Social {
  followingIds(userId: number): Promise<number[]>;
  /** many users at once: follower → following ids (recommendations) */
  followingOf(userIds: number[]): Promise<Map<number, number[]>>;
  followedMuseumIds(userId: number): Promise<number[]>;
  visibilities(userIds: number[]): Promise<Map<number, Visibility>>;
  /**
   * Which of these authors' posts the viewer may see: public profiles; the viewer's own; the rest
   * as accounts' canViewProfile decides (private: followers; friends: either follows the other;
   * Admins always). `knownVisible`: authors already known to be visible (the viewer and the people
   * they follow: a follower may read both private and friends profiles).
   */
  visibleAuthors(viewer: Viewer, authorIds: number[], knownVisible?: Set<number>): Promise<Set<number>>;
}

function normVisibility(v: unknown): Visibility {
  return v === 'private' || v === 'friends' ? v : 'public';
}

export function createSocial(accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): Social {
  const self: Social = {
    followingIds: (userId) => accounts().followingIds(userId),
    async followingOf(userIds) {
      const lists = await Promise.all(userIds.map((id) => accounts().followingIds(id)));
      return new Map(userIds.map((id, i) => [id, lists[i]]));
    },
    async followedMuseumIds(userId) {
      const m = museums();
      return m ? m.followedMuseumIds(userId) : [];
    },
    async visibilities(userIds) {
      const ids = [...new Set(userIds)];
      const prefs = await accounts().getPreferencesMany(ids);
      return new Map(ids.map((id) => [id, normVisibility(prefs.get(id)?.profileVisibility)]));
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
      const hidden = unknown.filter((id) => vis.get(id) !== 'public');
      for (const id of unknown) if (vis.get(id) === 'public') out.add(id);
      if (viewer && hidden.length) {
        const allowed = await Promise.all(hidden.map((id) => accounts().canViewProfile(viewer, id)));
        hidden.forEach((id, i) => allowed[i] && out.add(id));
      }
      return out;
    },
  };
  return self;
}
