import { useId, useState } from 'react';
import { Modal, Spinner, useApi, useMutation, useTranslation, formatDateTime } from '../../../../web/src/index.ts';
import { adminDeleteUser, adminLiftModeration, adminModerateUser, type AdminListModerationsResponse } from '../../../../web/src/api/generated/admin.ts';
import type { AdminUser } from './UsersTab.tsx';
import { failToast, fullName, localToIso, okToast, qs, refreshAdmin } from '../lib.ts';

const TYPES = ['warning', 'temporary_ban', 'permanent_ban', 'content_restriction', 'delete_user'] as const;
type Type = (typeof TYPES)[number];
const WITH_EXPIRY: Type[] = ['temporary_ban', 'content_restriction'];

/** Spec part 2 §5: reason required; expiry only for temporary_ban and content_restriction; delete_user uses the delete call. */
export function ModerateUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const id = useId();
  const [type, setType] = useState<Type>('warning');
  const [reason, setReason] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const active = useApi<AdminListModerationsResponse>(`/api/admin/moderations${qs({ userId: user.id })}`);
  const run = useMutation(
    async () => {
      if (type === 'delete_user') return adminDeleteUser({ body: { userId: user.id, reason: reason.trim() } });
      return adminModerateUser({ body: { userId: user.id, type, reason: reason.trim(), expiresAt: WITH_EXPIRY.includes(type) ? localToIso(expiresAt) : null } });
    },
    { retries: 0 },
  );
  const lift = useMutation((moderationId: number) => adminLiftModeration({ params: { id: moderationId }, body: {} }), { retries: 0 });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) {
      setError(t('moderation.reasonRequired'));
      return;
    }
    if (WITH_EXPIRY.includes(type) && expiresAt && (localToIso(expiresAt) === null || new Date(expiresAt).getTime() <= Date.now())) {
      setError(t('moderation.expiryFuture'));
      return;
    }
    setError(null);
    try {
      await run.trigger();
      okToast(t('toast.success'), type === 'delete_user' ? t('users.deleted') : t('users.moderated'));
      await refreshAdmin('/api/admin/users', '/api/admin/moderations', '/api/admin/actions', '/api/admin/analytics');
      onClose();
    } catch (err) {
      failToast(err, type === 'delete_user' ? t('users.deleteFailed') : t('users.moderateFailed'));
    }
  };

  const onLift = async (moderationId: number) => {
    try {
      await lift.trigger(moderationId);
      okToast(t('toast.success'), t('moderation.lifted'));
      await Promise.all([active.mutate(), refreshAdmin('/api/admin/users', '/api/admin/actions')]);
    } catch (err) {
      failToast(err, t('moderation.liftFailed'));
    }
  };

  const name = fullName(user) || user.username;
  const destructive = type !== 'warning';
  return (
    <Modal
      open
      onClose={onClose}
      title={t('moderation.title')}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button ${destructive ? 'is-danger' : 'is-warning'}${run.isPending ? ' is-loading' : ''}`} disabled={run.isPending}>
            {type === 'delete_user' ? t('moderation.deleteUser') : t('moderation.apply')}
          </button>
        </div>
      }
    >
      <p className="mb-3">{t('moderation.for', { name, username: user.username })}</p>
      <section className="mb-4" aria-labelledby={`${id}-active`}>
        <h3 id={`${id}-active`} className="title is-6 mb-2">
          {t('moderation.active')}
        </h3>
        {active.isLoading ? (
          <Spinner size="small" />
        ) : !active.data?.items.length ? (
          <p className="has-text-grey">{t('moderation.noneActive')}</p>
        ) : (
          <ul className="admin-mini-list">
            {active.data.items.map((m) => (
              <li key={m.id}>
                <span className="tag is-light">{t(`moderation.types.${m.type}`)}</span> <span>{m.reason}</span>{' '}
                <span className="has-text-grey is-size-7">
                  {m.expiresAt ? t('moderation.until', { date: formatDateTime(new Date(m.expiresAt), i18n.language) }) : t('moderation.noExpiry')}
                </span>{' '}
                <button type="button" className="button is-small is-text" onClick={() => onLift(m.id)} disabled={lift.isPending}>
                  {t('moderation.lift')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor={`${id}-type`}>
            {t('moderation.type')}
          </label>
          <div className="select is-fullwidth">
            <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as Type)}>
              {TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`moderation.types.${x}`)}
                </option>
              ))}
            </select>
          </div>
          <p className="help">{t(`moderation.help.${type}`)}</p>
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-reason`}>
            {t('moderation.reason')} <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={`${id}-reason`}
            className={`textarea${error && !reason.trim() ? ' is-danger' : ''}`}
            rows={3}
            maxLength={1000}
            value={reason}
            required
            aria-invalid={Boolean(error && !reason.trim())}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {WITH_EXPIRY.includes(type) && (
          <div className="field">
            <label className="label" htmlFor={`${id}-expires`}>
              {t('moderation.expiresAt')}
            </label>
            <input id={`${id}-expires`} className="input" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
            <p className="help">{type === 'temporary_ban' ? t('moderation.expiryDefaultBan') : t('moderation.expiryDefaultRestriction')}</p>
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
