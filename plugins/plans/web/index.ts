import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const PlansPage = lazy(() => import('./pages/PlansPage.tsx'));
const PlanPage = lazy(() => import('./pages/PlanPage.tsx'));

/**
 * Plans: the member's day plans (/plans, in the nav for members), one plan (/plans/:id: the editor
 * for its owner, read-only for others who may see it) and a shared link (/plans/shared/:token).
 * Fills the museum page's `museum.actions` and the event page's `event.actions` slots with "Add to a plan",
 * and the profile's `profile.sections` with the member's public plans.
 */
export default defineWebPlugin({
  id: 'plans',
  pages: [
    { path: '/plans', audience: 'signedIn', component: PlansPage },
    { path: '/plans/shared/:token', audience: 'all', component: PlanPage },
    { path: '/plans/:id', audience: 'all', component: PlanPage },
  ],
  nav: [{ key: 'plans', label: 'nav:plans.plans', to: '/plans', icon: 'map', order: 45, audience: 'signedIn' }],
  slots: {
    'museum.actions': [{ order: 10, component: lazy(() => import('./components/AddToPlan.tsx')), audience: 'signedIn' }],
    'event.actions': [{ order: 10, component: lazy(() => import('./components/AddToPlan.tsx')), audience: 'signedIn' }],
    'profile.sections': [{ order: 10, component: lazy(() => import('./components/ProfilePlans.tsx')) }],
  },
});
