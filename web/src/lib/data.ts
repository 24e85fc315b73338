/**
 * SWR with the spec's cache and retry policy (part 1 §7, §9): GET on the key's first element,
 * 401 → null, queries retried ≤ 3 times (not on 4xx except 401/408) with 1 s doubling to 30 s,
 * stale after 5 minutes, no refetch on window focus, requests wait while offline.
 */
import { useCallback, useRef, useState } from 'react';
import useSWR, { type Middleware, type SWRConfiguration, type SWRResponse, type Key } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { ApiError, apiRequest, isRetryable, retryDelay, withRetry, MUTATION_RETRIES, QUERY_RETRIES, toastApiError } from './api.ts';

export const STALE_TIME = 5 * 60 * 1000;

export type ApiKey = string | readonly [string, ...unknown[]] | null | false | undefined;

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Resolves when the browser is online ("online only" network mode). */
export function whenOnline(): Promise<void> {
  if (isOnline()) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

/** The default fetcher: GET on the first element of the key; a 401 answer gives null. */
export async function defaultFetcher<T = unknown>(key: string | readonly unknown[]): Promise<T | null> {
  const url = Array.isArray(key) ? String(key[0]) : String(key);
  await whenOnline();
  try {
    return await apiRequest<T>('GET', url);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** The retry rule shared by queries. */
export function makeErrorRetry(maxRetries: number, shouldRetry: (e: unknown) => boolean = isRetryable): NonNullable<SWRConfiguration['onErrorRetry']> {
  return (error, _key, _config, revalidate, { retryCount }) => {
    if (retryCount > maxRetries || !shouldRetry(error)) return;
    setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount));
  };
}

/**
 * API answers the server put into the page it rendered (`<script id="curio-primed">`, the public
 * pages: plugins/publicweb): the first render of a hook with such a key shows that answer and does
 * not ask again while it is fresh (5 minutes from the page load); after that, or after a
 * `mutate`, SWR works as usual.
 */
let primed: Map<string, unknown> = (() => {
  if (typeof document === 'undefined') return new Map();
  const el = document.getElementById('curio-primed');
  if (!el?.textContent) return new Map();
  try {
    return new Map(Object.entries(JSON.parse(el.textContent) as Record<string, unknown>));
  } catch {
    return new Map();
  }
})();
let primedAt = Date.now();

/** On the server (web/src/entry-server.tsx): the answers of the page being rendered. */
export function setPrimedAnswers(answers: Record<string, unknown>): void {
  primed = new Map(Object.entries(answers));
  primedAt = Date.now();
}

/** The server's answer for `key` in this page, while fresh (undefined: none). */
export function primedAnswer<T = unknown>(key: string): { data: T } | undefined {
  if (!primed.has(key) || Date.now() - primedAt > STALE_TIME) return undefined;
  return { data: primed.get(key) as T };
}

const primedMiddleware: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const hit = typeof key === 'string' ? primedAnswer(key) : undefined;
  // The answer goes into the cache too, not only as fallbackData: a functional mutate
  // (`mutate((cur) => …)`, e.g. an RSVP updating one event of a list) reads the cache, and would
  // otherwise get undefined and wipe the list. Written once, before SWR reads it (same render).
  if (hit && typeof key === 'string') {
    const cache = (config as { cache?: { get(k: string): { data?: unknown } | undefined; set(k: string, v: unknown): void } }).cache;
    if (cache && cache.get(key)?.data === undefined) cache.set(key, { ...(cache.get(key) ?? {}), data: hit.data });
  }
  return useSWRNext(key, fetcher, hit ? ({ ...config, fallbackData: hit.data, revalidateOnMount: false } as typeof config) : config);
};

/** Passed to <SWRConfig value={swrConfig}> by the shell. */
export const swrConfig: SWRConfiguration = {
  use: [primedMiddleware],
  fetcher: defaultFetcher as any,
  dedupingInterval: STALE_TIME,
  revalidateOnFocus: false,
  revalidateOnReconnect: true,
  revalidateIfStale: true,
  shouldRetryOnError: true,
  errorRetryCount: QUERY_RETRIES,
  onErrorRetry: makeErrorRetry(QUERY_RETRIES),
};

/** `const { data, error, isLoading, mutate } = useApi<Museum[]>('/api/museums/featured?limit=3')` */
export function useApi<T>(key: ApiKey, config?: SWRConfiguration<T | null, ApiError>): SWRResponse<T | null, ApiError> {
  return useSWR<T | null, ApiError>((key || null) as Key, defaultFetcher as any, config);
}

export interface CursorPage<T> {
  items: T[];
  nextCursor: string | number | null;
}

function withParams(url: string, params: Record<string, string | number | null | undefined>): string {
  const [path, query = ''] = url.split('?');
  const sp = new URLSearchParams(query);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') sp.set(k, String(v));
  const q = sp.toString();
  return q ? `${path}?${q}` : path;
}

/**
 * Cursor-paged lists (`?cursor=…&limit=…` → `{ items, nextCursor }`), for InfiniteList.
 * A plain array answer is accepted as a single, final page.
 */
export function useInfiniteApi<T>(url: string | null, opts: { limit?: number; config?: Parameters<typeof useSWRInfinite>[2] } = {}) {
  const getKey = (index: number, prev: CursorPage<T> | T[] | null) => {
    if (!url) return null;
    if (index === 0) return withParams(url, { limit: opts.limit });
    if (!prev || Array.isArray(prev) || prev.nextCursor === null || prev.nextCursor === undefined) return null;
    return withParams(url, { cursor: prev.nextCursor, limit: opts.limit });
  };
  // the first page, when the server put it into the page (publicweb: a museum's insights, a
  // public profile's insights): rendered at once on the server and in the browser, not asked again
  const firstKey = url ? withParams(url, { limit: opts.limit }) : null;
  const hit = firstKey ? primedAnswer<CursorPage<T> | T[]>(firstKey) : undefined;
  const res = useSWRInfinite<CursorPage<T> | T[] | null, ApiError>(getKey as any, defaultFetcher as any, {
    revalidateFirstPage: false,
    ...(hit ? { fallbackData: [hit.data], revalidateOnMount: false } : {}),
    ...(opts.config as object),
  });
  const pages = res.data ?? [];
  const items: T[] = pages.flatMap((p) => (Array.isArray(p) ? p : p?.items ?? []));
  const last = pages[pages.length - 1];
  const hasMore = !!last && !Array.isArray(last) && last.nextCursor !== null && last.nextCursor !== undefined;
  const isLoadingMore = res.isValidating && res.size > pages.length;
  return {
    items,
    pages,
    error: res.error,
    isLoading: res.isLoading,
    isLoadingMore,
    isValidating: res.isValidating,
    hasMore,
    isEmpty: !res.isLoading && !res.error && items.length === 0,
    loadMore: () => (hasMore && !isLoadingMore ? res.setSize(res.size + 1) : Promise.resolve(res.data)),
    mutate: res.mutate,
  };
}

export interface MutationOptions<R> {
  /** retries on 5xx / network / 401 / 408; default 2 (spec) */
  retries?: number;
  baseDelay?: number;
  maxDelay?: number;
  /** show the spec's status toast when it fails (default false: the caller decides) */
  toastOnError?: boolean;
  onSuccess?: (result: R) => void;
  onError?: (error: ApiError) => void;
}

/**
 * A mutation with the spec's retry policy and pending state:
 * `const { trigger, isPending } = useMutation((body) => createPost(body))`.
 */
export function useMutation<A extends unknown[], R>(fn: (...args: A) => Promise<R>, opts: MutationOptions<R> = {}) {
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const optsRef = useRef(opts);
  optsRef.current = opts;
  const trigger = useCallback(async (...args: A): Promise<R> => {
    const o = optsRef.current;
    setPending(true);
    setError(null);
    try {
      const result = await withRetry(() => fnRef.current(...args), {
        retries: o.retries ?? MUTATION_RETRIES,
        baseDelay: o.baseDelay,
        maxDelay: o.maxDelay,
      });
      o.onSuccess?.(result);
      return result;
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(0, (e as Error)?.message || 'An unexpected error occurred', null);
      setError(err);
      if (o.toastOnError) toastApiError(err);
      o.onError?.(err);
      throw err;
    } finally {
      setPending(false);
    }
  }, []);
  return { trigger, isPending, error, reset: () => setError(null) };
}
