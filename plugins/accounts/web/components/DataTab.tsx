/**
 * Settings → Your data (issue 24): ask for an archive of everything you put in, follow its
 * progress, download it while it is valid; read what Curio keeps (the privacy page).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, Spinner, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import { listDataExportsUrl, requestDataExport, type DataExport, type DataExportList } from '../../../../web/src/api/generated/accounts.ts';
import { FollowsImport } from './FollowsImport.tsx';

function formatSize(bytes: number | null, lang: string): string {
  if (bytes === null) return '';
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${mb.toLocaleString(lang, { maximumFractionDigits: 1 })} MB` : `${Math.max(1, Math.round(bytes / 1024)).toLocaleString(lang)} KB`;
}

function ExportRow({ x }: { x: DataExport }) {
  const { t, i18n } = useTranslation('accounts');
  const date = (s: string | null) => (s ? new Date(s).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : '');
  const pending = x.status === 'queued' || x.status === 'running';
  const pct = x.progress && x.progress.total > 0 ? Math.round((100 * x.progress.done) / x.progress.total) : 0;
  return (
    <li className="acc-export" data-status={x.status}>
      <div>
        <strong>{t(`data.status.${x.status}`)}</strong> <span className="has-text-grey">· {date(x.createdAt)}</span>
      </div>
      {pending && (
        <progress className="progress is-small is-info mt-2" value={pct} max={100} aria-label={t('data.progress', { percent: pct })}>
          {pct}%
        </progress>
      )}
      {x.status === 'ready' && x.downloadUrl && (
        <p className="mt-1">
          <a className="button is-small is-primary" href={x.downloadUrl} download>
            {t('data.download')}
          </a>{' '}
          <span className="has-text-grey is-size-7">
            {formatSize(x.size, i18n.language)} · {t('data.validUntil', { date: date(x.expiresAt) })}
          </span>
        </p>
      )}
    </li>
  );
}

export function DataTab() {
  const { t, i18n } = useTranslation('accounts');
  const [asking, setAsking] = useState(false);
  const { data, error, isLoading, mutate } = useApi<DataExportList>(listDataExportsUrl());
  // while an archive is being built, ask again every 2 seconds
  const pending = Boolean(data?.items.some((x) => x.status === 'queued' || x.status === 'running'));
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void mutate(), 2000);
    return () => clearInterval(timer);
  }, [pending, mutate]);
  const ask = async () => {
    setAsking(true);
    try {
      await requestDataExport();
      toast({ title: t('data.requested'), description: t('data.requestedText'), variant: 'success' });
      await mutate();
    } catch (e) {
      toast({ title: t('data.failed'), description: e instanceof ApiError ? e.message : t('data.failedText'), variant: 'destructive' });
    } finally {
      setAsking(false);
    }
  };
  const next = data?.nextAllowedAt ? new Date(data.nextAllowedAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : null;
  return (
    <div className="acc-data">
      <section aria-labelledby="acc-data-h">
        <h3 className="title is-6" id="acc-data-h">
          {t('data.title')}
        </h3>
        <p className="mb-3">{t('data.text')}</p>
        <button type="button" className={`button is-primary${asking ? ' is-loading' : ''}`} onClick={ask} disabled={asking || Boolean(next)}>
          {t('data.request')}
        </button>
        {next && <p className="help">{t('data.nextAllowed', { date: next })}</p>}
        {isLoading && <Spinner />}
        {error && <p className="help is-danger">{t('data.loadFailed')}</p>}
        {data && data.items.length > 0 && (
          <ul className="acc-exports mt-3" aria-live="polite">
            {data.items.map((x) => (
              <ExportRow key={x.id} x={x} />
            ))}
          </ul>
        )}
      </section>
      <hr />
      <FollowsImport />
      <hr />
      <p>
        <Link to="/privacy">{t('data.privacyLink')}</Link>
      </p>
    </div>
  );
}

