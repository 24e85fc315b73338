/**
 * Celebrating earned badges. Pages that get `badges` in an answer (check-in, new insight) call
 * `celebrate(answer.badges)` — or, without importing this file, dispatch the DOM event
 * BADGES_EARNED_EVENT (see plugins/badges/public.ts). <BadgeCelebrations> (mounted in the top bar)
 * shows one toast per badge, once per badge and member, and refreshes the badge lists.
 */
import { BADGES_EARNED_EVENT } from '../public.ts';

export { BADGES_EARNED_EVENT };

export interface CelebratedBadge {
  id: number;
  name: string;
  description?: string | null;
  icon?: string | null;
  color?: string | null;
  earnedAt?: string | null;
}

export function celebrate(badges: CelebratedBadge[] | null | undefined): void {
  if (!badges?.length || typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent(BADGES_EARNED_EVENT, { detail: badges }));
}
