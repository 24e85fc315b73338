import { useEffect, useState } from 'react';
import { GeneratedCover, type CoverKind } from './GeneratedCover.tsx';
import { infoSrcsets, ResponsiveImage, storedSrcsets, type ImageInfo } from './ResponsiveImage.tsx';

export interface CoverImageProps {
  /** the uploaded cover (a stored master), or null */
  src: string | null | undefined;
  kind: CoverKind;
  category?: string | null;
  /** varies the designed cover (e.g. the name) */
  seed?: string;
  /** '' (default) when the cover is decorative next to a visible name */
  alt?: string;
  /** the rendered width, for the browser's choice among the variants */
  sizes?: string;
  /** above the fold (a page's header): fetched at once */
  priority?: boolean;
  className?: string;
  /** what the API says of the image (its widths, size and placeholder): used instead of guessing */
  info?: ImageInfo | null;
}

/**
 * A cover: the uploaded image through its responsive variants (AVIF, WebP, JPEG srcset; covers
 * are stored at most 1600 × 900, cropped to the box), or — when there is none or it cannot be
 * loaded — the designed cover of its kind and category. Never initials on a gradient.
 */
export function CoverImage({ src, kind, category, seed, alt = '', sizes = '100vw', priority, className, info }: CoverImageProps) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [src]);
  if (!src || failed) return <GeneratedCover kind={kind} category={category} seed={seed} label={alt || undefined} className={className} />;
  return (
    <ResponsiveImage
      className={`curio-cover-image ${className ?? ''}`}
      src={src}
      srcset={info ? infoSrcsets(src, info) : storedSrcsets(src, 1600)}
      sizes={sizes}
      width={info?.width ?? 1600}
      height={info?.height ?? 900}
      blurhash={info?.blurhash}
      alt={alt}
      cover
      priority={priority}
      onFail={() => setFailed(true)}
    />
  );
}
