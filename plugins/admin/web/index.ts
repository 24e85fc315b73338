import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

/** The Admin Dashboard (/admin): Admins only; anyone else is sent to / by the shell. */
export default defineWebPlugin({
  id: 'admin',
  pages: [{ path: '/admin', audience: 'signedIn', roles: ['Admin'], component: lazy(() => import('./pages/AdminDashboard.tsx')) }],
  nav: [{ key: 'admin', label: 'nav:admin.admin', to: '/admin', icon: 'shield', order: 90, audience: 'signedIn', roles: ['Admin'] }],
});
