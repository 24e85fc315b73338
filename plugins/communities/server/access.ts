/**
 * Who may do what inside a community (part 2 §6):
 *   creator (rank 3) > admin (2) > moderator (1) > member (0) > not a member (-1).
 * - pin, see member stats, reports, review queue: moderator and up
 * - member actions (remove, delete content, restrictions, warn, ban, join requests): admin and up
 * - role changes, community info, rules, privacy, deletion: creator only
 * An actor acts on another member only when their rank is higher than the target's; that holds for
 * deleting one post or comment too (mayDeleteContent): a moderator cannot delete an admin's or the
 * creator's post, only its author and higher ranks can.
 */
import type { Knex } from 'knex';
import { HttpError } from '../../../core/errors.ts';
import type { AuthUser } from '../../../core/plugin-api.ts';

export interface CommunityRow {
  id: number;
  name: string;
  description: string;
  image_url: string | null;
  location: string;
  type: string;
  membership_type: 'open' | 'private';
  tags: string[];
  rules: string;
  creator_id: number;
  member_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  id: number;
  community_id: number;
  user_id: number;
  role: 'member' | 'moderator' | 'admin';
  can_post: boolean;
  can_comment: boolean;
  is_muted: boolean;
  requires_approval: boolean;
  joined_at: Date;
  last_active_at: Date | null;
}

export const RANK = { none: -1, member: 0, moderator: 1, admin: 2, creator: 3 } as const;

export interface Access {
  community: CommunityRow;
  member: MemberRow | null;
  user: AuthUser | undefined;
  isCreator: boolean;
  rank: number;
}

export const NOT_FOUND = 'Community not found';

export function rankOf(member: Pick<MemberRow, 'role' | 'user_id'> | null, creatorId: number): number {
  if (!member) return RANK.none;
  if (member.user_id === creatorId) return RANK.creator;
  return RANK[member.role];
}

export async function loadCommunity(knex: Knex, id: number): Promise<CommunityRow> {
  const c = await knex('communities').where({ id }).first();
  if (!c) throw new HttpError(404, NOT_FOUND);
  return c;
}

export async function loadAccess(knex: Knex, communityId: number, user: AuthUser | undefined): Promise<Access> {
  const community = await loadCommunity(knex, communityId);
  const member = user ? ((await knex('community_members').where({ community_id: communityId, user_id: user.id }).first()) ?? null) : null;
  const isCreator = Boolean(user && user.id === community.creator_id);
  return { community, member, user, isCreator, rank: isCreator ? RANK.creator : rankOf(member, community.creator_id) };
}

export function canRead(a: Access): boolean {
  return a.community.membership_type === 'open' ? Boolean(a.user) : a.rank >= RANK.member;
}

export function assertRead(a: Access): void {
  if (!a.user) throw new HttpError(401, 'Authentication required');
  if (!canRead(a)) throw new HttpError(403, 'This community is private. Only members can see its discussions and members.');
}

export function assertMember(a: Access, message = 'Only members of this community can do this'): MemberRow {
  if (!a.user) throw new HttpError(401, 'Authentication required');
  if (!a.member) throw new HttpError(403, message);
  return a.member;
}

export function assertModerator(a: Access): void {
  if (!a.user) throw new HttpError(401, 'Authentication required');
  if (a.rank < RANK.moderator) throw new HttpError(403, 'Only community admins, moderators and the creator can do this');
}

export function assertManager(a: Access): void {
  if (!a.user) throw new HttpError(401, 'Authentication required');
  if (a.rank < RANK.admin) throw new HttpError(403, 'Only the community creator and admins can manage members');
}

export function assertCreator(a: Access, message = 'Only the community creator can do this'): void {
  if (!a.user) throw new HttpError(401, 'Authentication required');
  if (!a.isCreator) throw new HttpError(403, message);
}

/** Why a member may not post right now, or null. Site-wide content restriction counts too. */
export function postRefusal(a: Access): string | null {
  if (!a.member) return 'Only members of this community can post';
  if (a.user?.restricted) return 'Your account is restricted from posting';
  if (a.member.is_muted) return 'You have been muted in this community';
  if (!a.member.can_post) return 'You are not allowed to post in this community';
  return null;
}

export function commentRefusal(a: Access): string | null {
  if (!a.member) return 'Only members of this community can comment';
  if (a.user?.restricted) return 'Your account is restricted from commenting';
  if (a.member.is_muted) return 'You have been muted in this community';
  if (!a.member.can_comment) return 'You are not allowed to comment in this community';
  return null;
}

/** The member an actor targets, checked against the actor's rank. */
export async function loadTarget(knex: Knex, a: Access, memberId: number): Promise<MemberRow & { rank: number }> {
  const m: MemberRow | undefined = await knex('community_members').where({ id: memberId, community_id: a.community.id }).first();
  if (!m) throw new HttpError(404, 'Member not found');
  const rank = rankOf(m, a.community.creator_id);
  if (a.user && m.user_id === a.user.id) throw new HttpError(400, 'You cannot do this to yourself');
  if (rank === RANK.creator) throw new HttpError(403, 'The community creator cannot be changed by others');
  if (rank >= a.rank) throw new HttpError(403, 'You can only act on members with a lower role than yours');
  return { ...m, rank };
}

/** The rank of each of these users in the community (the creator 3, a member's role, -1 for a non-member), in one query. */
export async function ranksIn(knex: Knex, community: Pick<CommunityRow, 'id' | 'creator_id'>, userIds: number[]): Promise<Map<number, number>> {
  const ids = [...new Set(userIds)];
  const rows: Array<Pick<MemberRow, 'user_id' | 'role'>> = ids.length
    ? await knex('community_members').where({ community_id: community.id }).whereIn('user_id', ids).select('user_id', 'role')
    : [];
  const out = new Map<number, number>(ids.map((id) => [id, id === community.creator_id ? RANK.creator : RANK.none]));
  for (const m of rows) out.set(m.user_id, rankOf(m, community.creator_id));
  return out;
}

/** Whether the actor may delete one post or comment by this author: their own always; another's as a moderator and up, when the author's rank is lower. */
export function mayDeleteContent(a: Pick<Access, 'user' | 'rank'>, authorId: number, authorRank: number): boolean {
  if (!a.user) return false;
  if (a.user.id === authorId) return true;
  return a.rank >= RANK.moderator && authorRank < a.rank;
}

/** Throws the reason the actor may not delete this post or comment. */
export function assertMayDeleteContent(a: Access, authorId: number, authorRank: number, what: 'posts' | 'comments'): void {
  if (mayDeleteContent(a, authorId, authorRank)) return;
  if (a.rank < RANK.moderator) throw new HttpError(403, `You can only delete your own ${what}`);
  throw new HttpError(403, `You can only delete ${what} of members with a lower role than yours`);
}
