/**
 * The sitemap (sitemaps.org 0.9): an index at /sitemap.xml listing pages /sitemaps/{n}.xml of at
 * most `pageSize` URLs (50,000 by the protocol), each URL with its lastmod from the data: every
 * museum (its slug page) and every upcoming public event and meetup. The list is built at most
 * once per `cacheSeconds`.
 */
import { esc } from './html.ts';

export interface SitemapUrl {
  loc: string;
  lastmod: string;
}

export function sitemapIndex(origin: string, pages: Array<{ n: number; lastmod: string | null }>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...pages.map((p) => `  <sitemap><loc>${esc(`${origin}/sitemaps/${p.n}.xml`)}</loc>${p.lastmod ? `<lastmod>${esc(p.lastmod)}</lastmod>` : ''}</sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n');
}

export function urlset(urls: SitemapUrl[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${esc(u.loc)}</loc><lastmod>${esc(u.lastmod)}</lastmod></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

export const newest = (urls: SitemapUrl[]): string | null => urls.map((u) => u.lastmod).reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);
