import { useEffect, useId, useState } from 'react';
import { Spinner, useApi, useTranslation } from '../../../../web/src/index.ts';
import { searchMuseumsUrl, type SearchMuseumsResponse } from '../../../../web/src/api/generated/museums.ts';

/** The museum picker: a search field (museums' typo-tolerant search) and a list of results to add. */
export function MuseumSearch({ onPick }: { onPick: (m: { id: number; name: string }) => Promise<unknown> }) {
  const { t } = useTranslation('plans');
  const id = useId();
  const [q, setQ] = useState('');
  const [debounced, setDebounced] = useState('');
  const [busy, setBusy] = useState<number | null>(null);
  useEffect(() => {
    const h = setTimeout(() => setDebounced(q.trim()), 250);
    return () => clearTimeout(h);
  }, [q]);
  const { data, isLoading } = useApi<SearchMuseumsResponse>(debounced.length > 2 ? searchMuseumsUrl({ q: debounced, limit: 8 }) : null);
  return (
    <section className="box mt-4 plans-search" aria-labelledby={`${id}-h`}>
      <h2 className="title is-6" id={`${id}-h`}>
        <label htmlFor={`${id}-q`}>{t('add.search')}</label>
      </h2>
      <input id={`${id}-q`} className="input" type="search" value={q} placeholder={t('add.searchPlaceholder')} onChange={(e) => setQ(e.target.value)} autoComplete="off" data-testid="plan-museum-search" />
      {debounced.length > 2 &&
        (isLoading && !data ? (
          <p className="plans-state mt-2" role="status">
            <Spinner size="small" />
            <span>{t('add.searching')}</span>
          </p>
        ) : !data?.length ? (
          <p className="mt-2 has-text-grey-dark" role="status">
            {t('add.none')}
          </p>
        ) : (
          <ul className="plans-search__results" aria-label={t('add.results')}>
            {data.map((m) => (
              <li key={m.id}>
                <button
                  type="button"
                  className="button is-light"
                  disabled={busy !== null}
                  data-testid="plan-add-museum"
                  data-museum-id={m.id}
                  onClick={async () => {
                    setBusy(m.id);
                    try {
                      await onPick(m);
                      setQ('');
                    } catch {
                      /* the caller showed the error */
                    } finally {
                      setBusy(null);
                    }
                  }}
                >
                  {t('add.add', { name: m.name })}
                  {m.city ? ` · ${m.city}` : ''}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
