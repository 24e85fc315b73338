import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bulma/css/versions/bulma-no-dark-mode.min.css';
import './styles.css';
import { initI18n } from './i18n.ts';
import { App } from './App.tsx';

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
