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
  followedMuseumIds(userId: number): Promise<number[]>;
  visibilities(userIds: number[]): Promise<Map<number, Visibility>>;
  /**
   * Which of these authors' posts the viewer may see: public profiles; the viewer's own; the rest
   * as accounts' canViewProfile decides (private: followers; friends: either follows the other;
   * Admins always). `knownVisible`: authors already known to be visible (the viewer and the people
   * they follow: a follower may read both private and friends profiles).
   */
  visibleAuthors(viewer: Viewer, authorIds: number[], knownVisible?: Set<number>): Promise<Set<number>>;
  /**
   * The same rule as a function to call once per batch of rows in one request: accounts'
   * canViewProfile replicated over whole pages with getPreferencesMany (one query per batch of
   * authors not seen yet) and the viewer's followingIds / followerIds (at most one query each per
   * request, only when a friends-only or private author is met). `following`: the viewer's
   * following ids when already read (the feed), so they are not read again.
   */
  visibility(viewer: Viewer, following?: Set<number>): (authorIds: number[]) => Promise<Set<number>>;
}

function normVisibility(v: unknown): Visibility {
  return v === 'private' || v === 'friends' ? v : 'public';
}

export function createSocial(accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): Social {
  const self: Social = {
    followingIds: (userId) => accounts().followingIds(userId),
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
      return self.visibility(viewer, knownVisible)(authorIds);
    },
    visibility(viewer, following) {
      // Per viewer and request: each author's visibility is read once, and the viewer's follow
      // sets (at most one query each) only when a non-public author needs them.
      const known = new Map<number, Visibility>();
      let followingP: Promise<Set<number>> | null = following ? Promise.resolve(following) : null;
      let followersP: Promise<Set<number>> | null = null;
      const followingSet = () => (followingP ??= accounts().followingIds(viewer!.id).then((l) => new Set(l.map(Number))));
      const followersSet = () => (followersP ??= accounts().followerIds(viewer!.id).then((l) => new Set(l.map(Number))));
      return async (authorIds) => {
        const out = new Set<number>();
        const unknown: number[] = [];
        for (const id of new Set(authorIds)) {
          // the owner and Admins see everything; a follower may read private and friends profiles
          if (viewer && (id === viewer.id || viewer.role === 'Admin' || following?.has(id))) out.add(id);
          else if (!known.has(id)) unknown.push(id);
        }
        if (unknown.length) for (const [id, v] of await self.visibilities(unknown)) known.set(id, v);
        const closed: Array<[number, Visibility]> = [];
        for (const id of new Set(authorIds)) {
          if (out.has(id)) continue;
          const v = known.get(id) ?? 'public';
          if (v === 'public') out.add(id);
          else if (viewer) closed.push([id, v]);
        }
        if (!closed.length) return out;
        // private: followers only; friends: the viewer follows the owner or the owner follows the viewer
        const fwing = await followingSet();
        const rest = closed.filter(([id, v]) => {
          if (fwing.has(id)) out.add(id);
          return !fwing.has(id) && v === 'friends';
        });
        if (rest.length) {
          const fwers = await followersSet();
          for (const [id] of rest) if (fwers.has(id)) out.add(id);
        }
        return out;
      };
    },
  };
  return self;
}
