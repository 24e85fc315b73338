import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './Spinner.tsx';
import { EmptyState } from './EmptyState.tsx';

export interface InfiniteListProps<T> {
  items: T[];
  renderItem: (item: T, index: number) => ReactNode;
  getKey?: (item: T, index: number) => string | number;
  hasMore: boolean;
  loadMore: () => unknown;
  /** first page loading */
  isLoading?: boolean;
  /** a further page loading */
  isLoadingMore?: boolean;
  error?: unknown;
  /** shown when there is no item at all */
  empty?: ReactNode;
  /** shown when the first page failed */
  errorState?: ReactNode;
  /** class of the list container, e.g. 'columns is-multiline' or a grid class */
  className?: string;
  /** the element wrapping each item (default div) */
  as?: 'div' | 'ul' | 'ol';
  /** show "You're all caught up" at the end */
  showEnd?: boolean;
  /** px of margin before the sentinel becomes visible */
  rootMargin?: string;
}

/**
 * A list that loads the next page when a sentinel scrolls into view (IntersectionObserver),
 * with a "Load more" button as the fallback (no observer, keyboard users, or after an error).
 */
export function InfiniteList<T>({
  items,
  renderItem,
  getKey,
  hasMore,
  loadMore,
  isLoading = false,
  isLoadingMore = false,
  error,
  empty,
  errorState,
  className,
  as = 'div',
  showEnd = false,
  rootMargin = '400px',
}: InfiniteListProps<T>) {
  const { t } = useTranslation('core');
  const sentinel = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  busy.current = isLoading || isLoadingMore;
  const more = useRef(loadMore);
  more.current = loadMore;

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || error || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !busy.current) {
          busy.current = true;
          void more.current();
        }
      },
      { rootMargin },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, error, rootMargin, items.length]);

  if (isLoading && items.length === 0) return <Spinner center />;
  if (error && items.length === 0) return <>{errorState ?? <EmptyState tone="error" title={t('list.error')} />}</>;
  if (!isLoading && items.length === 0) return <>{empty ?? <EmptyState title={t('list.empty')} />}</>;

  const Wrapper = as;
  return (
    <>
      <Wrapper className={className}>
        {items.map((item, i) => {
          const node = renderItem(item, i);
          const key = getKey ? getKey(item, i) : ((item as any)?.id ?? i);
          return as === 'div' ? <div key={key} className="curio-list-item">{node}</div> : <li key={key}>{node}</li>;
        })}
      </Wrapper>
      <div ref={sentinel} className="curio-list-sentinel" aria-hidden="true" />
      {error && items.length > 0 && (
        <p className="has-text-danger has-text-centered is-size-7 mt-3" role="alert">
          {t('list.error')}
        </p>
      )}
      {hasMore && (
        <div className="has-text-centered mt-4 mb-2">
          <button type="button" className="button is-light is-rounded" onClick={() => void loadMore()} disabled={isLoadingMore}>
            {isLoadingMore ? t('list.loadingMore') : t('list.loadMore')}
          </button>
        </div>
      )}
      {!hasMore && showEnd && items.length > 0 && <p className="has-text-centered has-text-grey is-size-7 my-4">{t('list.end')}</p>}
    </>
  );
}
