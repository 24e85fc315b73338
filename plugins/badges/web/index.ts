import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';
import './badges.css';
import { catchEarnedBadges } from './celebrate.ts';

// earned badges are caught from the start, before the lazy toasts below have loaded
catchEarnedBadges();

/**
 * Badges on profiles (strip and BADGES tab, contributed to the accounts profile page's slots) and
 * the celebration toast when a badge is earned (mounted in the top bar, renders nothing).
 */
export default defineWebPlugin({
  id: 'badges',
  slots: {
    'shell.topbarEnd': [{ order: 100, component: lazy(() => import('./components/BadgeCelebrations.tsx')), audience: 'signedIn' }],
    'profile.badgeStrip': [{ component: lazy(() => import('./components/BadgeStrip.tsx')) }],
    'profile.badgesTab': [{ component: lazy(() => import('./components/BadgesTab.tsx')) }],
  },
});

export { celebrate, BADGES_EARNED_EVENT } from './celebrate.ts';
