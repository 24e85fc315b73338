import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Icon, Spinner, apiRequest, mutate as mutateKey, toastApiError, useApi, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { markNotificationRead } from '../../../../web/src/api/generated/notifications.ts';
import { BADGES_EARNED_EVENT, LIST_URL, UNREAD_KEY, type Notification } from '../shared.ts';
import { NotificationRow } from './NotificationRow.tsx';
import '../notifications.css';

const DROPDOWN_URL = `${LIST_URL}?limit=6`;

/** The newest few notifications (grouped as in the inbox) under the bell, with "See all notifications". */
function BellDropdown({ id, onClose }: { id: string; onClose: (focusBell: boolean) => void }) {
  const { t } = useTranslation('notifications');
  const { data, error, isLoading, mutate } = useApi<{ items: Notification[] }>(DROPDOWN_URL, { dedupingInterval: 0 });
  const read = async (n: Notification) => {
    try {
      await markNotificationRead({ params: { id: n.id } });
    } catch (e) {
      toastApiError(e as any);
      throw e;
    }
    await mutate();
    await mutateKey(UNREAD_KEY);
    await mutateKey((key) => typeof key === 'string' && key.startsWith('$inf$/api/notifications'));
  };
  return (
    <div className="curio-bell__panel box" id={id} role="region" aria-label={t('dropdown.title')}>
      <div className="curio-bell__panel-head">
        <h2 className="is-size-6 has-text-weight-semibold">{t('dropdown.title')}</h2>
        <button type="button" className="delete" aria-label={t('dropdown.close')} onClick={() => onClose(true)} />
      </div>
      {isLoading && <Spinner size="small" center />}
      {error && <p className="has-text-danger is-size-7">{t('dropdown.error')}</p>}
      {data && data.items.length === 0 && <p className="is-size-7 has-text-grey py-2">{t('dropdown.empty')}</p>}
      {data && data.items.length > 0 && (
        <ul className="curio-bell__list">
          {data.items.map((n) => (
            <li key={n.id}>
              <NotificationRow n={n} onRead={read} compact onNavigate={() => onClose(false)} />
            </li>
          ))}
        </ul>
      )}
      <Link to="/notifications" className="button is-small is-fullwidth is-light mt-2" onClick={() => onClose(false)}>
        {t('dropdown.seeAll')}
      </Link>
    </div>
  );
}

/**
 * The bell in the top bar opens the newest notifications (see all: /notifications); unread count (re-checked every minute, on focus, on navigation and
 * when a badge is earned). New badge notifications found this way are celebrated too, so a badge
 * earned elsewhere (a like received, a retroactive award) still gets its toast.
 */
export default function NotificationBell({ user }: { user?: WebUser | null }) {
  // the bell's label is in the texts the shell bundles (namespace nav); the panel's load when it opens
  const { t } = useTranslation('nav');
  const { pathname } = useLocation();
  const { data, mutate } = useApi<{ count: number }>(user ? UNREAD_KEY : null, {
    refreshInterval: 60_000,
    revalidateOnFocus: true,
    dedupingInterval: 2_000,
  });
  const count = data?.count ?? 0;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = (focusBell: boolean) => {
    setOpen(false);
    if (focusBell) button.current?.focus();
  };
  // the dropdown closes on navigation, Escape and a click elsewhere
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    const onDown = (e: MouseEvent) => {
      if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open]);
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
  const label = count ? t('notifications.bell.labelUnread', { count }) : t('notifications.bell.label');
  const active = pathname.toLowerCase().startsWith('/notifications');
  return (
    <div className="curio-bell-wrap" ref={wrap}>
      <button
        type="button"
        ref={button}
        className={`curio-bell curio-nav-icon${active || open ? ' is-active' : ''}`}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <Icon name="bell" size={22} />
        {count > 0 && (
          <span className="curio-bell__count curio-count-badge" aria-hidden="true" data-testid="notification-count">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && (
        <Suspense
          fallback={
            <div className="curio-bell__panel box" id={panelId}>
              <Spinner />
            </div>
          }
        >
          <BellDropdown id={panelId} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
