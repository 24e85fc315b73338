import { useEffect, useState, type CSSProperties } from 'react';

export interface ResponsiveImageProps {
  /** the stored master (JPEG), used when no variants exist yet */
  src: string;
  /** intrinsic size: reserves the box before the image arrives (no layout shift); leave out only when CSS sizes the box */
  width?: number;
  height?: number;
  /** alt text; '' marks the image decorative */
  alt: string;
  /** srcset per format, from the server (null while its variants are being made) */
  srcset?: { avif?: string; webp?: string; jpg?: string } | null;
  /** e.g. '(min-width: 768px) 600px, 100vw' */
  sizes?: string;
  /** BlurHash shown until the image has loaded */
  blurhash?: string | null;
  /** where crops centre (object-position), 0–1 */
  focalPoint?: { x: number; y: number } | null;
  /** crop to the box (object-fit: cover) instead of showing the whole image */
  cover?: boolean;
  className?: string;
  style?: CSSProperties;
  loading?: 'lazy' | 'eager';
  /** the first image of a page: fetched early */
  priority?: boolean;
  /** the image (master included) could not be loaded: e.g. show a designed cover instead */
  onFail?: () => void;
  /** class of the <img> itself (the picture gets className) */
  imgClassName?: string;
  /** e.g. a data-testid */
  testId?: string;
}

const placeholders = new Map<string, string>();
/** The decoder is loaded with the first placeholder (kept out of the pages' initial JavaScript). */
let decoder: Promise<typeof import('blurhash')['decode']> | null = null;

/** A BlurHash as a tiny PNG data URL (decoded once per hash, 32 × 32). */
export async function blurhashDataUrl(hash: string): Promise<string | null> {
  const hit = placeholders.get(hash);
  if (hit) return hit;
  try {
    decoder ??= import('blurhash').then((m) => m.decode);
    const decode = await decoder;
    const w = 32;
    const h = 32;
    const pixels = decode(hash, w, h);
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    const img = ctx.createImageData(w, h);
    img.data.set(pixels);
    ctx.putImageData(img, 0, 0);
    const url = canvas.toDataURL('image/png');
    placeholders.set(hash, url);
    return url;
  } catch {
    return null;
  }
}

/**
 * A stored image with its responsive variants: <picture> with AVIF and WebP sources and a JPEG
 * srcset, width/height set (so nothing shifts), lazy by default, a BlurHash placeholder behind it
 * until it has loaded, and the focal point as object-position.
 */
export function ResponsiveImage({ src, width, height, alt, srcset: given, sizes = '100vw', blurhash, focalPoint, cover, className, style, loading = 'lazy', priority, onFail, testId, imgClassName }: ResponsiveImageProps) {
  const [loaded, setLoaded] = useState(false);
  // a variant that is not there (its job has not run yet, or an image stored before variants):
  // the master alone, which always exists while the row names it
  const [noVariants, setNoVariants] = useState(false);
  useEffect(() => {
    setLoaded(false);
    setNoVariants(false);
  }, [src]);
  const srcset = noVariants ? null : given;
  const [placeholder, setPlaceholder] = useState<string | null>(() => (blurhash ? (placeholders.get(blurhash) ?? null) : null));
  useEffect(() => {
    if (!blurhash || typeof document === 'undefined') return;
    let live = true;
    void blurhashDataUrl(blurhash).then((u) => live && setPlaceholder(u));
    return () => {
      live = false;
    };
  }, [blurhash]);
  const position = focalPoint ? `${Math.round(focalPoint.x * 100)}% ${Math.round(focalPoint.y * 100)}%` : undefined;
  const imgStyle: CSSProperties = {
    objectFit: cover ? 'cover' : undefined,
    objectPosition: position,
    backgroundImage: !loaded && placeholder ? `url(${placeholder})` : undefined,
    backgroundSize: 'cover',
    backgroundPosition: position ?? 'center',
    ...style,
  };
  return (
    <picture className={`curio-picture ${className ?? ''}`} key={noVariants ? 'master' : 'variants'}>
      {srcset?.avif && <source type="image/avif" srcSet={srcset.avif} sizes={sizes} />}
      {srcset?.webp && <source type="image/webp" srcSet={srcset.webp} sizes={sizes} />}
      <img
        className={imgClassName}
        src={src}
        srcSet={srcset?.jpg}
        sizes={srcset?.jpg ? sizes : undefined}
        width={width}
        height={height}
        alt={alt}
        loading={priority ? 'eager' : loading}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        style={imgStyle}
        data-testid={testId}
        onLoad={() => setLoaded(true)}
        onError={() => (srcset ? setNoVariants(true) : onFail?.())}
      />
    </picture>
  );
}

const VARIANT_WIDTHS = [320, 640, 1280, 2048];

/** What the API says beside a stored image's URL (schema shared/ImageInfo; core/images.ts). */
export interface ImageInfo {
  width: number;
  height: number;
  widths: number[];
  blurhash: string | null;
}

/**
 * The srcsets of a stored image from what the API says exists (its `…Info` field): exactly the
 * made widths, nothing guessed. `url` may be the master or one of its variants. Null without info
 * or widths (the variants are not made yet, or an external image): the master alone then.
 */
export function infoSrcsets(url: string | null | undefined, info: ImageInfo | null | undefined): { avif: string; webp: string; jpg: string } | null {
  if (!url || !info?.widths?.length) return null;
  const base = url.replace(/(_w\d+)?\.(jpg|jpeg|png|webp|avif)$/i, '');
  if (base === url) return null;
  const set = (ext: string) => info.widths.map((w) => `${base}_w${w}.${ext} ${w}w`).join(', ');
  return { avif: set('avif'), webp: set('webp'), jpg: set('jpg') };
}

/**
 * The srcsets of a stored variant URL (`…_w<N>.jpg`, see core/images.ts): every standard width
 * below N exists too, in AVIF, WebP and JPEG. Null for any other URL (e.g. an external image).
 */
export function variantSrcsets(url: string | null | undefined): { avif: string; webp: string; jpg: string } | null {
  const m = url ? /^(\/uploads\/.+)_w(\d+)\.jpg$/.exec(url) : null;
  if (!m) return null;
  const top = Number(m[2]);
  const widths = [...VARIANT_WIDTHS.filter((w) => w < top), top];
  const set = (ext: string) => widths.map((w) => `${m[1]}_w${w}.${ext} ${w}w`).join(', ');
  return { avif: set('avif'), webp: set('webp'), jpg: set('jpg') };
}

/**
 * The srcsets of an image stored through the server's uploads (a `/uploads/….jpg` master, not a
 * thumbnail): its variants job (core/images.ts) makes every standard width below the master's
 * width, and the master's own width, in AVIF, WebP and JPEG. `width` is the master's width when
 * the API gives it (else the standard widths up to 1280 are offered). A variant that is missing
 * (job not run yet) makes ResponsiveImage fall back to the master. A URL that already names a
 * variant (`…_w1280.jpg`) goes through variantSrcsets; anything else (external images): null.
 */
export function storedSrcsets(url: string | null | undefined, width?: number | null): { avif: string; webp: string; jpg: string } | null {
  if (!url) return null;
  const named = variantSrcsets(url);
  if (named) return named;
  const m = /^(\/uploads\/.+)\.jpg$/.exec(url);
  if (!m || /_(thumb|w\d+)$/.test(m[1])) return null;
  const top = width ? Math.min(width, 2048) : 1280;
  const widths = [...VARIANT_WIDTHS.filter((w) => w < top), top];
  const set = (ext: string) => widths.map((w) => `${m[1]}_w${w}.${ext} ${w}w`).join(', ');
  return { avif: set('avif'), webp: set('webp'), jpg: set('jpg') };
}
