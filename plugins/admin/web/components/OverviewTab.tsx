import { useState } from 'react';
import { EmptyState, Icon, Spinner, useApi, useTranslation, formatDateTime, RelativeTime } from '../../../../web/src/index.ts';
import type { AdminListActionsResponse, AdminAnalyticsOverviewResponse } from '../../../../web/src/api/generated/admin.ts';
import { actionIcon, actionStyle, titleCase } from '../../shared/actions.ts';
import { formatMoney } from '../../shared/monetization.ts';
import { PageButtons } from './PageButtons.tsx';
import { qs } from '../lib.ts';

const ICONS: Record<string, string> = { user: 'user', museum: 'museum', badge: 'award', notification: 'bell', action: 'settings' };
const STYLE_CLASS: Record<string, string> = { destructive: 'is-danger', default: 'is-primary', secondary: 'is-warning is-light', outline: 'admin-tag--outline' };
const PAGE_SIZE = 10;

function StatCard({ label, value, icon, loading }: { label: string; value: string; icon: string; loading: boolean }) {
  return (
    <div className="column is-6-mobile is-3-tablet">
      <div className="box admin-stat admin-stat--fill">
        <div className="admin-stat__head">
          <span className="admin-stat__label">{label}</span>
          <Icon name={icon} />
        </div>
        <p className="admin-stat__value" aria-busy={loading}>
          {loading ? '…' : value}
        </p>
      </div>
    </div>
  );
}

export default function OverviewTab() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const stats = useApi<AdminAnalyticsOverviewResponse>('/api/admin/analytics/overview');
  const actions = useApi<AdminListActionsResponse>(`/api/admin/actions/all${qs({ page, pageSize: PAGE_SIZE })}`, { keepPreviousData: true });
  const metric = (name: string) => stats.data?.find((m) => m.metric === name)?.value;
  const num = (n: number | undefined) => (n === undefined ? '—' : new Intl.NumberFormat(i18n.language).format(n));
  const revenue = metric('monthly_revenue');
  const loadingStats = stats.isLoading;

  return (
    <div className="admin-overview">
      {stats.error && <p className="notification is-danger is-light">{t('overview.statsFailed')}</p>}
      <div className="columns is-multiline is-mobile">
        <StatCard label={t('overview.totalUsers')} value={num(metric('total_users'))} icon="users" loading={loadingStats} />
        <StatCard label={t('overview.museums')} value={num(metric('total_museums'))} icon="museum" loading={loadingStats} />
        <StatCard label={t('overview.dailyActive')} value={num(metric('daily_active_users'))} icon="clock" loading={loadingStats} />
        <StatCard label={t('overview.revenue')} value={revenue === undefined ? '—' : formatMoney(revenue / 100, 'USD', i18n.language)} icon="star" loading={loadingStats} />
      </div>

      <section className="box" aria-labelledby="admin-recent-actions">
        <h2 id="admin-recent-actions" className="title is-5">
          {t('overview.recentActions')}
        </h2>
        {actions.isLoading ? (
          <Spinner center label={t('loading')} />
        ) : actions.error ? (
          <EmptyState tone="error" compact title={t('overview.actionsFailed')} />
        ) : !actions.data?.items.length ? (
          <EmptyState compact icon="inbox" title={t('overview.noActions')} />
        ) : (
          <>
            <ul className="admin-actions">
              {actions.data.items.map((a) => {
                const who = a.adminName || a.adminUsername || t('overview.adminId', { id: a.adminId ?? '?' });
                return (
                  <li key={a.id} className="admin-action">
                    <span className={`admin-action__icon admin-action__icon--${actionIcon(a.action)}`} aria-hidden="true">
                      <Icon name={ICONS[actionIcon(a.action)]} />
                    </span>
                    <div className="admin-action__body">
                      <p className="admin-action__title">
                        <span className={`tag ${STYLE_CLASS[actionStyle(a.action)]}`}>{titleCase(a.action)}</span>{' '}
                        <span className="tag is-light">{a.targetType}</span>{' '}
                        {a.targetId != null && <span className="admin-action__target">#{a.targetId}</span>}
                        {a.outcome === 'pending' && <span className="tag is-warning is-light">{t('overview.pending')}</span>}
                      </p>
                      {a.reason && <p className="admin-action__reason">{a.reason}</p>}
                      <p className="admin-action__meta">
                        {t('overview.by', { name: who })} ·{' '}
                        {a.createdAt ? (
                          <span title={formatDateTime(new Date(a.createdAt), i18n.language)}>
                            <RelativeTime date={a.createdAt} />
                          </span>
                        ) : (
                          t('overview.unknownTime')
                        )}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ul>
            <PageButtons page={page} total={actions.data.total} pageSize={PAGE_SIZE} onChange={setPage} window={5} label={t('overview.actionsPages')} />
          </>
        )}
      </section>
    </div>
  );
}
