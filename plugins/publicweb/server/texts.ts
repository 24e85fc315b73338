/**
 * The server's texts in the visitor's language: the one they chose in the app (the `curio-locale`
 * cookie, web/src/i18n.ts), else their browser's (Accept-Language: fr → fr), else en.
 */
import type Koa from 'koa';
import en from '../locales/en.json' with { type: 'json' };
import fr from '../locales/fr.json' with { type: 'json' };
import { fillTemplate } from '../../../core/texts.ts';

export type Locale = 'en' | 'fr';
const TEXTS: Record<Locale, any> = { en, fr };

export function localeOf(ctx: Koa.Context): Locale {
  // what the answer is drawn from, for caches between (public pages and feeds are public)
  ctx.vary('Cookie');
  ctx.vary('Accept-Language');
  const chosen = ctx.cookies.get('curio-locale');
  if (chosen === 'en' || chosen === 'fr') return chosen;
  const lang = ctx.acceptsLanguages('en', 'fr');
  return lang === 'fr' ? 'fr' : 'en';
}

export type T = (key: string, vars?: Record<string, string | number>) => string;

export function texts(locale: Locale): T {
  return (key, vars) => {
    let v: any = TEXTS[locale];
    for (const part of key.split('.')) v = v?.[part];
    if (typeof v !== 'string') v = key;
    return vars ? fillTemplate(v, vars) : v;
  };
}
