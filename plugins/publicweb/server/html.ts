/** Small HTML helpers for the server-rendered head and text of the public pages. */

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ESC[c]);

/** JSON inside a <script> element: nothing in it can close the element or start a comment. */
export const scriptJson = (v: unknown): string =>
  JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Plain text of at most `max` characters (on a word boundary), for descriptions. */
export function summary(text: string | null | undefined, max = 200): string {
  const t = String(text ?? '').replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).trimEnd()}…`;
}

export interface HeadSpec {
  title: string;
  description: string;
  /** absolute canonical URL */
  canonical?: string;
  /** absolute image URL (1200×630) */
  image?: string | null;
  imageAlt?: string;
  /** og:type */
  type?: 'website' | 'article' | 'profile' | 'place' | 'event';
  noindex?: boolean;
  jsonLd?: unknown[];
  /** alternate links: feeds */
  feeds?: Array<{ type: 'application/atom+xml' | 'text/calendar'; title: string; href: string }>;
  locale: 'en' | 'fr';
}

export function renderHead(h: HeadSpec): string {
  const out: string[] = [];
  out.push(`<title>${esc(h.title)}</title>`);
  out.push(`<meta name="description" content="${esc(h.description)}" />`);
  if (h.noindex) out.push('<meta name="robots" content="noindex, nofollow" />');
  if (h.canonical) out.push(`<link rel="canonical" href="${esc(h.canonical)}" />`);
  out.push('<meta property="og:site_name" content="Curio" />');
  out.push(`<meta property="og:title" content="${esc(h.title)}" />`);
  out.push(`<meta property="og:description" content="${esc(h.description)}" />`);
  out.push(`<meta property="og:type" content="${h.type === 'profile' ? 'profile' : h.type === 'article' ? 'article' : 'website'}" />`);
  out.push(`<meta property="og:locale" content="${h.locale === 'fr' ? 'fr_FR' : 'en_US'}" />`);
  if (h.canonical) out.push(`<meta property="og:url" content="${esc(h.canonical)}" />`);
  if (h.image) {
    out.push(`<meta property="og:image" content="${esc(h.image)}" />`);
    out.push('<meta property="og:image:width" content="1200" />');
    out.push('<meta property="og:image:height" content="630" />');
    out.push('<meta property="og:image:type" content="image/jpeg" />');
    if (h.imageAlt) out.push(`<meta property="og:image:alt" content="${esc(h.imageAlt)}" />`);
    out.push('<meta name="twitter:card" content="summary_large_image" />');
    out.push(`<meta name="twitter:image" content="${esc(h.image)}" />`);
  } else {
    out.push('<meta name="twitter:card" content="summary" />');
  }
  out.push(`<meta name="twitter:title" content="${esc(h.title)}" />`);
  out.push(`<meta name="twitter:description" content="${esc(h.description)}" />`);
  for (const f of h.feeds ?? []) out.push(`<link rel="alternate" type="${f.type}" title="${esc(f.title)}" href="${esc(f.href)}" />`);
  for (const j of h.jsonLd ?? []) out.push(`<script type="application/ld+json">${scriptJson(j)}</script>`);
  return out.map((l) => `    ${l}`).join('\n');
}
