import { useEffect, useState } from 'react';
import { GeneratedCover, infoSrcsets, variantSrcsets, blurhashDataUrl, type ImageInfo } from '../../../../web/src/index.ts';

/**
 * The museum's image — with its responsive variants (AVIF, WebP, JPEG srcset) when it is a stored
 * variant such as a featured member photo — or, when there is none or it fails to load, a designed
 * cover generated for its category (never initials on a gradient).
 */
export function MuseumImage({
  src,
  name,
  category,
  className = '',
  alt,
  sizes = '100vw',
  priority,
  info,
}: {
  src: string | null | undefined;
  name: string;
  category?: string | null;
  className?: string;
  alt?: string;
  /** the image's rendered width, for the browser's choice among the variants */
  sizes?: string;
  /** above the fold (the hero): fetched at once */
  priority?: boolean;
  /** what the API says of the image (museum pages: featuredImageInfo): its made widths, size and placeholder */
  info?: ImageInfo | null;
}) {
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [placeholder, setPlaceholder] = useState<string | null>(null);
  useEffect(() => {
    if (!info?.blurhash || typeof document === 'undefined') return;
    let live = true;
    void blurhashDataUrl(info.blurhash).then((u) => live && setPlaceholder(u));
    return () => {
      live = false;
    };
  }, [info?.blurhash]);
  if (!src || failed) {
    // alt="" marks the image decorative (its card already names the museum)
    const label = alt ?? name;
    return <GeneratedCover kind="museum" category={category} seed={name} label={label || undefined} className={`mz-image-fallback ${className}`} />;
  }
  const sets = (info ? infoSrcsets(src, info) : null) ?? variantSrcsets(src);
  const img = (
    <img
      className={`mz-image ${className}`}
      src={src}
      srcSet={sets?.jpg}
      sizes={sets ? sizes : undefined}
      width={info?.width}
      height={info?.height}
      alt={alt ?? name}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
      style={!loaded && placeholder ? { backgroundImage: `url(${placeholder})`, backgroundSize: 'cover', backgroundPosition: 'center' } : undefined}
      onLoad={() => setLoaded(true)}
      onError={() => setFailed(true)}
    />
  );
  if (!sets) return img;
  return (
    <picture style={{ display: 'contents' }}>
      <source type="image/avif" srcSet={sets.avif} sizes={sizes} />
      <source type="image/webp" srcSet={sets.webp} sizes={sizes} />
      {img}
    </picture>
  );
}
