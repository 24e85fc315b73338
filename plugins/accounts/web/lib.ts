import type { GetUserProfileResponse, GetMySessionsResponse, GetPreferencesResponse } from '../../../web/src/api/generated/accounts.ts';

export type Profile = GetUserProfileResponse;
export type SessionInfo = GetMySessionsResponse['sessions'][number];
export type Preferences = GetPreferencesResponse;

export const OWN_PROFILE_KEY = '/api/user';
export const PREFERENCES_KEY = '/api/user/preferences';
export const SESSIONS_KEY = '/api/auth/my-sessions';
export const BADGE_STRIP_SIZE = 6;
export const BIO_MAX = 200;
export const PASSWORD_MIN = 6;
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif'];
export const EXPIRING_SOON_MS = 24 * 3600 * 1000;
export const SESSIONS_POLL_MS = 30_000;
export const LOGOUT_ALL_MIN_MS = 1000;

export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string }): string {
  return [u.firstName, u.lastName].filter((x) => x && x.trim()).join(' ') || u.username;
}

/** The API path of a profile from the route parameter: an id, a slug or a username. */
export function profileKey(param: string | undefined): string {
  if (!param) return OWN_PROFILE_KEY;
  if (/^\d+$/.test(param) && Number(param) <= 2147483647) return `/api/user/${param}`;
  return `/api/user/slug/${encodeURIComponent(param)}`;
}

/** Marketing-style rounded figures: 7, 40+, 500+, 12K+, 3M+. */
export function roundedCount(n: number): string {
  if (n < 10) return String(n);
  if (n < 100) return `${Math.floor(n / 10) * 10}+`;
  if (n < 1000) return `${Math.floor(n / 100) * 100}+`;
  if (n < 1_000_000) return `${Math.floor(n / 1000)}K+`;
  return `${Math.floor(n / 1_000_000)}M+`;
}

/** A short device description from a user agent ("Chrome on Linux"). */
export function describeAgent(ua: string | null | undefined): string | null {
  if (!ua) return null;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (browser && os) return `${browser} · ${os}`;
  return browser ?? os ?? ua.slice(0, 60);
}

/** SWR keys of every view of one user's profile (to refresh them after a change). */
export function isProfileKey(key: unknown): boolean {
  const k = Array.isArray(key) ? key[0] : key;
  return typeof k === 'string' && (k === OWN_PROFILE_KEY || k.startsWith('/api/user/'));
}
