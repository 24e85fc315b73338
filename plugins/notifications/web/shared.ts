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

/** How many other members a grouped row stands for ("Noah and 3 others"): blocked and muted ones are not counted (server). */
export function othersOf(n: Notification): number {
  return Math.max(0, (n.actorCount ?? 1) - 1);
}

/**
 * Title and message in the viewer's language when the template exists, else as stored. A grouped
 * row (the likes of one insight from several members) uses the template's `titleGrouped` and
 * `messageGrouped` (i18next plurals on the count of others) when it has them.
 */
export function localized(n: Notification, t: (key: string, opts?: Record<string, unknown>) => string, exists: (key: string) => boolean) {
  if (!n.template) return { title: n.title, message: n.message };
  const others = othersOf(n);
  const p = { ...(n.params ?? {}), interpolation: { escapeValue: false } };
  const gp = { ...p, count: others };
  const tk = `${n.template}.title`;
  const mk = `${n.template}.message`;
  const gtk = `${n.template}.titleGrouped`;
  const gmk = `${n.template}.messageGrouped`;
  // (exists() resolves a plural key through its suffixes when given the count)
  const grouped = others > 0 && exists(`${gmk}_other`);
  return {
    title: grouped && exists(gtk) ? t(gtk, gp) : exists(tk) ? t(tk, p) : n.title,
    message: grouped ? t(gmk, gp) : exists(mk) ? t(mk, p) : n.message,
  };
}

/** The short excerpt of the content a notification is about (an insight's or a comment's first words), if any. */
export function excerpt(n: Notification): string | null {
  const e = n.params?.excerpt;
  return typeof e === 'string' && e.trim() ? e : null;
}

export function isExternal(link: string): boolean {
  return /^https?:\/\//i.test(link);
}
