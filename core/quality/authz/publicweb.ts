/**
 * The public web (issue 19): robots.txt, the sitemap, feeds and link-preview images are for
 * everyone, signed in or not; they read the API as a signed-out visitor, so what they show is what
 * a visitor may see (the private-content cases are in plugins/publicweb/server/publicweb.test.ts).
 */
import { everyone, type AuthzRow } from './types.ts';
import { freshUser } from './fresh.ts';

export const rows: AuthzRow[] = [
  { route: 'GET /robots.txt', expect: everyone() },
  { route: 'GET /sitemap.xml', expect: everyone() },
  { route: 'GET /sitemaps/:n.xml', req: () => ({ params: { n: 1 } }), expect: everyone() },
  { route: 'GET /api/feeds/museums/:id/insights.atom', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: everyone() },
  { route: 'GET /api/feeds/members/:id/insights.atom', note: 'a fresh member: public by default', req: async (p) => ({ params: { id: (await freshUser(p.w)).me.id } }), expect: everyone() },
  { route: 'GET /api/feeds/museums/:id/events.ics', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: everyone() },
  { route: 'GET /api/feeds/communities/:id/meetups.ics', note: 'C is an open community', req: (p) => ({ params: { id: p.w.community.id } }), expect: everyone() },
  { route: 'GET /api/og/museum/:id.jpg', req: (p) => ({ params: { id: p.w.museumA.id } }), expect: everyone() },
  { route: 'GET /api/og/event/:id.jpg', req: (p) => ({ params: { id: p.w.museumEvent.id } }), expect: everyone() },
  { route: 'GET /api/og/site.jpg', expect: everyone() },
];
