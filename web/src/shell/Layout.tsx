import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth.tsx';
import { usePluginRegistry, Slot } from '../lib/plugins.tsx';
import { Toaster } from '../lib/toast.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { ConfirmHost } from '../components/ConfirmDialog.tsx';
import { AppRoutes, resolveRoute, showsNav } from './routing.tsx';
import { TopBar, BottomBar } from './nav.tsx';
import { AuthBanner } from './AuthBanner.tsx';
import { Footer } from './Footer.tsx';
import { LiveStream } from '../lib/live.tsx';

export function Layout() {
  const { t } = useTranslation('core');
  const { user, isLoading } = useAuth();
  const { pages } = usePluginRegistry();
  const { pathname } = useLocation();
  const { page } = resolveRoute(pages, pathname, user);
  const nav = !isLoading && showsNav(pathname, user, page);

  useEffect(() => {
    document.documentElement.classList.toggle('has-curio-nav', nav);
  }, [nav]);

  return (
    <div className={`curio-app${nav ? ' has-nav' : ''}`}>
      <a
        className="curio-skip-link"
        href="#main-content"
        onClick={(e) => {
          e.preventDefault();
          const main = document.getElementById('main-content');
          main?.focus();
          main?.scrollIntoView();
        }}
      >
        {t('skipToContent')}
      </a>
      {nav && <TopBar />}
      <AuthBanner />
      <main id="main-content" className="curio-main" tabIndex={-1}>
        {/* notices about the signed-in member's account (e.g. accounts: confirm your email): in main, so
            that they start below the fixed top bar (main's padding), not under it */}
        {!isLoading && user && <Slot name="shell.banner" user={user} />}
        {isLoading ? <Spinner center size="large" label={t('loading')} className="curio-auth-spinner" /> : <AppRoutes pages={pages} user={user} />}
      </main>
      {!isLoading && <Footer />}
      {nav && <BottomBar />}
      {user && <LiveStream userId={user.id} />}
      <Toaster />
      <ConfirmHost />
    </div>
  );
}
