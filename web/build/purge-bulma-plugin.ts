/**
 * Production builds keep only the Bulma rules the app can use.
 *
 * Bulma's prebuilt CSS is 556 kB (54 kB gzip) and blocks the first paint; the shell and the plugins
 * use about 170 of its 3,300 classes. At build time (not in the dev server, which keeps all of
 * Bulma), PurgeCSS drops every Bulma rule whose class names appear in none of the web sources
 * (web/index.html, web/src, plugins/<id>/web: every word of every file counts, so a class written
 * in a string, a template literal or a plugin's CSS is kept), and every CSS variable nothing uses.
 *
 * Class names computed at run time are invisible to this scan: write them in full
 * (`cond ? 'is-danger' : ''`, not `'is-' + colour`). The colour and size modifiers below are kept
 * whatever the scan finds, for the components that are kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { PurgeCSS } from 'purgecss';

const BULMA_CSS = /[\\/]node_modules[\\/]bulma[\\/]css[\\/].*\.css$/;
const SOURCE = /\.(tsx?|jsx?|html|css)$/;
const ALWAYS = /^(is|has-text|has-background)-(primary|link|info|success|warning|danger|light|dark|white|black|small|normal|medium|large)$/;

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') walk(p, out);
    } else if (SOURCE.test(e.name) && !/\.(test|e2e)\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The files whose words decide which Bulma rules stay. */
export function webSources(root: string): string[] {
  const files = [path.join(root, 'web', 'index.html'), ...walk(path.join(root, 'web', 'src'))];
  const plugins = path.join(root, 'plugins');
  if (fs.existsSync(plugins)) for (const p of fs.readdirSync(plugins).sort()) files.push(...walk(path.join(plugins, p, 'web')));
  return files.filter((f) => fs.existsSync(f));
}

export function purgeBulma(root: string): Plugin {
  return {
    name: 'curio-purge-bulma',
    apply: 'build',
    enforce: 'pre',
    async transform(code, id) {
      if (!BULMA_CSS.test(id.split('?')[0])) return null;
      const files = webSources(root);
      // CSS variables the app's own styles and inline styles read (e.g. var(--bulma-border)).
      const variables = new Set<string>();
      for (const f of files) for (const m of fs.readFileSync(f, 'utf8').matchAll(/--bulma-[\w-]+/g)) variables.add(m[0]);
      const [result] = await new PurgeCSS().purge({
        // the app's own CSS files count as content too: a Bulma class they style is in use
        content: files,
        css: [{ raw: code }],
        variables: true,
        keyframes: true,
        safelist: { standard: [ALWAYS], variables: [...variables] },
      });
      return { code: result.css, map: null };
    },
  };
}
