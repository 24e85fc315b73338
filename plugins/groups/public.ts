/** What the groups plugin offers others. */
import type { Knex } from 'knex';
import { serviceRef } from '../../core/services.ts';

export interface GroupsApi {
  exists(groupId: number): Promise<boolean>;
  isMember(groupId: number, userId: number): Promise<boolean>;
  creatorId(groupId: number): Promise<number | null>;
  groupIdsOf(userId: number): Promise<number[]>;
  /** Name and privacy of groups; unknown ids are absent. isPrivate: visible to its members only. */
  summaries(ids: number[]): Promise<Map<number, GroupSummary>>;
  /** SQL pieces for other plugins' statements (issue 18: membership and privacy in the same statement as the read). */
  readonly sql: GroupsSql;
}

/** SQL expressions about the group whose id is the column `groupIdColumn` of the surrounding statement. */
export interface GroupsSql {
  /** boolean: `userId` is a member of it (the creator is one); false for null. */
  isMember(userId: number | null | undefined, groupIdColumn: string): Knex.Raw;
  /** json: its GroupSummary ({ id, name, isPrivate }), or null when it does not exist. */
  summary(groupIdColumn: string): Knex.Raw;
  /** boolean: it exists and `userId` may see what is for its members when private (not private, or a member). */
  visibleTo(userId: number | null | undefined, groupIdColumn: string): Knex.Raw;
}

export interface GroupSummary {
  id: number;
  name: string;
  isPrivate: boolean;
}

export const GroupsService = serviceRef<GroupsApi>('groups.api');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'groups.member.joined': { groupId: number; userId: number };
    'groups.member.left': { groupId: number; userId: number };
    'groups.post.created': { groupId: number; postId: number; userId: number };
  }
}
