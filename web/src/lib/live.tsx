/**
 * Live updates in the browser: one EventSource per tab on GET /api/stream (core/stream.ts) while
 * signed in. Every event is a hint: the SWR keys that plugins map to its type (WebPlugin.live) are
 * revalidated, and components may listen with useLiveEvent. When the stream fails it reconnects
 * with backoff (1 s doubling to 60 s), resuming from the last event id; the pages' own SWR
 * revalidation (focus, intervals) keeps working meanwhile, and everything mapped is revalidated
 * once the stream is back. The first connection waits until the page has loaded and its requests
 * have been quiet for a second: the stream never competes with what the page needs first, and tools
 * that wait for an idle network (puppeteer's networkidle0, 500 ms) still see one.
 *
 * Why a tab could wait for the 15 s ceiling: every request resets that quiet second, and a member
 * (or a test) acting on the page as soon as it looks ready keeps requests going — each click,
 * keystroke or lazy image comes less than a second after the last — so the quiet second never came
 * and the stream opened only at the ceiling. The page is past its first load once the member acts
 * on it: the first pointer or key press after the document has loaded opens the stream at once
 * (the ceiling stays as the backstop for a page that is busy on its own).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { mutate } from 'swr';
import { usePluginRegistry } from './plugins.tsx';
import { apiActivity } from './api.ts';

export const LIVE_EVENT = 'curio:live';
/**
 * Given to useLiveEvent listeners (not a server event) when the tab's stream opens, the first time
 * or again after it was down: what was published only to open streams meanwhile never reached it.
 */
export const STREAM_OPEN = 'stream.open';

export interface LiveEventDetail {
  type: string;
  data: any;
}

function keyMatches(key: unknown, prefixes: string[]): boolean {
  const k = typeof key === 'string' ? key : Array.isArray(key) && typeof key[0] === 'string' ? key[0] : '';
  return prefixes.some((p) => k.startsWith(p));
}

// whether this tab's stream is open: pages poll (SWR refreshInterval) only while it is not
let connected = false;
const statusListeners = new Set<() => void>();
function setConnected(v: boolean) {
  if (connected === v) return;
  connected = v;
  for (const l of statusListeners) l();
}

/** True while the live stream is open; use it to poll only when it is down (`refreshInterval: live ? 0 : 15000`). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (fn) => {
      statusListeners.add(fn);
      return () => statusListeners.delete(fn);
    },
    () => connected,
    () => false,
  );
}

/** The latest moment (performance.now()) a request of the page ended: API calls, scripts, styles, images. */
function lastActivity(): number {
  let last = apiActivity().lastEnd;
  for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    if (!e.name.includes('/api/stream')) last = Math.max(last, e.responseEnd || e.startTime);
  }
  return last;
}

const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Calls back once the page is loaded and quiet for `quietMs`, or loaded and the member acted on it
 * (a pointer or key press), or after `maxMs`; answers a cancel function.
 */
function whenQuiet(fn: () => void, quietMs = 1000, maxMs = 15_000): () => void {
  const start = performance.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let acted = false;
  let done = false;
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (const t of INTERACTIONS) window.removeEventListener(t, onAct, true);
  };
  const fire = () => {
    if (done) return;
    done = true;
    stop();
    fn();
  };
  const loaded = () => document.readyState === 'complete';
  function onAct() {
    acted = true;
    if (loaded()) fire();
  }
  const tick = () => {
    const now = performance.now();
    const quiet = loaded() && apiActivity().inFlight === 0 && now - lastActivity() >= quietMs;
    if (quiet || (acted && loaded()) || now - start >= maxMs) fire();
    else timer = setTimeout(tick, 200);
  };
  for (const t of INTERACTIONS) window.addEventListener(t, onAct, { capture: true, passive: true });
  timer = setTimeout(tick, 200);
  return () => {
    done = true;
    stop();
  };
}

/** Calls `fn` for live events of these types (while mounted). */
export function useLiveEvent(types: string | string[], fn: (data: any, type: string) => void): void {
  const ref = useRef(fn);
  ref.current = fn;
  const list = Array.isArray(types) ? types.join('|') : types;
  useEffect(() => {
    const wanted = new Set(list.split('|'));
    const on = (e: Event) => {
      const d = (e as CustomEvent<LiveEventDetail>).detail;
      if (d && wanted.has(d.type)) ref.current(d.data, d.type);
    };
    window.addEventListener(LIVE_EVENT, on);
    return () => window.removeEventListener(LIVE_EVENT, on);
  }, [list]);
}

/** Mounted once by the layout for a signed-in member. */
export function LiveStream({ userId }: { userId: number }) {
  const registry = usePluginRegistry();
  const mapRef = useRef<Record<string, string[]>>({});
  const map: Record<string, string[]> = {};
  for (const p of registry.plugins) for (const [type, prefixes] of Object.entries(p.live ?? {})) map[type] = [...(map[type] ?? []), ...prefixes];
  mapRef.current = map;

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let es: EventSource | null = null;
    let lastId = '';
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    // the page's data was read before the stream opened: the first open catches up like a reconnect
    let wasDown = true;
    const types = () => Object.keys(mapRef.current);

    const revalidate = (prefixes: string[]) => {
      if (prefixes.length) void mutate((key) => keyMatches(key, prefixes));
    };
    const onEvent = (e: MessageEvent) => {
      if (e.lastEventId) lastId = e.lastEventId;
      let data: any = null;
      try {
        data = JSON.parse(e.data);
      } catch {
        /* text */
      }
      revalidate(mapRef.current[e.type] ?? []);
      window.dispatchEvent(new CustomEvent<LiveEventDetail>(LIVE_EVENT, { detail: { type: e.type, data } }));
    };
    const known = ['message.created', 'message.deleted', 'conversation.read', 'conversation.updated', 'notification.created', 'post.commented', 'feed.new'];
    const connect = () => {
      if (stopped) return;
      const url = `/api/stream${lastId ? `?lastEventId=${encodeURIComponent(lastId)}` : ''}`;
      es = new EventSource(url, { withCredentials: true });
      for (const t of new Set([...known, ...types()])) es.addEventListener(t, onEvent as EventListener);
      es.onopen = () => {
        delay = 1000;
        setConnected(true);
        if (wasDown) {
          wasDown = false;
          // whatever the resume window could not cover
          revalidate(Object.values(mapRef.current).flat());
          // and to the pages: hints sent only to open streams (LiveApi.publishToOpen: the home feed's
          // feed.new) were not kept for this tab while it had none
          window.dispatchEvent(new CustomEvent<LiveEventDetail>(LIVE_EVENT, { detail: { type: STREAM_OPEN, data: null } }));
        }
      };
      es.onerror = () => {
        wasDown = true;
        setConnected(false);
        // the browser retries by itself unless the answer was an error (then the source is closed)
        if (es && es.readyState === EventSource.CLOSED) {
          es.close();
          es = null;
          timer = setTimeout(connect, delay + Math.random() * 500);
          delay = Math.min(60_000, delay * 2);
        }
      };
    };
    const cancelWait = whenQuiet(connect);
    // A page left for another keeps its connections while the browser holds it (back/forward cache):
    // close the stream on pagehide, or every page visited holds one of the host's six connections
    // until navigation stalls; reconnect (resuming from the last event) if the page is shown again.
    const onHide = () => {
      if (timer) clearTimeout(timer);
      es?.close();
      es = null;
      wasDown = true;
      setConnected(false);
    };
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted && !es && !stopped) connect();
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      cancelWait();
      stopped = true;
      if (timer) clearTimeout(timer);
      es?.close();
      setConnected(false);
    };
  }, [userId]);
  return null;
}
