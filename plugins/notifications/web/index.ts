import { lazy } from 'react';
import { defineWebPlugin, navIconPlaceholder } from '../../../web/src/index.ts';

/** The inbox page, the bell with the unread count in the top bar, and a link in the account menu. */
export default defineWebPlugin({
  id: 'notifications',
  pages: [{ path: '/notifications', audience: 'signedIn', component: lazy(() => import('./pages/NotificationsPage.tsx')) }],
  slots: {
    // its place is held while its code loads: the top bar does not shift when it arrives
    'shell.topbarEnd': [{ order: 10, component: lazy(() => import('./components/NotificationBell.tsx')), audience: 'signedIn', placeholder: navIconPlaceholder }],
    'shell.userMenu': [{ order: 20, component: lazy(() => import('./components/UserMenuLink.tsx')), audience: 'signedIn' }],
    'settings.notifications': [{ order: 10, component: lazy(() => import('./components/PushDevice.tsx')) }],
  },
  // the bell count and the inbox revalidate when a notification arrives on the live stream
  live: { 'notification.created': ['/api/notifications'] },
});
