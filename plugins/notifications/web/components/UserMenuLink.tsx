import { Link } from 'react-router-dom';
import { Icon, useApi, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { UNREAD_KEY } from '../shared.ts';

/** "Notifications" in the account menu (with the unread count), for the keyboard and small screens. */
export default function UserMenuLink({ user, onNavigate }: { user?: WebUser | null; onNavigate?: () => void }) {
  // the shell's namespace: the account menu does not load notifications' texts on every page
  const { t } = useTranslation('nav');
  const { data } = useApi<{ count: number }>(user ? UNREAD_KEY : null);
  if (!user) return null;
  const count = data?.count ?? 0;
  return (
    <Link to="/notifications" className="dropdown-item curio-user-menu__item" onClick={onNavigate}>
      <Icon name="bell" size={16} /> <span>{t('notifications.menu')}</span>
      {count > 0 && <span className="tag is-danger is-rounded is-small ml-auto">{count > 99 ? '99+' : count}</span>}
    </Link>
  );
}
