import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

export const HASH_TARGET_CLASS = 'curio-hash-target';

/**
 * Scrolls to the element named by the URL's fragment (`/insights/12#comment-34`) once it is on the
 * page (`ready`: the list that holds it has loaded), focuses it for keyboard and screen-reader
 * users, and highlights it for a few seconds (class `curio-hash-target`, web/src/styles.css).
 * Only ids of letters, digits and dashes are followed.
 */
export function useHashTarget(ready: boolean): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!ready || typeof document === 'undefined') return;
    const id = decodeURIComponent(hash.replace(/^#/, ''));
    if (!/^[a-z][a-z0-9-]{0,80}$/i.test(id)) return;
    const el = document.getElementById(id);
    if (!el) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
    el.classList.add(HASH_TARGET_CLASS);
    const timer = window.setTimeout(() => el.classList.remove(HASH_TARGET_CLASS), 4000);
    return () => window.clearTimeout(timer);
  }, [ready, hash]);
}
