import { useEffect, useRef, useState } from 'react';
import { EmptyState, Icon, Modal, Pagination, Spinner, toast, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminGetJob, adminUpdateMuseums, adminVerifyMuseum, type AdminListMuseumsResponse } from '../../../../web/src/api/generated/admin.ts';
import { MuseumImage } from '../../../museums/web/components/MuseumImage.tsx';
import '../../../museums/web/museums.css';
import { EditMuseumDialog } from './EditMuseumDialog.tsx';
import { AddMuseumDialog } from './AddMuseumDialog.tsx';
import { EditSuggestionsPanel, MuseumSuggestionsPanel } from './SuggestionsPanel.tsx';
import { failToast, okToast, qs, refreshAdmin, useDebounced } from '../lib.ts';

export type AdminMuseum = AdminListMuseumsResponse['items'][number];
const PAGE_SIZE = 20;
const STATUSES = ['all', 'verified', 'unverified', 'with_manager', 'without_manager'] as const;
type Status = (typeof STATUSES)[number];

function VerifyButton({ museum }: { museum: AdminMuseum }) {
  const { t } = useTranslation('admin');
  const verify = useMutation(() => adminVerifyMuseum({ body: { museumId: museum.id, verified: !museum.isVerified } }), { retries: 0 });
  const onClick = async () => {
    try {
      const m = await verify.trigger();
      okToast(t('toast.success'), m.isVerified ? t('museums.verified', { name: m.name }) : t('museums.unverified', { name: m.name }));
      await refreshAdmin('/api/admin/museums', '/api/admin/actions');
    } catch (e) {
      failToast(e, t('museums.verifyFailed'));
    }
  };
  return (
    <button type="button" className={`button ${museum.isVerified ? '' : 'is-success is-outlined'}${verify.isPending ? ' is-loading' : ''}`} onClick={onClick} disabled={verify.isPending}>
      {museum.isVerified ? t('museums.unverify') : t('museums.verify')}
    </button>
  );
}

/**
 * Update Museums: asks first, then the server runs a background job; the button reads Updating...
 * (with progress) until it is done. A run whose every lookup failed is a failure ("Update Failed"),
 * one where some failed says how many.
 */
function UpdateMuseumsButton() {
  const { t } = useTranslation('admin');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [running, setRunning] = useState(false);
  const [asking, setAsking] = useState(false);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  const run = async () => {
    setRunning(true);
    setProgress(null);
    try {
      let job = await adminUpdateMuseums({ body: {} });
      while ((job.status === 'queued' || job.status === 'running') && alive.current) {
        setProgress(job.progress);
        await new Promise((r) => setTimeout(r, 1000));
        job = await adminGetJob({ params: { id: job.jobId } });
      }
      if (job.status === 'failed') throw new Error(job.error ?? '');
      if (job.status === 'done') {
        const { checked = 0, updated = 0, failed = 0 } = job.stats ?? {};
        if (checked > 0 && failed >= checked) throw new Error('every lookup failed');
        if (failed > 0) toast({ title: t('museums.updatePartial'), description: t('museums.updatePartialStats', { count: updated, failed, checked }), variant: 'warning' });
        else okToast(t('museums.updateDone'), t('museums.updateStats', { count: updated, checked }));
        await refreshAdmin('/api/admin/museums', '/api/admin/actions');
      }
    } catch {
      failToast(null, t('museums.updateFailedText'), t('museums.updateFailed'));
    } finally {
      if (alive.current) {
        setRunning(false);
        setProgress(null);
      }
    }
  };
  return (
    <>
      <button type="button" className={`button is-info is-light`} onClick={() => setAsking(true)} disabled={running} aria-live="polite">
        <Icon name="refresh" />
        <span>
          {running ? t('museums.updating') : t('museums.update')}
          {running && progress && progress.total > 0 ? ` ${progress.done}/${progress.total}` : ''}
        </span>
      </button>
      <Modal
        open={asking}
        onClose={() => setAsking(false)}
        title={t('museums.updateConfirmTitle')}
        size="small"
        footer={
          <div className="buttons is-right">
            <button type="button" className="button" onClick={() => setAsking(false)}>
              {t('cancel')}
            </button>
            <button
              type="button"
              className="button is-info"
              data-testid="confirm-update-museums"
              onClick={() => {
                setAsking(false);
                void run();
              }}
            >
              {t('museums.update')}
            </button>
          </div>
        }
      >
        <p>{t('museums.updateConfirmText')}</p>
      </Modal>
    </>
  );
}

export default function MuseumsTab() {
  const { t, i18n } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Status>('all');
  const [editing, setEditing] = useState<AdminMuseum | null>(null);
  const [adding, setAdding] = useState(false);
  const q = useDebounced(search.trim(), 300);
  // The page belongs to the search and filter it was chosen for: changing either starts at page 1.
  const [paged, setPaged] = useState({ key: '', page: 1 });
  const key = `${q}\u0000${status}`;
  const page = paged.key === key ? paged.page : 1;
  const setPage = (p: number) => setPaged({ key, page: p });
  const list = useApi<AdminListMuseumsResponse>(`/api/admin/museums${qs({ q, status: status === 'all' ? null : status, page, pageSize: PAGE_SIZE })}`, { keepPreviousData: true });
  const total = list.data?.total ?? 0;
  const from = total ? (page - 1) * PAGE_SIZE + 1 : 0;
  const to = Math.min(total, page * PAGE_SIZE);
  const num = (n: number) => new Intl.NumberFormat(i18n.language).format(n);

  return (
    <div className="admin-museums">
      <div className="admin-section-head">
        <h2 className="title is-5">{t('museums.title')}</h2>
        <div className="buttons">
          <UpdateMuseumsButton />
          <button type="button" className="button is-primary" onClick={() => setAdding(true)}>
            <Icon name="plus" />
            <span>{t('museums.add')}</span>
          </button>
        </div>
      </div>

      <div className="box">
        <h3 className="title is-6">{t('museums.filters')}</h3>
        <div className="columns">
          <div className="column">
            <label className="label is-sr-only" htmlFor="admin-museum-search">
              {t('museums.searchLabel')}
            </label>
            <div className="control has-icons-left">
              <input id="admin-museum-search" className="input" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('museums.searchPlaceholder')} />
              <span className="icon is-left" aria-hidden="true">
                <Icon name="search" />
              </span>
            </div>
          </div>
          <div className="column is-narrow">
            <label className="label is-sr-only" htmlFor="admin-museum-status">
              {t('museums.statusLabel')}
            </label>
            <div className="select">
              <select id="admin-museum-status" value={status} onChange={(e) => setStatus(e.target.value as Status)}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`museums.status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <p className="has-text-grey is-size-7" aria-live="polite">
          {t('museums.showing', { from: num(from), to: num(to), total: num(total) })}
        </p>
      </div>

      {list.isLoading ? (
        <Spinner center label={t('loading')} />
      ) : list.error && !list.data ? (
        <EmptyState tone="error" compact title={t('museums.loadFailed')} />
      ) : !list.data?.items.length ? (
        <EmptyState compact icon="museum" title={t('museums.none')} />
      ) : (
        <ul className="admin-list box" aria-busy={list.isValidating}>
          {list.data.items.map((m) => (
            <li key={m.id} className="admin-row admin-museum">
              <div className="admin-museum__thumb" aria-hidden="true">
                <MuseumImage src={m.featuredImage} name={m.name} alt="" />
              </div>
              <div className="admin-row__main">
                <p className="admin-row__title">
                  <a href={`/museum/${m.slug || m.id}`}>
                    <strong>{m.name}</strong>
                  </a>{' '}
                  <span className={`tag ${m.isVerified ? 'is-success' : 'is-light'}`}>{m.isVerified ? t('museums.verifiedBadge') : t('museums.unverifiedBadge')}</span>
                </p>
                <p className="admin-row__sub">{[m.city, m.country].filter(Boolean).join(', ')}</p>
                <p className="admin-row__sub">{t('museums.insights', { count: m.totalInsights })}</p>
              </div>
              <div className="admin-row__actions buttons are-small">
                <button type="button" className="button" onClick={() => setEditing(m)}>
                  {t('museums.edit')}
                </button>
                <VerifyButton museum={m} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={PAGE_SIZE} total={total} onChange={setPage} />

      <EditSuggestionsPanel />
      <MuseumSuggestionsPanel />

      {editing && <EditMuseumDialog museum={editing} onClose={() => setEditing(null)} />}
      {adding && <AddMuseumDialog onClose={() => setAdding(false)} />}
    </div>
  );
}
