/**
 * What the accounts plugin offers other plugins, by typed service reference.
 * Other plugins import only this file from accounts, never its server internals.
 */
import type { Knex } from 'knex';
import { serviceRef } from '../../core/services.ts';
import type { ImageInfo } from '../../core/images.ts';

export interface UserSummary {
  id: number;
  slug: string;
  username: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  role: string;
  /** the avatar's size, made variant widths and placeholder (getUserSummaries, findUser, listUsers; null before its variants, absent elsewhere) */
  profileImageInfo?: ImageInfo | null;
}

/** Returns a message to refuse sign-in (and end sessions) for this user, or null. */
export type LoginGuard = (user: { id: number; role: string }) => Promise<string | null>;
/** The same question for many users at once (lists of people): user id → message, for refused users only. */
export type LoginGuardMany = (users: Array<{ id: number; role: string }>) => Promise<Map<number, string>>;
/**
 * A guard's form for the session statement (issue 18: a signed-in request spends one statement in
 * middleware): `select` is a scalar subquery over the session's user (`userId` is its qualified id
 * column) read in the same statement as the session; `read` turns its value into the guard's answer
 * for this user (the object that becomes ctx.state.user, as for `guard`).
 */
export interface LoginGuardSql {
  select(db: Knex, userId: string): Knex.Raw;
  read(value: unknown, user: { id: number; role: string }): string | null;
}

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
  /** the web app's theme (issue 21) */
  theme: 'system' | 'light' | 'dark';
};

/** A stored @username mention: a profile link over `length` characters of the text from `start`. */
export interface Mention {
  userId: number;
  username: string;
  /** UTF-16 offset of the "@" in the text, and length of "@username" */
  start: number;
  length: number;
}

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
  addLoginGuard(guard: LoginGuard, many?: LoginGuardMany, sql?: LoginGuardSql): void;
  /** The guards' SQL forms, when every guard has one (else null: the session middleware asks `checkGuards`). */
  guardsSql(): LoginGuardSql[] | null;
  /**
   * A login guard's answer for these members may have changed (a ban, a restriction given or
   * lifted): every process reads their sessions again at their next request (each process keeps
   * the sessions it saw for a few seconds). Call after the change has committed.
   */
  sessionsChanged(userIds: number[]): Promise<void>;
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
   * private → the owner's (approved) followers; and never when one blocked the other, nor while the
   * owner's deletion is pending (grace period, issue 24). The owner and Admins always may.
   */
  canViewProfile(viewer: { id: number; role: string } | undefined | null, ownerId: number): Promise<boolean>;
  /**
   * Is there a block between a and b, either way? Neither may then follow, like, comment on,
   * mention or message the other (each plugin refuses such actions with it or with sql.notBlocked).
   */
  isBlockedEitherWay(a: number, b: number): Promise<boolean>;
  /**
   * The @username mentions of a text being written by `author`: members the author may see
   * (canView, so no block either way) who allow tagging (`allowTagging`; tagging yourself is always
   * allowed). The owner of the text stores them with it and notifies the mentioned members;
   * anything else stays plain text.
   */
  resolveMentions(author: { id: number; role: string }, text: string): Promise<Mention[]>;
  /** Has `muterId` an active (not expired) mute of `mutedId`? Their content is then hidden from the muter, their profile's insights included. */
  isMuted(muterId: number, mutedId: number): Promise<boolean>;
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

  // ---- interests and home city (onboarding, issue 21) ----
  /**
   * What a member picked at onboarding or in Settings: interests (the keys OnboardingSources
   * offers: museum categories) and home city with coordinates (null when not given). Recommendations
   * read it to suggest museums and people before the member follows anyone. One statement.
   */
  getMemberTaste(userId: number): Promise<MemberTaste>;
}

/**
 * Accounts' rules as SQL, so a hot path (a feed page) reads them in its own statement instead of
 * one more round trip each. They state the same rules as the functions of AccountsApi.
 */
export interface AccountsSql {
  /** A one-column subquery: the ids of the users `userId` follows (as followingIds). */
  followingIds(userId: number): Knex.QueryBuilder;
  /** A one-column subquery: the ids of the users `userId` asked to follow, still waiting for approval (private profiles). */
  requestedIds(userId: number): Knex.QueryBuilder;
  /**
   * A boolean SQL expression: canViewProfile(viewer, owner) for the owner whose id is the column
   * `ownerIdColumn` (e.g. 'f.user_id') of the surrounding statement. A member whose deletion is
   * pending (the grace period, issue 24) is not visible to anyone but Admins; a null owner (a
   * deleted member's anonymised row) is visible.
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
   * A boolean SQL expression: the member in `userIdColumn` is not in the grace period of a deletion
   * (hidden from everyone but themselves and Admins; canView and notBlockedOrMuted include it). For
   * rules that count blocks but not mutes or visibility (an event's page, a notification's actor).
   * True for a null column (an anonymised row).
   */
  notPendingDeletion(userIdColumn: string): Knex.Raw;
  /** A boolean SQL expression: the user in `userIdColumn` allows tagging (preference "Allow tagging"; on when never set). */
  allowsTagging(userIdColumn: string): Knex.Raw;
  /**
   * A boolean SQL expression: the member in `userIdColumn` has the boolean preference `preference`
   * (a UserPreferences field, e.g. 'likeNotifications') on, or its default when never set. An unknown
   * or non-boolean field is a programming error (thrown).
   */
  prefers(preference: string, userIdColumn: string): Knex.Raw;
  /**
   * A boolean SQL expression: the member in `userIdColumn` may be emailed about what the boolean
   * preference `preference` covers (e.g. 'emailNotifications'): a confirmed address, and the
   * preference on (or its default when never set).
   */
  mayEmail(preference: string, userIdColumn: string): Knex.Raw;
  /**
   * A boolean SQL expression: `actorId` may reach the member in `userIdColumn` (`reachable`'s rule
   * inside a statement of one's own, e.g. the insert of a notification): no block either way, and with
   * `notifications`, no active mute of the actor by that member that also hides notifications.
   */
  reachableBy(actorId: number, userIdColumn: string, opts?: { notifications?: boolean }): Knex.Raw;
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
   * Also false for a member whose deletion is pending (hidden during the grace period). True for Admins.
   */
  notBlockedOrMuted(viewer: { id: number; role: string } | undefined | null, userIdColumn: string): Knex.Raw;
  /**
   * A subquery of members ranked by popularity, for suggestions that must never be empty: columns
   * user_id, followers_count (most followed first, at most `limit`). Apply canView/notMuted to it
   * like to any list of people.
   */
  popularMembers(limit: number): Knex.QueryBuilder;
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

/** A member's interests and home (issue 21 onboarding); `home` null when they gave none. */
export interface MemberTaste {
  interests: string[];
  home: { city: string | null; latitude: number; longitude: number } | null;
}

/**
 * Provided by the museums plugin (accounts knows no museum): the interests a member may pick at
 * onboarding (museum categories: `key` stored, `labelKey` an i18next key of the provider's locale,
 * `label` the English text) and the server-side geocoding of a typed home city (museums' cached
 * geocoding client with its configurable endpoint). Without a provider, onboarding offers no
 * interests and a typed city is refused (the browser's position still works).
 */
export interface OnboardingSourcesApi {
  interestChoices(): Array<{ key: string; label: string; labelKey: string }>;
  /** Throws an HttpError (502/504) when the provider cannot be reached. */
  geocodeCity(city: string): Promise<{ found: boolean; latitude?: number; longitude?: number; displayName?: string }>;
}
export const OnboardingSources = serviceRef<OnboardingSourcesApi>('accounts.onboardingSources');

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
    /** a member asked for their account's deletion: it happens at `eraseAt` unless they sign in before */
    'accounts.deletion.requested': { userId: number; eraseAt: string };
    /** a member's data archive is ready to download (until `expiresAt`) */
    'accounts.export.ready': { userId: number; exportId: number; expiresAt: string };
    /** profile fields changed (username, names, bio, email, photo) */
    'accounts.user.updated': { userId: number; fields: string[]; /** set when the email address changed */ previousEmail?: string };
    /** a member chose a new password from a reset link (every session ended) */
    'accounts.password.reset': { userId: number };
    /** a member confirmed their email address */
    'accounts.email.verified': { userId: number };
  }
}

// ---- a member's data: archive export and erasure (issue 24) ----

/** What a plugin writes into a member's data archive (one ZIP, built entry by entry). */
export interface ArchiveWriter {
  /** A JSON file (pretty-printed); `about` is its line in README.html. */
  json(name: string, data: unknown, about: string): void;
  /** A CSV file: a header row then the rows (values quoted as needed). */
  csv(name: string, header: string[], rows: Array<Array<string | number | boolean | null>>, about: string): void;
  /** A stored file (media), streamed into the archive byte for byte; a missing file is skipped. Answers the archive path or null. */
  file(name: string, storageKey: string): Promise<string | null>;
}

/**
 * Transaction helpers given to erasers. `lockUser()` locks the user's row (FOR UPDATE): from then
 * on no row referencing the user can be inserted by anyone else (foreign-key checks wait), so rows
 * read after it are every row there will be. Lock your own parent rows (e.g. museums) first, then
 * call lockUser, then read and delete: the order a concurrent action takes (parent, then the
 * user's key), so the two never deadlock.
 */
export interface EraseContext {
  trx: Knex.Transaction;
  lockUser(): Promise<void>;
}

export interface UserDataApi {
  /**
   * Adds this plugin's part of a member's archive (`GET /api/user/exports`): only what the member
   * put in or what is about them, never another member's private data.
   */
  onExport(plugin: string, fn: (userId: number, out: ArchiveWriter) => Promise<void>): void;
  /**
   * Runs inside the transaction that removes the user row (after accounts.user.deleting): for
   * counters that must stay exact while the member is acting in the same instant. An error rolls
   * the deletion back (it is retried as a whole on a deadlock).
   */
  onErase(plugin: string, fn: (userId: number, e: EraseContext) => Promise<void>): void;
  /**
   * Imports follows of another kind than members (`POST /api/user/follows/import`): museums
   * registers 'museum' and receives slugs or ids; it follows those not followed yet.
   */
  onFollowImport(kind: string, fn: (userId: number, refs: string[]) => Promise<FollowImportResult>): void;
}

export interface FollowImportResult {
  followed: number;
  /** follow requests sent (private profiles) */
  requested: number;
  already: number;
  /** blocked either way: not followed */
  refused: number;
  notFound: string[];
}
export const UserData = serviceRef<UserDataApi>('accounts.userData');
