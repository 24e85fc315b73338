import { Link } from 'react-router-dom';
import { Icon, useTranslation, type WebUser } from '../../../../web/src/index.ts';

/** "My reports" in the account menu. */
export default function UserMenuLink({ user, onNavigate }: { user?: WebUser | null; onNavigate?: () => void }) {
  const { t } = useTranslation('nav');
  if (!user) return null;
  return (
    <Link to="/reports/mine" className="dropdown-item curio-user-menu__item" onClick={onNavigate}>
      <Icon name="alert" size={16} /> <span>{t('reports.mine')}</span>
    </Link>
  );
}
