import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const ReportButton = lazy(() => import('./components/ReportButton.tsx'));

/**
 * Reports: the report menu contributed to the places members meet content (insight cards, comments,
 * profiles, meetups, messages), the reporter's "My reports" page, and the admin dashboard's Reports tab.
 * Slot props: { targetType, targetId, ownerId } (ownerId: no menu on your own content).
 */
export default defineWebPlugin({
  id: 'reports',
  pages: [{ path: '/reports/mine', audience: 'signedIn', component: lazy(() => import('./pages/MyReportsPage.tsx')) }],
  slots: {
    'insight.actions': [{ component: ReportButton, audience: 'signedIn' }],
    'comment.actions': [{ component: ReportButton, audience: 'signedIn' }],
    'profile.actions': [{ component: ReportButton, audience: 'signedIn' }],
    'meetup.actions': [{ component: ReportButton, audience: 'signedIn' }],
    'message.actions': [{ component: ReportButton, audience: 'signedIn' }],
    'admin.tabs': [{ order: 10, component: lazy(() => import('./components/ReportsTab.tsx')) }],
    'shell.userMenu': [{ order: 40, component: lazy(() => import('./components/UserMenuLink.tsx')), audience: 'signedIn' }],
  },
});
