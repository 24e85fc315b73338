import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  ApiError,
  EmptyState,
  Modal,
  Pagination,
  RelativeTime,
  Spinner,
  mutate,
  toast,
  toastApiError,
  useApi,
  useTranslation,
} from '../../../../web/src/index.ts';
import { adminActOnReport, adminListReportsUrl, type AdminReportCase, type AdminReportPage, type ReportActionBody } from '../../../../web/src/api/generated/reports.ts';
import { CATEGORIES } from './ReportDialog.tsx';
import '../reports.css';

type Status = 'open' | 'resolved' | 'dismissed' | 'all';
type Action = ReportActionBody['action'];
const STATUSES: Status[] = ['open', 'resolved', 'dismissed', 'all'];
const TYPES = ['insight', 'comment', 'user', 'community_post', 'community_comment', 'meetup', 'message'] as const;
const PAGE_SIZE = 20;
const ACTION_LABEL: Record<Action, string> = {
  dismiss: 'dismiss',
  remove_content: 'removeContent',
  warn: 'warn',
  restrict: 'restrict',
  temporary_ban: 'temporaryBan',
  permanent_ban: 'permanentBan',
};
const MODERATIONS: Action[] = ['warn', 'restrict', 'temporary_ban', 'permanent_ban'];
const WITH_EXPIRY: Action[] = ['restrict', 'temporary_ban'];

const nameOf = (u: { firstName?: string | null; lastName?: string | null; username: string }) => `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.username;

/** Confirms one action on a case: a reason (required for warnings, restrictions and bans, told to the member), an expiry where it applies. */
function ActionDialog({ item, action, onClose }: { item: AdminReportCase; action: Action; onClose: () => void }) {
  const { t } = useTranslation('reports');
  const id = useId();
  const [reason, setReason] = useState('');
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const needsReason = MODERATIONS.includes(action);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (needsReason && !reason.trim()) {
      setError(t('admin.reason'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const expiresAt = WITH_EXPIRY.includes(action) && expires ? new Date(expires).toISOString() : null;
      const r = await adminActOnReport({ params: { id: item.id }, body: { action, reason: reason.trim() || null, expiresAt } });
      toast({ title: t('admin.done', { count: r.resolved }), variant: 'success' });
      await mutate((key) => typeof key === 'string' && (key.startsWith('/api/admin/reports') || key.startsWith('/api/admin/actions')));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) setError(err.message);
      else toastApiError(err);
    } finally {
      setPending(false);
    }
  };
  const label = t(`admin.${ACTION_LABEL[action]}`);
  return (
    <Modal
      open
      onClose={onClose}
      title={t('admin.confirmTitle', { action: label })}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('admin.cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button ${action === 'dismiss' ? 'is-primary' : 'is-danger'}${pending ? ' is-loading' : ''}`} disabled={pending}>
            {t('admin.confirm')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <p className="mb-3">{item.snapshot.title ?? item.snapshot.text?.slice(0, 140) ?? t(`targetType.${item.targetType}`)}</p>
        <div className="field">
          <label className="label" htmlFor={`${id}-reason`}>
            {needsReason ? t('admin.reason') : t('admin.reasonOptional')} {needsReason && <span aria-hidden="true">*</span>}
          </label>
          <textarea
            id={`${id}-reason`}
            className={`textarea${error ? ' is-danger' : ''}`}
            rows={3}
            maxLength={1000}
            value={reason}
            required={needsReason}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {WITH_EXPIRY.includes(action) && (
          <div className="field">
            <label className="label" htmlFor={`${id}-expires`}>
              {t('admin.expiresAt')}
            </label>
            <input id={`${id}-expires`} className="input" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} aria-describedby={`${id}-expires-help`} />
            <p id={`${id}-expires-help`} className="help">
              {t('admin.expiresHelp')}
            </p>
          </div>
        )}
        {error && (
          <p id={`${id}-error`} className="help is-danger" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

function CaseCard({ item, onAct }: { item: AdminReportCase; onAct: (a: Action) => void }) {
  const { t } = useTranslation('reports');
  const s = item.snapshot;
  const headingId = useId();
  const actions: Action[] = ['dismiss', ...(item.canRemove ? (['remove_content'] as Action[]) : []), ...(s.owner ? MODERATIONS : [])];
  return (
    <article className="box reports-case" aria-labelledby={headingId} data-report-id={item.id}>
      <header className="is-flex is-align-items-center is-flex-wrap-wrap mb-2" style={{ gap: '0.5rem' }}>
        <h3 id={headingId} className="title is-6 mb-0">
          {t(`targetType.${item.targetType}`)} #{item.targetId}
        </h3>
        <span className="tag is-light">{t(`status.${item.status}`)}</span>
        <span className="tag is-warning is-light">{t('admin.reporters', { count: item.reporterCount })}</span>
        {item.categories.map((c) => (
          <span key={c} className="tag is-danger is-light">
            {t(`category.${c}`)}
          </span>
        ))}
      </header>
      <section aria-label={t('admin.asReported')} className="reports-snapshot">
        <p className="is-size-7 has-text-grey mb-1">
          {t('admin.asReported')}
          {s.owner && <> · {t('admin.by', { name: `${nameOf(s.owner)} (@${s.owner.username})` })}</>}
        </p>
        {s.title && <p className="has-text-weight-semibold">{s.title}</p>}
        {s.text ? <p className="reports-quote">{s.text}</p> : !s.title && <p className="has-text-grey">{t('admin.noSnapshot')}</p>}
        {s.mediaUrl &&
          (/\.(mp4|webm)(\?|$)/i.test(s.mediaUrl) ? (
            // eslint-disable-next-line jsx-a11y/media-has-caption
            <video className="reports-media mt-2" src={s.mediaUrl} controls preload="metadata" aria-label={t('admin.media')} />
          ) : (
            <img className="reports-media mt-2" src={s.mediaUrl} alt={t('admin.media')} loading="lazy" />
          ))}
        {s.link && (
          <p className="is-size-7 mt-1">
            <Link to={s.link}>{t('admin.open')}</Link>
          </p>
        )}
      </section>
      {!!item.notes?.length && (
        <section className="mt-2" aria-label={t('admin.notes')}>
          <p className="is-size-7 has-text-grey">{t('admin.notes')}</p>
          <ul className="reports-notes">
            {item.notes.map((n, i) => (
              <li key={i}>
                {n.reporter && <span className="has-text-weight-semibold">@{n.reporter.username}: </span>}
                {n.note}
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="is-size-7 has-text-grey mt-2">
        {t('admin.firstReported')}{' '}
        <RelativeTime date={item.firstReportedAt} />
        {item.resolution && <> · {t('admin.resolvedAs', { resolution: t(`resolution.${item.resolution}`) })}</>}
      </p>
      {item.status === 'open' && (
        <div className="buttons mt-3" role="group" aria-label={t('admin.actions')}>
          {actions.map((a) => (
            <button key={a} type="button" className={`button is-small${a === 'dismiss' ? '' : a === 'warn' ? ' is-warning is-light' : ' is-danger is-light'}`} onClick={() => onAct(a)}>
              {t(`admin.${ACTION_LABEL[a]}`)}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}

/** The admin dashboard's Reports tab: the queue, filters, the content as reported, and the actions. */
export default function ReportsTab() {
  const { t } = useTranslation('reports');
  const id = useId();
  const [status, setStatus] = useState<Status>('open');
  const [category, setCategory] = useState('');
  const [type, setType] = useState('');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ item: AdminReportCase; action: Action } | null>(null);
  const url = adminListReportsUrl({ status, page, pageSize: PAGE_SIZE, ...(category ? { category: category as any } : {}), ...(type ? { targetType: type as any } : {}) });
  const { data, error, isLoading, mutate: reload } = useApi<AdminReportPage>(url);
  const filter = (fn: (v: string) => void) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    fn(e.target.value);
    setPage(1);
  };
  return (
    <section aria-label={t('admin.tab')} className="reports-admin">
      <fieldset className="reports-filters mb-4">
        <legend className="is-sr-only">{t('admin.filters')}</legend>
        <div className="field">
          <label className="label is-small" htmlFor={`${id}-status`}>
            {t('admin.status')}
          </label>
          <div className="select is-small">
            <select id={`${id}-status`} value={status} onChange={filter((v) => setStatus(v as Status))}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s === 'all' ? t('admin.allStatuses') : t(`status.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field">
          <label className="label is-small" htmlFor={`${id}-category`}>
            {t('admin.category')}
          </label>
          <div className="select is-small">
            <select id={`${id}-category`} value={category} onChange={filter(setCategory)}>
              <option value="">{t('admin.all')}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`category.${c}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field">
          <label className="label is-small" htmlFor={`${id}-type`}>
            {t('admin.type')}
          </label>
          <div className="select is-small">
            <select id={`${id}-type`} value={type} onChange={filter(setType)}>
              <option value="">{t('admin.all')}</option>
              {TYPES.map((c) => (
                <option key={c} value={c}>
                  {t(`targetType.${c}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      {isLoading ? (
        <Spinner center label={t('admin.loading')} />
      ) : error ? (
        <EmptyState
          tone="error"
          title={t('admin.loadError')}
          action={
            <button type="button" className="button is-small is-light" onClick={() => void reload()}>
              {t('admin.retry')}
            </button>
          }
        />
      ) : !data?.items.length ? (
        <EmptyState icon="check" title={t('admin.empty')} description={t('admin.emptyText')} />
      ) : (
        <>
          {data.items.map((item) => (
            <CaseCard key={`${item.id}:${item.status}`} item={item} onAct={(action) => setActing({ item, action })} />
          ))}
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onChange={setPage} />
        </>
      )}
      {acting && <ActionDialog item={acting.item} action={acting.action} onClose={() => setActing(null)} />}
    </section>
  );
}
