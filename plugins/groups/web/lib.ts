import { ApiError, toast, translate } from '../../../web/src/index.ts';
import type { GetGroupResponse, ListGroupsResponse, ListGroupPostsResponse, ListGroupPostCommentsResponse, ListGroupMembersResponse } from '../../../web/src/api/generated/groups.ts';

export type Group = GetGroupResponse;
export type GroupCardData = ListGroupsResponse[number];
export type GroupPost = ListGroupPostsResponse['items'][number];
export type GroupComment = ListGroupPostCommentsResponse[number];
export type GroupMember = ListGroupMembersResponse[number];

export function displayName(u: { username: string; firstName?: string | null; lastName?: string | null } | null | undefined): string {
  if (!u) return translate('groups:common.unknownUser');
  return `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username;
}

export function profilePath(u: { slug?: string | null; username: string }): string {
  return `/profile/${encodeURIComponent(u.slug || u.username)}`;
}

/** The spec's failure toast: its title, and the server's message when there is one. */
export function failToast(title: string, error: unknown, fallback?: string): void {
  const msg = error instanceof ApiError && error.status !== 0 && error.status < 500 ? error.message : '';
  toast({ title, description: msg || fallback || undefined, variant: 'destructive' });
}

export function okToast(title: string, description?: string): void {
  toast({ title, description, variant: 'success' });
}

export function parseId(raw: string | undefined): number {
  const n = Number.parseInt(String(raw ?? ''), 10);
  return Number.isFinite(n) && n > 0 && n < 2147483648 ? n : 0;
}
