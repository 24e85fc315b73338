import { useTranslation } from '../../../../web/src/index.ts';
import { pageWindow } from '../../shared/actions.ts';

/**
 * Previous / Next with page buttons: every page number (`window` unset: the Users list), or a
 * sliding window of up to `window` buttons (Recent Admin Actions: 5).
 */
export function PageButtons({ page, total, pageSize, onChange, window, label }: { page: number; total: number; pageSize: number; onChange: (p: number) => void; window?: number; label: string }) {
  const { t } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1) return null;
  const list = window ? pageWindow(page, pages, window) : Array.from({ length: pages }, (_, i) => i + 1);
  return (
    <nav className="pagination is-small is-centered admin-pages" aria-label={label}>
      <button type="button" className="pagination-previous" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        {t('pages.previous')}
      </button>
      <button type="button" className="pagination-next" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        {t('pages.next')}
      </button>
      <ul className="pagination-list">
        {list.map((p) => (
          <li key={p}>
            <button
              type="button"
              className={`pagination-link${p === page ? ' is-current' : ''}`}
              aria-label={t('pages.goTo', { page: p })}
              aria-current={p === page ? 'page' : undefined}
              onClick={() => onChange(p)}
            >
              {p}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
