/**
 * What the insights plugin offers other plugins: a typed service and the events it emits.
 * Other plugins import only this file from insights, never its server internals or tables.
 */
import { serviceRef } from '../../core/services.ts';
import type { UserSummary } from '../accounts/public.ts';

export interface InsightsApi {
  /** Number of insights a user has posted (profile counts). */
  countByUser(userId: number): Promise<number>;
  /** Insight counts of many users in one query; users without insights are absent. */
  countsByUsers(userIds: number[]): Promise<Map<number, number>>;
  /** Insights posted about a museum (its live total). */
  countByMuseum(museumId: number): Promise<number>;
}

export const InsightsService = serviceRef<InsightsApi>('insights.api');

declare module '../../core/events.ts' {
  interface CurioEvents {
    /** A text or video insight was shared. museumId is null for untagged or still-pending museums. */
    'insights.post.created': { postId: number; userId: number; museumId: number | null; type: 'text' | 'video' | 'photo' };
    /** A like was added (liked: true) or taken back (liked: false). authorId owns the post. */
    'insights.post.liked': {
      postId: number;
      userId: number;
      authorId: number;
      liked: boolean;
      likesCount: number;
      /** the start of the insight's text (for the notification's excerpt) */
      excerpt?: string;
      /** the liker's summary, read with the like (the notification names them without reading it again) */
      liker?: UserSummary;
    };
    /** A comment or a reply (parentId set). postAuthorId owns the post; parentAuthorId the replied comment. */
    'insights.comment.created': {
      commentId: number;
      postId: number;
      userId: number;
      postAuthorId: number;
      parentId: number | null;
      parentAuthorId: number | null;
      /** the start of the comment's text (for the notification's excerpt) */
      excerpt?: string;
    };
    /** An insight was removed (by its author, an admin, or with its author's account). */
    'insights.post.deleted': { postId: number; userId: number; museumId: number | null };
    /**
     * Members were mentioned (@username) in a new insight (commentId null) or comment, and may be
     * reached by its author (accounts' rule, their "Allow tagging"); the author is never among them.
     */
    'insights.mentioned': { authorId: number; postId: number; commentId: number | null; userIds: number[]; excerpt?: string };
    /** A comment was removed (by its author or an admin; its replies go with it, each with its own event). Not emitted for the comments of a deleted insight. */
    /** userId null: a deleted member's emptied comment (issue 24) */
    'insights.comment.deleted': { commentId: number; postId: number; userId: number | null };
  }
}
