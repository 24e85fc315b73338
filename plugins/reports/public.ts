/**
 * What the reports plugin offers other plugins. Import only this file from reports.
 *
 * The plugins that own reportable content describe it (the reports plugin never reads their
 * tables): in their `bootstrap`, `ctx.services.maybe(ReportTargets)?.register(type, describer)`.
 * A type without a describer can still be reported (e.g. `message` until a messages plugin
 * registers one); its snapshot is then empty and "remove content" answers 409.
 *
 * Reports on content that goes away resolve themselves: the reports plugin listens to the owners'
 * delete events (insights.post.deleted, insights.comment.deleted, events.meetup.deleted,
 * accounts.user.deleted: the account and every report on content it owned, which goes with it); an
 * owner without such an event calls `contentRemoved` itself (communities, messages).
 */
import { serviceRef } from '../../core/services.ts';

export const REPORT_TARGET_TYPES = ['insight', 'comment', 'user', 'community_post', 'community_comment', 'meetup', 'message'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_CATEGORIES = ['spam', 'harassment', 'hate', 'violence', 'sexual', 'misinformation', 'other'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

/** The reported content as it is at report time (kept as the snapshot the admins review). */
export interface ReportTargetSnapshot {
  /** the member who wrote/owns it (the one warned, restricted or banned from the queue) */
  ownerId: number | null;
  /** a title or name, if any */
  title?: string | null;
  /** the text as written (cut to 5000 characters) */
  text?: string | null;
  /** an app path where the content lives ('/posts/12') */
  link?: string | null;
  /** an image or video URL shown with it */
  mediaUrl?: string | null;
  /** the containing object, so its deletion resolves this report too (a comment's insight) */
  container?: { type: ReportTargetType; id: number } | null;
}

export interface ReportTargetDescriber {
  /**
   * The content as `viewer` may see it, or null when it does not exist or the viewer may not see it
   * (the report is then refused with 404, like the content itself).
   */
  describe(id: number, viewer: { id: number; role: string }): Promise<ReportTargetSnapshot | null>;
  /**
   * Removes the content as an Admin would (the owner's own delete path, its events included).
   * Answers false when it was already gone.
   */
  remove?(id: number, admin: { id: number; role: string; username: string }): Promise<boolean>;
}

export interface ReportTargetsApi {
  register(type: ReportTargetType, describer: ReportTargetDescriber): void;
  /**
   * Open reports on this content (one id or many), or on content inside it (a post's comments),
   * become resolved ('content_removed'); answers how many. Call it on every path that deletes the
   * content (a single delete, a moderator's removal, a member's content removed, a container deleted).
   */
  contentRemoved(type: ReportTargetType, id: number | number[]): Promise<number>;
}

export const ReportTargets = serviceRef<ReportTargetsApi>('reports.targets');

declare module '../../core/events.ts' {
  interface CurioEvents {
    /** Reports were closed by an Admin's dismissal, warning, restriction or ban (content removals are announced by their owners' delete events). */
    'reports.report.resolved': { reportIds: number[]; resolution: string; adminId: number | null };
  }
}
