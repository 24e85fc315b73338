import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bulma/css/versions/bulma-no-dark-mode.min.css';
import './styles.css';
import { initI18n, preloadPluginNamespaces } from './i18n.ts';
import { App, preloadConfig } from './App.tsx';
import { preloadAuth } from './lib/auth.tsx';

// The first screen needs the config, the plugins' texts and the session: ask for all three at
// once, before rendering, rather than one after the other.
preloadConfig();
preloadAuth();
void initI18n().then(() => {
  preloadPluginNamespaces();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
