import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const MuseumPage = lazy(() => import('./pages/MuseumPage.tsx'));
const DiscoverPage = lazy(() => import('./pages/DiscoverPage.tsx'));

/**
 * Museums: profile (/museum/:slug, /museums/:id), Discover (/discover, /search, /map), Create
 * Museum Profile. Slots this plugin declares: `museum.insights` and `museum.events` (props:
 * museumId, museum, and emptyText for insights), `museum.heroCredit` (props: museumId,
 * featuredImage: who took the hero image, when a member's photo is featured), `museum.actions` (props:
 * museumId, museum: buttons beside Follow and Check in, e.g. plans' "Add to a plan"). Slots it fills: `landing.featuredMuseums`
 * (the landing page's Featured Museums grid) and `profile.museums` (a profile's
 * MUSEUMS tab: museums followed and visited).
 */
export default defineWebPlugin({
  id: 'museums',
  pages: [
    { path: '/museum/:slug', component: MuseumPage, publicNav: true },
    { path: '/museums/:id', component: MuseumPage, publicNav: true },
    { path: '/discover', component: DiscoverPage, publicNav: true },
    { path: '/search', component: DiscoverPage, publicNav: true },
    { path: '/map', component: DiscoverPage, publicNav: true },
    { path: '/create-museum', audience: 'signedIn', component: lazy(() => import('./pages/CreateMuseumPage.tsx')) },
  ],
  nav: [
    {
      key: 'discover',
      label: 'nav:museums.discover',
      to: '/discover',
      icon: 'compass',
      order: 20,
      isActive: (p) => ['/discover', '/search', '/map'].some((x) => p.toLowerCase().startsWith(x)),
    },
  ],
  slots: {
    'landing.featuredMuseums': [{ component: lazy(() => import('./components/FeaturedMuseums.tsx')) }],
    'profile.museums': [{ component: lazy(() => import('./components/ProfileMuseums.tsx')) }],
  },
});
