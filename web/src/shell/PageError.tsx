import { useTranslation } from 'react-i18next';
import { EmptyState } from '../components/EmptyState.tsx';

/** Shown when a page throws or its code cannot load (e.g. after a deploy). */
export function PageError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation('core');
  const chunk = /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error?.message ?? '');
  return (
    <section className="section">
      <div className="container">
        <EmptyState
          tone="error"
          title={t('errors.title')}
          description={t('errors.description')}
          action={
            chunk ? (
              <button type="button" className="button is-primary is-rounded" onClick={() => window.location.reload()}>
                {t('errors.reload')}
              </button>
            ) : (
              <button type="button" className="button is-light is-rounded" onClick={onRetry}>
                {t('errors.retry')}
              </button>
            )
          }
        />
      </div>
    </section>
  );
}
