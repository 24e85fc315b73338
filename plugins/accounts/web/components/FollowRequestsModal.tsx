import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar, EmptyState, Modal, Spinner, toast, useApi, useTranslation, withRetry } from '../../../../web/src/index.ts';
import { authorizeFollowRequest, rejectFollowRequest, type FollowRequestPage } from '../../../../web/src/api/generated/accounts.ts';
import { displayName } from '../lib.ts';

export const FOLLOW_REQUESTS_KEY = '/api/follow-requests?limit=50';

/** The owner's pending follow requests (private profile), each with Accept and Reject buttons. */
export function FollowRequestsModal({ onClose, onChange }: { onClose: () => void; onChange: () => void }) {
  const { t } = useTranslation('accounts');
  const { data, error, isLoading, mutate } = useApi<FollowRequestPage>(FOLLOW_REQUESTS_KEY);
  const [busy, setBusy] = useState<number | null>(null);
  const decide = async (id: number, approve: boolean, name: string) => {
    setBusy(id);
    try {
      await withRetry(() => (approve ? authorizeFollowRequest({ params: { id } }) : rejectFollowRequest({ params: { id } })), { retries: 0 });
      toast({ title: approve ? t('requests.accepted', { name }) : t('requests.rejected', { name }), variant: 'success' });
      await mutate();
      onChange();
    } catch (e) {
      toast({ title: t('requests.failed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };
  const items = data?.items ?? [];
  return (
    <Modal open onClose={onClose} title={t('requests.title')} size="small">
      {isLoading && <Spinner center label={t('requests.loading')} />}
      {error && (
        <EmptyState
          tone="error"
          compact
          title={t('requests.loadFailed')}
          action={
            <button type="button" className="button is-light" onClick={() => void mutate()}>
              {t('profile.retry')}
            </button>
          }
        />
      )}
      {data && items.length === 0 && <p className="has-text-grey">{t('requests.empty')}</p>}
      {items.length > 0 && (
        <ul className="acc-follow-list" aria-label={t('requests.title')}>
          {items.map((r) => {
            const name = displayName({ ...r.user, username: r.user.username });
            return (
              <li key={r.id} className="acc-follow-list__item">
                <Link to={`/profile/${r.user.slug || r.user.id}`} className="acc-follow-list__who" onClick={onClose}>
                  <Avatar src={r.user.profileImageUrl ?? null} info={r.user.profileImageInfo} name={name} size={40} decorative />
                  <span>
                    <span className="acc-follow-list__name">{name}</span>
                    <span className="acc-follow-list__handle">@{r.user.username}</span>
                  </span>
                </Link>
                <div className="buttons are-small acc-request-actions">
                  <button type="button" className={`button is-primary${busy === r.id ? ' is-loading' : ''}`} disabled={busy !== null} onClick={() => decide(r.id, true, name)} aria-label={t('requests.acceptName', { name })}>
                    {t('requests.accept')}
                  </button>
                  <button type="button" className="button is-light" disabled={busy !== null} onClick={() => decide(r.id, false, name)} aria-label={t('requests.rejectName', { name })}>
                    {t('requests.reject')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}
