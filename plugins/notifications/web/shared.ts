import type { Notification } from '../../../web/src/api/generated/notifications.ts';

export type { Notification };
export const UNREAD_KEY = '/api/notifications/unread-count';
export const LIST_URL = '/api/notifications';
export const BADGES_EARNED_EVENT = 'curio:badges-earned';

export const TYPE_ICONS: Record<string, string> = {
  admin: 'bell',
  follow: 'user',
  like: 'heart',
  comment: 'message',
  badge: 'award',
  museum_update: 'museum',
  event_reminder: 'calendar',
  community: 'users',
  moderation: 'shield',
  report: 'alert',
  mention: 'message',
};

/** The namespaces of the i18n templates used by these notifications (loaded on demand). */
export function templateNamespaces(items: Notification[]): string[] {
  const set = new Set<string>(['notifications']);
  for (const n of items) {
    const ns = n.template?.split(':')[0];
    if (ns && /^[a-z][a-z0-9-]*$/.test(ns)) set.add(ns);
  }
  return [...set].sort();
}

/** Title and message in the viewer's language when the template exists, else as stored. */
export function localized(n: Notification, t: (key: string, opts?: Record<string, unknown>) => string, exists: (key: string) => boolean) {
  if (!n.template) return { title: n.title, message: n.message };
  const p = { ...(n.params ?? {}), interpolation: { escapeValue: false } };
  const tk = `${n.template}.title`;
  const mk = `${n.template}.message`;
  return {
    title: exists(tk) ? t(tk, p) : n.title,
    message: exists(mk) ? t(mk, p) : n.message,
  };
}

export function isExternal(link: string): boolean {
  return /^https?:\/\//i.test(link);
}
