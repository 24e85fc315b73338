/** Canonical role strings; other spellings (lower case, snake case) are accepted on input. */
export const ROLES = ['Traveler', 'Ambassador', 'Museum Manager', 'Admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Accepted spellings, once squeezed (lower case, no spaces, dashes or underscores). A Map, not an
 * object literal: a lookup of "constructor" found Object.prototype's and answered a function (a 500
 * when it was written as a role).
 */
const SPELLINGS = new Map<string, Role>([
  ['traveler', 'Traveler'],
  ['traveller', 'Traveler'],
  ['user', 'Traveler'],
  ['ambassador', 'Ambassador'],
  ['museummanager', 'Museum Manager'],
  ['manager', 'Museum Manager'],
  ['admin', 'Admin'],
  ['administrator', 'Admin'],
]);

export function canonicalRole(input: string): Role | null {
  return SPELLINGS.get(input.trim().toLowerCase().replace(/[\s_-]+/g, '')) ?? null;
}
