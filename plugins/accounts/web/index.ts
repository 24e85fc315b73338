import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

const ProfilePage = lazy(() => import('./pages/ProfilePage.tsx'));

/**
 * Accounts: the landing page for visitors, sign-in / sign-up, profiles, the settings dialog and
 * session management.
 *
 * Slots this plugin declares on the profile page (props: userId, user, profile, isOwn, onShowAll):
 *  - `profile.insights`   the INSIGHTS tab (insights plugin); empty state 'Share Insights' otherwise
 *  - `profile.museums`    the MUSEUMS tab (museums plugin); 'No Museums Yet' otherwise
 *  - `profile.badgeStrip` the badge strip under the bio (badges plugin); a built-in strip otherwise
 *  - `profile.badgesTab`  the BADGES tab (badges plugin); a built-in list / 'No Badges Yet' otherwise
 * and on the landing page `landing.featuredMuseums` (museums plugin; a built-in grid otherwise).
 */
export default defineWebPlugin({
  id: 'accounts',
  pages: [
    { path: '/', audience: 'signedOut', component: lazy(() => import('./pages/LandingPage.tsx')) },
    { path: '/auth', audience: 'signedOut', component: lazy(() => import('./pages/AuthPage.tsx')) },
    { path: '/auth/forgot', audience: 'signedOut', component: lazy(() => import('./pages/ForgotPasswordPage.tsx')) },
    { path: '/auth/reset', audience: 'all', component: lazy(() => import('./pages/ResetPasswordPage.tsx')) },
    { path: '/auth/verify', audience: 'all', component: lazy(() => import('./pages/VerifyEmailPage.tsx')) },
    { path: '/profile', audience: 'signedIn', component: ProfilePage },
    { path: '/profile/:id', audience: 'signedIn', component: ProfilePage },
    { path: '/sessions', audience: 'signedIn', component: lazy(() => import('./pages/SessionsPage.tsx')) },
  ],
  slots: {
    'shell.banner': [
      { component: lazy(() => import('./components/EmailVerifyBanner.tsx')) },
      // time zone and language for reminders, digests and emails (renders nothing)
      { component: lazy(() => import('./components/ContactSync.tsx')), order: 200 },
    ],
  },
  nav: [
    {
      key: 'profile',
      label: 'accounts:nav.profile',
      // visitors have no profile: the top bar's Sign in button is their way in (issue 21 #8)
      audience: 'signedIn',
      to: '/profile',
      icon: 'user',
      order: 90,
      isActive: (p) => p === '/profile' || p.startsWith('/profile/') || p === '/sessions',
    },
  ],
});
