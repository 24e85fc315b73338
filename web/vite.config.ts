import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { curioValidators } from './build/validators-plugin.ts';
import { purgeBulma } from './build/purge-bulma-plugin.ts';
import { precompress } from './build/precompress-plugin.ts';
import { asyncCss } from './build/async-css-plugin.ts';
import { darkScheme } from './build/dark-scheme.ts';
import { navTexts } from './build/nav-texts-plugin.ts';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(WEB, '..');
const API = process.env.CURIO_API_URL || 'http://localhost:3000';

/** Vendor groups: stable, cacheable chunks that the landing page needs anyway. */
const vendor = (id: string): string | null => {
  if (!id.includes('node_modules')) return null;
  if (/node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return 'react';
  if (/node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/.test(id)) return 'router';
  if (/node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements|use-sync-external-store|swr|dequal)[\\/]/.test(id)) return 'data';
  return null;
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrConfig : clientConfig));

/**
 * The server-side render (web/src/entry-server.tsx → web/dist-server/entry-server.js), built after
 * the client by `npm run build:web`; core's serveWebBuild imports it. Dependencies stay in
 * node_modules (externals); CSS is the client's business.
 */
const ssrConfig = {
  root: WEB,
  publicDir: false as const,
  plugins: [navTexts(), react(), curioValidators(ROOT)],
  build: {
    outDir: path.join(WEB, 'dist-server'),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
    ssr: 'src/entry-server.tsx',
    rolldownOptions: { output: { entryFileNames: 'entry-server.js' } },
  },
};

/**
 * The shell's barrel (web/src/index.ts, what plugins import) only re-exports: side-effect free, so
 * that a plugin's manifest importing `defineWebPlugin` from it does not pull every component it
 * re-exports into the entry chunk (with rolldown's lazy barrels each import goes to its module).
 */
const barrelWithoutSideEffects = {
  name: 'curio-barrel-side-effects',
  transform(code: string, id: string) {
    if (id.replace(/\\/g, '/').endsWith('/web/src/index.ts')) return { code, moduleSideEffects: false };
    return null;
  },
};

const clientConfig = {
  root: WEB,
  publicDir: path.join(WEB, 'public'),
  plugins: [navTexts(), purgeBulma(ROOT), react(), barrelWithoutSideEffects, curioValidators(ROOT), asyncCss(), precompress()],
  css: { postcss: { plugins: [darkScheme()] } },
  server: {
    port: 5173,
    fs: { allow: [ROOT] },
    proxy: {
      '/api': { target: API, changeOrigin: false },
      '/uploads': { target: API, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API, changeOrigin: false },
      '/uploads': { target: API, changeOrigin: false },
    },
  },
  build: {
    outDir: path.join(WEB, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // Modules shared by lazy pages stay in shared chunks of their own instead of being merged
      // into the entry chunk (rolldown's default): a page loads the shell and what it uses, not
      // every component some other page shares (issue 19: initial JavaScript ≤ 130 kB gzip).
      experimental: { lazyBarrel: true },
      output: {
        codeSplitting: {
          groups: [
            {
              debugName: 'vendor',
              name: (id: string) => vendor(id),
              test: /node_modules/,
            },
          ],
        },
      },
    },
  },
};
