import type { WebUser } from '../plugin-web.ts';

/**
 * Roles are compared loosely: "Museum Manager", "museum_manager" and "museumManager" are the
 * same role (the spec's two documents spell them differently).
 */
export function normalizeRole(role: string | null | undefined): string {
  return String(role ?? '').toLowerCase().replace(/[^a-z]/g, '');
}

/** Canonical display names of the known roles. */
export const ROLES = ['Traveler', 'Ambassador', 'Museum Manager', 'Admin'] as const;

export function canonicalRole(role: string | null | undefined): string {
  const n = normalizeRole(role);
  return ROLES.find((r) => normalizeRole(r) === n) ?? (role || 'Traveler');
}

export function hasRole(user: Pick<WebUser, 'role'> | null | undefined, roles: readonly string[] | undefined): boolean {
  if (!roles || roles.length === 0) return true;
  if (!user) return false;
  const mine = normalizeRole(user.role);
  return roles.some((r) => normalizeRole(r) === mine);
}
