/**
 * The installable app (issue 19): registers web/public/sw.js, and tells it which museum page the
 * visitor is reading, with the build files this tab loaded, so that it keeps that page (its
 * signed-out version) for offline reading.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const MUSEUM_PAGE = /^\/(museum|museums)\/[^/]+\/?$/i;

export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

function pageViewed(pathname: string): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then((reg) => {
    const assets = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => n.startsWith(`${location.origin}/assets/`));
    reg.active?.postMessage({ type: 'curio:page-viewed', url: pathname, assets });
  });
}

/** In the shell: each museum page viewed is offered to the service worker (once its chunks are in). */
export function OfflinePages(): null {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!MUSEUM_PAGE.test(pathname)) return;
    const timer = setTimeout(() => pageViewed(pathname), 1500);
    return () => clearTimeout(timer);
  }, [pathname]);
  return null;
}
