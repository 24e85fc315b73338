import { lazy } from 'react';
import { defineWebPlugin } from '../../../web/src/index.ts';

export default defineWebPlugin({
  id: 'insights',
  pages: [
    // '/' is the landing page for visitors (another plugin) and home for members
    { path: '/', audience: 'signedIn', component: lazy(() => import('./pages/HomePage.tsx')) },
    // one insight with its comments (link target for notifications); private authors answer 404
    { path: '/insights/:id', component: lazy(() => import('./pages/PostPage.tsx')), publicNav: true },
  ],
  nav: [{ key: 'home', label: 'nav:insights.home', to: '/', icon: 'home', order: 10, isActive: (p) => p === '/' }],
  slots: {
    'shell.createDialog': [{ component: lazy(() => import('./components/CreateInsightDialog.tsx')) }],
    'museum.insights': [{ component: lazy(() => import('./components/MuseumInsights.tsx')) }],
    // "Photo: name" on the museum's hero when it features a member's photo
    'museum.heroCredit': [{ component: lazy(() => import('./components/FeaturedCredit.tsx')) }],
    'profile.insights': [{ component: lazy(() => import('./components/ProfileInsights.tsx')) }],
    // the full recommendations variant (People You May Know, Museums For You), e.g. on Discover
    'discover.recommendations': [{ component: lazy(() => import('./components/RecommendationsPanel.tsx')) }],
    // onboarding's last step (accounts' /welcome): museums and people to follow, one click or all
    'onboarding.suggestions': [{ component: lazy(() => import('./components/OnboardingSuggestions.tsx')), order: 10 }],
  },
  // a comment on the member's insight: the insight's page and comments revalidate (the home feed's
  // "N new insights" listens to feed.new itself)
  live: { 'post.commented': ['/api/posts/'] },
});
