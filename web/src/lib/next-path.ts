/**
 * Where to go after signing in (issue 21 #7): `/auth?next=/communities/2`. Only same-origin
 * paths are followed: one leading '/', not '//' (another host), no backslash (browsers read
 * '/\evil' as '//evil'), no scheme, no control characters. Anything else falls back to '/'.
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || typeof raw !== 'string' || raw.length > 2000) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//')) return '/';
  if (raw.includes('\\') || /[\u0000-\u001f\u007f]/.test(raw)) return '/';
  // The URL parser must agree that it stays on this origin.
  try {
    const base = 'http://curio.invalid';
    const u = new URL(raw, base);
    if (u.origin !== base) return '/';
    const path = u.pathname + u.search + u.hash;
    if (path.toLowerCase().startsWith('/auth')) return '/';
    return path;
  } catch {
    return '/';
  }
}

/** The sign-in page, returning to `next` afterwards (the current page when omitted). */
export function signInPath(next?: string): string {
  const target = next ?? (typeof location !== 'undefined' ? location.pathname + location.search + location.hash : '/');
  const safe = safeNextPath(target);
  return safe === '/' ? '/auth' : `/auth?next=${encodeURIComponent(safe)}`;
}
