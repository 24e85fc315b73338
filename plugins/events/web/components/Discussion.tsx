import { useId, useState } from 'react';
import { ApiError, Avatar, EmptyState, Icon, RelativeTime, Spinner, toast, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import { addMeetupComment, addMuseumEventComment, deleteMeetupComment, deleteMuseumEventComment } from '../../../../web/src/api/generated/events.ts';
import { apiBase, displayName, type EventItem, type EventsComment } from '../lib.ts';

/** The event's discussion: a simple thread, oldest first. */
export function Discussion({ event: e, onCountChange }: { event: EventItem; onCountChange?: () => void }) {
  const { t } = useTranslation('events');
  const { user } = useAuth();
  const { data, error, isLoading, mutate } = useApi<EventsComment[]>(`${apiBase(e)}/comments`);
  const [text, setText] = useState('');
  const [posting, setPosting] = useState(false);
  const inputId = useId();

  const post = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const content = text.trim();
    if (!content || posting) return;
    setPosting(true);
    try {
      if (e.kind === 'meetup') await addMeetupComment({ params: { id: e.id }, body: { content } });
      else await addMuseumEventComment({ params: { id: e.id }, body: { content } });
      setText('');
      await mutate();
      onCountChange?.();
    } catch (err) {
      toast({ title: t('toast.commentFailed'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    } finally {
      setPosting(false);
    }
  };

  const remove = async (c: EventsComment) => {
    try {
      if (e.kind === 'meetup') await deleteMeetupComment({ params: { id: e.id, commentId: c.id } });
      else await deleteMuseumEventComment({ params: { id: e.id, commentId: c.id } });
      await mutate();
      onCountChange?.();
    } catch (err) {
      toast({ title: t('toast.deleteCommentFailed'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    }
  };

  return (
    <div className="ev-discussion">
      {isLoading && <Spinner size="small" />}
      {error && <EmptyState compact tone="error" title={error.message} />}
      {data && data.length === 0 && <EmptyState compact icon="message" title={t('comments.empty')} />}
      {data && data.length > 0 && (
        <ul className="ev-comments">
          {data.map((c) => (
            <li key={c.id} className="media ev-comment">
              <div className="media-left">
                <Avatar src={c.user?.profileImageUrl} info={c.user?.profileImageInfo} name={displayName(c.user)} size={32} />
              </div>
              <div className="media-content">
                <p className="ev-comment__meta">
                  <strong>{displayName(c.user)}</strong> <RelativeTime date={c.createdAt} className="has-text-grey is-size-7" />
                </p>
                <p className="ev-comment__text">{c.content}</p>
              </div>
              {c.canDelete && (
                <div className="media-right">
                  <button type="button" className="curio-icon-button" aria-label={t('comments.delete')} onClick={() => remove(c)}>
                    <Icon name="trash" size={16} />
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {!user ? (
        <p className="has-text-grey is-size-7">{t('comments.signIn')}</p>
      ) : !e.allowComments ? (
        <p className="has-text-grey is-size-7">{t('comments.off')}</p>
      ) : e.restricted ? (
        <p className="has-text-grey is-size-7">{t('comments.restricted')}</p>
      ) : !e.canComment ? (
        <p className="has-text-grey is-size-7">{t('comments.membersOnly')}</p>
      ) : (
        <form className="ev-comment-form" onSubmit={post}>
          <label className="label is-sr-only" htmlFor={inputId}>
            {t('comments.label')}
          </label>
          <div className="field has-addons">
            <div className="control is-expanded">
              <input id={inputId} className="input" maxLength={2000} placeholder={t('comments.placeholder')} value={text} onChange={(ev) => setText(ev.target.value)} />
            </div>
            <div className="control">
              <button type="submit" className="button is-primary" disabled={!text.trim() || posting} aria-busy={posting}>
                {t('comments.post')}
              </button>
            </div>
          </div>
        </form>
      )}
    </div>
  );
}
