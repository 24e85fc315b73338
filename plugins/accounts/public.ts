/**
 * What the accounts plugin offers other plugins, by typed service reference.
 * Other plugins import only this file from accounts, never its server internals.
 */
import type { Knex } from 'knex';
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
/** The same question for many users at once (lists of people): user id → message, for refused users only. */
export type LoginGuardMany = (users: Array<{ id: number; role: string }>) => Promise<Map<number, string>>;

export type ProfileVisibility = 'public' | 'friends' | 'private';

/** Privacy and notification preferences of a user (spec part 1 §3), one flat object. */
export type UserPreferences = {
  profileVisibility: ProfileVisibility;
  showEmail: boolean;
  showFollowers: boolean;
  showFollowing: boolean;
  allowMessages: boolean;
  allowTagging: boolean;
  emailNotifications: boolean;
  pushNotifications: boolean;
  followNotifications: boolean;
  likeNotifications: boolean;
  commentNotifications: boolean;
  museumUpdates: boolean;
  eventReminders: boolean;
  weeklyDigest: boolean;
};

export interface AccountsApi {
  /** One query for many ids; unknown ids are absent from the map. */
  getUserSummaries(ids: number[]): Promise<Map<number, UserSummary>>;
  getUserSummary(id: number): Promise<UserSummary | null>;
  /**
   * The bios of many users (one or two queries), for lists that show people with a line about them
   * (community members). Only the bios `viewer` may read: a user whose full profile the viewer may
   * not see (canViewProfile's rule: friends-only or private profiles) is absent, like unknown ids.
   */
  getUserBios(ids: number[], viewer: { id: number; role: string } | undefined | null): Promise<Map<number, string>>;
  /** id, slug or username */
  findUser(key: string | number): Promise<(UserSummary & { email: string }) | null>;
  /** Ends the user's sessions (all, or all but one session id); answers how many. */
  endSessions(userId: number, exceptSessionId?: string): Promise<number>;
  /** `many`: the guard's batch form (one query for a list); without it, lists ask `guard` per user. */
  addLoginGuard(guard: LoginGuard, many?: LoginGuardMany): void;
  /** checkGuards for many users (lists of people): user id → message, for refused users only. */
  checkGuardsMany(users: Array<{ id: number; role: string }>): Promise<Map<number, string>>;
  /**
   * Consulted on every request for a signed-in user: a message ends that session at once. On
   * requests, the guards receive the very object that then becomes ctx.state.user, so a guard may
   * remember what it read for the rest of the request (e.g. in a WeakMap keyed by it).
   */
  checkGuards(user: { id: number; role: string }): Promise<string | null>;
  /** Notification and privacy preferences of users (flat object of §3 fields; defaults when never set). */
  getPreferences(userId: number): Promise<UserPreferences>;
  /** The same for many users in one query (e.g. notification fan-out); unknown ids are absent. */
  getPreferencesMany(userIds: number[]): Promise<Map<number, UserPreferences>>;
  /** Columns to select for a user summary from the users table (for joins in hot paths). */
  readonly summaryColumns: Record<string, string>;
  /** SQL fragments for hot paths that read accounts' data inside a statement of their own (read only). */
  readonly sql: AccountsSql;

  // ---- follows and privacy (added by the accounts issue) ----
  /** Ids of the users `userId` follows. */
  followingIds(userId: number): Promise<number[]>;
  /** Ids of the users following `userId`. */
  followerIds(userId: number): Promise<number[]>;
  isFollowing(followerId: number, followingId: number): Promise<boolean>;
  /**
   * May `viewer` see the full profile (and content listed on it) of `ownerId`? Applies the owner's
   * profileVisibility: public → everyone; friends → people the owner follows or who follow the owner;
   * private → the owner's (approved) followers; and never when one blocked the other. The owner and
   * Admins always may.
   */
  canViewProfile(viewer: { id: number; role: string } | undefined | null, ownerId: number): Promise<boolean>;
  /**
   * Is there a block between a and b, either way? Neither may then follow, like, comment on,
   * mention or message the other (each plugin refuses such actions with it or with sql.notBlocked).
   */
  isBlockedEitherWay(a: number, b: number): Promise<boolean>;
  /**
   * Of `recipientIds`, those `actorId` may reach: no block either way, and, with `notifications`,
   * no active mute of the actor by the recipient that also hides notifications. For fan-out:
   * notifications, mentions.
   */
  reachable(actorId: number, recipientIds: number[], opts?: { notifications?: boolean }): Promise<Set<number>>;
  /**
   * May `fromId` write to `toId` (start a conversation, add them to one, send in a direct one)?
   * The one decision the messages plugin asks; a block rule extends it here (reason 'blocked').
   * allowMessages true → any signed-in member; false → only members `toId` follows.
   */
  mayContact(fromId: number, toId: number): Promise<ContactDecision>;

  // ---- administration (used by the admin plugin) ----
  /** Canonical role or null for an unknown spelling ('museum_manager' → 'Museum Manager'). */
  canonicalRole(role: string): string | null;
  /** Sets a user's role (canonical spelling); answers false when the user does not exist. */
  setRole(userId: number, role: string): Promise<boolean>;
  /**
   * Deletes a user: emits 'accounts.user.deleting' (others fix their counters and data), then removes
   * the user, their follows (fixing the others' follower counts), preferences, sessions and photo, then
   * emits 'accounts.user.deleted'. Answers false when the user does not exist.
   */
  deleteUser(userId: number): Promise<boolean>;
  /**
   * The admin user list: case-insensitive partial match of `q` on username, first name, last name,
   * "first last" and email; only `roles` when given (any spelling canonicalRole accepts; none known
   * → no one); newest first. `page` from 1, `pageSize` 1–200 (default 10).
   */
  listUsers(q?: UserListQuery): Promise<{ items: Array<UserSummary & { email: string }>; total: number; page: number; pageSize: number }>;
  /** Number of users, optionally only these roles. */
  countUsers(q?: { roles?: string[] }): Promise<number>;

  // ---- bulk (e.g. a notification to every member) ----
  /**
   * Ids of users greater than `afterId`, ascending, at most `limit` (≤ 50,000), and at most
   * `maxId` when given: walk everyone in batches with the last id of each batch (keyset, uses the
   * primary key, constant cost per batch at any size).
   */
  userIdsBatch(afterId: number, limit: number, opts?: { maxId?: number }): Promise<number[]>;
  /** How many users there are and the largest id, read together (the end of a userIdsBatch walk). */
  userIdRange(): Promise<{ count: number; maxId: number }>;
}

/**
 * Accounts' rules as SQL, so a hot path (a feed page) reads them in its own statement instead of
 * one more round trip each. They state the same rules as the functions of AccountsApi.
 */
export interface AccountsSql {
  /** A one-column subquery: the ids of the users `userId` follows (as followingIds). */
  followingIds(userId: number): Knex.QueryBuilder;
  /**
   * A boolean SQL expression: canViewProfile(viewer, owner) for the owner whose id is the column
   * `ownerIdColumn` (e.g. 'f.user_id') of the surrounding statement.
   */
  canView(viewer: { id: number; role: string } | undefined | null, ownerIdColumn: string): Knex.Raw;
  /** A subquery of every follow: columns follower_id, following_id (filter it; it is indexed both ways). */
  followEdges(): Knex.QueryBuilder;
  /**
   * A boolean SQL expression: no block between `userId` and the user in `userIdColumn`, either way
   * (true when userId is null). For actions that are not about visibility: mentions, messages.
   * (canView already includes it.)
   */
  notBlocked(userId: number | null | undefined, userIdColumn: string): Knex.Raw;
  /**
   * A boolean SQL expression: the viewer has no active mute of the user in `userIdColumn` (expired
   * mutes end by themselves: compared with now() in SQL). `notifications: true` only counts mutes that
   * also hide notifications (for notification lists). True for anonymous viewers.
   */
  notMuted(viewer: { id: number } | undefined | null, userIdColumn: string, opts?: { notifications?: boolean }): Knex.Raw;
  /**
   * canView and notMuted together: the rule for lists of people's content (feeds, comments, likes,
   * members): hidden when not visible, blocked either way, or muted by the viewer.
   */
  canViewContent(viewer: { id: number; role: string } | undefined | null, userIdColumn: string): Knex.Raw;
  /**
   * notBlocked and notMuted together, without profile visibility: for content whose audience another
   * rule already decides (a community's, a group's or an event's discussion, their member lists).
   * True for Admins and anonymous viewers.
   */
  notBlockedOrMuted(viewer: { id: number; role: string } | undefined | null, userIdColumn: string): Knex.Raw;
}

/** AccountsApi.mayContact's answer; `recipientFollows`: whether `toId` follows `fromId` (message requests). */
export type ContactDecision =
  | { allowed: true; reason: null; recipientFollows: boolean }
  | { allowed: false; reason: 'not_found' | 'followers_only' | 'blocked'; recipientFollows: boolean };

export interface UserListQuery {
  q?: string;
  roles?: string[];
  page?: number;
  pageSize?: number;
}

export const AccountsService = serviceRef<AccountsApi>('accounts.api');

// ---- extension points other plugins fill (all optional: accounts answers without them) ----

/** A badge a user earned, as shown on profiles (spec part 1 §3 "User badge"). */
export interface UserBadge {
  id: number;
  earnedAt: string;
  badge: { id?: number; name: string; description: string; icon: string; color: string };
}

/**
 * Provided by the badges plugin: `ctx.services.provide(UserBadgesProvider, { listUserBadges })`.
 * `GET /api/user/{id}/badges` answers `listUserBadges(id)`, newest first, or [] when no plugin provides it.
 */
export interface UserBadgesProviderApi {
  listUserBadges(userId: number): Promise<UserBadge[]>;
}
export const UserBadgesProvider = serviceRef<UserBadgesProviderApi>('accounts.userBadgesProvider');

/**
 * Provided by the insights plugin: `ctx.services.provide(UserStatsProvider, { insightsCounts })`.
 * Profiles show `insightsCount` from it (0 when no plugin provides it). Ids without posts may be absent.
 */
export interface UserStatsProviderApi {
  insightsCounts(userIds: number[]): Promise<Map<number, number>>;
}
export const UserStatsProvider = serviceRef<UserStatsProviderApi>('accounts.userStatsProvider');

/**
 * Members' email: whether they confirmed their address (routes-recovery.ts), their language and
 * time zone, unsubscribe links (routes-unsubscribe.ts). Creating communities and
 * meetups requires it: those routes call `requireVerified(user.id)`, which throws a 403 with a
 * clear message for an unconfirmed address. Members who existed before confirmation are confirmed.
 */
export interface EmailVerificationApi {
  isVerified(userId: number): Promise<boolean>;
  /** Throws HttpError 403 (message NOT_VERIFIED) unless the member's current address is confirmed. */
  requireVerified(userId: number): Promise<void>;
  /** Member's email language and IANA time zone (null: unknown → en, UTC), for emails and schedules. */
  contactInfo(userIds: number[]): Promise<Map<number, { email: string; firstName: string; locale: string | null; timeZone: string | null; verified: boolean }>>;
  /**
   * RFC 8058 one-click unsubscribe for a non-transactional email: the signed link (turns `category`
   * off without signing in) and the List-Unsubscribe / List-Unsubscribe-Post headers to put on it.
   */
  unsubscribe(userId: number, category: 'emailNotifications' | 'weeklyDigest' | 'eventReminders'): { url: string; headers: Record<string, string> };
  /** Members with the weekly digest on, ascending ids after `afterId` (keyset batches), with their time zone. */
  weeklyDigestRecipients(afterId: number, limit: number): Promise<Array<{ id: number; timeZone: string | null }>>;
}
export const EmailVerification = serviceRef<EmailVerificationApi>('accounts.emailVerification');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'accounts.user.registered': { userId: number };
    /**
     * a direct follow or unfollow (the follow button on a public or friends-only profile, an
     * unfollow). Not emitted for follow requests, approvals (accounts.follow.approved), removed
     * followers or follows ended by a block: read counts from AccountsApi, never from these events.
     */
    'accounts.user.followed': { followerId: number; followingId: number; following: boolean };
    /** a private profile's owner approved a follow request: `requesterId` now follows `ownerId` */
    'accounts.follow.approved': { requesterId: number; ownerId: number };
    /** before the row goes: plugins fix their counters and remove personal data */
    'accounts.user.deleting': { userId: number };
    'accounts.user.deleted': { userId: number };
    /** profile fields changed (username, names, bio, email, photo) */
    'accounts.user.updated': { userId: number; fields: string[]; /** set when the email address changed */ previousEmail?: string };
    /** a member chose a new password from a reset link (every session ended) */
    'accounts.password.reset': { userId: number };
    /** a member confirmed their email address */
    'accounts.email.verified': { userId: number };
  }
}
