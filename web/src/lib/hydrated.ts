import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False on the server and during the render that hydrates its HTML, true from the next render on.
 * For what only the browser knows (the viewer's time zone, for one): drawing it in the hydrating
 * render would differ from the server's HTML, and React would throw that HTML away.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
