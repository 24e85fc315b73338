/**
 * The public pages, feeds and sitemap read their data through the app's own JSON API, as the
 * visitor (their session cookie is passed on): each owning plugin applies its own rules (accounts'
 * one privacy rule, blocks, private meetups), and the data is exactly what the web app would fetch,
 * so it primes the client's SWR cache. The request goes to the address and port the visitor's
 * request came in on.
 */
import type Koa from 'koa';

export interface ApiAnswer<T> {
  status: number;
  data: T | null;
}

export type ApiGet = <T = any>(path: string) => Promise<ApiAnswer<T>>;

function baseOf(ctx: Koa.Context): string {
  const sock = ctx.req.socket;
  let host = sock.localAddress ?? '127.0.0.1';
  if (host.startsWith('::ffff:')) host = host.slice(7);
  if (host === '::' || host === '0.0.0.0') host = '127.0.0.1';
  if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${sock.localPort}`;
}

/** GET on the app's API as the visitor of `ctx` (`anonymous`: as a signed-out visitor). */
export function apiClient(ctx: Koa.Context, opts: { anonymous?: boolean } = {}): ApiGet {
  const base = baseOf(ctx);
  const headers: Record<string, string> = { accept: 'application/json', 'x-curio-prerender': '1' };
  const cookie = ctx.get('cookie');
  if (cookie && !opts.anonymous) headers.cookie = cookie;
  const lang = ctx.get('accept-language');
  if (lang) headers['accept-language'] = lang;
  return async <T>(path: string): Promise<ApiAnswer<T>> => {
    const res = await fetch(base + path, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    if (!res.ok) {
      await res.body?.cancel();
      return { status: res.status, data: null };
    }
    return { status: res.status, data: (await res.json()) as T };
  };
}

/** Whether the visitor sent a session (their pages are theirs: never stored by shared caches). */
export function hasSession(ctx: Koa.Context): boolean {
  return /(?:^|;\s*)curio[^=]*=/i.test(ctx.get('cookie')) || ctx.get('cookie').length > 0;
}
