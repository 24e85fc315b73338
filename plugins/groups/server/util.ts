// Shared with other plugins: one implementation in core.
export { normalizeTags, likeEscape, iso, encodeCursor, decodeCursor, httpUrl, blankToNull } from '../../../core/util.ts';
