/**
 * Badge rules shared by the server and the browser (admin form, profile): requirement types,
 * §9 defaults and the icon rule. The icon is "at most 2 characters" as a person counts them:
 * grapheme clusters, so 👨‍👩‍👧‍👦 (7 code points, 11 UTF-16 units) is one character.
 */
export const REQUIREMENT_TYPES = ['check_ins', 'posts', 'likes', 'follows', 'community_joins', 'meetups_attended', 'fact_confirmations'] as const;
export type RequirementType = (typeof REQUIREMENT_TYPES)[number];

export const BADGE_DEFAULTS = {
  icon: '🏆',
  color: '#3B82F6',
  requirement: { type: 'check_ins' as RequirementType, count: 5 },
};

export const ICON_MAX_GRAPHEMES = 2;
export const BADGE_STRIP_SIZE = 6;

export const ICON_MESSAGE = 'Icon must be at most 2 characters';
export const ICON_REQUIRED_MESSAGE = 'Icon is required';

let segmenter: Intl.Segmenter | null = null;

/** Number of user-perceived characters (extended grapheme clusters). */
export function graphemeCount(s: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of segmenter.segment(s)) n++;
  return n;
}

/** null when the icon is acceptable, else the message to show. */
export function iconProblem(icon: string | null | undefined): string | null {
  const s = (icon ?? '').trim();
  if (!s) return ICON_REQUIRED_MESSAGE;
  if (/[\p{Cc}\s]/u.test(s)) return ICON_MESSAGE;
  if (graphemeCount(s) > ICON_MAX_GRAPHEMES) return ICON_MESSAGE;
  return null;
}
