import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface AvatarProps {
  src?: string | null;
  /** full name or username; gives the initials and the colour of the fallback */
  name: string;
  size?: number;
  className?: string;
  /** decorative avatars (next to the visible name) have an empty alt */
  decorative?: boolean;
}

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

/** A round picture, or coloured initials when there is none or it fails to load. */
export function Avatar({ src, name, size = 40, className, decorative = false }: AvatarProps) {
  const { t } = useTranslation('core');
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [src]);
  const style = { width: size, height: size, fontSize: Math.max(10, Math.round(size * 0.4)) };
  const alt = decorative ? '' : t('avatar.alt', { name });
  if (src && !failed) {
    return <img className={`curio-avatar ${className ?? ''}`} src={src} alt={alt} style={style} loading="lazy" onError={() => setFailed(true)} />;
  }
  const h = hue(name || '?');
  return (
    <span
      className={`curio-avatar curio-avatar--initials ${className ?? ''}`}
      style={{ ...style, background: `linear-gradient(135deg, hsl(${h} 65% 55%), hsl(${(h + 40) % 360} 65% 45%))` }}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : alt}
      aria-hidden={decorative ? true : undefined}
    >
      {initials(name)}
    </span>
  );
}
