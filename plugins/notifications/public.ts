/**
 * Notifications: other plugins call NotificationsService (when the plugin is enabled:
 * `ctx.services.maybe(NotificationsService)`), never its tables.
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
  | 'moderation'; // admin warnings: always delivered

export interface NewNotification {
  type: NotificationType;
  title: string;
  message: string;
  priority?: NotificationPriority;
  link?: string | null;
}

export interface NotificationsApi {
  /** Stores one notification per recipient who accepts this type; answers how many were stored. */
  notify(userIds: number[], n: NewNotification): Promise<number>;
  /** Every user (batched, in the background for large audiences); answers the recipient count. */
  notifyAll(n: NewNotification): Promise<number>;
}

export const NotificationsService = serviceRef<NotificationsApi>('notifications.api');
