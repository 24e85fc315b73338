/** Types (from the generated client, by operation so they stay stable) and small helpers. */
import { ApiError, toast, translate } from '../../../web/src/index.ts';
import type {
  GetCommunityResponse,
  ListCommunitiesResponse,
  ListCommunityMembersResponse,
  ListCommunityPostCommentsResponse,
  ListCommunityReportsResponse,
  ListCommunityJoinRequestsResponse,
  ListCommunityBansResponse,
  ListPendingCommunityPostsResponse,
} from '../../../web/src/api/generated/communities.ts';

export type Community = GetCommunityResponse;
export type CommunityCardData = ListCommunitiesResponse[number];
export type Member = ListCommunityMembersResponse[number];
export type Post = ListPendingCommunityPostsResponse[number];
export type Comment = ListCommunityPostCommentsResponse[number];
export type Reply = Comment['replies'][number];
export type Report = ListCommunityReportsResponse[number];
export type JoinRequest = ListCommunityJoinRequestsResponse[number];
export type Ban = ListCommunityBansResponse[number];
export type PostType = Post['type'];

export const POST_TYPES: PostType[] = ['text', 'discussion', 'poll', 'event', 'video', 'link'];
export const COMMUNITY_TYPES = ['general', 'art', 'history', 'science', 'natural_history', 'photography', 'architecture', 'family', 'local', 'education'] as const;

export interface PersonLike {
  username: string;
  firstName?: string | null;
  lastName?: string | null;
}

export function displayName(u: PersonLike | null | undefined): string {
  if (!u) return translate('communities:common.unknownUser');
  const full = `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim();
  return full || u.username;
}

export function profilePath(u: { slug?: string | null; username: string }): string {
  return `/profile/${encodeURIComponent(u.slug || u.username)}`;
}

/** Roles allowed to create a community, compared in lower case (spec part 2 §6). */
export function canCreateCommunity(role: string | null | undefined): boolean {
  return ['admin', 'ambassador'].includes(String(role ?? '').toLowerCase());
}

/** A failure toast: the spec's title, the server's message when there is one, else the default text. */
export function failToast(title: string, error: unknown, fallback?: string): void {
  const msg = error instanceof ApiError && error.status !== 0 && error.status < 500 ? error.message : '';
  toast({ title, description: msg || fallback || undefined, variant: 'destructive' });
}

export function okToast(title: string, description?: string): void {
  toast({ title, description, variant: 'success' });
}

/** "#12" in the URL → 12; anything else → 0 (spec: the id is parsed as an integer, fallback 0). */
export function parseId(raw: string | undefined): number {
  const n = Number.parseInt(String(raw ?? ''), 10);
  return Number.isFinite(n) && n > 0 && n < 2147483648 ? n : 0;
}

export function typeLabelKey(type: string): string {
  return (COMMUNITY_TYPES as readonly string[]).includes(type) ? `types.${type}` : '';
}
