/**
 * Best time to visit (issue 20): "usually quiet / average / busy" from the share of the museum's
 * own busiest hour (of the week) that an hour reaches. Isomorphic: the server labels "now" with it,
 * the museum page labels the histogram's bars with the same thresholds.
 */
export type BusyLevel = 'quiet' | 'average' | 'busy';

/** share = this hour's verified check-ins / the busiest hour's (0..1). */
export function busyLevel(share: number): BusyLevel {
  return share >= 2 / 3 ? 'busy' : share <= 1 / 3 ? 'quiet' : 'average';
}

/** Percent of the busiest hour, 0..100, rounded; 0 when there is no data. */
export function relativeToBusiest(histogram: number[][]): number[][] {
  const max = Math.max(0, ...histogram.flat());
  return histogram.map((day) => day.map((n) => (max ? Math.round((100 * n) / max) : 0)));
}
