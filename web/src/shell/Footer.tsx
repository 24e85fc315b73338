import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../lib/app-config.tsx';
import { Slot } from '../lib/plugins.tsx';
import { LocaleSwitcher } from './LocaleSwitcher.tsx';
import { ThemeSelect } from '../components/ThemeSelect.tsx';
import { Logo } from './Logo.tsx';

export function Footer() {
  const { t } = useTranslation('core');
  const { appName } = useAppConfig();
  return (
    <footer className="curio-footer" role="contentinfo">
      <div className="container curio-footer__inner">
        <div className="curio-footer__brand">
          <Link to="/" className="curio-brand is-small">
            <Logo size={24} />
            <span className="curio-brand__name">{appName}</span>
          </Link>
          <p className="curio-footer__tagline">{t('tagline')}</p>
        </div>
        <nav className="curio-footer__links" aria-label={t('footer.links')}>
          <Slot name="shell.footer" />
        </nav>
        <div className="curio-footer__prefs">
          <LocaleSwitcher />
          <ThemeSelect />
        </div>
      </div>
      <div className="container">
        <p className="curio-footer__legal">{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
