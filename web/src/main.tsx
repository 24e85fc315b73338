import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'bulma/css/versions/bulma-no-dark-mode.min.css';
import './styles.css';
import { initTheme } from './lib/theme.ts';
import { detectLocale, hasPluginNamespace, initI18n, isSupportedLocale, loadPluginNamespaces, syncLocaleCookie } from './i18n.ts';
import { App, preloadConfig } from './App.tsx';
import { preloadAuth } from './lib/auth.tsx';
import { primedAnswer } from './lib/data.ts';
import type { AppConfig } from './lib/app-config.tsx';
import { registerServiceWorker } from './lib/offline.ts';
import { holdEarlyPresses } from './lib/early-presses.ts';

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

registerServiceWorker();
initTheme();
syncLocaleCookie();
const rootElement = document.getElementById('root')!;

/**
 * The text namespaces the server's render used (entry-server.tsx: a comment at the end of #root,
 * removed here; hydration would skip it anyway). Null when the page does not say (an older build).
 */
function renderedNamespaces(): string[] | null {
  const last = rootElement.lastChild;
  if (!last || last.nodeType !== Node.COMMENT_NODE || !(last as Comment).data.startsWith('curio-ns:')) return null;
  last.remove();
  return (last as Comment).data
    .slice('curio-ns:'.length)
    .split(',')
    .filter((ns) => ns && ns !== 'core');
}

/**
 * A public page the server rendered with React (data-ssr on #root, its config and data in the
 * page, core's serveWebBuild): hydrate that markup, in the server's language, with the shell ready
 * at once, so that nothing flashes and nothing is fetched again.
 *
 * When the visitor chose another language than the server drew (a choice it could not know: no
 * `curio-locale` cookie yet, storage only), the page is drawn anew in the visitor's language from
 * the same primed data, the server's HTML showing until then. Hydrating in one language and then
 * switching made React meet other texts than the HTML's in the parts it hydrates later (lazy
 * pages): a mismatch error, and that HTML thrown away all the same.
 */
async function hydrate(config: AppConfig): Promise<void> {
  const serverLocale = document.documentElement.lang;
  const chosen = detectLocale();
  const locale = isSupportedLocale(serverLocale) ? serverLocale : chosen;
  const enabled = Array.isArray(config.plugins) ? config.plugins : [];
  const rendered = renderedNamespaces();
  // only the texts the markup shows; the other plugins' load when a component asks for them
  const wanted = rendered ? enabled.filter((id) => rendered.includes(id) && hasPluginNamespace(id)) : enabled;
  await initI18n(chosen);
  await Promise.all([loadPluginNamespaces(wanted), applyStyles()]);
  const app = (
    <StrictMode>
      <App ready={config} />
    </StrictMode>
  );
  if (locale === chosen) hydrateRoot(rootElement, app);
  else createRoot(rootElement).render(app);
}

const ssrConfig = rootElement.hasAttribute('data-ssr') ? primedAnswer<AppConfig>('/api/config')?.data : undefined;
if (ssrConfig) {
  holdEarlyPresses();
  void hydrate(ssrConfig);
} else {
  // The first screen needs the config, the plugins' texts and the session: ask for all three at
  // once, before rendering, rather than one after the other.
  preloadConfig();
  preloadAuth();
  const styles = applyStyles();
  void initI18n().then(async () => {
    await styles;
    createRoot(rootElement).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
