import { Suspense, useEffect, useLayoutEffect } from 'react';
import { useAppConfig } from '../lib/app-config.tsx';
import { matchPath, Navigate, useLocation, useNavigationType, useRoutes, type RouteObject } from 'react-router-dom';
import { fitsAudience, type WebUser } from '../plugin-web.ts';
import type { PageEntry } from '../lib/plugins.tsx';
import { hasRole } from '../lib/roles.ts';
import { signInPath } from '../lib/next-path.ts';
import { Spinner } from '../components/Spinner.tsx';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { NotFound } from './NotFound.tsx';
import { PageError } from './PageError.tsx';
import { pageIsLive } from '../lib/early-presses.ts';
import { hasPluginNamespace, loadPluginNamespaces } from '../i18n.ts';

export interface RouteResolution {
  page?: PageEntry;
  redirect?: string;
}

/**
 * Spec part 1 §2: case-insensitive patterns, the first page whose path matches and whose
 * audience and roles fit wins (so '/' can be the landing page for visitors and home for members).
 * When a path matches only pages the visitor may not see: a role rule sends to '/', a
 * signed-in page sends signed-out visitors to '/auth?next=<the page>', a signed-out page sends members to '/'.
 */
export function resolveRoute(pages: readonly PageEntry[], pathname: string, user: WebUser | null, search = ''): RouteResolution {
  const matches = pages.filter((p) => matchPath({ path: p.path, caseSensitive: false, end: true }, pathname));
  for (const p of matches) {
    if (!fitsAudience(p.audience, user) || !hasRole(user, p.roles)) continue;
    return { page: p };
  }
  const first = matches[0];
  if (!first) return {};
  if (first.roles?.length && !hasRole(user, first.roles)) return { redirect: '/' };
  if ((first.audience ?? 'all') === 'signedIn' && !user) return { redirect: signInPath(pathname + search) };
  return { redirect: '/' };
}

/** Mounts with the page (in its Suspense boundary): the page is hydrated, presses made earlier can be replayed. */
function PageLive() {
  useEffect(() => pageIsLive(), []);
  return null;
}

function PageHost({ page }: { page: PageEntry }) {
  const { pathname } = useLocation();
  const C = page.component;
  const { appName } = useAppConfig();
  // the page's texts load beside its chunk rather than after it (its components ask for them as they render)
  useLayoutEffect(() => {
    if (hasPluginNamespace(page.plugin)) void loadPluginNamespaces([page.plugin]).catch(() => undefined);
  }, [page.plugin]);
  // Runs before the page's own effects (useDocumentTitle), so a page without a title shows the app name.
  useLayoutEffect(() => {
    document.title = appName;
  }, [pathname, appName]);
  return (
    <ErrorBoundary resetKey={pathname} fallback={(error, reset) => <PageError error={error} onRetry={reset} />}>
      <Suspense fallback={<Spinner center size="large" className="curio-page-spinner" />}>
        <C />
        <PageLive />
      </Suspense>
    </ErrorBoundary>
  );
}

export function AppRoutes({ pages, user }: { pages: readonly PageEntry[]; user: WebUser | null }) {
  const location = useLocation();
  const navType = useNavigationType();
  const { page, redirect } = resolveRoute(pages, location.pathname, user, location.search);

  // New page: start at the top (back/forward keeps the browser's position).
  useEffect(() => {
    if (navType !== 'POP') window.scrollTo(0, 0);
  }, [location.pathname, navType]);

  // no page to wait for (not found, a redirect): the shell is live now
  useEffect(() => {
    if (!page) pageIsLive();
  }, [page]);

  let routes: RouteObject[];
  if (page) routes = [{ path: page.path, caseSensitive: false, element: <PageHost page={page} /> }, { path: '*', element: <NotFound /> }];
  else if (redirect) routes = [{ path: '*', element: <Navigate to={redirect} replace state={{ from: location.pathname + location.search }} /> }];
  else routes = [{ path: '*', element: <NotFound /> }];
  return useRoutes(routes);
}

/** Whether the top / bottom bars show (spec: signed in, or a public page of the directory). */
export function showsNav(pathname: string, user: WebUser | null, page?: PageEntry): boolean {
  if (user) return true;
  const p = pathname.toLowerCase();
  if (['/museum', '/museums', '/discover', '/events'].some((prefix) => p.startsWith(prefix))) return true;
  return !!page?.publicNav;
}
