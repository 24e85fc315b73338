import { useId, useState } from 'react';
import { EmptyState, Icon, Pagination, Spinner, formatDateTime, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import {
  adminApproveEditSuggestion,
  adminApproveMuseumSuggestion,
  adminRejectEditSuggestion,
  adminRejectMuseumSuggestion,
  type AdminListEditSuggestionsResponse,
  type AdminListMuseumSuggestionsResponse,
} from '../../../../web/src/api/generated/admin.ts';
import { failToast, fullName, okToast, refreshAdmin, showValue } from '../lib.ts';
import { SuggestedChanges } from './SuggestedChanges.tsx';

const STATUS_CLASS: Record<string, string> = { pending: 'is-warning', approved: 'is-success', rejected: 'is-danger is-light' };
/** Suggestions per page (pending first, then newest): the pages go on past the first ones. */
const SUGGESTION_PAGE = 20;

function Collapsible({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(count > 0);
  const id = useId();
  return (
    <section className="box admin-collapsible">
      <h3 className="title is-6 mb-0">
        <button type="button" className="admin-collapsible__toggle" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen(!open)}>
          <Icon name={open ? 'chevron-down' : 'chevron-right'} />
          <span>{title}</span>
          <span className={`tag is-rounded ${count ? 'is-warning' : 'is-light'}`}>{t('suggestions.pendingCount', { count })}</span>
        </button>
      </h3>
      {open && (
        <div id={`${id}-body`} className="mt-3">
          {children}
        </div>
      )}
    </section>
  );
}

/** Approve / Reject; `describedBy`: the suggestion's title, so each button says which one it reviews. */
function ReviewButtons({ onApprove, onReject, describedBy }: { onApprove: () => Promise<unknown>; onReject: () => Promise<unknown>; describedBy?: string }) {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const run = (which: 'approve' | 'reject', fn: () => Promise<unknown>) => async () => {
    setBusy(which);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="buttons are-small">
      <button type="button" className={`button is-success${busy === 'approve' ? ' is-loading' : ''}`} aria-describedby={describedBy} disabled={busy !== null} onClick={run('approve', onApprove)}>
        {t('suggestions.approve')}
      </button>
      <button type="button" className={`button is-danger is-outlined${busy === 'reject' ? ' is-loading' : ''}`} aria-describedby={describedBy} disabled={busy !== null} onClick={run('reject', onReject)}>
        {t('suggestions.reject')}
      </button>
    </div>
  );
}

/** Collapsible Museum Edit Suggestions panel (spec part 2 §2) with the pending count. */
export function EditSuggestionsPanel() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const list = useApi<AdminListEditSuggestionsResponse>(`/api/admin/museum-edit-suggestions?page=${page}&pageSize=${SUGGESTION_PAGE}`, { keepPreviousData: true });
  const approve = useMutation((id: number) => adminApproveEditSuggestion({ body: { suggestionId: id } }), { retries: 0 });
  const reject = useMutation((id: number) => adminRejectEditSuggestion({ body: { suggestionId: id } }), { retries: 0 });
  const review = (id: number, ok: boolean) => async () => {
    try {
      await (ok ? approve : reject).trigger(id);
      okToast(t('toast.success'), ok ? t('suggestions.approved') : t('suggestions.rejected'));
    } catch (e) {
      failToast(e, ok ? t('suggestions.approveFailed') : t('suggestions.rejectFailed'));
    }
    await refreshAdmin('/api/admin/museum-edit-suggestions', '/api/admin/museums', '/api/admin/actions');
  };
  const date = (s: string | null) => (s ? formatDateTime(new Date(s), i18n.language) : '');
  if (list.isLoading) return <Spinner center label={t('loading')} />;
  return (
    <Collapsible title={t('suggestions.editTitle')} count={list.data?.pendingCount ?? 0}>
      {list.error && !list.data ? (
        <EmptyState tone="error" compact title={t('suggestions.loadFailed')} />
      ) : !list.data?.items.length ? (
        <EmptyState compact icon="inbox" title={t('suggestions.none')} />
      ) : (
        <ul className="admin-suggestions">
          {list.data.items.map((s) => (
            <li key={s.id} className="admin-suggestion" data-museum={s.museum?.name ?? ''}>
              <div className="admin-suggestion__head">
                <strong id={`admin-suggestion-${s.id}`}>{s.museum?.name ?? t('suggestions.unknownMuseum')}</strong> <span className={`tag ${STATUS_CLASS[s.status]}`}>{t(`suggestions.status.${s.status}`)}</span>
              </div>
              <p className="is-size-7 has-text-grey">
                {t('suggestions.by', { name: fullName(s.user) || s.user?.username || '?', email: s.user?.email ?? '' })} · {t('suggestions.submitted', { date: date(s.createdAt) })}
              </p>
              {s.reason && (
                <p className="is-size-7">
                  <span className="has-text-weight-semibold">{t('suggestions.reason')}</span> {s.reason}
                </p>
              )}
              <SuggestedChanges changes={s.suggestedChanges ?? {}} current={s.currentValues ?? null} />
              {s.status === 'pending' ? (
                <ReviewButtons describedBy={`admin-suggestion-${s.id}`} onApprove={review(s.id, true)} onReject={review(s.id, false)} />
              ) : (
                <p className="is-size-7 has-text-grey">{t('suggestions.reviewed', { date: date(s.reviewedAt), name: s.reviewer?.username ?? '?' })}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pagination page={page} pageSize={SUGGESTION_PAGE} total={list.data.total} onChange={setPage} />}
    </Collapsible>
  );
}

/** New museums proposed by members (POST /api/museum-suggestions), reviewed here too. */
export function MuseumSuggestionsPanel() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const list = useApi<AdminListMuseumSuggestionsResponse>(`/api/admin/museum-suggestions?page=${page}&pageSize=${SUGGESTION_PAGE}`, { keepPreviousData: true });
  const approve = useMutation((id: number) => adminApproveMuseumSuggestion({ body: { suggestionId: id } }), { retries: 0 });
  const reject = useMutation((id: number) => adminRejectMuseumSuggestion({ body: { suggestionId: id } }), { retries: 0 });
  const review = (id: number, ok: boolean) => async () => {
    try {
      await (ok ? approve : reject).trigger(id);
      okToast(t('toast.success'), ok ? t('suggestions.newApproved') : t('suggestions.rejected'));
    } catch (e) {
      failToast(e, ok ? t('suggestions.approveFailed') : t('suggestions.rejectFailed'));
    }
    await refreshAdmin('/api/admin/museum-suggestions', '/api/admin/museums', '/api/admin/actions', '/api/admin/analytics');
  };
  const date = (s: string | null) => (s ? formatDateTime(new Date(s), i18n.language) : '');
  if (list.isLoading) return null;
  return (
    <Collapsible title={t('suggestions.newTitle')} count={list.data?.pendingCount ?? 0}>
      {list.error && !list.data ? (
        <EmptyState tone="error" compact title={t('suggestions.loadFailed')} />
      ) : !list.data?.items.length ? (
        <EmptyState compact icon="inbox" title={t('suggestions.noneNew')} />
      ) : (
        <ul className="admin-suggestions">
          {list.data.items.map((s) => (
            <li key={s.id} className="admin-suggestion">
              <div className="admin-suggestion__head">
                <strong>{s.name}</strong> <span className={`tag ${STATUS_CLASS[s.status]}`}>{t(`suggestions.status.${s.status}`)}</span>
              </div>
              <p className="is-size-7 has-text-grey">
                {t('suggestions.by', { name: fullName(s.user) || s.user?.username || '?', email: s.user?.email ?? '' })} · {t('suggestions.submitted', { date: date(s.createdAt) })}
              </p>
              <dl className="admin-changes">
                {(['address', 'city', 'country', 'website', 'phone', 'description'] as const)
                  .filter((k) => s[k])
                  .map((k) => (
                    <div key={k} className="admin-changes__row">
                      <dt>{k}</dt>
                      <dd>{showValue(s[k])}</dd>
                    </div>
                  ))}
              </dl>
              {s.status === 'pending' ? (
                <ReviewButtons onApprove={review(s.id, true)} onReject={review(s.id, false)} />
              ) : (
                <p className="is-size-7 has-text-grey">{t('suggestions.reviewed', { date: date(s.reviewedAt), name: s.reviewer?.username ?? '?' })}</p>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pagination page={page} pageSize={SUGGESTION_PAGE} total={list.data.total} onChange={setPage} />}
    </Collapsible>
  );
}
