import type { Knex } from 'knex';
import type { MemberTaste, AccountsApi, AccountsSql, LoginGuard, LoginGuardMany, LoginGuardSql, UserPreferences, UserSummary } from '../public.ts';
import { canonicalRole } from './roles.ts';
import { imageInfoSql, toImageInfo } from '../../../core/images.ts';
import { resolveMentions } from './mentions.ts';
import { userIdOfOldSlug } from './slug-history.ts';
import { containsPattern } from '../../../core/util.ts';

export const SUMMARY_COLUMNS = {
  id: 'users.id',
  slug: 'users.slug',
  username: 'users.username',
  firstName: 'users.first_name',
  lastName: 'users.last_name',
  profileImageUrl: 'users.profile_image_url',
  role: 'users.role',
};

export function toSummary(row: any): UserSummary {
  return {
    id: row.id,
    slug: row.slug,
    username: row.username,
    firstName: row.firstName ?? row.first_name ?? '',
    lastName: row.lastName ?? row.last_name ?? '',
    profileImageUrl: row.profileImageUrl ?? row.profile_image_url ?? null,
    role: row.role,
    // read by getUserSummaries in the same statement (imageInfoSql): the avatar's made widths
    ...('profileImageInfo' in row ? { profileImageInfo: toImageInfo(row.profileImageInfo) } : {}),
  };
}

export const iso = (d: unknown): string => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());

/**
 * One's own row as read for an accounts/User answer, with the avatar's made widths and placeholder
 * (profileImageInfo, imageInfoSql) in the same statement: for `.first(...)` and `.returning(...)`,
 * so the answers after sign-in and profile changes cost no statement more (issue 23: the top bar).
 */
export function ownUserColumns(knex: Knex): Array<string | Knex.Raw> {
  return ['users.*', knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profileImageInfo'])];
}

export function toOwnUser(row: any) {
  return {
    ...toSummary(row),
    email: row.email,
    emailVerified: row.email_verified_at !== undefined ? Boolean(row.email_verified_at) : undefined,
    bio: row.bio ?? '',
    createdAt: iso(row.created_at),
  };
}

// ---- preferences ----

export const DEFAULT_PREFERENCES: UserPreferences = {
  profileVisibility: 'public',
  showEmail: false,
  showFollowers: true,
  showFollowing: true,
  allowMessages: true,
  allowTagging: true,
  emailNotifications: true,
  pushNotifications: true,
  followNotifications: true,
  likeNotifications: true,
  commentNotifications: true,
  museumUpdates: true,
  eventReminders: true,
  weeklyDigest: false,
  theme: 'system',
};

/** API field → column */
export const PREFERENCE_COLUMNS: Record<keyof UserPreferences, string> = {
  profileVisibility: 'profile_visibility',
  showEmail: 'show_email',
  showFollowers: 'show_followers',
  showFollowing: 'show_following',
  allowMessages: 'allow_messages',
  allowTagging: 'allow_tagging',
  emailNotifications: 'email_notifications',
  pushNotifications: 'push_notifications',
  followNotifications: 'follow_notifications',
  likeNotifications: 'like_notifications',
  commentNotifications: 'comment_notifications',
  museumUpdates: 'museum_updates',
  eventReminders: 'event_reminders',
  weeklyDigest: 'weekly_digest',
  theme: 'theme',
};

export function rowToPreferences(row: any | undefined): UserPreferences {
  if (!row) return { ...DEFAULT_PREFERENCES };
  const out: any = {};
  for (const [k, col] of Object.entries(PREFERENCE_COLUMNS)) out[k] = row[col] ?? (DEFAULT_PREFERENCES as any)[k];
  return out;
}

export async function readPreferences(knex: Knex, userId: number): Promise<UserPreferences> {
  return rowToPreferences(await knex('user_preferences').where({ user_id: userId }).first());
}

export async function readPreferencesMany(knex: Knex, ids: number[]): Promise<Map<number, UserPreferences>> {
  const unique = [...new Set(ids.filter((i) => Number.isInteger(i)))];
  const map = new Map<number, UserPreferences>();
  if (!unique.length) return map;
  const rows = await knex('users').leftJoin('user_preferences', 'user_preferences.user_id', 'users.id').whereIn('users.id', unique).select('users.id as uid', 'user_preferences.*');
  for (const r of rows) map.set(r.uid, rowToPreferences(r.user_id ? r : undefined));
  return map;
}

export async function writePreferences(knex: Knex, userId: number, changes: Partial<UserPreferences>): Promise<UserPreferences> {
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(changes)) {
    const col = PREFERENCE_COLUMNS[k as keyof UserPreferences];
    if (col && v !== undefined) row[col] = v;
  }
  if (Object.keys(row).length) {
    await knex('user_preferences')
      .insert({ user_id: userId, ...row, updated_at: knex.fn.now() })
      .onConflict('user_id')
      .merge([...Object.keys(row), 'updated_at']);
  }
  return readPreferences(knex, userId);
}

// ---- follows and privacy ----

export async function isFollowing(knex: Knex, followerId: number, followingId: number): Promise<boolean> {
  if (followerId === followingId) return false;
  return Boolean(await knex('user_follows').where({ follower_id: followerId, following_id: followingId }).first('follower_id'));
}

export interface Relation {
  /** viewer follows the owner */
  isFollowing: boolean;
  /** the owner follows the viewer */
  followsYou: boolean;
}

export async function relation(knex: Knex, viewerId: number | undefined, ownerId: number): Promise<Relation> {
  if (!viewerId || viewerId === ownerId) return { isFollowing: false, followsYou: false };
  const rows = await knex('user_follows')
    .where({ follower_id: viewerId, following_id: ownerId })
    .orWhere({ follower_id: ownerId, following_id: viewerId })
    .select('follower_id');
  return { isFollowing: rows.some((r) => r.follower_id === viewerId), followsYou: rows.some((r) => r.follower_id === ownerId) };
}

/** The visibility rule of spec §3 profileVisibility, documented on AccountsApi.canViewProfile. */
export function visible(visibility: string, viewer: { id: number; role: string } | undefined | null, ownerId: number, rel: Relation): boolean {
  if (viewer && (viewer.id === ownerId || viewer.role === 'Admin')) return true;
  if (visibility === 'public') return true;
  if (!viewer) return false;
  if (visibility === 'friends') return rel.isFollowing || rel.followsYou;
  return rel.isFollowing; // private: followers only
}

export async function canViewProfile(knex: Knex, viewer: { id: number; role: string } | undefined | null, ownerId: number): Promise<boolean> {
  if (viewer && (viewer.id === ownerId || viewer.role === 'Admin')) return true;
  if (viewer) {
    const blocked = await knex('user_blocks')
      .where({ blocker_id: viewer.id, blocked_id: ownerId })
      .orWhere({ blocker_id: ownerId, blocked_id: viewer.id })
      .first('blocker_id');
    if (blocked) return false;
  }
  // the owner's visibility, and whether their deletion is pending (then not visible: grace period), in one statement
  const prefs = await knex('users')
    .leftJoin('user_preferences as p', 'p.user_id', 'users.id')
    .where('users.id', ownerId)
    .first('p.profile_visibility', 'users.deletion_requested_at');
  if (prefs?.deletion_requested_at) return false;
  const visibility = prefs?.profile_visibility ?? 'public';
  if (visibility === 'public') return true;
  if (!viewer) return false;
  return visible(visibility, viewer, ownerId, await relation(knex, viewer.id, ownerId));
}

/** An active mute: no end, or an end still ahead (compared in SQL: expired mutes end by themselves). */
export const ACTIVE_MUTE_SQL = '(acc_m.expires_at is null or acc_m.expires_at > now())';

/**
 * A member whose deletion is pending (the grace period of issue 24) is hidden from everyone but
 * themselves and Admins, as if absent, until signing in cancels it. `??` is the owner's id column;
 * a null owner (an anonymised row) is not pending.
 */
export const PENDING_DELETION_SQL = `exists (select 1 from users acc_del where acc_del.id = ?? and acc_del.deletion_requested_at is not null)`;

/** AccountsApi.sql: followingIds and canViewProfile's rule (visible() above, plus blocks) as SQL. */
export function accountsSql(knex: Knex): AccountsSql {
  // aliases of their own (acc_*): the surrounding statement's names stay free
  const notBlockedSql = `not exists (select 1 from user_blocks acc_b where (acc_b.blocker_id = ?? and acc_b.blocked_id = ?) or (acc_b.blocker_id = ? and acc_b.blocked_id = ??))`;
  /** reachable's rule for the member in a column (bindings: column, actor, actor, column[, column, actor]) */
  const reachableSql = (notifications: boolean) =>
    notBlockedSql + (notifications ? ` and not exists (select 1 from user_mutes acc_m where acc_m.muter_id = ?? and acc_m.muted_id = ? and acc_m.notifications and ${ACTIVE_MUTE_SQL})` : '');
  const sql: AccountsSql = {
    followingIds: (userId) => knex('user_follows').where('follower_id', userId).select('following_id'),
    requestedIds: (userId) => knex('user_follow_requests').where('requester_id', userId).select('target_id'),
    followEdges: () => knex('user_follows').select('follower_id', 'following_id'),
    canView(viewer, col) {
      if (viewer?.role === 'Admin') return knex.raw('true');
      // Looked up for the row at hand too (`offset 0`), never hashed: hashed, it read every closed
      // profile of the platform on each statement. With 200,000 of them a museum's insights page
      // took 60-70 ms instead of 1 ms, and a search for a common word 65-71 ms instead of 0.6.
      const closed = `exists (select 1 from user_preferences acc_up where acc_up.user_id = ?? and acc_up.profile_visibility in ('friends', 'private') offset 0)`;
      if (!viewer) return knex.raw(`(not ${PENDING_DELETION_SQL} and not ${closed})`, [col, col]);
      // The two follow relations are looked up for the row at hand (`offset 0`: PostgreSQL may not
      // turn such an EXISTS into a hash). Hashed, they read all of the viewer's follows, or all of
      // their followers, on every statement: a viewer with 1,264 followers paid 1 ms of a 1.6 ms
      // search for it (issue 18), and the cost grew with their popularity. Looked up, they cost two
      // index probes for a row by a closed profile, and nothing for a public one (`not closed` answers first).
      // PostgreSQL hashes such an EXISTS when it expects many rows to check, and over a scan with a
      // limit it counts the whole table's: the rows the statement reads are what the limit lets through.
      return knex.raw(
        `(?? = ? or (not ${PENDING_DELETION_SQL} and ${notBlockedSql} and (not ${closed}
          or exists (select 1 from user_follows acc_f where acc_f.follower_id = ? and acc_f.following_id = ?? offset 0)
          or exists (select 1 from user_preferences acc_up join user_follows acc_f on acc_f.follower_id = acc_up.user_id and acc_f.following_id = ?
                     where acc_up.user_id = ?? and acc_up.profile_visibility = 'friends' offset 0))))`,
        [col, viewer.id, col, col, viewer.id, viewer.id, col, col, viewer.id, col, viewer.id, col],
      );
    },
    notBlocked(userId, col) {
      if (userId == null) return knex.raw('true');
      return knex.raw(`(${notBlockedSql})`, [col, userId, userId, col]);
    },
    notPendingDeletion(col) {
      return knex.raw(`(not ${PENDING_DELETION_SQL})`, [col]);
    },
    allowsTagging(col) {
      return knex.raw(`coalesce((select acc_p.allow_tagging from user_preferences acc_p where acc_p.user_id = ??), true)`, [col]);
    },
    prefers(preference, col) {
      const column = PREFERENCE_COLUMNS[preference as keyof UserPreferences];
      const fallback = DEFAULT_PREFERENCES[preference as keyof UserPreferences];
      if (!column || typeof fallback !== 'boolean') throw new Error(`Not a boolean preference: ${preference}`);
      return knex.raw(`coalesce((select acc_p.?? from user_preferences acc_p where acc_p.user_id = ??), ${fallback ? 'true' : 'false'})`, [column, col]);
    },
    mayEmail(preference, col) {
      const on = sql.prefers(preference, col).toSQL();
      return knex.raw(`(exists (select 1 from users acc_u where acc_u.id = ?? and acc_u.email_verified_at is not null) and ${on.sql})`, [col, ...(on.bindings as any[])]);
    },
    reachableBy(actorId, col, opts) {
      return knex.raw(`(${reachableSql(Boolean(opts?.notifications))})`, [col, actorId, actorId, col, ...(opts?.notifications ? [col, actorId] : [])]);
    },
    notMuted(viewer, col, opts) {
      if (!viewer) return knex.raw('true');
      return knex.raw(
        `(not exists (select 1 from user_mutes acc_m where acc_m.muter_id = ? and acc_m.muted_id = ?? and ${ACTIVE_MUTE_SQL}${opts?.notifications ? ' and acc_m.notifications' : ''}))`,
        [viewer.id, col],
      );
    },
    canViewContent(viewer, col) {
      const a = sql.canView(viewer, col).toSQL();
      const b = sql.notMuted(viewer, col).toSQL();
      return knex.raw(`(${a.sql} and ${b.sql})`, [...(a.bindings as any[]), ...(b.bindings as any[])]);
    },
    popularMembers: (limit) =>
      knex('users')
        .orderBy([
          { column: 'followers_count', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(limit)
        .select({ user_id: 'id', followers_count: 'followers_count' }),
    notBlockedOrMuted(viewer, col) {
      if (viewer?.role === 'Admin') return knex.raw('true');
      // a member whose deletion is pending is hidden here too (their community, group and event content)
      if (!viewer) return knex.raw(`(not ${PENDING_DELETION_SQL})`, [col]);
      const a = sql.notBlocked(viewer.id, col).toSQL();
      const b = sql.notMuted(viewer, col).toSQL();
      return knex.raw(`(not ${PENDING_DELETION_SQL} and ${a.sql} and ${b.sql})`, [col, ...(a.bindings as any[]), ...(b.bindings as any[])]);
    },
  };
  return sql;
}

/** A users row's interests and home (columns interests, home_city, home_latitude, home_longitude). */
export function tasteOf(row: any): MemberTaste {
  if (!row) return { interests: [], home: null };
  const home = row.home_latitude != null && row.home_longitude != null ? { city: row.home_city ?? null, latitude: Number(row.home_latitude), longitude: Number(row.home_longitude) } : null;
  return { interests: Array.isArray(row.interests) ? row.interests : [], home };
}

// ---- directory (admin list, search, bulk ids) ----


/**
 * The searchable text of a user, one line per field so that a match never spans two fields:
 * username, "first last" (which also matches the first or the last name alone) and, for the
 * admin directory, email. The same expressions are indexed (pg_trgm) by the migration
 * 20261124000000_add_user_directory_indexes.
 */
export const NAME_SEARCH_SQL = `(username::text || E'\\n' || first_name || ' ' || last_name)`;
export const ADMIN_SEARCH_SQL = `(username::text || E'\\n' || first_name || ' ' || last_name || E'\\n' || email::text)`;

function directoryQuery(knex: Knex, q: { q?: string; roles?: string[] }) {
  const b = knex('users');
  if (q.roles) {
    const roles = q.roles.map((r) => canonicalRole(r)).filter((r) => r !== null);
    // roles given but none known: nobody (never "everyone")
    if (!roles.length) b.whereRaw('false');
    else b.whereIn('role', roles);
  }
  const s = q.q?.trim();
  if (s) b.whereRaw(`${ADMIN_SEARCH_SQL} ilike ?`, [containsPattern(s)]);
  return b;
}

export async function listUsers(knex: Knex, q: { q?: string; roles?: string[]; page?: number; pageSize?: number }) {
  const page = Math.max(1, Math.floor(Number(q.page) || 1));
  const pageSize = Math.max(1, Math.min(200, Math.floor(Number(q.pageSize) || 10)));
  const [[{ n }], rows] = await Promise.all([
    directoryQuery(knex, q).count({ n: '*' }),
    directoryQuery(knex, q)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .select({ ...SUMMARY_COLUMNS, email: 'users.email' })
      // the avatar's made widths, size and placeholder (issue 23: the admin's user lists), in this statement
      .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profileImageInfo'])),
  ]);
  return { items: rows.map((r: any) => ({ ...toSummary(r), email: r.email })), total: Number(n), page, pageSize };
}

export async function countUsers(knex: Knex, q: { roles?: string[] } = {}): Promise<number> {
  const [{ n }] = await directoryQuery(knex, { roles: q.roles }).count({ n: '*' });
  return Number(n);
}

/**
 * People search (GET /api/search users) as a statement not yet run, null for a blank query (the
 * route reads it with the other kinds'): partial, case-insensitive match on username, first name,
 * last name and "first last" (never email). Best matches first: exact username, then a username,
 * first or last name starting with q, then the rest; within each, most followed.
 */
export function searchUsersQuery(knex: Knex, q: string, limit: number, viewerId?: number): Knex.QueryBuilder | null {
  const s = q.replace(/[\u0000-\u001f]+/g, ' ').trim();
  if (!s) return null;
  const prefix = `${containsPattern(s).slice(1)}`; // "q%"
  const query = knex('users');
  // members blocked either way with the viewer are not found (accounts' rule, in this statement)
  if (viewerId != null) query.whereRaw(accountsSql(knex).notBlocked(viewerId, 'users.id'));
  // nor members whose deletion is pending (hidden during the grace period)
  query.whereNull('users.deletion_requested_at');
  return query
    .leftJoin('user_preferences', 'user_preferences.user_id', 'users.id')
    .whereRaw(`${NAME_SEARCH_SQL.replace(/\b(username|first_name|last_name)\b/g, 'users.$1')} ilike ?`, [containsPattern(s)])
    .orderByRaw(
      `case when users.username = ? then 0
            when users.username ilike ? or users.first_name ilike ? or users.last_name ilike ? or (users.first_name || ' ' || users.last_name) ilike ? then 1
            else 2 end`,
      [s, prefix, prefix, prefix, prefix],
    )
    .orderBy([
      { column: 'users.followers_count', order: 'desc' },
      { column: 'users.id', order: 'asc' },
    ])
    .limit(limit)
    .select({ ...SUMMARY_COLUMNS, followersCount: 'users.followers_count', visibility: 'user_preferences.profile_visibility', showFollowers: 'user_preferences.show_followers' })
    // the avatar's made widths, size and placeholder (issue 23), in this statement
    .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profileImageInfo']))
    // the viewer's relations with each one, in this statement (issue 18: a search's statements do not
    // depend on what it finds); the profile visibility rule (visible()) reads them. `offset 0` keeps
    // each one a lookup by primary key per member listed (at most `limit`): without it PostgreSQL may
    // read all of the viewer's followers into a hash first, and the prepared (generic) plan does so
    // whatever their number (1,223 followers: 1.55 ms against 0.41 ms for the search's users part)
    .select(
      viewerId != null
        ? [
            knex.raw('exists (select 1 from user_follows f_ where f_.follower_id = ? and f_.following_id = users.id offset 0) as "isFollowing"', [viewerId]),
            knex.raw('exists (select 1 from user_follows f_ where f_.follower_id = users.id and f_.following_id = ? offset 0) as "followsYou"', [viewerId]),
          ]
        : [knex.raw('false as "isFollowing"'), knex.raw('false as "followsYou"')],
    );
}

/** Ids of users after `afterId` (ascending), at most `limit`, optionally only up to `maxId`. */
export async function userIdsBatch(knex: Knex, afterId: number, limit: number, opts: { maxId?: number } = {}): Promise<number[]> {
  const size = Math.max(1, Math.min(50000, Math.floor(limit)));
  const q = knex('users').where('id', '>', Math.max(0, Math.floor(afterId) || 0));
  if (opts.maxId != null) q.where('id', '<=', opts.maxId);
  return (await q.orderBy('id').limit(size).pluck('id')).map(Number);
}

export async function userIdRange(knex: Knex): Promise<{ count: number; maxId: number }> {
  const [r] = await knex('users').select(knex.raw('count(*)::int as n'), knex.raw('coalesce(max(id), 0)::int as m'));
  return { count: Number(r.n), maxId: Number(r.m) };
}

export interface AccountsApiDeps {
  deleteUser(userId: number): Promise<boolean>;
  /** tells every process to read these members' sessions again (session-cache.ts) */
  sessionsChanged?(userIds: number[]): Promise<void>;
}

export function createAccountsApi(knex: Knex, deps: AccountsApiDeps): AccountsApi {
  const guards: Array<{ one: LoginGuard; many?: LoginGuardMany; sql?: LoginGuardSql }> = [];
  const sql = accountsSql(knex);
  return {
    summaryColumns: SUMMARY_COLUMNS,
    sql,
    async mayContact(fromId, toId) {
      const row = await knex('users as u')
        .leftJoin('user_preferences as p', 'p.user_id', 'u.id')
        .where('u.id', toId)
        .first(
          'p.allow_messages',
          knex.raw('exists (select 1 from user_follows f where f.follower_id = u.id and f.following_id = ?) as follows', [fromId]),
          knex.raw('exists (select 1 from user_blocks b where (b.blocker_id = u.id and b.blocked_id = ?) or (b.blocker_id = ? and b.blocked_id = u.id)) as blocked', [fromId, fromId]),
        );
      if (!row || fromId === toId) return { allowed: false, reason: 'not_found', recipientFollows: false };
      const recipientFollows = Boolean(row.follows);
      if (row.blocked) return { allowed: false, reason: 'blocked', recipientFollows };
      if (row.allow_messages === false && !recipientFollows) return { allowed: false, reason: 'followers_only', recipientFollows };
      return { allowed: true, reason: null, recipientFollows };
    },
    async getUserSummaries(ids) {
      const unique = [...new Set(ids.filter((i) => Number.isInteger(i)))];
      const map = new Map<number, UserSummary>();
      if (!unique.length) return map;
      // the avatar's made variant widths, size and placeholder in the same statement (no statement more)
      const rows = await knex('users')
        .whereIn('id', unique)
        .select(SUMMARY_COLUMNS)
        .select(knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profileImageInfo']));
      for (const r of rows) map.set(r.id, toSummary(r));
      return map;
    },
    async getUserBios(ids, viewer) {
      const unique = [...new Set(ids.filter((i) => Number.isInteger(i) && i >= 1 && i <= 2147483647))];
      const map = new Map<number, string>();
      if (!unique.length) return map;
      const rows = (await knex('users')
        .leftJoin('user_preferences as p', 'p.user_id', 'users.id')
        .whereIn('users.id', unique)
        .select('users.id', 'users.bio', 'p.profile_visibility', 'users.deletion_requested_at')) as Array<{ id: number; bio: string | null; profile_visibility: string | null; deletion_requested_at: Date | null }>;
      const privileged = (id: number) => Boolean(viewer && (viewer.id === id || viewer.role === 'Admin'));
      const closed = rows.filter((r) => (r.profile_visibility ?? 'public') !== 'public' && !privileged(r.id)).map((r) => r.id);
      const following = new Set<number>();
      const followers = new Set<number>();
      if (closed.length && viewer) {
        const follows = (await knex('user_follows')
          .where((w) => w.where('follower_id', viewer.id).whereIn('following_id', closed))
          .orWhere((w) => w.where('following_id', viewer.id).whereIn('follower_id', closed))
          .select('follower_id', 'following_id')) as Array<{ follower_id: number; following_id: number }>;
        for (const f of follows) {
          if (f.follower_id === viewer.id) following.add(f.following_id);
          else followers.add(f.follower_id);
        }
      }
      const blocked = new Set<number>();
      if (viewer && viewer.role !== 'Admin') {
        const bl = (await knex('user_blocks')
          .where((w) => w.where('blocker_id', viewer.id).whereIn('blocked_id', unique))
          .orWhere((w) => w.where('blocked_id', viewer.id).whereIn('blocker_id', unique))
          .select('blocker_id', 'blocked_id')) as Array<{ blocker_id: number; blocked_id: number }>;
        for (const b of bl) blocked.add(b.blocker_id === viewer.id ? b.blocked_id : b.blocker_id);
      }
      for (const r of rows) {
        if (blocked.has(r.id)) continue;
        if (r.deletion_requested_at && !privileged(r.id)) continue;
        const rel = { isFollowing: following.has(r.id), followsYou: followers.has(r.id) };
        if (visible(r.profile_visibility ?? 'public', viewer, r.id, rel)) map.set(r.id, r.bio ?? '');
      }
      return map;
    },
    async getUserSummary(id) {
      if (!Number.isInteger(id)) return null;
      const row = await knex('users').where({ id }).first(SUMMARY_COLUMNS);
      return row ? toSummary(row) : null;
    },
    async findUser(key) {
      // with the avatar's made widths and placeholder, in the same statement (issue 23)
      const avatarInfo = () => knex.raw('? as ??', [imageInfoSql(knex, 'users.profile_image_url'), 'profileImageInfo']);
      const q = knex('users').select({ ...SUMMARY_COLUMNS, email: 'users.email' }).select(avatarInfo());
      const s = String(key).trim();
      if (!s) return null;
      // An id first, then a slug, then a username (citext: case-insensitive).
      if (/^\d+$/.test(s) && Number(s) < 2147483648) q.where('id', Number(s)).orWhere('slug', s).orWhere('username', s);
      else q.where('slug', s.toLowerCase()).orWhere('username', s);
      const rows = await q.limit(3);
      let row =
        rows.find((r) => /^\d+$/.test(s) && r.id === Number(s)) ?? rows.find((r) => r.slug === s.toLowerCase()) ?? rows[0];
      if (!row) {
        // a slug or username the member had before renaming (slug-history.ts)
        const old = await userIdOfOldSlug(knex, s);
        if (old) row = await knex('users').where({ id: old }).first({ ...SUMMARY_COLUMNS, email: 'users.email' }, avatarInfo());
      }
      return row ? { ...toSummary(row), email: row.email } : null;
    },
    async endSessions(userId, exceptSessionId) {
      const q = knex('user_sessions').where({ user_id: userId });
      if (exceptSessionId) q.whereNot('id', exceptSessionId);
      // Counted from the rows returned: PGlite's driver reports no row count for a delete.
      const n = (await q.del().returning('id')).length;
      // this process at once (the others through user_sessions' trigger)
      await deps.sessionsChanged?.([userId]);
      return n;
    },
    async sessionsChanged(userIds) {
      await deps.sessionsChanged?.(userIds);
    },
    addLoginGuard(one, many, sql) {
      guards.push({ one, many, sql });
    },
    guardsSql() {
      return guards.every((g) => g.sql) ? guards.map((g) => g.sql!) : null;
    },
    async checkGuards(user) {
      for (const g of guards) {
        const m = await g.one(user);
        if (m) return m;
      }
      return null;
    },
    async checkGuardsMany(users) {
      const out = new Map<number, string>();
      for (const g of guards) {
        const rest = users.filter((u) => !out.has(u.id));
        if (!rest.length) break;
        if (g.many) {
          for (const [id, m] of await g.many(rest)) if (m && !out.has(id)) out.set(id, m);
        } else {
          const ms = await Promise.all(rest.map((u) => g.one(u)));
          rest.forEach((u, i) => ms[i] && out.set(u.id, ms[i]!));
        }
      }
      return out;
    },
    getPreferences: (id) => readPreferences(knex, id),
    getPreferencesMany: (ids) => readPreferencesMany(knex, ids),
    async followingIds(userId) {
      return knex('user_follows').where({ follower_id: userId }).pluck('following_id');
    },
    async followerIds(userId) {
      return knex('user_follows').where({ following_id: userId }).pluck('follower_id');
    },
    isFollowing: (a, b) => isFollowing(knex, a, b),
    canViewProfile: (viewer, ownerId) => canViewProfile(knex, viewer, ownerId),
    async isBlockedEitherWay(a, b) {
      if (a === b) return false;
      return Boolean(await knex('user_blocks').where({ blocker_id: a, blocked_id: b }).orWhere({ blocker_id: b, blocked_id: a }).first('blocker_id'));
    },
    resolveMentions(author, text) {
      return resolveMentions(knex, { sql }, author, text);
    },
    async isMuted(muterId, mutedId) {
      if (muterId === mutedId) return false;
      return Boolean(await knex('user_mutes as acc_m').where({ 'acc_m.muter_id': muterId, 'acc_m.muted_id': mutedId }).whereRaw(ACTIVE_MUTE_SQL).first('acc_m.muter_id'));
    },
    async reachable(actorId, recipientIds, opts) {
      const ids = [...new Set(recipientIds.filter((i) => Number.isInteger(i)))];
      if (!ids.length) return new Set();
      // the rule of sql.reachableBy, the one place it is written
      const q = knex('users as r').whereIn('r.id', ids).where(sql.reachableBy(actorId, 'r.id', opts));
      return new Set((await q.pluck('r.id')).map(Number));
    },
    canonicalRole: (r) => canonicalRole(r),
    async setRole(userId, role) {
      const r = canonicalRole(role);
      if (!r) throw new Error(`Unknown role '${role}': use Traveler, Ambassador, Museum Manager or Admin`);
      const rows = await knex('users').where({ id: userId }).update({ role: r, updated_at: knex.fn.now() }).returning('id');
      await deps.sessionsChanged?.([userId]);
      return rows.length > 0;
    },
    deleteUser: (id) => deps.deleteUser(id),
    listUsers: (q) => listUsers(knex, q ?? {}),
    countUsers: (q) => countUsers(knex, q ?? {}),
    userIdsBatch: (afterId, limit, opts) => userIdsBatch(knex, afterId, limit, opts),
    userIdRange: () => userIdRange(knex),
    async getMemberTaste(userId) {
      return tasteOf(await knex('users').where({ id: userId }).first('interests', 'home_city', 'home_latitude', 'home_longitude'));
    },
  };
}
