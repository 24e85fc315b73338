import { Link, useLocation } from 'react-router-dom';
import { Icon, useApi, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { UNREAD_KEY } from '../shared.ts';
import '../messages.css';

/** The envelope in the top bar: unread messages (and waiting requests); live through the stream, else every minute. */
export default function MessagesLink({ user }: { user?: WebUser | null }) {
  // in the texts the shell bundles (namespace nav): the top bar draws it on every page
  const { t } = useTranslation('nav');
  const { pathname } = useLocation();
  const { data } = useApi<{ count: number; requests: number }>(user ? UNREAD_KEY : null, { refreshInterval: 60_000, revalidateOnFocus: true, dedupingInterval: 1_000 });
  if (!user) return null;
  const count = (data?.count ?? 0) + (data?.requests ?? 0);
  const label = count ? t('messages.labelUnread', { count }) : t('messages.label');
  const active = pathname.toLowerCase().startsWith('/messages');
  return (
    <Link to="/messages" className={`msg-nav curio-nav-icon${active ? ' is-active' : ''}`} aria-label={label} title={label} aria-current={active ? 'page' : undefined}>
      <Icon name="mail" size={22} />
      {count > 0 && (
        <span className="msg-nav__count curio-count-badge" aria-hidden="true" data-testid="message-count">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
