import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const EventsPage = lazy(() => import('./pages/EventsPage.tsx'));
const EventDetailPage = lazy(() => import('./pages/EventDetailPage.tsx'));

/**
 * Events: the Events screen (/events and /meetups, open to visitors: museum events and the meetups
 * of open communities and groups), detail pages,
 * and sections other pages declare:
 *   <Slot name="community.meetups" communityId={id} />   the community's Meetups tab
 *   <Slot name="group.meetups" groupId={id} />           the group's Meetups tab
 *   <Slot name="museum.events" museumId={id} museum={museum} />
 * and declares on the detail page `event.actions` (props eventId, event: buttons beside "Add to
 * calendar", e.g. plans' "Add to a plan") and `meetup.actions` (reports).
 * (community/group pages may also pass isMember, isCreator and name to save a request).
 */
export default defineWebPlugin({
  id: 'events',
  pages: [
    { path: '/events', audience: 'all', publicNav: true, component: EventsPage },
    { path: '/meetups', audience: 'all', component: EventsPage },
    { path: '/events/:id', audience: 'all', publicNav: true, component: EventDetailPage },
    { path: '/meetups/:id', audience: 'all', component: EventDetailPage },
  ],
  nav: [
    {
      key: 'events',
      label: 'nav:events.events',
      to: '/events',
      icon: 'calendar',
      order: 40,
      isActive: (p) => p === '/events' || p.startsWith('/events/') || p === '/meetups' || p.startsWith('/meetups/'),
    },
  ],
  slots: {
    'community.meetups': [{ component: lazy(() => import('./components/MeetupsSection.tsx')) }],
    'group.meetups': [{ component: lazy(() => import('./components/MeetupsSection.tsx')) }],
    'museum.events': [{ component: lazy(() => import('./components/MuseumEventsSection.tsx')) }],
  },
});
