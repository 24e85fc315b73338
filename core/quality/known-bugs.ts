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
  'pglite-stale-lock-after-crash': {
    owner: 'core (core/db.ts)',
    description:
      'After the app is killed (SIGKILL, OOM, power cut of the container) a restart on the embedded database is refused for up to 15 s with "The embedded database … is in use by ' +
      'another process" — the proper-lockfile lock of the dead process must go stale first (stale: 15000). A supervisor that restarts at once (systemd Restart=always, RestartSec ' +
      '100 ms) hits its start limit and gives up. Expected: a lock whose owner process is gone is taken over at once (record the pid in the lock and check it is alive).',
  },
};

export function knownBug(id: string): KnownBug {
  const b = KNOWN_BUGS[id];
  if (!b) throw new Error(`Unknown bug id ${id}: add it to core/quality/known-bugs.ts`);
  return b;
}
