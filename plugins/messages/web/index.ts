import { lazy } from 'react';
import { defineWebPlugin, navIconPlaceholder } from '../../../web/src/index.ts';

const Messages = lazy(() => import('./pages/MessagesPage.tsx'));

/** The Messages page (list, then thread), the envelope with the unread count in the top bar. */
export default defineWebPlugin({
  id: 'messages',
  pages: [
    { path: '/messages', audience: 'signedIn', component: Messages },
    { path: '/messages/:id', audience: 'signedIn', component: Messages },
  ],
  slots: {
    // its place is held while its code loads: the top bar does not shift when it arrives
    'shell.topbarEnd': [{ order: 5, component: lazy(() => import('./components/MessagesLink.tsx')), audience: 'signedIn', placeholder: navIconPlaceholder }],
  },
  live: {
    'message.created': ['/api/conversations'],
    'message.deleted': ['/api/conversations'],
    'conversation.read': ['/api/conversations'],
    'conversation.updated': ['/api/conversations'],
  },
});
