import { Link } from 'react-router-dom';
import { EmptyState, InfiniteList, Page, RelativeTime, useInfiniteApi, useTranslation } from '../../../../web/src/index.ts';
import { listMyReportsUrl, type MyReport } from '../../../../web/src/api/generated/reports.ts';
import '../reports.css';

const STATUS_TAG: Record<MyReport['status'], string> = { open: 'is-warning is-light', resolved: 'is-success is-light', dismissed: 'is-light' };

function ReportRow({ r }: { r: MyReport }) {
  const { t } = useTranslation('reports');
  return (
    <article className="box reports-mine-item" aria-label={t(`targetType.${r.targetType}`)}>
      <p className="is-flex is-align-items-center is-flex-wrap-wrap" style={{ gap: '0.5rem' }}>
        <span className={`tag ${STATUS_TAG[r.status]}`}>{t(`status.${r.status}`)}</span>
        <span className="has-text-weight-semibold">{t(`category.${r.category}`)}</span>
        <span className="has-text-grey is-size-7">
          {t(`targetType.${r.targetType}`)} · <RelativeTime date={r.createdAt} />
        </span>
      </p>
      {r.title && <p className="mt-2 reports-quote">{r.title}</p>}
      {r.resolution && <p className="is-size-7 mt-1">{t('admin.resolvedAs', { resolution: t(`resolution.${r.resolution}`) })}</p>}
      {r.link && r.status === 'open' && (
        <p className="is-size-7 mt-1">
          <Link to={r.link}>{t('mine.view')}</Link>
        </p>
      )}
    </article>
  );
}

/** The reporter's reports and how they stand (GET /api/reports/mine). */
export default function MyReportsPage() {
  const { t } = useTranslation('reports');
  const list = useInfiniteApi<MyReport>(listMyReportsUrl(), { limit: 20 });
  return (
    <Page title={t('mine.title')} subtitle={t('mine.subtitle')} documentTitle={t('mine.title')}>
      <InfiniteList
        items={list.items}
        renderItem={(r) => <ReportRow r={r} />}
        getKey={(r) => r.id}
        hasMore={list.hasMore}
        loadMore={list.loadMore}
        isLoading={list.isLoading}
        isLoadingMore={list.isLoadingMore}
        error={list.error}
        empty={<EmptyState icon="inbox" title={t('mine.empty')} description={t('mine.emptyText')} />}
        errorState={<EmptyState tone="error" icon="alert" title={t('mine.loadError')} action={<button type="button" className="button" onClick={() => list.mutate()}>{t('mine.retry')}</button>} />}
      />
    </Page>
  );
}
