/** Canonical role strings; other spellings (lower case, snake case) are accepted on input. */
export const ROLES = ['Traveler', 'Ambassador', 'Museum Manager', 'Admin'] as const;
export type Role = (typeof ROLES)[number];

export function canonicalRole(input: string): Role | null {
  const k = input.trim().toLowerCase().replace(/[\s_-]+/g, '');
  const map: Record<string, Role> = {
    traveler: 'Traveler',
    traveller: 'Traveler',
    user: 'Traveler',
    ambassador: 'Ambassador',
    museummanager: 'Museum Manager',
    manager: 'Museum Manager',
    admin: 'Admin',
    administrator: 'Admin',
  };
  return map[k] ?? null;
}
