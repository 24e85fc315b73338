import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bulma/css/versions/bulma-no-dark-mode.min.css';
import './styles.css';
import { initI18n, preloadPluginNamespaces } from './i18n.ts';
import { App, preloadConfig } from './App.tsx';
import { preloadAuth } from './lib/auth.tsx';

/**
 * Production builds preload the app's CSS instead of linking it (web/build/async-css-plugin.ts), so
 * that the boot screen paints without waiting for it: apply it, and render once it is in (or has
 * failed: the app still works unstyled).
 */
function applyStyles(): Promise<unknown> {
  const preloads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"][data-curio-style]')];
  return Promise.all(
    preloads.map(
      (preload) =>
        new Promise((resolve) => {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          if (preload.crossOrigin !== null) link.crossOrigin = preload.crossOrigin;
          link.href = preload.href;
          link.onload = resolve;
          link.onerror = resolve;
          document.head.appendChild(link);
        }),
    ),
  );
}

// The first screen needs the config, the plugins' texts and the session: ask for all three at
// once, before rendering, rather than one after the other.
preloadConfig();
preloadAuth();
const styles = applyStyles();
void initI18n().then(async () => {
  preloadPluginNamespaces();
  await styles;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
