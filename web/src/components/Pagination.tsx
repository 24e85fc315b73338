import { useTranslation } from 'react-i18next';

export interface PaginationProps {
  /** 1-based */
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  className?: string;
}

/** Page numbers with ellipses: 1 … 4 5 6 … 20 */
export function pageList(page: number, pages: number): Array<number | 'gap'> {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const out: Array<number | 'gap'> = [1];
  const from = Math.max(2, page - 1);
  const to = Math.min(pages - 1, page + 1);
  if (from > 2) out.push('gap');
  for (let i = from; i <= to; i++) out.push(i);
  if (to < pages - 1) out.push('gap');
  out.push(pages);
  return out;
}

/** Bulma pagination for page-numbered tables ({ items, total, page, pageSize }). */
export function Pagination({ page, pageSize, total, onChange, className }: PaginationProps) {
  const { t } = useTranslation('core');
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  if (pages <= 1) return null;
  return (
    <nav className={`pagination is-centered is-small curio-pagination ${className ?? ''}`} aria-label={t('pagination.label')}>
      <button type="button" className="pagination-previous" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        {t('pagination.previous')}
      </button>
      <button type="button" className="pagination-next" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        {t('pagination.next')}
      </button>
      <ul className="pagination-list">
        {pageList(page, pages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap-${i}`}>
              <span className="pagination-ellipsis">&hellip;</span>
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className={`pagination-link${p === page ? ' is-current' : ''}`}
                aria-label={p === page ? t('pagination.page', { page: p }) : t('pagination.goTo', { page: p })}
                aria-current={p === page ? 'page' : undefined}
                onClick={() => onChange(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
