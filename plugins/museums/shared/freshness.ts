/** Fact groups whose freshness is tracked (issue 20), and which museum fields belong to each. */
export const FACT_GROUPS = ['hours', 'admission', 'accessibility', 'contact'] as const;
export type FactGroup = (typeof FACT_GROUPS)[number];
export type ConfirmationSource = 'manager' | 'admin' | 'suggestion' | 'member';
export interface Confirmation {
  confirmedAt: string;
  source: ConfirmationSource;
}
export type Freshness = Record<FactGroup, Confirmation | null>;

export const GROUP_FIELDS: Record<FactGroup, readonly string[]> = {
  hours: ['openingHours', 'timezone'],
  admission: ['admission'],
  accessibility: ['accessibility'],
  contact: ['phone', 'email', 'website', 'address', 'address2', 'city', 'state', 'zipCode', 'country'],
};

/** The groups touched by a set of changed fields. */
export function groupsOf(fields: Iterable<string>): FactGroup[] {
  const set = new Set(fields);
  return FACT_GROUPS.filter((g) => GROUP_FIELDS[g].some((f) => set.has(f)));
}

/** The group to ask about: never confirmed first, then the oldest confirmation (FACT_GROUPS order breaks ties). */
export function oldestGroup(f: Freshness, skip: ReadonlySet<string> = new Set()): FactGroup | null {
  let best: FactGroup | null = null;
  for (const g of FACT_GROUPS) {
    if (skip.has(g)) continue;
    if (best === null) {
      best = g;
      continue;
    }
    const a = f[g]?.confirmedAt ?? '';
    const b = f[best]?.confirmedAt ?? '';
    if (a < b) best = g;
  }
  return best;
}
