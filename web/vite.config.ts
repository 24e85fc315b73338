import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { curioValidators } from './build/validators-plugin.ts';
import { purgeBulma } from './build/purge-bulma-plugin.ts';
import { precompress } from './build/precompress-plugin.ts';
import { asyncCss } from './build/async-css-plugin.ts';

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

export default defineConfig({
  root: WEB,
  publicDir: path.join(WEB, 'public'),
  plugins: [purgeBulma(ROOT), react(), curioValidators(ROOT), asyncCss(), precompress()],
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
});
