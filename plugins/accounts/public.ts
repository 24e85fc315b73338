/**
 * What the accounts plugin offers other plugins, by typed service reference.
 * Other plugins import only this file from accounts, never its server internals.
 */
import { serviceRef } from '../../core/services.ts';

export interface UserSummary {
  id: number;
  slug: string;
  username: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  role: string;
}

/** Returns a message to refuse sign-in (and end sessions) for this user, or null. */
export type LoginGuard = (user: { id: number; role: string }) => Promise<string | null>;

export interface AccountsApi {
  /** One query for many ids; unknown ids are absent from the map. */
  getUserSummaries(ids: number[]): Promise<Map<number, UserSummary>>;
  getUserSummary(id: number): Promise<UserSummary | null>;
  /** id, slug or username */
  findUser(key: string | number): Promise<(UserSummary & { email: string }) | null>;
  /** Ends the user's sessions (all, or all but one session id); answers how many. */
  endSessions(userId: number, exceptSessionId?: string): Promise<number>;
  addLoginGuard(guard: LoginGuard): void;
  /** Consulted on every request for a signed-in user: a message ends that session at once. */
  checkGuards(user: { id: number; role: string }): Promise<string | null>;
  /** Notification and privacy preferences of users (flat object of §3 fields). */
  getPreferences(userId: number): Promise<Record<string, unknown>>;
  /** Columns to select for a user summary from the users table (for joins in hot paths). */
  readonly summaryColumns: Record<string, string>;
}

export const AccountsService = serviceRef<AccountsApi>('accounts.api');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'accounts.user.registered': { userId: number };
    'accounts.user.followed': { followerId: number; followingId: number; following: boolean };
    /** before the row goes: plugins fix their counters and remove personal data */
    'accounts.user.deleting': { userId: number };
    'accounts.user.deleted': { userId: number };
  }
}
