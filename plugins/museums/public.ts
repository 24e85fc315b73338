/** What the museums plugin offers others (typed service reference and events). */
import { serviceRef } from '../../core/services.ts';

export interface MuseumSummary {
  id: number;
  slug: string;
  name: string;
  city: string;
  country: string;
  featuredImage: string | null;
  category: string | null;
  managerId: number | null;
  isVerified: boolean;
}

export interface MuseumsApi {
  getMuseumSummaries(ids: number[]): Promise<Map<number, MuseumSummary>>;
  getMuseum(idOrSlug: number | string): Promise<MuseumSummary | null>;
  /** Admin, or the Museum Manager whose id is the museum's managerId. */
  canManage(user: { id: number; role: string } | undefined, museumId: number): Promise<boolean>;
  /** Ids of museums a user follows. */
  followedMuseumIds(userId: number): Promise<number[]>;
  /** Atomically moves a museum's totalInsights counter (insights plugin calls it). */
  adjustInsightCount(museumId: number, delta: number): Promise<void>;
}

export const MuseumsService = serviceRef<MuseumsApi>('museums.api');

declare module '../../core/events.ts' {
  interface CurioEvents {
    'museums.museum.followed': { userId: number; museumId: number; following: boolean };
    'museums.museum.checkedIn': { userId: number; museumId: number; checkInId: number };
    'museums.museum.created': { museumId: number; userId: number | null };
    'museums.museum.updated': { museumId: number; userId: number | null; changes: Record<string, unknown> };
    'museums.suggestion.approved': { suggestionId: number; museumId: number | null; userId: number; reviewerId: number; kind: 'edit' | 'new' };
    'museums.suggestion.rejected': { suggestionId: number; museumId: number | null; userId: number; reviewerId: number; kind: 'edit' | 'new' };
  }
}
