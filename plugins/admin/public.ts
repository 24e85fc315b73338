/**
 * What the admin plugin offers other plugins. Import only this file from admin.
 *
 * Content restriction (admin moderation type `content_restriction`) refuses posting, commenting
 * and uploads. Two ways to check it, both kept exact by the admin plugin:
 *   - `ctx.user.restricted` (core AuthUser): the admin plugin's middleware fills it on every request
 *     of a signed-in member, after the accounts middleware and before any route;
 *   - `ctx.services.maybe(ModerationService)?.isRestricted(userId)` for work outside a request
 *     (jobs, event handlers) or for another member than the signed-in one.
 * Bans need nothing from other plugins: a login guard registered with accounts refuses sign-in and
 * ends the banned member's session on their next request (their stored sessions are also deleted at once).
 */
import { serviceRef } from '../../core/services.ts';

export type ModerationType = 'warning' | 'temporary_ban' | 'permanent_ban' | 'content_restriction';

export interface ActiveModeration {
  id: number;
  userId: number;
  type: ModerationType;
  reason: string;
  expiresAt: string | null;
  createdAt: string;
}

export interface ModerationApi {
  /** An active, unexpired content restriction or ban stops this member from posting, commenting and uploading. */
  isRestricted(userId: number): Promise<boolean>;
  /** The same for many members in one query (ids without restriction are absent). */
  restrictedIds(userIds: number[]): Promise<Set<number>>;
  /** The member's currently effective moderations, most severe first. */
  activeModerations(userId: number): Promise<ActiveModeration[]>;
  /** The message that refuses sign-in for a banned member, or null. */
  banMessage(userId: number): Promise<string | null>;
  /** Both of the above read in one statement (banMessage: as banMessage; restricted: as isRestricted). */
  status(userId: number): Promise<{ banMessage: string | null; restricted: boolean }>;
  /** banMessage for many members in one statement: id → message, banned members only. */
  banMessages(userIds: number[]): Promise<Map<number, string>>;
}

export const ModerationService = serviceRef<ModerationApi>('admin.moderation');

/** The acting Admin as other plugins pass them (their request's signed-in user). */
export interface ActingAdmin {
  id: number;
  username: string;
}

/**
 * The admin actions other plugins' admin screens reuse (the reports queue): the same moderation as
 * POST /api/admin/moderate-user and the same audit log. Callers check the Admin role themselves
 * (route `roles: ['Admin']`).
 */
export interface AdminActionsApi {
  /**
   * Warn, restrict or ban a member exactly as POST /api/admin/moderate-user does (audited in the same
   * transaction, sessions ended for bans, the member notified of warnings and restrictions).
   * `details` are added to the audit entry (e.g. the report it came from). Throws HttpError 400/403/404.
   */
  moderateUser(
    admin: ActingAdmin,
    input: { userId: number; type: ModerationType; reason: string; expiresAt?: string | null; details?: Record<string, unknown> },
  ): Promise<{ moderationId: number; type: ModerationType; expiresAt: string | null }>;
  /**
   * Runs `fn` (a change another plugin owns) with an entry in the admin audit log: written before,
   * completed after it succeeds, removed if it throws (AuditLog.delegated).
   */
  audited<T>(admin: ActingAdmin, entry: { action: string; targetType: string; targetId?: number | null; reason?: string | null; details?: Record<string, unknown> }, fn: () => Promise<T>): Promise<T>;
}

export const AdminActionsService = serviceRef<AdminActionsApi>('admin.actions');

/** Message other plugins may show when a restricted member tries to post (403). */
export const RESTRICTED_MESSAGE = 'Your account is restricted from posting, commenting and uploading.';

declare module '../../core/events.ts' {
  interface CurioEvents {
    /** A moderation was applied (after its transaction committed). */
    'admin.user.moderated': { userId: number; moderationId: number; type: ModerationType; expiresAt: string | null; adminId: number };
    /** A moderation was lifted early. */
    'admin.moderation.lifted': { userId: number; moderationId: number; type: ModerationType; adminId: number };
  }
}
