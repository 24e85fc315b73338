/**
 * One-click follows for suggestion lists (issue 21): people and museums, each one-way here (a
 * follow that came back as an unfollow is followed again). Every follow announces itself so the
 * home feed and the suggestion lists refresh (FOLLOWED_EVENT).
 */
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../../../web/src/index.ts';

export const FOLLOWED_EVENT = 'curio:suggestion-followed';
export type FollowState = 'idle' | 'pending' | 'following' | 'requested';
export type FollowKind = 'user' | 'museum';

export async function followOnce(kind: FollowKind, id: number): Promise<'following' | 'requested'> {
  const path = kind === 'user' ? `/api/user/${id}/follow` : `/api/museums/${id}/follow`;
  let r = await apiRequest<{ following: boolean; requested?: boolean }>('POST', path);
  // a private profile: a request now waits for its owner (asking again would withdraw it)
  if (r?.requested) return 'requested';
  if (r?.following === false) r = await apiRequest('POST', path); // it was a toggle back: follow again
  return 'following';
}

/** Follow states of a list, one-click follow and "Follow all" (one after the other: the server's order). */
export function useFollowList(kind: FollowKind) {
  const [states, setStates] = useState<Record<number, FollowState>>({});
  const set = (id: number, s: FollowState) => setStates((prev) => ({ ...prev, [id]: s }));
  const follow = useCallback(
    async (id: number) => {
      set(id, 'pending');
      try {
        set(id, await followOnce(kind, id));
        window.dispatchEvent(new CustomEvent(FOLLOWED_EVENT, { detail: { kind, id } }));
      } catch (e) {
        console.error('follow failed', e); // spec: only logged here
        set(id, 'idle');
      }
    },
    [kind],
  );
  const followAll = async (ids: number[]) => {
    for (const id of ids) if ((states[id] ?? 'idle') === 'idle') await follow(id);
  };
  return { states, follow, followAll, stateOf: (id: number): FollowState => states[id] ?? 'idle' };
}

/** Calls `fn` when a suggestion was followed anywhere on the page. */
export function useOnFollowed(fn: () => void) {
  useEffect(() => {
    const h = () => fn();
    window.addEventListener(FOLLOWED_EVENT, h);
    return () => window.removeEventListener(FOLLOWED_EVENT, h);
  }, [fn]);
}
