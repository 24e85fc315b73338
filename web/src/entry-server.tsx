/**
 * The web app rendered on the server (issue 19): built by `npm run build:web` into web/dist-server
 * (Vite SSR) and called by core's serveWebBuild for the pages a plugin asked to render
 * (`ctx.state.webPage.ssr`). It renders the same tree the browser hydrates (main.tsx): the ready
 * shell at `url`, in `locale`, with SWR answering the page's API keys from `primed` (the same
 * answers the page carries to the browser, so the two renders match and nothing is fetched twice).
 * Lazy pages are waited for (react-dom/static). Renders run one at a time: i18next's language and
 * the primed answers are module state.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { ServerApp } from './App.tsx';
import type { AppConfig } from './lib/app-config.tsx';
import { i18next, initI18n, isSupportedLocale, loadPluginNamespaces, type Locale } from './i18n.ts';
import { setPrimedAnswers, swrConfig } from './lib/data.ts';

// one cache per render: nothing of one visitor's answers is ever seen by another render
swrConfig.provider = () => new Map();

let queue: Promise<unknown> = Promise.resolve();

/**
 * The namespaces a render used (every text it translated, `ns:key` ones included, and every
 * namespace a component asked useTranslation for): the page tells the browser (a comment at the end
 * of #root, which hydration skips), and the browser loads those before hydrating, not every
 * plugin's texts (issue 19: the pages' initial JavaScript).
 */
const usedNamespaces = new Set<string>();
let recordingTranslator: unknown = null;
function recordNamespaces(): void {
  const translator = (i18next as any).translator;
  if (!translator || recordingTranslator === translator) return;
  recordingTranslator = translator;
  const translate = translator.translate.bind(translator);
  translator.translate = (keys: unknown, opts?: Record<string, unknown>, lastKey?: unknown) => {
    const key = Array.isArray(keys) ? keys[keys.length - 1] : keys;
    if (typeof key === 'string') {
      try {
        for (const ns of translator.extractFromKey(key, opts ?? {}).namespaces ?? []) usedNamespaces.add(String(ns));
      } catch {
        // only a record: the translation goes on
      }
    }
    return translate(keys, opts, lastKey);
  };
}

/** The marker main.tsx reads: `<!--curio-ns:core,museums-->`. */
export const NAMESPACES_MARKER = 'curio-ns:';

export interface RenderOptions {
  primed: Record<string, unknown>;
  locale: string;
  /** give up after this long (the caller then serves the page without the React markup) */
  timeoutMs?: number;
}

export function render(url: string, opts: RenderOptions): Promise<string> {
  const run = queue.then(() => renderNow(url, opts));
  queue = run.catch(() => undefined);
  return run;
}

async function renderNow(url: string, opts: RenderOptions): Promise<string> {
  const config = opts.primed['/api/config'] as AppConfig | undefined;
  if (!config) throw new Error('server render: no /api/config answer primed');
  const locale: Locale = isSupportedLocale(opts.locale) ? opts.locale : 'en';
  await initI18n(locale);
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
  await loadPluginNamespaces(Array.isArray(config.plugins) ? config.plugins : []);
  setPrimedAnswers(opts.primed);
  recordNamespaces();
  usedNamespaces.clear();
  const reported = (i18next as any).reportNamespaces;
  if (reported) reported.usedNamespaces = {};
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? 5000);
  try {
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <ServerApp location={url} config={config} />
      </StrictMode>,
      // one piece of HTML: no boundary outlined behind a fallback and revealed by an inline script
      // (the CSP forbids inline scripts, and a visitor without JavaScript would see the fallback)
      { signal: controller.signal, progressiveChunkSize: Number.MAX_SAFE_INTEGER },
    );
    const chunks: Buffer[] = [];
    for await (const c of prelude) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
    for (const ns of reported?.getUsedNamespaces?.() ?? []) usedNamespaces.add(String(ns));
    const namespaces = [...usedNamespaces].filter((ns) => /^[a-z0-9_-]+$/i.test(ns)).sort();
    return `${Buffer.concat(chunks).toString('utf8')}<!--${NAMESPACES_MARKER}${namespaces.join(',')}-->`;
  } finally {
    clearTimeout(timer);
    setPrimedAnswers({});
  }
}
