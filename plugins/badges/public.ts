/**
 * What the badges plugin offers other plugins (the admin screens, profiles): a typed service and
 * the events it emits. Other plugins import only this file from badges, never its tables.
 *
 * Badges are awarded from other plugins' events (no calls needed):
 *   museums.museum.checkedIn  → check_ins (verified check-ins only: near the museum, possible journey)
 *   insights.post.created / insights.post.deleted → posts (insights currently shared)
 *   insights.post.liked       → likes: likes RECEIVED on the member's insights (a like taken back,
 *                               or its post deleted, lowers the count; the author's own likes do not count)
 *   museums.museum.followed   → follows: museums the member currently follows
 *   communities.member.joined / left → community_joins: communities the member currently belongs to
 *   events.attendance.confirmed / withdrawn → meetups_attended: meetups the member attended, confirmed by
 *                               a verified check-in at the meetup's museum during it (a deleted meetup lowers the count)
 *   museums.facts.helped      → fact_confirmations: "still right?" answers after a verified visit that
 *                               matched the consensus, or whose correction was approved (once per answer)
 * A badge once earned is kept, even when a count later goes down.
 *
 * The handler of museums.museum.checkedIn and insights.post.created RETURNS the badges that event
 * earned (an array of EarnedBadge, schema `badges/EarnedBadge`), so the emitting route can put them
 * in its answer: `const earned = (await ctx.events.emit(...)).filter(isEarnedBadge)`.
 */
import { serviceRef } from '../../core/services.ts';
import type { RequirementType } from './shared/badge-rules.ts';

export type { RequirementType } from './shared/badge-rules.ts';
export { REQUIREMENT_TYPES, BADGE_DEFAULTS, iconProblem, graphemeCount } from './shared/badge-rules.ts';

export interface Badge {
  id: number;
  name: string;
  description: string;
  icon: string;
  color: string;
  requirement: { type: RequirementType; count: number };
  /** members who hold it */
  earnedCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface BadgeInput {
  name: string;
  description: string;
  icon: string;
  color: string;
  requirement: { type: RequirementType; count: number };
}

/** A user-badge with its badge (spec part 2 "User-badge"; part 1 "User badge"). */
export interface UserBadge {
  id: number;
  userId: number;
  userName: string;
  badgeId: number;
  earnedAt: string;
  badge: { id: number; name: string; description: string; icon: string; color: string; requirement: { type: RequirementType; count: number } };
}

/** What a check-in or post answer carries for each badge it earned. */
export interface EarnedBadge {
  /** the badge id */
  id: number;
  name: string;
  description: string;
  icon: string;
  color: string;
  earnedAt: string;
}

export function isEarnedBadge(x: unknown): x is EarnedBadge {
  const o = x as Record<string, unknown> | null;
  return !!o && typeof o === 'object' && typeof o.id === 'number' && typeof o.icon === 'string' && typeof o.earnedAt === 'string' && typeof o.color === 'string';
}

/**
 * The badges an event's handlers returned (`await ctx.events.emit(...)`), for the emitting route's
 * answer: each result that is a badge, or `{ badge, earnedAt }`, once per badge id; fields a
 * handler left out are null. Anything else among the results is ignored.
 */
export function earnedBadgesFrom(results: unknown[]): Array<{ id: number; name: string; description: string | null; icon: string | null; color: string | null; earnedAt: string | null }> {
  const out: ReturnType<typeof earnedBadgesFrom> = [];
  const seen = new Set<number>();
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  for (const r of results) {
    if (!r || typeof r !== 'object') continue;
    const o = r as Record<string, any>;
    const b = o.badge && typeof o.badge === 'object' ? o.badge : o;
    const id = Number(b.id ?? o.badgeId);
    if (typeof b.name !== 'string' || !Number.isInteger(id) || seen.has(id)) continue;
    seen.add(id);
    const at = o.earnedAt ?? b.earnedAt;
    out.push({ id, name: b.name, description: str(b.description), icon: str(b.icon), color: str(b.color), earnedAt: at instanceof Date ? at.toISOString() : str(at) });
  }
  return out;
}

export interface BadgeStats {
  /** number of badge definitions */
  badgeCount: number;
  /** user-badges awarded (all members) */
  earnedCount: number;
  /** members holding at least one badge */
  membersWithBadges: number;
  /** spec §9: earned badges divided by badge count, as a percentage (0 when there are no badges) */
  completionRate: number;
}

export interface BadgesApi {
  listBadges(): Promise<Badge[]>;
  getBadge(id: number): Promise<Badge | null>;
  /** Validates (icon ≤ 2 grapheme clusters, hex colour, count ≥ 1); throws HttpError 400/409. Awards it retroactively in the background. */
  createBadge(input: BadgeInput): Promise<Badge>;
  /** null when missing. Lowering the count or changing the type awards retroactively in the background. */
  updateBadge(id: number, input: BadgeInput): Promise<Badge | null>;
  /** Removes the badge and every user's copy of it; false when missing. */
  deleteBadge(id: number): Promise<boolean>;
  /** The newest awards first (admin "recent badge earnings", 10 by default). */
  recentUserBadges(limit?: number): Promise<UserBadge[]>;
  /** Page-numbered list of awards, newest first, optionally for one badge. */
  listUserBadges(opts: { page?: number; pageSize?: number; badgeId?: number }): Promise<{ items: UserBadge[]; total: number; page: number; pageSize: number }>;
  stats(): Promise<BadgeStats>;
  /** A member's badges, newest first (profile strip and BADGES tab). */
  userBadges(userId: number): Promise<UserBadge[]>;
  /** A member's activity counts per requirement type. */
  counts(userId: number): Promise<Record<RequirementType, number>>;
}

export const BadgesService = serviceRef<BadgesApi>('badges.api');

/**
 * Web: a page that receives earned badges in an answer (check-in, post) celebrates them with
 * `window.dispatchEvent(new CustomEvent(BADGES_EARNED_EVENT, { detail: answer.badges }))`;
 * the badges plugin's web part shows the toast and refreshes the profile's badges. No import of
 * the badges web code is needed (and nothing happens when the badges plugin is disabled).
 */
export const BADGES_EARNED_EVENT = 'curio:badges-earned';

declare module '../../core/events.ts' {
  interface CurioEvents {
    /** A member earned a badge (by activity or retroactively). */
    'badges.badge.earned': { userId: number; badgeId: number; userBadgeId: number; name: string; icon: string; retroactive: boolean };
  }
}
