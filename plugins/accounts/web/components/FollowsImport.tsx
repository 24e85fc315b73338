/** Settings → Your data: follow again from a follows.csv (Curio or Mastodon-style handles). */
import { useRef, useState, type ChangeEvent } from 'react';
import { ApiError, toast, useTranslation } from '../../../../web/src/index.ts';
import { importFollows, type FollowImportResult } from '../../../../web/src/api/generated/accounts.ts';

const MAX_BYTES = 1_000_000;

export function FollowsImport() {
  const { t } = useTranslation('accounts');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<FollowImportResult | null>(null);
  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > MAX_BYTES) {
      toast({ title: t('import.failed'), description: t('import.tooLarge'), variant: 'destructive' });
      return;
    }
    setBusy(true);
    setResult(null);
    try {
      setResult(await importFollows({ body: { csv: await file.text() } }));
    } catch (err) {
      toast({ title: t('import.failed'), description: err instanceof ApiError ? err.message : t('import.failedText'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="acc-import-h">
      <h3 className="title is-6" id="acc-import-h">
        {t('import.title')}
      </h3>
      <p className="mb-3">{t('import.text')}</p>
      <input ref={input} id="acc-import-input" type="file" accept=".csv,text/csv" className="is-sr-only" onChange={pick} />
      <label htmlFor="acc-import-input" className={`button is-light${busy ? ' is-loading' : ''}`} tabIndex={0} onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), input.current?.click())}>
        {t('import.choose')}
      </label>
      {result && (
        <p className="mt-2" role="status">
          {t('import.result', { followed: result.followed, requested: result.requested, already: result.already, notFound: result.notFound.length + result.refused })}
        </p>
      )}
    </section>
  );
}
