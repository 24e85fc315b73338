import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, Spinner, useTranslation } from '../../../../web/src/index.ts';
import type { PlanSummary } from '../../../../web/src/api/generated/plans.ts';
import { formatPlanDate } from '../lib.ts';

/** A list of plan summaries with its loading, error and empty states (the Plans page, a profile's Plans section). */
export default function PlanList({
  data,
  error,
  isLoading,
  retry,
  loading,
  failed,
  empty,
  showVisibility = false,
  testId,
}: {
  data: PlanSummary[] | null | undefined;
  error: { message: string } | null | undefined;
  isLoading: boolean;
  retry: () => void;
  loading: string;
  failed: string;
  empty: ReactNode;
  showVisibility?: boolean;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('plans');
  if (isLoading && !data)
    return (
      <div className="plans-state" role="status">
        <Spinner />
        <span>{loading}</span>
      </div>
    );
  if (error && !data)
    return (
      <EmptyState
        tone="error"
        title={failed}
        description={error.message}
        action={
          <button type="button" className="button" onClick={retry}>
            {t('list.retry')}
          </button>
        }
      />
    );
  if (!data?.length) return <>{empty}</>;
  return (
    <ul className="plans-list" data-testid={testId}>
      {data.map((p) => (
        <li key={p.id} className="box plans-card">
          <Link to={`/plans/${p.id}`} className="plans-card__title">
            {p.title}
          </Link>
          <p className="plans-card__meta">
            <span>{formatPlanDate(p.date, i18n.language)}</span> · <span>{t('list.stops', { count: p.stopCount })}</span>
            {showVisibility && (
              <>
                {' '}
                · <span className="tag is-light">{t(`visibility.${p.visibility}`)}</span>
              </>
            )}
          </p>
          {p.stopNames.length > 0 && <p className="plans-card__museums">{p.stopNames.join(' → ')}</p>}
        </li>
      ))}
    </ul>
  );
}
