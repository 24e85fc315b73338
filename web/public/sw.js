/*
 * Curio service worker: shows web push notifications and opens the right page on click; keeps the
 * app shell and the last museum pages viewed for offline reading (issue 19).
 *
 * Offline reading: a museum page (/museum/{slug}, /museums/{id}) the visitor opened is fetched
 * again here WITHOUT credentials (the page a signed-out visitor gets: server-rendered, its data in
 * it) and kept, with the build's files it used, in a cache of the last PAGE_LIMIT pages. So nothing
 * of a signed-in member's own answers is ever stored: another account on this device reads only
 * public pages. API answers (/api/) and uploads are never cached here. Offline, a navigation gets
 * its saved page, or /offline.html.
 */
const VERSION = 'v1';
const SHELL = `curio-shell-${VERSION}`;
const PAGES = `curio-pages-${VERSION}`;
const ASSETS = `curio-assets-${VERSION}`;
const PAGE_LIMIT = 20;
const SHELL_FILES = ['/offline.html', '/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png'];
const PAGE_PATH = /^\/(museum|museums)\/[^/]+\/?$/i;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.addAll(SHELL_FILES))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('curio-') && ![SHELL, PAGES, ASSETS].includes(k)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Keeps the signed-out version of a museum page and the build files it uses (`assets`: the ones the tab loaded). */
async function savePage(href, assets) {
  const url = new URL(href, self.location.origin);
  if (url.origin !== self.location.origin || !PAGE_PATH.test(url.pathname)) return;
  const res = await fetch(url.pathname, { credentials: 'omit', cache: 'no-cache' });
  const cc = res.headers.get('cache-control') || '';
  if (!res.ok || /private|no-store/i.test(cc)) return;
  const html = await res.clone().text();
  const pages = await caches.open(PAGES);
  await pages.delete(url.pathname);
  await pages.put(url.pathname, res);
  const keys = await pages.keys();
  for (const k of keys.slice(0, Math.max(0, keys.length - PAGE_LIMIT))) await pages.delete(k);
  const files = new Set((assets || []).filter((a) => typeof a === 'string'));
  for (const m of html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)) files.add(m[1]);
  const cache = await caches.open(ASSETS);
  await Promise.all(
    [...files]
      .map((f) => new URL(f, self.location.origin))
      .filter((u) => u.origin === self.location.origin && u.pathname.startsWith('/assets/'))
      .map(async (u) => {
        if (await cache.match(u.pathname)) return;
        const r = await fetch(u.pathname, { credentials: 'omit' });
        if (r.ok) await cache.put(u.pathname, r);
      }),
  ).catch(() => undefined);
}

self.addEventListener('message', (event) => {
  const d = event.data || {};
  if (d.type === 'curio:page-viewed' && typeof d.url === 'string') {
    event.waitUntil(
      savePage(d.url, d.assets)
        .then(() => event.source && event.source.postMessage({ type: 'curio:page-saved', url: d.url }))
        .catch(() => undefined),
    );
  }
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // the API and uploads: always the network (a member's answers are never stored here)
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/uploads/')) return;
  if (url.pathname.startsWith('/assets/')) {
    // hashed, immutable build files
    event.respondWith(
      caches.open(ASSETS).then(async (cache) => {
        const hit = await cache.match(url.pathname);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok) cache.put(url.pathname, res.clone()).catch(() => undefined);
        return res;
      }),
    );
    return;
  }
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req).catch(async () => {
        const saved = await caches.match(url.pathname, { cacheName: PAGES });
        return saved || (await caches.match('/offline.html', { cacheName: SHELL })) || Response.error();
      }),
    );
    return;
  }
  if (SHELL_FILES.includes(url.pathname)) {
    event.respondWith(fetch(req).catch(async () => (await caches.match(url.pathname, { cacheName: SHELL })) || Response.error()));
  }
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Curio', body: event.data ? event.data.text() : '' };
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/notifications';
  event.waitUntil(
    self.registration.showNotification(data.title || 'Curio', {
      body: data.body || '',
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
      for (const client of list) {
        if (client.url === target && 'focus' in client) return client.focus();
      }
      for (const client of list) {
        if ('navigate' in client && 'focus' in client) return client.navigate(target).then((c) => (c || client).focus());
      }
      return self.clients.openWindow(target);
    }),
  );
});
