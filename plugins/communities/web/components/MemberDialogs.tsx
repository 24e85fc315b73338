import { Modal, RelativeTime, Spinner, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { deleteCommunityComment } from '../../../../web/src/api/generated/communities.ts';
import { displayName, failToast, type Member, type Post, type Reply } from '../lib.ts';
import { PostCard, type PostViewer } from './PostCard.tsx';

/** "View posts": a member's posts in this community. */
export function MemberPostsDialog({ communityId, member, viewer, onClose }: { communityId: number; member: Member | null; viewer: PostViewer; onClose: () => void }) {
  const { t } = useTranslation('communities');
  const { data, isLoading, error, mutate } = useApi<Post[]>(member ? `/api/communities/${communityId}/members/${member.id}/posts` : null);
  return (
    <Modal open={Boolean(member)} onClose={onClose} size="large" title={member ? t('members.postsOf', { name: displayName(member.user) }) : ''}>
      {isLoading && <Spinner center />}
      {error && <p className="cm-danger">{error.message}</p>}
      {data && data.length === 0 && <p className="cm-muted">{t('members.noPosts')}</p>}
      {data?.map((p) => (
        <PostCard key={p.id} post={p} viewer={{ ...viewer, canComment: false }} compact onChange={() => void mutate()} onRefresh={() => void mutate()} />
      ))}
    </Modal>
  );
}

/** "Review comments": a member's comments, newest first, with delete (moderators). */
export function MemberCommentsDialog({ communityId, member, onClose, onChanged }: { communityId: number; member: Member | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation('communities');
  const { data, isLoading, error, mutate } = useApi<Reply[]>(member ? `/api/communities/${communityId}/members/${member.id}/comments` : null);
  const remove = useMutation((id: number) => deleteCommunityComment({ params: { id } }), { retries: 0 });
  return (
    <Modal open={Boolean(member)} onClose={onClose} title={member ? t('members.commentsOf', { name: displayName(member.user) }) : ''}>
      {isLoading && <Spinner center />}
      {error && <p className="cm-danger">{error.message}</p>}
      {data && data.length === 0 && <p className="cm-muted">{t('members.noComments')}</p>}
      <ul className="cm-plainlist">
        {data?.map((c) => (
          <li key={c.id} className="cm-review-comment">
            <p className="cm-prewrap">{c.content}</p>
            <p className="is-size-7 cm-muted">
              <RelativeTime date={c.createdAt} /> · {t('members.onPost', { id: c.postId })}
            </p>
            <button
              type="button"
              className="button is-small is-danger is-light"
              disabled={remove.isPending}
              onClick={async () => {
                try {
                  await remove.trigger(c.id);
                  await mutate();
                  onChanged();
                } catch (e) {
                  failToast(t('toasts.deleteCommentFailed'), e);
                }
              }}
            >
              {t('common.delete')}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
