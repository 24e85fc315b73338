/**
 * Auth state (spec part 1 §4, §7, §9): GET /api/auth/user through SWR; 401 means signed out.
 * Up to 5 retries (none after a 401; none after other 4xx answers except 408/429, which cannot
 * get better by retrying), 1 s doubling to 30 s, fresh for 2 minutes, refetched on window focus
 * and reconnect. Three consecutive failures toast 'Connection Issue' (once per distinct message).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import useSWR, { preload, useSWRConfig, type SWRConfiguration } from 'swr';
import { useNavigate } from 'react-router-dom';
import type { WebUser } from '../plugin-web.ts';
import { ApiError, apiRequest, retryDelay, statusOf, withRetry } from './api.ts';
import { primedAnswer, whenOnline } from './data.ts';
import { toast } from './toast.tsx';
import { t } from '../i18n.ts';
import { useOnline } from './online.ts';

export const AUTH_KEY = '/api/auth/user';
export const AUTH_RETRIES = 5;
export const AUTH_FRESH_MS = 2 * 60 * 1000;
export const AUTH_FAILURES_BEFORE_TOAST = 3;
export const SESSION_NOTICE_DELAY_MS = 2000;

export interface AuthState {
  user: WebUser | null;
  /** the first auth check has not answered yet */
  isLoading: boolean;
  /** the last auth check failed (not a 401) */
  isError: boolean;
  /** a failed auth check will be retried */
  isRetrying: boolean;
  error: ApiError | null;
  /** re-checks the session */
  refresh: () => Promise<WebUser | null>;
  /** after sign-in / sign-up: sets the user without a round trip */
  setUser: (user: WebUser | null) => Promise<void>;
  /** POST /api/logout (retried once), clears all cached data, toasts, goes to / */
  logout: () => Promise<void>;
  /** 'Session may have expired' notice: a previously signed-in user is gone */
  sessionNotice: boolean;
  dismissSessionNotice: () => void;
}

const AuthContext = createContext<AuthState | null>(null);

function authRetryable(e: unknown): boolean {
  const s = statusOf(e);
  if (s === undefined || s === 0 || s >= 500) return true;
  return s === 408 || s === 429;
}

async function authFetcher(url: string): Promise<WebUser | null> {
  await whenOnline();
  try {
    return await apiRequest<WebUser>('GET', url);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    console.warn('Curio: the auth check failed', e);
    throw e;
  }
}

/**
 * Starts the first auth check before React renders (main.tsx), in parallel with GET /api/config
 * and the plugins' texts instead of after them; AuthProvider's first request takes it over.
 */
export function preloadAuth(): void {
  if (primedAnswer(AUTH_KEY)) return; // the page the server rendered carries the answer
  preload(AUTH_KEY, authFetcher).catch(() => undefined);
}

export function AuthProvider({ children, enabled = true }: { children: ReactNode; enabled?: boolean }) {
  const { mutate: globalMutate } = useSWRConfig();
  const navigate = useNavigate();
  const online = useOnline();
  const [retrying, setRetrying] = useState(false);
  const failures = useRef(0);
  const toasted = useRef(new Set<string>());

  const config: SWRConfiguration<WebUser | null, ApiError> = {
    dedupingInterval: AUTH_FRESH_MS,
    revalidateOnFocus: true,
    revalidateOnReconnect: true,
    revalidateIfStale: true,
    shouldRetryOnError: true,
    errorRetryCount: AUTH_RETRIES,
    onErrorRetry: (error, _key, _cfg, revalidate, { retryCount }) => {
      if (retryCount > AUTH_RETRIES || !authRetryable(error)) {
        setRetrying(false);
        return;
      }
      setRetrying(true);
      setTimeout(() => void revalidate({ retryCount }), retryDelay(retryCount));
    },
    onError: (error) => {
      failures.current += 1;
      const message = error?.message || 'An unexpected error occurred';
      if (failures.current >= AUTH_FAILURES_BEFORE_TOAST && !toasted.current.has(message)) {
        toasted.current.add(message);
        toast({ title: t('core:toast.connectionIssue'), description: t('core:toast.connectionIssueDescription'), variant: 'destructive' });
      }
    },
    onSuccess: () => {
      failures.current = 0;
      toasted.current.clear();
      setRetrying(false);
    },
  };
  const swr = useSWR<WebUser | null, ApiError>(enabled ? AUTH_KEY : null, authFetcher, config);
  const user = enabled ? swr.data ?? null : null;
  const isError = !!swr.error;
  const isLoading = enabled && swr.data === undefined && !swr.error;

  // Back online with no user after an error: check again.
  const { mutate } = swr;
  useEffect(() => {
    if (!enabled) return;
    const onOnline = () => {
      if (!swr.data && swr.error) void mutate();
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [enabled, swr.data, swr.error, mutate]);

  // Session notice: 2 s after a previously signed-in user is absent, online and not loading.
  const hadUser = useRef(false);
  const intentional = useRef(false);
  const [sessionNotice, setSessionNotice] = useState(false);
  useEffect(() => {
    if (user) {
      hadUser.current = true;
      intentional.current = false;
      setSessionNotice(false);
      return;
    }
    if (!hadUser.current || intentional.current || !online || isLoading) return;
    const timer = setTimeout(() => setSessionNotice(true), SESSION_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [user, online, isLoading]);

  const dismissSessionNotice = useCallback(() => {
    hadUser.current = false;
    setSessionNotice(false);
  }, []);

  const refresh = useCallback(async () => {
    if (!enabled) return null;
    const u = await mutate();
    return u ?? null;
  }, [enabled, mutate]);

  const setUser = useCallback(
    async (u: WebUser | null) => {
      if (!u) intentional.current = true;
      await mutate(u, { revalidate: false });
    },
    [mutate],
  );

  const logout = useCallback(async () => {
    intentional.current = true;
    let ok = true;
    try {
      await withRetry(() => apiRequest('POST', '/api/logout'), {
        retries: 1,
        baseDelay: 1000,
        retryIf: (e) => statusOf(e) !== 401,
      });
    } catch (e) {
      ok = statusOf(e) === 401;
    }
    // Signed out locally whatever the answer; then every other cached answer is dropped.
    await mutate(null, { revalidate: false });
    await globalMutate((key) => key !== AUTH_KEY, undefined, { revalidate: false });
    hadUser.current = false;
    setSessionNotice(false);
    toast({
      title: t('core:toast.signedOut'),
      description: ok ? t('core:toast.signedOutDescription') : t('core:toast.signedOutLocally'),
      variant: ok ? 'success' : 'warning',
    });
    navigate('/');
  }, [globalMutate, mutate, navigate]);

  const value = useMemo<AuthState>(
    () => ({
      user,
      isLoading,
      isError,
      isRetrying: retrying && isError,
      error: swr.error ?? null,
      refresh,
      setUser,
      logout,
      sessionNotice,
      dismissSessionNotice,
    }),
    [user, isLoading, isError, retrying, swr.error, refresh, setUser, logout, sessionNotice, dismissSessionNotice],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The signed-in member, null for a visitor or outside <AuthProvider> (the slots' audience rule). */
export function useOptionalUser(): WebUser | null {
  return useContext(AuthContext)?.user ?? null;
}

/** `const { user, isLoading, logout } = useAuth()` */
export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth() must be used inside <AuthProvider>');
  return ctx;
}
