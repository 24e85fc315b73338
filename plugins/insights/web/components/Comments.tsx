import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  useTranslation,
  useApi,
  useAuth,
  Avatar,
  RelativeTime,
  Slot,
  Spinner,
  apiRequest,
  toastApiError,
  toast,
  confirmDialog,
  useHashTarget,
} from '../../../../web/src/index.ts';
import { createPostComment, deleteComment, listPostCommentsUrl } from '../../../../web/src/api/generated/insights.ts';
import { displayName, profilePath, type Comment } from '../types.ts';
import { MentionText } from '../../../accounts/web/components/MentionText.tsx';
import { MentionInput } from '../../../accounts/web/components/MentionInput.tsx';

function CommentForm({ postId, parentId, placeholder, onDone, autoFocus }: { postId: number; parentId?: number | null; placeholder: string; onDone: () => void; autoFocus?: boolean }) {
  const { t } = useTranslation('insights');
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setError(t('comments.required'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await createPostComment({ params: { id: postId }, body: { content: text.trim(), parentId: parentId ?? null } });
      setText('');
      onDone();
    } catch (err) {
      toastApiError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={submit} className="insights-comment-form" noValidate>
      <div className="field has-addons mb-1">
        <div className="control is-expanded">
          <MentionInput
            className={`input is-small${error ? ' is-danger' : ''}`}
            value={text}
            maxLength={1000}
            onChange={setText}
            placeholder={placeholder}
            aria-label={placeholder}
            aria-invalid={Boolean(error)}
            autoFocus={autoFocus}
          />
        </div>
        <div className="control">
          <button type="submit" className="button is-small is-primary" disabled={pending}>
            {pending ? t('comments.posting') : t('comments.post')}
          </button>
        </div>
      </div>
      {error && <p className="help is-danger" role="alert">{error}</p>}
    </form>
  );
}

function CommentItem({ c, postId, onChange, isReply }: { c: Comment; postId: number; onChange: () => void; isReply?: boolean }) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const [replying, setReplying] = useState(false);
  // null author: a deleted member's comment, kept emptied because others replied under it
  const author = c.user;
  const name = author ? displayName(author) : t('comments.deletedMember');
  const mine = user && ((author && user.id === author.id) || user.role === 'Admin');
  const remove = async () => {
    if (!(await confirmDialog({ title: t('comments.deleteConfirm'), confirmLabel: t('comments.delete'), destructive: true }))) return;
    try {
      await deleteComment({ params: { id: c.id } });
      onChange();
    } catch (e) {
      toastApiError(e);
    }
  };
  return (
    <li className={`insights-comment${isReply ? ' is-reply' : ''}`} id={`comment-${c.id}`}>
      <div className="is-flex" style={{ gap: '0.5rem' }}>
        {author ? (
          <Link to={profilePath(author)} aria-label={name}>
            <Avatar src={author.profileImageUrl} info={author.profileImageInfo} name={name} size={isReply ? 24 : 28} decorative />
          </Link>
        ) : (
          <Avatar src={null} name={name} size={isReply ? 24 : 28} decorative />
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <p className="is-size-7">
            {author ? (
              <Link to={profilePath(author)} className="has-text-weight-semibold has-text-dark mr-1">
                {name}
              </Link>
            ) : (
              <span className="has-text-weight-semibold has-text-grey mr-1" data-testid="deleted-member">
                {name}
              </span>
            )}
            {author ? (
              <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <MentionText text={c.content} mentions={c.mentions} />
              </span>
            ) : (
              <span className="has-text-grey is-italic">{t('comments.deletedContent')}</span>
            )}
          </p>
          <p className="is-size-7 has-text-grey">
            <RelativeTime date={c.createdAt} />
            {user && !isReply && (
              <button type="button" className="button is-ghost is-small p-0 ml-2" style={{ height: 'auto' }} onClick={() => setReplying((v) => !v)} aria-expanded={replying}>
                {t('comments.reply')}
              </button>
            )}
            {author && <Slot name="comment.actions" targetType="comment" targetId={c.id} ownerId={author.id} variant="text" />}
            {mine && (
              <button type="button" className="button is-ghost is-small p-0 ml-2 has-text-danger" style={{ height: 'auto' }} onClick={remove}>
                {t('comments.delete')}
              </button>
            )}
          </p>
          {replying && (
            <CommentForm
              postId={postId}
              parentId={c.id}
              placeholder={t('comments.replyTo', { name })}
              autoFocus
              onDone={() => {
                setReplying(false);
                onChange();
              }}
            />
          )}
          {!!c.replies?.length && (
            <ul className="mt-1">
              {c.replies.map((r) => (
                <CommentItem key={r.id} c={r} postId={postId} onChange={onChange} isReply />
              ))}
            </ul>
          )}
        </div>
      </div>
    </li>
  );
}

/** An insight's comments with one level of replies, and the form to add one. */
export function Comments({ postId, onCountChange }: { postId: number; onCountChange?: (n: number) => void }) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const { data, error, isLoading, mutate } = useApi<Comment[]>(listPostCommentsUrl({ id: postId }), { dedupingInterval: 0 });
  // a notification's link (/insights/12#comment-34) lands on the comment, highlighted
  useHashTarget(!!data);
  const refresh = async () => {
    const list = await mutate(apiRequest<Comment[]>('GET', listPostCommentsUrl({ id: postId })), { revalidate: false }).catch((e) => {
      toast({ title: t('comments.loadError'), variant: 'error' });
      throw e;
    });
    if (list && onCountChange) onCountChange(list.reduce((n, c) => n + 1 + (c.replies?.length ?? 0), 0));
  };
  return (
    <section className="insights-comments mt-3" aria-label={t('comments.label')}>
      {isLoading && <Spinner size="small" />}
      {error && <p className="has-text-danger is-size-7">{t('comments.loadError')}</p>}
      {data && data.length === 0 && <p className="is-size-7 has-text-grey mb-2">{t('comments.empty')}</p>}
      {data && data.length > 0 && (
        <ul className="mb-2">
          {data.map((c) => (
            <CommentItem key={c.id} c={c} postId={postId} onChange={refresh} />
          ))}
        </ul>
      )}
      {user ? <CommentForm postId={postId} placeholder={t('comments.placeholder')} onDone={refresh} /> : <p className="is-size-7 has-text-grey">{t('comments.signIn')}</p>}
    </section>
  );
}
