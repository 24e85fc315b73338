/**
 * Link-preview images (OpenGraph/Twitter): 1200×630 JPEGs made with sharp. A museum's or an
 * event's picture, cropped to the card (attention-based crop), under a band with its name; with
 * no picture (or one that cannot be read), the brand gradient. Self-contained: it reads the
 * picture by its URL (the app's own /uploads, or an external address) and keeps the newest
 * renders in memory (the URL carries the data's version, so a change gets a new image).
 */
import sharp, { type Sharp } from 'sharp';
import { esc } from './html.ts';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

function lines(text: string, max: number, count: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    if ((cur ? `${cur} ${w}` : w).length > max && cur) {
      out.push(cur);
      cur = w;
      if (out.length === count) break;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (out.length < count && cur) out.push(cur);
  if (out.length === count && words.join(' ').length > out.join(' ').length) out[count - 1] = `${out[count - 1].replace(/.{0,1}$/, '')}…`;
  return out;
}

function overlay(title: string, subtitle: string, withPicture: boolean): Buffer {
  const t = lines(title, 34, 2);
  const band = withPicture ? `<rect x="0" y="${OG_HEIGHT - 230}" width="${OG_WIDTH}" height="230" fill="#1b1035" fill-opacity="0.72"/>` : '';
  const y0 = withPicture ? OG_HEIGHT - 230 + 80 : 300;
  const titleSvg = t.map((l, i) => `<text x="60" y="${y0 + i * 66}" font-family="DejaVu Sans, sans-serif" font-size="56" font-weight="bold" fill="#fff">${esc(l)}</text>`).join('');
  const sub = `<text x="60" y="${y0 + t.length * 66 + 6}" font-family="DejaVu Sans, sans-serif" font-size="32" fill="#f1ecff">${esc(subtitle)}</text>`;
  const brand = `<text x="${OG_WIDTH - 60}" y="70" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-size="36" font-weight="bold" fill="#fff">Curio</text>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">${band}${titleSvg}${sub}${brand}</svg>`);
}

function gradient(): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6d4aff"/><stop offset="1" stop-color="#e0457b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
}

/** The preview JPEG: `picture` (bytes of any image sharp reads) or the gradient, with the texts. */
export async function renderOgImage(opts: { title: string; subtitle: string; picture: Buffer | null }): Promise<Buffer> {
  let base: Sharp | null = null;
  if (opts.picture) {
    try {
      const buf = await sharp(opts.picture, { failOn: 'error', limitInputPixels: 50_000_000 }).rotate().resize(OG_WIDTH, OG_HEIGHT, { fit: 'cover', position: sharp.strategy.attention }).toBuffer();
      base = sharp(buf);
    } catch {
      base = null;
    }
  }
  const withPicture = base !== null;
  base ??= sharp(gradient());
  return base
    .composite([{ input: overlay(opts.title, opts.subtitle, withPicture), top: 0, left: 0 }])
    .flatten({ background: '#1b1035' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/** The bytes of a picture by its URL (relative: on this app), or null (missing, too big, slow). */
export async function fetchPicture(url: string | null, appBase: string, timeoutMs: number): Promise<Buffer | null> {
  if (!url) return null;
  let abs: string;
  try {
    abs = new URL(url, appBase).toString();
  } catch {
    return null;
  }
  if (!/^https?:/.test(abs)) return null;
  try {
    const res = await fetch(abs, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const len = Number(res.headers.get('content-length') ?? 0);
    if (len > 20_000_000) {
      await res.body?.cancel();
      return null;
    }
    const buf = Buffer.from(await res.arrayBuffer());
    return buf.length > 20_000_000 ? null : buf;
  } catch {
    return null;
  }
}

/** A small LRU of rendered images. */
export class ImageCache {
  private map = new Map<string, Buffer>();
  constructor(private max = 200) {}
  get(key: string): Buffer | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: Buffer): void {
    this.map.delete(key);
    this.map.set(key, v);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}
