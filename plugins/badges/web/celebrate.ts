/**
 * Celebrating earned badges. Pages that get `badges` in an answer (check-in, new insight) call
 * `celebrate(answer.badges)` — or, without importing this file, dispatch the DOM event
 * BADGES_EARNED_EVENT (see plugins/badges/public.ts). <BadgeCelebrations> (mounted in the top bar)
 * shows one toast per badge, once per badge and member, and refreshes the badge lists.
 *
 * The toasts' code loads lazily, after the page: an answer can come back before it is there (a
 * member who checks in as soon as the museum page is drawn). So this file, which loads with the
 * app, catches the event from the start and keeps what arrives until the toasts take it.
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

type Taker = (badges: CelebratedBadge[]) => void;

/** At most this many answers wait for the toasts (a signed-out tab never takes them). */
const WAITING_MAX = 20;
const waiting: CelebratedBadge[][] = [];
let taker: Taker | null = null;
let catching = false;

/** Starts catching BADGES_EARNED_EVENT; called once when the plugin's web part loads. */
export function catchEarnedBadges(): void {
  if (catching || typeof window === 'undefined') return;
  catching = true;
  window.addEventListener(BADGES_EARNED_EVENT, (e) => {
    const list = (e as CustomEvent).detail as CelebratedBadge[] | null | undefined;
    if (!Array.isArray(list) || !list.length) return;
    if (taker) taker(list);
    else if (waiting.push(list) > WAITING_MAX) waiting.shift();
  });
}

/**
 * Hands every earned-badges answer to `fn`: first those caught before, then each as it comes.
 * Returns the function that stops handing them (then they wait again).
 */
export function takeEarnedBadges(fn: Taker): () => void {
  taker = fn;
  for (const list of waiting.splice(0)) fn(list);
  return () => {
    if (taker === fn) taker = null;
  };
}
