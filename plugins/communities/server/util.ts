// Shared with other plugins: one implementation in core.
export { normalizeTags, likeEscape, iso, encodeCursor, decodeCursor, httpUrl, blankToNull } from '../../../core/util.ts';

/** Canonical membership vocabulary: 'open' | 'private'; 'public' is the other reading of 'open'. */
export function canonicalMembership(v: unknown): 'open' | 'private' {
  return String(v ?? 'open').toLowerCase() === 'private' ? 'private' : 'open';
}
