/**
 * Whether a check-in counts as a real visit (issue 20). Isomorphic and pure, so the rule is
 * unit-tested on its own and the server decides with it.
 *
 *  - The position must come with an accuracy of at most `maxAccuracyM` (a fix good to 5 km says
 *    nothing about being inside a museum).
 *  - Near: distance to the museum minus the reported accuracy within `radiusM` (default 300 m).
 *  - Possible: from the member's previous verified check-in, the straight-line speed needed is at
 *    most `maxSpeedKmh`. Museums closer together than twice the radius (one museum quarter) are
 *    always reachable.
 */
export type UnverifiedReason = 'no_position' | 'no_museum_location' | 'inaccurate' | 'too_far' | 'impossible_journey';

export interface VerifyOptions {
  radiusM: number;
  maxAccuracyM: number;
  maxSpeedKmh: number;
}
export const DEFAULT_VERIFY: VerifyOptions = { radiusM: 300, maxAccuracyM: 1000, maxSpeedKmh: 900 };

export interface Position {
  latitude: number;
  longitude: number;
}

/** Great-circle distance in metres (R = 6 371 008.8 m). */
export function distanceMeters(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function verifyCheckIn(input: {
  position: (Position & { accuracy: number }) | null;
  museum: Position | null;
  previous: { museum: Position; at: Date } | null;
  at: Date;
  opts?: VerifyOptions;
}): { verified: boolean; reason: UnverifiedReason | null; distanceM: number | null } {
  const o = input.opts ?? DEFAULT_VERIFY;
  if (!input.position) return { verified: false, reason: 'no_position', distanceM: null };
  if (!input.museum) return { verified: false, reason: 'no_museum_location', distanceM: null };
  const distanceM = Math.round(distanceMeters(input.position, input.museum));
  if (!(input.position.accuracy >= 0) || input.position.accuracy > o.maxAccuracyM) return { verified: false, reason: 'inaccurate', distanceM };
  if (distanceM - input.position.accuracy > o.radiusM) return { verified: false, reason: 'too_far', distanceM };
  if (input.previous) {
    const hop = distanceMeters(input.previous.museum, input.museum);
    const hours = Math.max(1, (input.at.getTime() - input.previous.at.getTime()) / 1000) / 3600;
    if (hop > 2 * o.radiusM && hop / 1000 / hours > o.maxSpeedKmh) return { verified: false, reason: 'impossible_journey', distanceM };
  }
  return { verified: true, reason: null, distanceM };
}
