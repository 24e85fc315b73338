/**
 * Bugs the quality suites found that their owners have not fixed yet. A case tied to one of these
 * is "expected to fail" strictly: while the bug is there the suite stays green and says so; once
 * the behaviour is right the case fails with "fixed: remove it from known-bugs.ts", so that the
 * entry and the exception disappear together. Never add an entry without an owner and a precise
 * description (route, input, observed, expected).
 */
export interface KnownBug {
  owner: string;
  description: string;
}

export const KNOWN_BUGS: Record<string, KnownBug> = {
};

export function knownBug(id: string): KnownBug {
  const b = KNOWN_BUGS[id];
  if (!b) throw new Error(`Unknown bug id ${id}: add it to core/quality/known-bugs.ts`);
  return b;
}
