/** What the groups plugin offers others. */
import { serviceRef } from '../../core/services.ts';

export interface GroupsApi {
  exists(groupId: number): Promise<boolean>;
  isMember(groupId: number, userId: number): Promise<boolean>;
  creatorId(groupId: number): Promise<number | null>;
  groupIdsOf(userId: number): Promise<number[]>;
  /** Name and privacy of groups; unknown ids are absent. isPrivate: visible to its members only. */
  summaries(ids: number[]): Promise<Map<number, GroupSummary>>;
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
