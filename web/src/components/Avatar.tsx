import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { infoSrcsets, ResponsiveImage, storedSrcsets, type ImageInfo } from './ResponsiveImage.tsx';

export interface AvatarProps {
  src?: string | null;
  /** full name or username; gives the initials and the colour of the fallback */
  name: string;
  size?: number;
  className?: string;
  /** decorative avatars (next to the visible name) have an empty alt */
  decorative?: boolean;
  /** above the fold (a profile's header): fetched at once */
  priority?: boolean;
  /**
   * what the API says of the picture (a member summary's profileImageInfo): exactly the made
   * widths in the srcset and its BlurHash while it loads; without it the widths are derived from
   * the URL and the stored size
   */
  info?: ImageInfo | null;
}

/** Stored profile pictures are square, at most this wide (accounts' PROFILE_IMAGE_SIZE): their variants go up to it. */
const STORED_AVATAR_WIDTH = 400;

export function initials(name: string): string {
  const parts = String(name || '?').trim().split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length >= 2 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

function hue(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/**
 * A round picture — through its responsive variants (AVIF, WebP, JPEG srcset for the displayed
 * size: exactly the made widths when `info` says them, with its BlurHash while it loads) — or
 * initials on a plain colour when there is none or it fails to load (never a gradient: the
 * issue-23 rule for fallbacks).
 */
export function Avatar({ src, name, size = 40, className, decorative = false, priority, info }: AvatarProps) {
  const { t } = useTranslation('core');
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [src]);
  const style = { width: size, height: size, fontSize: Math.max(10, Math.round(size * 0.4)) };
  const alt = decorative ? '' : t('avatar.alt', { name });
  if (src && !failed) {
    return (
      <ResponsiveImage
        className="curio-picture--contents"
        imgClassName={`curio-avatar ${className ?? ''}`}
        src={src}
        srcset={info ? infoSrcsets(src, info) : storedSrcsets(src, STORED_AVATAR_WIDTH)}
        blurhash={info?.blurhash}
        sizes={`${size}px`}
        width={size}
        height={size}
        alt={alt}
        style={style}
        cover
        priority={priority}
        onFail={() => setFailed(true)}
      />
    );
  }
  const h = hue(name || '?');
  return (
    <span
      className={`curio-avatar curio-avatar--initials ${className ?? ''}`}
      // 29 % lightness: white initials reach 4.5:1 on every hue (axe color-contrast)
      style={{ ...style, background: `hsl(${h} 55% 29%)` }}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : alt}
      aria-hidden={decorative ? true : undefined}
    >
      {initials(name)}
    </span>
  );
}
