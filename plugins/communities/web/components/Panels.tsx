/** The management panels: the real features behind the Manage Community menu. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Avatar, CoverImage, EmptyState, RelativeTime, Spinner, uploadWithProgress, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import {
  acceptCommunityJoinRequest,
  approveCommunityPost,
  bulkCommunityMemberAction,
  declineCommunityJoinRequest,
  deleteCommunity,
  rejectCommunityPost,
  resolveCommunityReport,
  unbanCommunityUser,
  updateCommunity,
  updateCommunityMemberRole,
  uploadCommunityImageUrl,
  type BulkCommunityMemberActionBody,
} from '../../../../web/src/api/generated/communities.ts';
import { displayName, failToast, okToast, type Ban, type Community, type JoinRequest, type Member, type Post, type Report } from '../lib.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { PostCard } from './PostCard.tsx';

interface PanelProps {
  community: Community;
  onChanged: () => void;
}

/** Edit Community Info: the info dialog lives in the page; here the image. */
export function ImagePanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  async function upload(file: File) {
    if (!/^image\/(jpeg|png|gif|webp)$/.test(file.type)) return failToast(t('toasts.imageFailed'), null, t('manage.imageTypes'));
    if (file.size > 5 * 1024 * 1024) return failToast(t('toasts.imageFailed'), null, t('manage.imageTooLarge'));
    const form = new FormData();
    form.append('image', file);
    try {
      setProgress(0);
      await uploadWithProgress(uploadCommunityImageUrl({ id: community.id }), form, (p) => setProgress(p));
      okToast(t('toasts.imageUpdated'));
      onChanged();
    } catch (e) {
      failToast(t('toasts.imageFailed'), e);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }
  return (
    <div className="cm-image-panel">
      <div className="cm-image-panel__preview"><CoverImage src={community.imageUrl} kind="community" category={community.type} seed={community.name} alt={community.imageUrl ? t('manage.imageAlt', { name: community.name }) : ''} sizes="240px" /></div>
      <div>
        <label className="button is-light" htmlFor="cm-image-input">
          {t('manage.changeImage')}
        </label>
        <input
          ref={input}
          id="cm-image-input"
          className="is-sr-only"
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void upload(f);
          }}
        />
        <p className="help">{t('manage.imageHelp')}</p>
        {progress !== null && <progress className="progress is-small is-primary" value={progress} max={100} aria-label={t('manage.uploading')} />}
      </div>
    </div>
  );
}

/** Privacy & Rules: open or private, and the community's rules and guidelines. */
export function PrivacyRulesPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const [membershipType, setMembership] = useState(community.membershipType);
  const [rules, setRules] = useState(community.rules);
  useEffect(() => {
    setMembership(community.membershipType);
    setRules(community.rules);
  }, [community.membershipType, community.rules]);
  const save = useMutation(() => updateCommunity({ params: { id: community.id }, body: { membershipType, rules } }), { retries: 0 });
  const dirty = membershipType !== community.membershipType || rules.trim() !== community.rules;
  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      await save.trigger();
      okToast(t('toasts.rulesUpdated'));
      onChanged();
    } catch (err) {
      failToast(t('toasts.updateFailed'), err);
    }
  }
  return (
    <form onSubmit={submit}>
      <fieldset className="field">
        <legend className="label">{t('create.membershipType')}</legend>
        {(['open', 'private'] as const).map((m) => (
          <label key={m} className="radio cm-radio">
            <input type="radio" name="cm-privacy" checked={membershipType === m} onChange={() => setMembership(m)} />
            <span>
              <strong>{t(`membership.${m === 'open' ? 'open' : 'private'}`)}</strong>
              <span className="help">{t(`create.membershipHelp.${m}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="label" htmlFor="cm-rules">
          {t('manage.rules')}
        </label>
        <textarea id="cm-rules" className="textarea" rows={6} maxLength={5000} value={rules} placeholder={t('manage.rulesPlaceholder')} onChange={(e) => setRules(e.target.value)} />
        <p className="help">{t('manage.rulesHelp')}</p>
      </div>
      <button type="submit" className={`button is-primary${save.isPending ? ' is-loading' : ''}`} disabled={!dirty || save.isPending}>
        {t('common.save')}
      </button>
    </form>
  );
}

/** Pending Requests: real join requests of a private community. */
export function JoinRequestsPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const { data, isLoading, error, mutate } = useApi<JoinRequest[]>(`/api/communities/${community.id}/join-requests`);
  const decide = useMutation((r: JoinRequest, accept: boolean) =>
    accept ? acceptCommunityJoinRequest({ params: { id: community.id, requestId: r.id } }) : declineCommunityJoinRequest({ params: { id: community.id, requestId: r.id } }), { retries: 0 });
  if (isLoading) return <Spinner />;
  if (error) return <p className="cm-danger">{error.message}</p>;
  if (!data?.length) return <p className="cm-muted">{community.membershipType === 'open' ? t('requests.noneOpen') : t('requests.none')}</p>;
  return (
    <ul className="cm-plainlist">
      {data.map((r) => (
        <li key={r.id} className="cm-row" data-testid="join-request">
          <Avatar src={r.user?.profileImageUrl} info={r.user?.profileImageInfo} name={displayName(r.user)} size={36} decorative />
          <div className="cm-row__main">
            <p className="has-text-weight-semibold">{displayName(r.user)}</p>
            {r.message && <p className="cm-prewrap">{r.message}</p>}
            <p className="is-size-7 cm-muted">
              <RelativeTime date={r.createdAt} />
            </p>
          </div>
          <div className="buttons">
            <button
              type="button"
              className="button is-small is-success"
              disabled={decide.isPending}
              onClick={async () => {
                try {
                  await decide.trigger(r, true);
                  okToast(t('toasts.requestAccepted'));
                  await mutate();
                  onChanged();
                } catch (e) {
                  failToast(t('toasts.requestFailed'), e);
                }
              }}
            >
              {t('requests.accept')}
            </button>
            <button
              type="button"
              className="button is-small"
              disabled={decide.isPending}
              onClick={async () => {
                try {
                  await decide.trigger(r, false);
                  okToast(t('toasts.requestDeclined'));
                  await mutate();
                  onChanged();
                } catch (e) {
                  failToast(t('toasts.requestFailed'), e);
                }
              }}
            >
              {t('requests.decline')}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Reported Content: open reports, to dismiss or to remove the content. */
export function ReportsPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const { data, isLoading, error, mutate } = useApi<Report[]>(`/api/communities/${community.id}/reports?status=${status}`);
  const resolve = useMutation((r: Report, action: 'dismiss' | 'remove_content') => resolveCommunityReport({ params: { id: community.id, reportId: r.id }, body: { action } }), { retries: 0 });
  async function act(r: Report, action: 'dismiss' | 'remove_content') {
    try {
      await resolve.trigger(r, action);
      okToast(action === 'dismiss' ? t('toasts.reportDismissed') : t('toasts.contentRemoved'));
      await mutate();
      onChanged();
    } catch (e) {
      failToast(t('toasts.resolveFailed'), e);
    }
  }
  return (
    <div>
      <div className="buttons has-addons is-small mb-3" role="group" aria-label={t('reports.filter')}>
        {(['open', 'resolved'] as const).map((s) => (
          <button key={s} type="button" className={`button is-small${status === s ? ' is-primary is-selected' : ''}`} aria-pressed={status === s} onClick={() => setStatus(s)}>
            {t(`reports.${s}`)}
          </button>
        ))}
      </div>
      {isLoading && <Spinner />}
      {error && <p className="cm-danger">{error.message}</p>}
      {data && data.length === 0 && <p className="cm-muted">{status === 'open' ? t('reports.none') : t('reports.noneResolved')}</p>}
      <ul className="cm-plainlist">
        {data?.map((r) => (
          <li key={r.id} className="cm-report" data-testid="report">
            <p className="is-size-7 cm-muted">
              {t(r.targetType === 'post' ? 'reports.postBy' : 'reports.commentBy', { name: displayName(r.author) })} · <RelativeTime date={r.createdAt} />
            </p>
            <blockquote className="cm-report__content cm-prewrap">{r.content}</blockquote>
            <p>
              <strong>{t('reports.reason')}:</strong> {r.reason} <span className="cm-muted">— {displayName(r.reporter)}</span>
            </p>
            {r.contentRemoved && r.status === 'open' && <p className="help">{t('reports.alreadyRemoved')}</p>}
            {r.status === 'open' ? (
              <div className="buttons mt-2">
                <button type="button" className="button is-small" disabled={resolve.isPending} onClick={() => void act(r, 'dismiss')}>
                  {t('reports.dismiss')}
                </button>
                {!r.contentRemoved && (
                  <button type="button" className="button is-small is-danger" disabled={resolve.isPending} onClick={() => void act(r, 'remove_content')}>
                    {t('reports.remove')}
                  </button>
                )}
              </div>
            ) : (
              <p className="tag is-light">{r.resolution === 'content_removed' ? t('reports.resolvedRemoved') : t('reports.resolvedDismissed')}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Review Posts: posts of members who require approval. */
export function ReviewPostsPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const { data, isLoading, error, mutate } = useApi<Post[]>(`/api/communities/${community.id}/posts/pending`);
  const decide = useMutation((p: Post, ok: boolean) => (ok ? approveCommunityPost({ params: { id: p.id } }) : rejectCommunityPost({ params: { id: p.id } })), { retries: 0 });
  if (isLoading) return <Spinner />;
  if (error) return <p className="cm-danger">{error.message}</p>;
  if (!data?.length) return <p className="cm-muted">{t('review.none')}</p>;
  return (
    <div>
      {data.map((p) => (
        <div key={p.id} className="cm-review" data-testid="pending-post">
          <PostCard post={p} compact viewer={{ isMember: true, canComment: false, canModerate: false }} onChange={() => void mutate()} onRefresh={() => void mutate()} />
          <div className="buttons">
            {[true, false].map((ok) => (
              <button
                key={String(ok)}
                type="button"
                className={`button is-small ${ok ? 'is-success' : 'is-danger is-light'}`}
                disabled={decide.isPending}
                onClick={async () => {
                  try {
                    await decide.trigger(p, ok);
                    okToast(ok ? t('toasts.postApproved') : t('toasts.postRejected'));
                    await mutate();
                    onChanged();
                  } catch (e) {
                    failToast(t('toasts.reviewFailed'), e);
                  }
                }}
              >
                {ok ? t('review.approve') : t('review.reject')}
              </button>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

const BULK: BulkCommunityMemberActionBody['action'][] = ['mute', 'unmute', 'restrict_posting', 'allow_posting', 'require_approval', 'remove_approval', 'warn', 'remove', 'ban'];

/** Manage Members: bulk actions on the selected members, and the banned list. */
export function BulkMembersPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const { data, mutate } = useApi<Member[]>(`/api/communities/${community.id}/members`);
  const bans = useApi<Ban[]>(`/api/communities/${community.id}/bans`);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [action, setAction] = useState<BulkCommunityMemberActionBody['action']>('mute');
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState(false);
  const run = useMutation(() => bulkCommunityMemberAction({ params: { id: community.id }, body: { memberIds: [...selected] as BulkCommunityMemberActionBody['memberIds'], action, reason: reason.trim() || undefined } }), { retries: 0 });
  const unban = useMutation((userId: number) => unbanCommunityUser({ params: { id: community.id, userId } }), { retries: 0 });
  const candidates = (data ?? []).filter((m) => !m.isCreator && (community.isCreator || m.role === 'member' || m.role === 'moderator'));
  const needsReason = action === 'warn';
  const destructive = action === 'remove' || action === 'ban';

  async function apply() {
    try {
      const r = await run.trigger();
      setConfirm(false);
      okToast(t('toasts.bulkDone', { count: r.processed }), r.skipped.length ? t('toasts.bulkSkipped', { count: r.skipped.length }) : undefined);
      setSelected(new Set());
      setReason('');
      await mutate();
      await bans.mutate();
      onChanged();
    } catch (e) {
      failToast(t('toasts.bulkFailed'), e, t('toasts.tryLater'));
    }
  }

  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <div>
      {candidates.length === 0 ? (
        <p className="cm-muted">{t('bulk.none')}</p>
      ) : (
        <>
          <label className="checkbox mb-2">
            <input type="checkbox" checked={selected.size === candidates.length} onChange={(e) => setSelected(e.target.checked ? new Set(candidates.map((m) => m.id)) : new Set())} /> {t('bulk.selectAll')}
          </label>
          <ul className="cm-plainlist cm-bulk-list">
            {candidates.map((m) => (
              <li key={m.id}>
                <label className="checkbox">
                  <input type="checkbox" checked={selected.has(m.id)} onChange={() => toggle(m.id)} /> {displayName(m.user)} <span className="cm-muted">@{m.user.username}</span>
                  {m.role !== 'member' && <span className="tag is-light ml-1">{t(`roles.${m.role}`)}</span>}
                </label>
              </li>
            ))}
          </ul>
          <div className="field is-grouped is-grouped-multiline mt-3">
            <div className="control">
              <label className="label is-small" htmlFor="cm-bulk-action">
                {t('bulk.action')}
              </label>
              <div className="select is-small">
                <select id="cm-bulk-action" value={action} onChange={(e) => setAction(e.target.value as any)}>
                  {BULK.map((a) => (
                    <option key={a} value={a}>
                      {t(`bulk.actions.${a}`)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="control is-expanded">
              <label className="label is-small" htmlFor="cm-bulk-reason">
                {needsReason ? t('bulk.reasonRequired') : t('bulk.reason')}
              </label>
              <input id="cm-bulk-reason" className="input is-small" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
            </div>
          </div>
          <button
            type="button"
            className={`button is-small ${destructive ? 'is-danger' : 'is-primary'}${run.isPending ? ' is-loading' : ''}`}
            disabled={selected.size === 0 || (needsReason && !reason.trim()) || run.isPending}
            onClick={() => (destructive ? setConfirm(true) : void apply())}
          >
            {t('bulk.apply', { count: selected.size })}
          </button>
        </>
      )}
      <h4 className="title is-6 mt-5">{t('bulk.banned')}</h4>
      {bans.data && bans.data.length === 0 && <p className="cm-muted">{t('bulk.noBans')}</p>}
      <ul className="cm-plainlist">
        {bans.data?.map((b) => (
          <li key={b.userId} className="cm-row">
            <div className="cm-row__main">
              <p className="has-text-weight-semibold">{displayName(b.user)}</p>
              {b.reason && <p className="is-size-7">{b.reason}</p>}
            </div>
            <button
              type="button"
              className="button is-small"
              disabled={unban.isPending}
              onClick={async () => {
                try {
                  await unban.trigger(b.userId);
                  okToast(t('toasts.unbanned'));
                  await bans.mutate();
                } catch (e) {
                  failToast(t('toasts.unbanFailed'), e);
                }
              }}
            >
              {t('bulk.unban')}
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog open={confirm} title={t(`bulk.actions.${action}`)} confirmLabel={t('bulk.apply', { count: selected.size })} busy={run.isPending} onConfirm={() => void apply()} onClose={() => setConfirm(false)}>
        <p>{t('bulk.confirm', { count: selected.size })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Assign Roles (creator only): member, moderator or admin. */
export function AssignRolesPanel({ community, onChanged }: PanelProps) {
  const { t } = useTranslation('communities');
  const { data, mutate } = useApi<Member[]>(`/api/communities/${community.id}/members`);
  const set = useMutation((m: Member, role: 'member' | 'moderator' | 'admin') => updateCommunityMemberRole({ params: { id: community.id, memberId: m.id }, body: { role } }), { retries: 0 });
  const others = (data ?? []).filter((m) => !m.isCreator);
  if (!data) return <Spinner />;
  if (!others.length) return <p className="cm-muted">{t('roles.nobody')}</p>;
  return (
    <table className="table is-fullwidth is-narrow cm-table">
      <thead>
        <tr>
          <th scope="col">{t('roles.member')}</th>
          <th scope="col">{t('roles.role')}</th>
        </tr>
      </thead>
      <tbody>
        {others.map((m) => (
          <tr key={m.id}>
            <td>
              {displayName(m.user)} <span className="cm-muted">@{m.user.username}</span>
            </td>
            <td>
              <div className="select is-small">
                <select
                  aria-label={t('roles.roleOf', { name: displayName(m.user) })}
                  value={m.role}
                  disabled={set.isPending}
                  onChange={async (e) => {
                    try {
                      await set.trigger(m, e.target.value as any);
                      okToast(t('toasts.roleUpdated'));
                      await mutate();
                      onChanged();
                    } catch (err) {
                      failToast(t('toasts.roleFailed'), err, t('toasts.tryLater'));
                    }
                  }}
                >
                  {(['member', 'moderator', 'admin'] as const).map((r) => (
                    <option key={r} value={r}>
                      {t(`roles.${r}`)}
                    </option>
                  ))}
                </select>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Delete Community: after a confirmation naming the community. */
export function DeleteCommunityPanel({ community, openSignal }: { community: Community; openSignal: number }) {
  const { t } = useTranslation('communities');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const del = useMutation(() => deleteCommunity({ params: { id: community.id } }), { retries: 0 });
  useEffect(() => {
    if (openSignal > 0) setOpen(true);
  }, [openSignal]);
  return (
    <div>
      <p className="mb-3">{t('delete.warning')}</p>
      <button type="button" className="button is-danger" onClick={() => setOpen(true)}>
        {t('manage.deleteCommunity')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('delete.title', { name: community.name })}
        confirmLabel={t('manage.deleteCommunity')}
        busy={del.isPending}
        confirmDisabled={typed.trim() !== community.name.trim()}
        onConfirm={async () => {
          if (typed.trim() !== community.name.trim()) return;
          try {
            await del.trigger();
            okToast(t('toasts.communityDeleted'));
            navigate('/communities', { replace: true });
          } catch (e) {
            failToast(t('toasts.deleteFailed'), e);
          }
        }}
        onClose={() => {
          setOpen(false);
          setTyped('');
        }}
      >
        <p className="mb-3">{t('delete.confirm')}</p>
        <div className="field">
          <label className="label" htmlFor="cm-delete-name">
            {t('delete.typeName', { name: community.name })}
          </label>
          <input id="cm-delete-name" className="input" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          {typed && typed.trim() !== community.name.trim() && <p className="help is-danger">{t('delete.mismatch')}</p>}
        </div>
      </ConfirmDialog>
    </div>
  );
}

export { EmptyState };
