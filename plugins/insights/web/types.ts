/** Types of the insights answers, from the generated client. */
export type { InsightPost as Post, InsightComment as Comment, RecommendedUser, RecommendedMuseum, ActiveUser } from '../../../web/src/api/generated/insights.ts';

export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string }): string {
  const n = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return n || u.username;
}

export function profilePath(u: { id: number; slug?: string | null; username: string }): string {
  return `/profile/${encodeURIComponent(u.slug || u.username || String(u.id))}`;
}

export function museumPath(m: { id: number; slug?: string | null }): string {
  return `/museum/${encodeURIComponent(m.slug || String(m.id))}`;
}
