import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const CommunitiesPage = lazy(() => import('./pages/CommunitiesPage.tsx'));

/**
 * Communities: the list at /communities and /groups (the same screen; its Groups tab comes from
 * the groups plugin through the `communities.groupsTab` slot) and the detail at /communities/:id.
 *
 * Slots this plugin declares:
 * - `community.meetups` — the community's Meetups tab. Props: communityId, isMember, isCreator,
 *   role ('admin' | 'moderator' | 'member' | null; the creator's role is 'admin'). Without a
 *   contribution the tab reads "No meetups scheduled yet."
 * - `communities.groupsTab` — the Groups tab of the list page (no props).
 */
export default defineWebPlugin({
  id: 'communities',
  pages: [
    { path: '/communities', audience: 'signedIn', component: CommunitiesPage },
    { path: '/groups', audience: 'signedIn', component: CommunitiesPage },
    { path: '/communities/:id', audience: 'signedIn', component: lazy(() => import('./pages/CommunityPage.tsx')) },
  ],
  slots: {
    // onboarding's last step (accounts' /welcome, issue 21): communities to join, one click or all
    'onboarding.suggestions': [{ component: lazy(() => import('./components/OnboardingCommunities.tsx')), order: 20 }],
  },
  nav: [
    {
      key: 'groups',
      label: 'nav:communities.groups',
      to: '/groups',
      icon: 'users',
      order: 30,
      audience: 'signedIn',
      isActive: (p) => {
        const path = p.toLowerCase();
        return path.startsWith('/groups') || path.startsWith('/communities');
      },
    },
  ],
});
