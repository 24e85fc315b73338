/**
 * i18next setup. Namespaces: `core` (the shell, web/src/locales), `nav` (every plugin's `nav`
 * texts, bundled with the shell) and one per plugin (plugins/<id>/locales/<lng>.json, namespace =
 * plugin id). Every namespace loads per language on
 * demand (one small chunk per namespace and language): only the active language's texts are
 * fetched (and English, the fallback), and on a page the server rendered only the namespaces its
 * render used (main.tsx; the others load when a component asks for them: useTranslation suspends).
 */
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readPreferenceCookie, writePreferenceCookie } from './lib/preference-cookie.ts';

export const SUPPORTED_LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
const STORAGE_KEY = 'curio.locale';
/**
 * The visitor's chosen language also travels in this cookie, so that the server renders its public
 * pages in it (publicweb's localeOf; Accept-Language when there is none) and hydration finds the
 * same texts as the server's HTML.
 */
export const LOCALE_COOKIE = 'curio-locale';

const coreLocaleFiles = import.meta.glob<Record<string, unknown>>('./locales/*.json', { import: 'default' });

const pluginLocaleFiles = import.meta.glob<Record<string, unknown>>('../../plugins/*/locales/*.json', { import: 'default' });

/** plugin id → language → loader */
const pluginLocales = new Map<string, Map<string, () => Promise<Record<string, unknown>>>>();
for (const [file, loader] of Object.entries(pluginLocaleFiles)) {
  const m = file.match(/plugins\/([^/]+)\/locales\/([^/]+)\.json$/);
  if (!m) continue;
  if (!pluginLocales.has(m[1])) pluginLocales.set(m[1], new Map());
  pluginLocales.get(m[1])!.set(m[2], loader);
}

/**
 * Namespace `nav`: every plugin's `nav` texts (`nav:<plugin>.<key>`), bundled with the shell (a
 * build plugin, web/build/nav-texts-plugin.ts, cuts them out of the locale files). The bars are on
 * every page; with their labels in the plugins' namespaces, drawing them loaded every plugin's
 * texts before the first screen.
 */
const navFiles = import.meta.glob<Record<string, unknown>>('../../plugins/*/locales/*.json', { query: '?nav', import: 'default', eager: true });
const navTexts = new Map<string, Record<string, unknown>>();
for (const [file, texts] of Object.entries(navFiles)) {
  const m = file.match(/plugins\/([^/]+)\/locales\/([^/?]+)\.json/);
  if (!m || !texts || !Object.keys(texts).length) continue;
  if (!navTexts.has(m[2])) navTexts.set(m[2], {});
  navTexts.get(m[2])![m[1]] = texts;
}

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    if (namespace === 'nav') {
      callback(null, (navTexts.get(language) ?? {}) as any);
      return;
    }
    const loader = namespace === 'core' ? coreLocaleFiles[`./locales/${language}.json`] : pluginLocales.get(namespace)?.get(language);
    if (!loader) {
      callback(null, {});
      return;
    }
    loader().then(
      (data) => callback(null, data as any),
      (err) => callback(err, false),
    );
  },
};

function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(v);
}

function cookieLocale(): Locale | null {
  const v = readPreferenceCookie(LOCALE_COOKIE);
  return isLocale(v) ? v : null;
}

/** The language the visitor chose here (localStorage, else the cookie), null when none. */
function savedLocale(): Locale | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (isLocale(saved)) return saved;
  } catch {
    // storage can be blocked: the cookie still carries it
  }
  return cookieLocale();
}

/**
 * At start: a choice made before the cookie existed (or whose cookie was cleared) goes into the
 * cookie, so the next page the server renders is in that language.
 */
export function syncLocaleCookie(): void {
  const saved = savedLocale();
  if (saved && cookieLocale() !== saved) writePreferenceCookie(LOCALE_COOKIE, saved);
}

export function detectLocale(): Locale {
  const saved = savedLocale();
  if (saved) return saved;
  const nav = typeof navigator !== 'undefined' ? navigator.languages ?? [navigator.language] : [];
  for (const l of nav) {
    const base = String(l).toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

function applyDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

let initPromise: Promise<unknown> | null = null;

/** `lng`: this language rather than the visitor's choice (the server's render; hydrating its page). */
export function initI18n(lng: Locale = detectLocale()): Promise<unknown> {
  if (initPromise) return initPromise;
  applyDocumentLanguage(lng);
  i18next.on('languageChanged', applyDocumentLanguage);
  initPromise = i18next
    .use(backend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...SUPPORTED_LOCALES],
      ns: ['core', 'nav'],
      defaultNS: 'core',
      fallbackNS: 'core',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    } as any);
  return initPromise;
}

/** Whether a plugin ships texts (a namespace of its own). */
export function hasPluginNamespace(id: string): boolean {
  return pluginLocales.has(id);
}

/** Loads the locale files of the enabled plugins (current language and the fallback). */
export function loadPluginNamespaces(pluginIds: string[]): Promise<unknown> {
  const ns = pluginIds.filter((id) => pluginLocales.has(id));
  return ns.length ? i18next.loadNamespaces(ns) : Promise.resolve();
}

/** Switches the language, remembers it (localStorage and cookie, a year), and sets <html lang>. */
export async function setLocale(lng: Locale): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // storage blocked: the cookie still carries it
  }
  writePreferenceCookie(LOCALE_COOKIE, lng);
  await i18next.changeLanguage(lng);
}

export function isSupportedLocale(v: unknown): v is Locale {
  return isLocale(v);
}

export function currentLocale(): Locale {
  const l = (i18next.resolvedLanguage || i18next.language || DEFAULT_LOCALE).split('-')[0];
  return isLocale(l) ? l : DEFAULT_LOCALE;
}

/** Translate outside React (toasts from the request layer, etc.). */
export function t(key: string, options?: Record<string, unknown>): string {
  return i18next.t(key, options as any) as unknown as string;
}

export { i18next };
