/** What the communities plugin offers others. */
import type { Knex } from 'knex';
import { serviceRef } from '../../core/services.ts';

export type CommunityRole = 'member' | 'moderator' | 'admin';

export interface CommunitiesApi {
  exists(communityId: number): Promise<boolean>;
  /** The member's community role, 'creator' for the creator, or null when not a member. */
  roleOf(communityId: number, userId: number): Promise<CommunityRole | 'creator' | null>;
  creatorId(communityId: number): Promise<number | null>;
  /** Ids of communities the user belongs to (creator included). */
  communityIdsOf(userId: number): Promise<number[]>;
  /** Name and privacy of communities; unknown ids are absent. isPrivate: membership by request (posts, members and meetups for members only). */
  summaries(ids: number[]): Promise<Map<number, CommunitySummary>>;
  /** The community with exactly this name (the oldest when several share it), or null: for seeds. */
  findByName(name: string): Promise<CommunitySummary | null>;
  /** SQL pieces for other plugins' statements (issue 18: membership and privacy in the same statement as the read). */
  readonly sql: CommunitiesSql;
}

/** SQL expressions about the community whose id is the column `communityIdColumn` of the surrounding statement. */
export interface CommunitiesSql {
  /** boolean: `userId` is a member of it (the creator is one); false for null. */
  isMember(userId: number | null | undefined, communityIdColumn: string): Knex.Raw;
  /** json: its CommunitySummary ({ id, name, isPrivate }), or null when it does not exist. */
  summary(communityIdColumn: string): Knex.Raw;
  /** boolean: it exists and `userId` may see what is for its members when private (open, or a member). */
  visibleTo(userId: number | null | undefined, communityIdColumn: string): Knex.Raw;
}

export interface CommunitySummary {
  id: number;
  name: string;
  isPrivate: boolean;
}

export const CommunitiesService = serviceRef<CommunitiesApi>('communities.api');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'communities.member.joined': { communityId: number; userId: number };
    'communities.member.left': { communityId: number; userId: number };
    'communities.community.deleting': { communityId: number };
    /** an open community turned private (its discussions, members and meetups are now for members only) */
    'communities.community.madePrivate': { communityId: number };
    'communities.post.created': { communityId: number; postId: number; userId: number };
  }
}
