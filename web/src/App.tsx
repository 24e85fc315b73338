import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { BrowserRouter, StaticRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { useTranslation } from 'react-i18next';
import { apiRequest, withRetry } from './lib/api.ts';
import { primedAnswer, swrConfig } from './lib/data.ts';
import { AppConfigContext, type AppConfig } from './lib/app-config.tsx';
import { buildRegistry, PluginRegistryContext } from './lib/plugins.tsx';
import { bundledPlugins } from './lib/plugin-modules.ts';
import { AuthProvider } from './lib/auth.tsx';
import { CreateDialogProvider } from './lib/create-dialog.tsx';
import { Spinner } from './components/Spinner.tsx';
import { EmptyState } from './components/EmptyState.tsx';
import { Layout } from './shell/Layout.tsx';
import { Logo } from './shell/Logo.tsx';
import { OfflinePages } from './lib/offline.ts';

let earlyConfig: Promise<AppConfig> | null = null;

/** Sends GET /api/config before React renders (main.tsx); the shell's first load takes it over. */
export function preloadConfig(): void {
  // a page the server rendered carries the answer
  const primed = primedAnswer<AppConfig>('/api/config');
  earlyConfig = primed ? Promise.resolve(primed.data) : apiRequest<AppConfig>('GET', '/api/config');
  earlyConfig.catch(() => undefined);
}

type Boot = { state: 'loading' } | { state: 'error' } | { state: 'ready'; config: AppConfig };

function BootScreen({ children }: { children: React.ReactNode }) {
  return (
    <div className="curio-boot">
      <Logo size={48} />
      {children}
    </div>
  );
}

/**
 * Reads GET /api/config, then renders the shell. `ready`: the config is known and the texts of the
 * server's render are loaded already (a page the server rendered: the server renders, and the
 * browser hydrates, the ready shell at once).
 */
function Shell({ ready }: { ready?: AppConfig }) {
  const { t } = useTranslation('core');
  const [boot, setBoot] = useState<Boot>(ready ? { state: 'ready', config: { ...ready, plugins: Array.isArray(ready.plugins) ? ready.plugins : [] } } : { state: 'loading' });

  const load = useCallback(() => {
    setBoot({ state: 'loading' });
    withRetry(
      () => {
        const early = earlyConfig;
        earlyConfig = null;
        return early ?? apiRequest<AppConfig>('GET', '/api/config');
      },
      { retries: 3 },
    )
      .then((config) => {
        // No plugin's texts are waited for: the shell draws only core's and the nav texts it bundles
        // (i18n.ts), and each namespace loads when a component first asks for it (a page's with its
        // chunk, routing.tsx). Loading every plugin's first cost ~37 kB gzip before a member's home.
        const enabled = Array.isArray(config.plugins) ? config.plugins : [];
        setBoot({ state: 'ready', config: { ...config, plugins: enabled } });
      })
      .catch(() => setBoot({ state: 'error' }));
  }, []);
  useEffect(() => {
    if (!ready) load();
  }, [load, ready]);

  const registry = useMemo(() => buildRegistry(boot.state === 'ready' ? boot.config.plugins : [], bundledPlugins), [boot]);

  if (boot.state === 'loading') {
    return (
      <BootScreen>
        <Spinner label={t('loadingApp')} />
      </BootScreen>
    );
  }
  if (boot.state === 'error') {
    return (
      <BootScreen>
        <EmptyState
          tone="error"
          icon="wifi-off"
          title={t('errors.configTitle')}
          description={t('errors.configDescription')}
          action={
            <button type="button" className="button is-primary is-rounded" onClick={load}>
              {t('errors.retry')}
            </button>
          }
        />
      </BootScreen>
    );
  }
  return (
    <AppConfigContext.Provider value={boot.config}>
      <PluginRegistryContext.Provider value={registry}>
        <SWRConfig value={swrConfig}>
          <AuthProvider enabled={boot.config.plugins.includes('accounts')}>
            <CreateDialogProvider>
              <Layout />
            </CreateDialogProvider>
          </AuthProvider>
        </SWRConfig>
      </PluginRegistryContext.Provider>
    </AppConfigContext.Provider>
  );
}

function Root({ ready }: { ready?: AppConfig }) {
  return (
    <>
      <OfflinePages />
      <Suspense
        fallback={
          <BootScreen>
            <Spinner />
          </BootScreen>
        }
      >
        <Shell ready={ready} />
      </Suspense>
    </>
  );
}

/** The web app in the browser; `ready`: hydrating a page the server rendered with this config. */
export function App({ ready }: { ready?: AppConfig }) {
  return (
    <BrowserRouter>
      <Root ready={ready} />
    </BrowserRouter>
  );
}

/** The web app on the server, at `location` (web/src/entry-server.tsx). */
export function ServerApp({ location, config }: { location: string; config: AppConfig }) {
  return (
    <StaticRouter location={location}>
      <Root ready={config} />
    </StaticRouter>
  );
}
