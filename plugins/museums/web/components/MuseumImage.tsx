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
    // alt="" marks the image decorative (its card already names the museum): then no img role.
    const label = alt ?? name;
    return (
      <div className={`mz-image-fallback ${className}`} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
        <span aria-hidden="true">{letters || '🏛'}</span>
      </div>
    );
  }
  return <img className={`mz-image ${className}`} src={src} alt={alt ?? name} loading="lazy" onError={() => setFailed(true)} />;
}
