import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Icon, apiRequest, useApi, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { BADGES_EARNED_EVENT, LIST_URL, UNREAD_KEY, type Notification } from '../shared.ts';
import '../notifications.css';

/**
 * The bell in the top bar: unread count (re-checked every minute, on focus, on navigation and
 * when a badge is earned). New badge notifications found this way are celebrated too, so a badge
 * earned elsewhere (a like received, a retroactive award) still gets its toast.
 */
export default function NotificationBell({ user }: { user?: WebUser | null }) {
  const { t } = useTranslation('notifications');
  const { pathname } = useLocation();
  const { data, mutate } = useApi<{ count: number }>(user ? UNREAD_KEY : null, {
    refreshInterval: 60_000,
    revalidateOnFocus: true,
    dedupingInterval: 2_000,
  });
  const count = data?.count ?? 0;
  const newest = useRef<number | null>(null);
  const lastCount = useRef<number | null>(null);

  // the newest notification id when the page loaded: only later ones are celebrated
  useEffect(() => {
    if (!user) return;
    newest.current = null;
    lastCount.current = null;
    apiRequest<{ items: Notification[] }>('GET', `${LIST_URL}?limit=1`)
      .then((r) => {
        newest.current = r.items[0]?.id ?? 0;
      })
      .catch(() => {
        newest.current = 0;
      });
  }, [user]);

  useEffect(() => {
    if (user) void mutate();
  }, [pathname, user, mutate]);

  useEffect(() => {
    const onEarned = () => void mutate();
    window.addEventListener(BADGES_EARNED_EVENT, onEarned);
    return () => window.removeEventListener(BADGES_EARNED_EVENT, onEarned);
  }, [mutate]);

  useEffect(() => {
    if (!data) return;
    const grew = lastCount.current !== null && data.count > lastCount.current;
    lastCount.current = data.count;
    if (!grew || newest.current === null) return;
    const since = newest.current;
    apiRequest<{ items: Notification[] }>('GET', `${LIST_URL}?unread=true&limit=20`)
      .then((r) => {
        const fresh = r.items.filter((n) => n.id > since);
        if (!fresh.length) return;
        newest.current = Math.max(since, ...fresh.map((n) => n.id));
        const badges = fresh
          .filter((n) => n.type === 'badge' && n.params && typeof n.params.badgeId === 'number')
          .map((n) => ({ id: Number(n.params!.badgeId), name: String(n.params!.name ?? ''), icon: String(n.params!.icon ?? '🏆'), description: String(n.params!.description ?? ''), color: String(n.params!.color ?? '#3B82F6') }));
        if (badges.length) window.dispatchEvent(new CustomEvent(BADGES_EARNED_EVENT, { detail: badges }));
      })
      .catch(() => undefined);
  }, [data]);

  if (!user) return null;
  const label = count ? t('bell.labelUnread', { count }) : t('bell.label');
  const active = pathname.toLowerCase().startsWith('/notifications');
  return (
    <Link to="/notifications" className={`curio-bell${active ? ' is-active' : ''}`} aria-label={label} title={label} aria-current={active ? 'page' : undefined}>
      <Icon name="bell" size={22} />
      {count > 0 && (
        <span className="curio-bell__count" aria-hidden="true" data-testid="notification-count">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
