/**
 * The follow graph as insights needs it, read only through the accounts and museums services
 * (never their tables). Privacy is accounts' rule: AccountsApi.canViewProfile for one profile,
 * AccountsApi.sql.canView inside a page statement (posts.ts).
 */
import type { AccountsApi } from '../../accounts/public.ts';
import type { MuseumsApi } from '../../museums/public.ts';

export type Viewer = { id: number; role: string } | null | undefined;

export interface Social {
  followingIds(userId: number): Promise<number[]>;
  followedMuseumIds(userId: number): Promise<number[]>;
}

export function createSocial(accounts: () => AccountsApi, museums: () => MuseumsApi | undefined): Social {
  return {
    followingIds: (userId) => accounts().followingIds(userId),
    async followedMuseumIds(userId) {
      const m = museums();
      return m ? m.followedMuseumIds(userId) : [];
    },
  };
}
