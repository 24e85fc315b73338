/** The server's texts in the visitor's language (Accept-Language: fr → fr, else en). */
import type Koa from 'koa';
import en from '../locales/en.json' with { type: 'json' };
import fr from '../locales/fr.json' with { type: 'json' };

export type Locale = 'en' | 'fr';
const TEXTS: Record<Locale, any> = { en, fr };

export function localeOf(ctx: Koa.Context): Locale {
  const lang = ctx.acceptsLanguages('en', 'fr');
  return lang === 'fr' ? 'fr' : 'en';
}

export type T = (key: string, vars?: Record<string, string | number>) => string;

export function texts(locale: Locale): T {
  return (key, vars) => {
    let v: any = TEXTS[locale];
    for (const part of key.split('.')) v = v?.[part];
    if (typeof v !== 'string') v = key;
    return vars ? v.replace(/\{\{(\w+)\}\}/g, (_: string, k: string) => String(vars[k] ?? '')) : v;
  };
}
