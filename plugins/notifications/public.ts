/**
 * Notifications: other plugins call NotificationsService (when the plugin is enabled:
 * `ctx.services.maybe(NotificationsService)`), never its tables.
 *
 * A small plugin of its own (not core): the inbox is a feature members can do without, and a
 * plugin keeps its table, routes, pages and texts together and can be disabled like any other.
 *
 * Produced here from the event bus: follows (accounts.user.followed), approved follow requests
 * (accounts.follow.approved, to the requester), likes and comments on your
 * insights and replies to your comments (insights.post.liked, insights.comment.created).
 * Produced by others through this service: badges earned (badges), suggestion decisions
 * (museums, with the reviewer's note), meetup reminders and changes (events), community warnings
 * and join-request decisions (communities), admin sends (admin: `send`).
 * Every notification respects the recipient's preferences (PREFERENCE_OF_TYPE below); a missing
 * preference counts as on. One caused by a member (`actorId`) respects blocks and mutes too
 * (accounts' rule: AccountsApi.reachable when stored, AccountsApi.sql in the inbox's statement).
 */
import { serviceRef } from '../../core/services.ts';

export type NotificationPriority = 'low' | 'normal' | 'high' | 'urgent';

/** Which notification preference (accounts settings) governs a type; null = always delivered. */
export type NotificationType =
  | 'admin' // admin sends: always delivered
  | 'follow' // followNotifications
  | 'like' // likeNotifications
  | 'comment' // commentNotifications
  | 'badge'
  | 'museum_update' // museumUpdates (suggestion approved/rejected, followed museum news)
  | 'event_reminder' // eventReminders (meetup reminders and changes)
  | 'community' // warnings, join-request decisions
  | 'moderation' // admin warnings: always delivered
  | 'report' // a member's report was resolved (reports): always delivered
  | 'mention' // @username in an insight or comment: the mentioned member's allowTagging decides before it is sent
  | 'message'; // a direct message (messages plugin): always delivered unless the conversation is muted

export interface NewNotification {
  type: NotificationType;
  /** stored as given (English); at most 200 characters */
  title: string;
  /** at most 2000 characters */
  message: string;
  /** default 'normal' */
  priority?: NotificationPriority;
  /** an app path ('/profile/ann') or an http(s) URL; anything else is dropped */
  link?: string | null;
  /**
   * Optional i18n key ("<namespace>:<key>" with `.title` and `.message` children) and its
   * parameters: the web app shows the viewer's language when the key exists, else title/message.
   */
  template?: string;
  params?: Record<string, string | number>;
  /** At most one notification with this key per recipient, ever (e.g. `follow:12`): repeats are not stored. */
  dedupeKey?: string;
  /**
   * The member who caused it (follower, liker, commenter, mentioner): recipients blocked either way
   * with them, or who muted them with their notifications, get nothing, and the inbox hides it if a
   * block or such a mute comes later (accounts' rule).
   */
  actorId?: number | null;
  /**
   * Notifications about one thing with the same key (`like:insight:12`) show as one row in the inbox
   * ("Noah and 3 others liked your insight"), counted after the accounts rule; at most 120 characters.
   */
  groupKey?: string | null;
}

/** A short excerpt of a text for a notification's params (core/util.ts). */
export { excerptOf } from '../../core/util.ts';

/**
 * A dedupeKey starting with this marks a notification its sender emails itself, at its time (event
 * reminders): the 15-minute batch of notification emails leaves it out.
 */
export const EMAILED_BY_SENDER = 'emailed:';

/** Preference (accounts settings, notification preferences) that governs each type; absent = always delivered. */
export const PREFERENCE_OF_TYPE: Partial<Record<NotificationType, string>> = {
  follow: 'followNotifications',
  like: 'likeNotifications',
  comment: 'commentNotifications',
  museum_update: 'museumUpdates',
  event_reminder: 'eventReminders',
};

export interface NotificationsApi {
  /** Stores one notification per recipient who accepts this type; answers how many were stored. */
  notify(userIds: number[], n: NewNotification): Promise<number>;
  /**
   * Every user (batched; in the background when the audience is larger than one batch); answers
   * the recipient count (members registered at the time of the call). sentBy: the admin's id.
   */
  notifyAll(n: NewNotification, opts?: { sentBy?: number | null }): Promise<number>;
  /** Admin sends: to listed ids (unknown ids dropped) or, without ids, to everyone; answers the recipient count. */
  send(n: NewNotification, opts?: { userIds?: number[] | null; sentBy?: number | null }): Promise<number>;
  /** Admin history of sends, newest first. */
  listSends(opts?: { page?: number; pageSize?: number }): Promise<{ items: NotificationSend[]; total: number; page: number; pageSize: number }>;
  /** unread rows of the member's inbox (a group counts once), up to 100 (the bell shows 99+) */
  unreadCount(userId: number): Promise<number>;
}

export interface NotificationSend {
  id: number;
  title: string;
  message: string;
  priority: NotificationPriority;
  link: string | null;
  audience: 'all' | 'users';
  recipientCount: number;
  /** recipients stored so far (equals recipientCount when done) */
  deliveredCount: number;
  status: 'sending' | 'done';
  sentBy: number | null;
  createdAt: string;
}

export const NotificationsService = serviceRef<NotificationsApi>('notifications.api');

/**
 * The weekly digest's sections (notifications/server/emails.ts): a plugin that has something to
 * tell a member about their week registers a provider:
 * `ctx.services.maybe(DigestSections)?.register('events', async (userId, period, lang) => …)`.
 * A section with no items is left out; a digest with no section is not sent.
 */
export interface DigestSection {
  title: string;
  items: Array<{ text: string; link?: string | null }>;
}
export type DigestProvider = (userId: number, period: { since: Date; until: Date }, lang: 'en' | 'fr') => Promise<DigestSection | null>;
export interface DigestSectionsApi {
  register(id: string, provider: DigestProvider, order?: number): void;
}
export const DigestSections = serviceRef<DigestSectionsApi>('notifications.digestSections');
