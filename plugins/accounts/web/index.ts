import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';
import EmailVerifyBanner from './components/EmailVerifyBanner.tsx';

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
 *  - `profile.sections`   sections under the tabs, for viewers who may see the member (plans: their
 *                         public plans); nothing otherwise
 * and on the landing page `landing.featuredMuseums` (museums plugin; a built-in grid otherwise).
 * Onboarding (/welcome, issue 21) declares `onboarding.suggestions` (no props): things to follow
 * on its last step (insights: museums and people; communities: communities to join).
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
    // a member's profile is for everyone: a visitor sees what accounts' one rule lets a signed-out
    // visitor see (a public profile in full, otherwise name and avatar); publicweb renders it on
    // the server (issue 19)
    { path: '/profile/:id', audience: 'all', component: ProfilePage },
    { path: '/sessions', audience: 'signedIn', component: lazy(() => import('./pages/SessionsPage.tsx')) },
    { path: '/privacy', audience: 'all', component: lazy(() => import('./pages/PrivacyPage.tsx')) },
    // onboarding after sign-up (issue 21); its last step is the slot `onboarding.suggestions`
    { path: '/welcome', audience: 'signedIn', component: lazy(() => import('./pages/OnboardingPage.tsx')) },
  ],
  slots: {
    // Home: "Finish setting up" while an onboarding was begun and left (issue 21)
    'home.top': [{ component: lazy(() => import('./components/OnboardingResume.tsx')) }],
    'shell.footer': [{ component: lazy(() => import('./components/PrivacyFooterLink.tsx')) }],
    'shell.banner': [
      // not lazy: it sits above the page, which it would push down if it came later (layout shift)
      { component: EmailVerifyBanner },
      // time zone and language for reminders, digests and emails (renders nothing)
      { component: lazy(() => import('./components/ContactSync.tsx')), order: 200 },
      // the member's theme on every device (renders nothing)
      { component: lazy(() => import('./components/ThemeSync.tsx')), order: 210 },
    ],
  },
  nav: [
    {
      key: 'profile',
      label: 'nav:accounts.profile',
      // visitors have no profile: the top bar's Sign in button is their way in (issue 21 #8)
      audience: 'signedIn',
      to: '/profile',
      icon: 'user',
      order: 90,
      // your own profile (at /profile, or by id or slug from a link), not someone else's
      isActive: (p, user) =>
        p === '/profile' || p === '/sessions' || (!!user && [String(user.id), user.slug, user.username].some((k) => !!k && p === `/profile/${k.toLowerCase()}`)),
    },
  ],
});
