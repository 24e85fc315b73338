import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Avatar, EmptyState, Icon, RelativeTime, Spinner, useApi, useMutation, usePluginEnabled, useTranslation } from '../../../../web/src/index.ts';
import {
  banCommunityMember,
  deleteCommunityMemberContent,
  removeCommunityMember,
  updateCommunityMemberPermissions,
  updateCommunityMemberRole,
  warnCommunityMember,
} from '../../../../web/src/api/generated/communities.ts';
import { displayName, failToast, okToast, profilePath, type Community, type Member } from '../lib.ts';
import { ConfirmDialog, ReasonDialog } from './ConfirmDialog.tsx';
import { Menu, type MenuItem } from './Menu.tsx';
import { MemberCommentsDialog, MemberPostsDialog } from './MemberDialogs.tsx';

export function memberRank(m: Pick<Member, 'isCreator' | 'role'>): number {
  if (m.isCreator) return 3;
  return { admin: 2, moderator: 1, member: 0 }[m.role] ?? 0;
}

export function viewerRank(c: Community): number {
  if (c.isCreator) return 3;
  if (!c.isMember || !c.role) return -1;
  return { admin: 2, moderator: 1, member: 0 }[c.role] ?? 0;
}

type PermissionKey = 'canPost' | 'canComment' | 'isMuted' | 'requiresApproval';

/** Every member action of part 2 §6, each hidden when the viewer may not take it (the server checks again). */
export function useMemberActions(community: Community, onChanged: () => void) {
  const { t } = useTranslation('communities');
  const id = community.id;
  const later = t('toasts.tryLater');
  const role = useMutation((m: Member, r: 'member' | 'moderator' | 'admin') => updateCommunityMemberRole({ params: { id, memberId: m.id }, body: { role: r } }), { retries: 0 });
  const perm = useMutation((m: Member, key: PermissionKey, value: boolean) => updateCommunityMemberPermissions({ params: { id, memberId: m.id }, body: { [key]: value } }), { retries: 0 });
  const remove = useMutation((m: Member) => removeCommunityMember({ params: { id, memberId: m.id } }), { retries: 0 });
  // DELETE bodies are not read by every server: the content type goes in the query too.
  const content = useMutation((m: Member, contentType: 'posts' | 'all') => deleteCommunityMemberContent({ params: { id, memberId: m.id }, query: { contentType }, body: { contentType } }), { retries: 0 });
  const warn = useMutation((m: Member, reason: string) => warnCommunityMember({ params: { id, memberId: m.id }, body: { reason } }), { retries: 0 });
  const ban = useMutation((m: Member, reason: string) => banCommunityMember({ params: { id, memberId: m.id }, body: { reason } }), { retries: 0 });

  return {
    busy: role.isPending || perm.isPending || remove.isPending || content.isPending || warn.isPending || ban.isPending,
    async setRole(m: Member, r: 'member' | 'moderator' | 'admin') {
      try {
        await role.trigger(m, r);
        okToast(t('toasts.roleUpdated'));
        onChanged();
      } catch (e) {
        failToast(t('toasts.roleFailed'), e, later);
      }
    },
    async setPermission(m: Member, key: PermissionKey, value: boolean) {
      try {
        await perm.trigger(m, key, value);
        okToast(t('toasts.permissionsUpdated'));
        onChanged();
      } catch (e) {
        failToast(t('toasts.permissionsFailed'), e, later);
      }
    },
    async remove(m: Member) {
      try {
        await remove.trigger(m);
        okToast(t('toasts.memberRemoved'));
        onChanged();
        return true;
      } catch (e) {
        failToast(t('toasts.removeFailed'), e, later);
        return false;
      }
    },
    async deleteContent(m: Member, type: 'posts' | 'all') {
      try {
        await content.trigger(m, type);
        okToast(t('toasts.contentDeleted'));
        onChanged();
        return true;
      } catch (e) {
        failToast(t('toasts.contentFailed'), e, later);
        return false;
      }
    },
    async warn(m: Member, reason: string) {
      try {
        await warn.trigger(m, reason);
        okToast(t('toasts.warned'), t('toasts.warnedText', { name: displayName(m.user) }));
        onChanged();
        return true;
      } catch (e) {
        failToast(t('toasts.warnFailed'), e, later);
        return false;
      }
    },
    async ban(m: Member, reason: string) {
      try {
        await ban.trigger(m, reason);
        okToast(t('toasts.banned'));
        onChanged();
        return true;
      } catch (e) {
        failToast(t('toasts.banFailed'), e, later);
        return false;
      }
    },
  };
}

/** The Members tab: every member with their role; the management menu for admins, moderators and the creator. */
export function MembersTab({ community, onChanged }: { community: Community; onChanged: () => void }) {
  const { t } = useTranslation('communities');
  const navigate = useNavigate();
  const messagesEnabled = usePluginEnabled('messages');
  const key = `/api/communities/${community.id}/members`;
  const { data, isLoading, error, mutate } = useApi<Member[]>(key);
  const [filter, setFilter] = useState('');
  const refresh = () => {
    void mutate();
    onChanged();
  };
  const actions = useMemberActions(community, refresh);
  const me = viewerRank(community);
  const [dialog, setDialog] = useState<{ kind: 'warn' | 'ban' | 'remove' | 'posts' | 'all' | 'viewPosts' | 'comments'; m: Member } | null>(null);
  const [reason, setReason] = useState('');

  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    if (!data) return [];
    return f ? data.filter((m) => `${displayName(m.user)} ${m.user.username}`.toLowerCase().includes(f)) : data;
  }, [data, filter]);

  if (isLoading) return <Spinner center />;
  if (error) return <EmptyState tone="error" icon="alert" title={error.status === 403 ? error.message : t('members.loadFailed')} />;
  if (!data) return null;

  const itemsFor = (m: Member): MenuItem[] => {
    const items: MenuItem[] = [];
    items.push({ key: 'view', label: t('members.actions.viewPosts'), onSelect: () => setDialog({ kind: 'viewPosts', m }) });
    if (community.permissions.canModerate) items.push({ key: 'comments', label: t('members.actions.reviewComments'), onSelect: () => setDialog({ kind: 'comments', m }) });
    // the messages page opens the conversation, or says why this member cannot be messaged
    if (messagesEnabled) items.push({ key: 'message', label: t('members.actions.message'), onSelect: () => navigate(`/messages/new?to=${m.user.id}`) });
    const lower = memberRank(m) < me;
    if (community.permissions.canChangeRoles && !m.isCreator) {
      if (m.role !== 'admin') items.push({ key: 'admin', divider: true, label: t('members.actions.makeAdmin'), onSelect: () => void actions.setRole(m, 'admin') });
      if (m.role !== 'moderator') items.push({ key: 'moderator', divider: m.role === 'admin', label: t('members.actions.makeModerator'), onSelect: () => void actions.setRole(m, 'moderator') });
      if (m.role !== 'member') items.push({ key: 'member', label: t('members.actions.removeRole'), onSelect: () => void actions.setRole(m, 'member') });
    }
    if (community.permissions.canManageMembers && lower && m.restrictions) {
      const r = m.restrictions;
      items.push(
        { key: 'warn', divider: true, label: t('members.actions.warn'), onSelect: () => setDialog({ kind: 'warn', m }) },
        { key: 'post', label: r.canPost ? t('members.actions.restrictPosting') : t('members.actions.allowPosting'), onSelect: () => void actions.setPermission(m, 'canPost', !r.canPost) },
        { key: 'comment', label: r.canComment ? t('members.actions.restrictCommenting') : t('members.actions.allowCommenting'), onSelect: () => void actions.setPermission(m, 'canComment', !r.canComment) },
        { key: 'mute', label: r.isMuted ? t('members.actions.unmute') : t('members.actions.mute'), onSelect: () => void actions.setPermission(m, 'isMuted', !r.isMuted) },
        { key: 'approval', label: r.requiresApproval ? t('members.actions.removeApproval') : t('members.actions.requireApproval'), onSelect: () => void actions.setPermission(m, 'requiresApproval', !r.requiresApproval) },
        { key: 'delposts', divider: true, danger: true, label: t('members.actions.deletePosts'), onSelect: () => setDialog({ kind: 'posts', m }) },
        { key: 'delall', danger: true, label: t('members.actions.deleteAll'), onSelect: () => setDialog({ kind: 'all', m }) },
        { key: 'remove', danger: true, label: t('members.actions.remove'), onSelect: () => setDialog({ kind: 'remove', m }) },
        { key: 'ban', danger: true, label: t('members.actions.ban'), onSelect: () => setDialog({ kind: 'ban', m }) },
      );
    }
    return items;
  };

  const close = () => {
    setDialog(null);
    setReason('');
  };
  const name = dialog ? displayName(dialog.m.user) : '';

  return (
    <div className="cm-members">
      <div className="field cm-members__filter">
        <label className="label is-sr-only" htmlFor="cm-member-filter">
          {t('members.filter')}
        </label>
        <div className="control has-icons-left">
          <input id="cm-member-filter" className="input" type="search" placeholder={t('members.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} />
          <span className="icon is-left" aria-hidden="true">
            <Icon name="search" size={16} />
          </span>
        </div>
      </div>
      <p className="cm-muted is-size-7 mb-3">{t('common.members', { count: data.length })}</p>
      <ul className="cm-member-list">
        {shown.map((m) => (
          <li key={m.id} className="cm-member" data-testid="member-row" data-user-id={m.userId}>
            <Avatar src={m.user.profileImageUrl} info={m.user.profileImageInfo} name={displayName(m.user)} size={44} decorative />
            <div className="cm-member__main">
              <p>
                <Link to={profilePath(m.user)} className="has-text-weight-semibold">
                  {displayName(m.user)}
                </Link>{' '}
                <span className="cm-muted">@{m.user.username}</span>{' '}
                {m.isCreator ? (
                  <span className="tag is-primary">{t('roles.creator')}</span>
                ) : m.role !== 'member' ? (
                  <span className={`tag ${m.role === 'admin' ? 'is-link' : 'is-info'} is-light`} data-testid="member-role">
                    {t(`roles.${m.role}`)}
                  </span>
                ) : null}
                {m.restrictions && !m.restrictions.canPost && <span className="tag is-warning is-light ml-1">{t('restrictions.cannotPost')}</span>}
                {m.restrictions && !m.restrictions.canComment && <span className="tag is-warning is-light ml-1">{t('restrictions.cannotComment')}</span>}
                {m.restrictions?.isMuted && <span className="tag is-danger is-light ml-1">{t('restrictions.muted')}</span>}
                {m.restrictions?.requiresApproval && <span className="tag is-info is-light ml-1">{t('restrictions.requiresApproval')}</span>}
              </p>
              {m.user.bio && (
                <p className="cm-member__bio is-size-7" data-testid="member-bio">
                  {m.user.bio}
                </p>
              )}
              <p className="is-size-7 cm-muted">
                {t('members.joined')} <RelativeTime date={m.joinedAt} />
                {m.stats && community.permissions.canModerate && (
                  <>
                    {' · '}
                    {t('members.stats', { posts: m.stats.postsCount, comments: m.stats.commentsCount })}
                    {m.stats.warningsCount > 0 && ` · ${t('members.warnings', { count: m.stats.warningsCount })}`}
                    {m.stats.lastActive && (
                      <>
                        {' · '}
                        {t('members.lastActive')} <RelativeTime date={m.stats.lastActive} />
                      </>
                    )}
                  </>
                )}
              </p>
            </div>
            <Menu
              label={
                <>
                  <span className="is-sr-only">{t('members.menuFor', { name: displayName(m.user) })}</span>
                  <span aria-hidden="true">⋯</span>
                </>
              }
              buttonClassName="button is-white"
              testId={`member-menu-${m.userId}`}
              items={itemsFor(m)}
            />
          </li>
        ))}
      </ul>
      {shown.length === 0 && <p className="cm-muted">{t('members.noMatch')}</p>}

      <ReasonDialog
        open={dialog?.kind === 'warn'}
        title={t('members.warnTitle', { name })}
        label={t('members.warnReason')}
        confirmLabel={t('members.actions.warn')}
        busy={actions.busy}
        value={reason}
        onChange={setReason}
        onConfirm={async () => {
          if (dialog && (await actions.warn(dialog.m, reason.trim()))) close();
        }}
        onClose={close}
      />
      <ReasonDialog
        open={dialog?.kind === 'ban'}
        title={t('members.banTitle', { name })}
        label={t('members.banReason')}
        confirmLabel={t('members.actions.ban')}
        required={false}
        danger
        busy={actions.busy}
        value={reason}
        onChange={setReason}
        onConfirm={async () => {
          if (dialog && (await actions.ban(dialog.m, reason.trim()))) close();
        }}
        onClose={close}
      >
        <p className="mb-3">{t('members.banConfirm', { name })}</p>
      </ReasonDialog>
      <ConfirmDialog
        open={dialog?.kind === 'remove'}
        title={t('members.removeTitle')}
        confirmLabel={t('members.actions.remove')}
        busy={actions.busy}
        onConfirm={async () => {
          if (dialog && (await actions.remove(dialog.m))) close();
        }}
        onClose={close}
      >
        <p>{t('members.removeConfirm', { name })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog?.kind === 'posts' || dialog?.kind === 'all'}
        title={dialog?.kind === 'all' ? t('members.actions.deleteAll') : t('members.actions.deletePosts')}
        confirmLabel={t('common.delete')}
        busy={actions.busy}
        onConfirm={async () => {
          if (dialog && (await actions.deleteContent(dialog.m, dialog.kind === 'all' ? 'all' : 'posts'))) close();
        }}
        onClose={close}
      >
        <p>{dialog?.kind === 'all' ? t('members.deleteAllConfirm', { name }) : t('members.deletePostsConfirm', { name })}</p>
      </ConfirmDialog>
      <MemberPostsDialog
        communityId={community.id}
        member={dialog?.kind === 'viewPosts' ? dialog.m : null}
        viewer={{ isMember: community.isMember, canComment: false, canModerate: community.permissions.canModerate }}
        onClose={close}
      />
      <MemberCommentsDialog communityId={community.id} member={dialog?.kind === 'comments' ? dialog.m : null} onClose={close} onChanged={refresh} />
    </div>
  );
}
