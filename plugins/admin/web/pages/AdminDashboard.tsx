import { lazy, Suspense, useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Page, Spinner, Tabs, TabPanel, useTranslation } from '../../../../web/src/index.ts';
import '../admin.css';

const OverviewTab = lazy(() => import('../components/OverviewTab.tsx'));
const UsersTab = lazy(() => import('../components/UsersTab.tsx'));
const MuseumsTab = lazy(() => import('../components/MuseumsTab.tsx'));
const BadgesTab = lazy(() => import('../components/BadgesTab.tsx'));
const NotificationsTab = lazy(() => import('../components/NotificationsTab.tsx'));
const MonetizationTab = lazy(() => import('../components/MonetizationTab.tsx'));

const TABS = [
  { id: 'overview', short: 'stats', Component: OverviewTab },
  { id: 'users', short: 'users', Component: UsersTab },
  { id: 'museums', short: 'places', Component: MuseumsTab },
  { id: 'badges', short: 'badges', Component: BadgesTab },
  { id: 'notifications', short: 'alerts', Component: NotificationsTab },
  { id: 'monetization', short: 'money', Component: MonetizationTab },
] as const;

type TabId = (typeof TABS)[number]['id'];
const PREFIX = 'admin-tabs';

/** Spec part 2 §2 Admin Dashboard: six tabs (short labels on mobile), Overview first. The tab lives in ?tab= so it survives a reload. */
export default function AdminDashboard() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const active: TabId = (TABS.find((x) => x.id === asked)?.id ?? 'overview') as TabId;
  const onChange = useCallback(
    (id: string) => {
      const next = new URLSearchParams(params);
      if (id === 'overview') next.delete('tab');
      else next.set('tab', id);
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  return (
    <Page title={t('title')} subtitle={t('subtitle')} documentTitle={t('title')} width="wide" className="admin-dashboard">
      <Tabs
        idPrefix={PREFIX}
        label={t('tabs.label')}
        active={active}
        onChange={onChange}
        variant="is-boxed admin-tabs"
        tabs={TABS.map((x) => ({
          id: x.id,
          label: (
            <>
              <span className="is-hidden-mobile">{t(`tabs.${x.id}`)}</span>
              <span className="is-hidden-tablet">
                {t(`tabs.short.${x.short}`)}
              </span>
            </>
          ),
        }))}
      />
      {TABS.map(({ id, Component }) => (
        <TabPanel key={id} idPrefix={PREFIX} id={id} active={active}>
          <Suspense fallback={<Spinner center label={t('loading')} />}>
            <Component />
          </Suspense>
        </TabPanel>
      ))}
    </Page>
  );
}
