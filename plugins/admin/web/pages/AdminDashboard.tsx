import { lazy, Suspense, useCallback, useMemo, type ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorBoundary, Page, Spinner, Tabs, TabPanel, useSlot, useTranslation } from '../../../../web/src/index.ts';
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

const PREFIX = 'admin-tabs';

/**
 * Spec part 2 §2 Admin Dashboard: six tabs (short labels on mobile), Overview first. The tab lives in ?tab= so it survives a reload.
 * Other plugins add tabs through the `admin.tabs` slot: one tab per contributing plugin, with the
 * plugin's id as tab id and its `<plugin>:admin.tab` / `<plugin>:admin.short` texts as labels (the reports queue).
 */
export default function AdminDashboard() {
  const extra = useSlot('admin.tabs');
  // The contributing plugins' namespaces load with ours (their tab labels).
  const namespaces = useMemo(() => ['admin', ...extra.map((e) => e.plugin)], [extra]);
  const { t } = useTranslation(namespaces);
  const tabs = [
    ...TABS.map((x) => ({ id: x.id as string, label: t(`tabs.${x.id}`), short: t(`tabs.short.${x.short}`), Component: x.Component as ComponentType })),
    ...extra.map((e) => ({ id: e.plugin, label: t(`${e.plugin}:admin.tab`), short: t(`${e.plugin}:admin.short`), Component: e.component as ComponentType })),
  ];
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const active = tabs.find((x) => x.id === asked)?.id ?? 'overview';
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
        tabs={tabs.map((x) => ({
          id: x.id,
          label: (
            <>
              <span className="is-hidden-mobile">{x.label}</span>
              <span className="is-hidden-tablet">{x.short}</span>
            </>
          ),
        }))}
      />
      {tabs.map(({ id, Component }) => (
        <TabPanel key={id} idPrefix={PREFIX} id={id} active={active}>
          <ErrorBoundary>
            <Suspense fallback={<Spinner center label={t('loading')} />}>
              <Component />
            </Suspense>
          </ErrorBoundary>
        </TabPanel>
      ))}
    </Page>
  );
}
