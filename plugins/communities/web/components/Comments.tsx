import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Avatar, RelativeTime, Spinner, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import {
  createCommunityPostComment,
  deleteCommunityComment,
  reportCommunityComment,
} from '../../../../web/src/api/generated/communities.ts';
import { displayName, failToast, okToast, profilePath, type Comment, type Reply } from '../lib.ts';
import { ReasonDialog } from './ConfirmDialog.tsx';
import { MentionText } from '../../../accounts/web/components/MentionText.tsx';
import { MentionInput } from '../../../accounts/web/components/MentionInput.tsx';

interface Props {
  postId: number;
  canComment: boolean;
  /** why the viewer may not comment (restriction message), when a member */
  commentBlockedReason?: string | null;
  isMember: boolean;
  onCountChange: (delta: number) => void;
}

/** Comments of a community post, each with one level of replies. */
export function Comments({ postId, canComment, commentBlockedReason, isMember, onCountChange }: Props) {
  const { t } = useTranslation('communities');
  const key = `/api/community-posts/${postId}/comments`;
  const { data, isLoading, error, mutate } = useApi<Comment[]>(key);
  const [replyTo, setReplyTo] = useState<number | null>(null);
  const [reporting, setReporting] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const report = useMutation((id: number, r: string) => reportCommunityComment({ params: { id }, body: { reason: r } }), { retries: 0 });
  const remove = useMutation((id: number) => deleteCommunityComment({ params: { id } }), { retries: 0 });

  async function onDelete(c: Comment | Reply, withReplies: number) {
    try {
      await remove.trigger(c.id);
      onCountChange(-(1 + withReplies));
      await mutate();
    } catch (e) {
      failToast(t('toasts.deleteCommentFailed'), e);
    }
  }

  async function onReport() {
    if (reporting === null) return;
    try {
      await report.trigger(reporting, reason.trim());
      okToast(t('toasts.reported'), t('toasts.reportedText'));
      setReporting(null);
      setReason('');
    } catch (e) {
      failToast(t('toasts.reportFailed'), e);
    }
  }

  const renderOne = (c: Comment | Reply, replies = 0) => (
    <div className="cm-comment" key={c.id}>
      <Avatar src={c.user?.profileImageUrl} info={c.user?.profileImageInfo} name={displayName(c.user)} size={32} decorative />
      <div className="cm-comment__body">
        <div className="cm-comment__bubble">
          {c.user ? (
            <Link to={profilePath(c.user)} className="cm-comment__author">
              {displayName(c.user)}
            </Link>
          ) : (
            // a deleted member's comment, kept emptied because others replied under it
            <span className="cm-comment__author">{t('comments.deletedMember')}</span>
          )}
          {c.user ? (
            <p className="cm-prewrap">
              <MentionText text={c.content} mentions={c.mentions} />
            </p>
          ) : (
            <p className="has-text-grey is-italic">{t('comments.deletedContent')}</p>
          )}
        </div>
        <div className="cm-comment__actions">
          <RelativeTime date={c.createdAt} />
          {canComment && (
            <button type="button" className="cm-linkbutton" onClick={() => setReplyTo(c.parentId ?? c.id)}>
              {t('comments.reply')}
            </button>
          )}
          {isMember && !c.canDelete && (
            <button type="button" className="cm-linkbutton" onClick={() => setReporting(c.id)}>
              {t('post.report')}
            </button>
          )}
          {c.canDelete && (
            <button type="button" className="cm-linkbutton cm-danger" onClick={() => void onDelete(c, replies)} disabled={remove.isPending}>
              {t('common.delete')}
            </button>
          )}
        </div>
      </div>
    </div>
  );

  return (
    <section className="cm-comments" aria-label={t('comments.title')}>
      {isLoading && <Spinner size="small" label={t('comments.loading')} />}
      {error && <p className="cm-danger">{t('comments.loadFailed')}</p>}
      {data && data.length === 0 && <p className="cm-muted is-size-7">{t('comments.none')}</p>}
      {data?.map((c) => (
        <div key={c.id} className="cm-thread">
          {renderOne(c, c.replies.length)}
          {(c.replies.length > 0 || replyTo === c.id) && (
            <div className="cm-replies">
              {c.replies.map((r) => renderOne(r))}
              {replyTo === c.id && canComment && (
                <CommentForm
                  postId={postId}
                  parentId={c.id}
                  autoFocus
                  placeholder={t('comments.replyPlaceholder', { name: displayName(c.user) })}
                  onDone={async () => {
                    setReplyTo(null);
                    onCountChange(1);
                    await mutate();
                  }}
                  onCancel={() => setReplyTo(null)}
                />
              )}
            </div>
          )}
        </div>
      ))}
      {canComment ? (
        <CommentForm
          postId={postId}
          placeholder={t('comments.placeholder')}
          onDone={async () => {
            onCountChange(1);
            await mutate();
          }}
        />
      ) : commentBlockedReason ? (
        <p className="help is-warning">{commentBlockedReason}</p>
      ) : null}
      <ReasonDialog
        open={reporting !== null}
        title={t('report.commentTitle')}
        label={t('report.reason')}
        confirmLabel={t('report.submit')}
        busy={report.isPending}
        value={reason}
        onChange={setReason}
        onConfirm={() => void onReport()}
        onClose={() => setReporting(null)}
      />
    </section>
  );
}

function CommentForm({
  postId,
  parentId,
  placeholder,
  autoFocus,
  onDone,
  onCancel,
}: {
  postId: number;
  parentId?: number;
  placeholder: string;
  autoFocus?: boolean;
  onDone: () => void | Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('communities');
  const [text, setText] = useState('');
  const send = useMutation((content: string) => createCommunityPostComment({ params: { id: postId }, body: { content, parentId: parentId ?? null } }), { retries: 0 });
  const blank = !text.trim();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blank) return;
    try {
      await send.trigger(text.trim());
      setText('');
      await onDone();
    } catch (err) {
      failToast(t('toasts.commentFailed'), err);
    }
  }
  const id = `cm-comment-${postId}-${parentId ?? 'top'}`;
  return (
    <form className="cm-comment-form" onSubmit={submit}>
      <label htmlFor={id} className="is-sr-only">
        {placeholder}
      </label>
      <MentionInput id={id} className="input is-small" value={text} maxLength={5000} placeholder={placeholder} autoFocus={autoFocus} onChange={setText} />
      <button type="submit" className={`button is-small is-primary${send.isPending ? ' is-loading' : ''}`} disabled={blank || send.isPending}>
        {parentId ? t('comments.sendReply') : t('comments.add')}
      </button>
      {onCancel && (
        <button type="button" className="button is-small is-text" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      )}
    </form>
  );
}
