import { useState } from 'react';

/** The museum's image, or a gradient with its initials when there is none or it fails to load. */
export function MuseumImage({ src, name, className = '', alt }: { src: string | null | undefined; name: string; className?: string; alt?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    const letters = name
      .split(/\s+/)
      .filter((w) => /^[A-Za-zÀ-ÿ]/.test(w) && !/^(the|of|de|du|la|le|and|&)$/i.test(w))
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('');
    return (
      <div className={`mz-image-fallback ${className}`} role="img" aria-label={alt ?? name}>
        <span aria-hidden="true">{letters || '🏛'}</span>
      </div>
    );
  }
  return <img className={`mz-image ${className}`} src={src} alt={alt ?? name} loading="lazy" onError={() => setFailed(true)} />;
}
