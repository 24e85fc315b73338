import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

/**
 * Groups: the detail page /groups/:id, and the Groups tab of the list page at /groups and
 * /communities (slot `communities.groupsTab`, declared by the communities plugin).
 *
 * Slot this plugin declares: `group.meetups` — the group's Meetups tab. Props: groupId, isMember,
 * isCreator, role ('admin' | 'member' | null). Without a contribution it reads "No meetups scheduled yet."
 */
export default defineWebPlugin({
  id: 'groups',
  pages: [{ path: '/groups/:id', audience: 'signedIn', component: lazy(() => import('./pages/GroupPage.tsx')) }],
  slots: {
    'communities.groupsTab': [{ component: lazy(() => import('./components/GroupsTab.tsx')) }],
  },
});
