import { useEffect, useRef } from 'react';

/** Fired after an insight is shared, so every list on screen refetches (SWR's global mutate skips infinite keys). */
export const POSTED_EVENT = 'insights:posted';

export function announcePosted(): void {
  window.dispatchEvent(new CustomEvent(POSTED_EVENT));
}

export function useOnPosted(fn: () => void): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const h = () => ref.current();
    window.addEventListener(POSTED_EVENT, h);
    return () => window.removeEventListener(POSTED_EVENT, h);
  }, []);
}
