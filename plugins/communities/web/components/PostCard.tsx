import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar, Icon, RelativeTime, formatDateTime, useMutation, useTranslation } from '../../../../web/src/index.ts';
import {
  deleteCommunityPost,
  likeCommunityPost,
  pinCommunityPost,
  reportCommunityPost,
  voteCommunityPoll,
} from '../../../../web/src/api/generated/communities.ts';
import { displayName, failToast, okToast, profilePath, type Post } from '../lib.ts';
import { Comments } from './Comments.tsx';
import { ConfirmDialog, ReasonDialog } from './ConfirmDialog.tsx';
import { MentionText } from '../../../accounts/web/components/MentionText.tsx';

export interface PostViewer {
  isMember: boolean;
  canComment: boolean;
  commentBlockedReason?: string | null;
  canModerate: boolean;
}

interface Props {
  post: Post;
  viewer: PostViewer;
  /** replace the post in the list (after like, pin, vote, comment) */
  onChange: (p: Post) => void;
  /** the list must be refetched (pin moves the post, delete removes it) */
  onRefresh: () => void;
  /** moderation views (review queue, member posts) hide the discussion actions */
  compact?: boolean;
}

const TYPE_ICON: Record<string, string> = { text: 'message', discussion: 'users', poll: 'award', event: 'calendar', video: 'video', link: 'link' };

function isDirectVideo(url: string): boolean {
  return /\.(mp4|webm|mov|ogg)(\?|#|$)/i.test(url) || url.startsWith('/uploads/');
}

/** A community post: text, discussion, poll (with voting), event, video or link; like, pin, comments, report, delete. */
export function PostCard({ post: p, viewer, onChange, onRefresh, compact = false }: Props) {
  const { t, i18n } = useTranslation('communities');
  const [showComments, setShowComments] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState('');
  const [choice, setChoice] = useState<number | null>(null);
  const like = useMutation(() => likeCommunityPost({ params: { id: p.id } }));
  const pin = useMutation((value: boolean) => pinCommunityPost({ params: { id: p.id }, body: { pin: value } }));
  const vote = useMutation((optionIndex: number) => voteCommunityPoll({ params: { id: p.id }, body: { optionIndex } }), { retries: 0 });
  const remove = useMutation(() => deleteCommunityPost({ params: { id: p.id } }), { retries: 0 });
  const report = useMutation((r: string) => reportCommunityPost({ params: { id: p.id }, body: { reason: r } }), { retries: 0 });
  const published = p.status === 'published';
  const lng = i18n.resolvedLanguage || 'en';

  async function onLike() {
    try {
      const r = await like.trigger();
      onChange({ ...p, isLiked: r.liked, likesCount: r.likesCount });
    } catch (e) {
      failToast(t('toasts.likeFailed'), e);
    }
  }

  async function onPin() {
    try {
      const r = await pin.trigger(!p.isPinned);
      okToast(r.isPinned ? t('toasts.pinned') : t('toasts.unpinned'));
      onChange({ ...p, isPinned: r.isPinned });
      onRefresh();
    } catch (e) {
      failToast(t('toasts.pinFailed'), e);
    }
  }

  async function onVote() {
    if (choice === null) return;
    try {
      const poll = await vote.trigger(choice);
      okToast(t('toasts.voted'));
      onChange({ ...p, poll });
    } catch (e) {
      failToast(t('toasts.voteFailed'), e);
    }
  }

  async function onDelete() {
    try {
      await remove.trigger();
      setConfirmDelete(false);
      okToast(t('toasts.postDeleted'));
      onRefresh();
    } catch (e) {
      failToast(t('toasts.deletePostFailed'), e);
    }
  }

  async function onReport() {
    try {
      await report.trigger(reason.trim());
      setReporting(false);
      setReason('');
      okToast(t('toasts.reported'), t('toasts.reportedText'));
    } catch (e) {
      failToast(t('toasts.reportFailed'), e);
    }
  }

  const poll = p.poll;
  const voted = poll?.userVote !== null && poll?.userVote !== undefined;
  const showResults = Boolean(poll) && (voted || !viewer.isMember || !published);

  return (
    <article id={compact ? undefined : `post-${p.id}`} className={`cm-post box${p.isPinned ? ' is-pinned' : ''}`} data-testid="community-post" data-post-id={p.id} aria-labelledby={`cm-post-${p.id}-author`}>
      <header className="cm-post__head">
        <Avatar src={p.user?.profileImageUrl} info={p.user?.profileImageInfo} name={displayName(p.user)} size={40} decorative />
        <div className="cm-post__who">
          {p.user ? (
            <Link id={`cm-post-${p.id}-author`} to={profilePath(p.user)} className="has-text-weight-semibold">
              {displayName(p.user)}
            </Link>
          ) : (
            <span id={`cm-post-${p.id}-author`}>{displayName(null)}</span>
          )}
          <span className="cm-post__meta">
            <RelativeTime date={p.createdAt} />
            <span className="tag is-light is-rounded">
              <Icon name={TYPE_ICON[p.type] ?? 'message'} size={12} />
              <span>{t(`postTypes.${p.type}`)}</span>
            </span>
            {p.isPinned && (
              <span className="tag is-warning is-light is-rounded" data-testid="pinned-badge">
                {t('post.pinned')}
              </span>
            )}
            {p.status === 'pending' && <span className="tag is-info is-light is-rounded">{t('post.pending')}</span>}
          </span>
        </div>
      </header>

      {p.title && <h3 className="cm-post__title">{p.title}</h3>}
      <p className="cm-post__content cm-prewrap">
        <MentionText text={p.content} mentions={p.mentions} />
      </p>

      {p.type === 'event' && p.eventTitle && (
        <div className="cm-event">
          <Icon name="calendar" size={20} />
          <div>
            <p className="has-text-weight-semibold">{p.eventTitle}</p>
            {p.eventDateTime && <p>{formatDateTime(new Date(p.eventDateTime), lng, { dateStyle: 'full', timeStyle: 'short' })}</p>}
            {p.eventLocation && (
              <p>
                <Icon name="map" size={14} /> {p.eventLocation}
              </p>
            )}
            {p.eventDescription && <p className="cm-prewrap cm-muted">{p.eventDescription}</p>}
          </div>
        </div>
      )}

      {p.type === 'video' && p.videoUrl && (
        <div className="cm-media">
          {isDirectVideo(p.videoUrl) ? (
            <video src={p.videoUrl} controls preload="metadata" className="cm-video">
              <a href={p.videoUrl}>{t('post.watchVideo')}</a>
            </video>
          ) : (
            <a href={p.videoUrl} target="_blank" rel="noopener noreferrer nofollow" className="cm-linkcard">
              <Icon name="play" size={18} />
              <span>{t('post.watchVideo')}</span>
              <span className="cm-linkcard__url">{p.videoUrl}</span>
            </a>
          )}
        </div>
      )}

      {p.type === 'link' && p.linkUrl && (
        <a href={p.linkUrl} target="_blank" rel="noopener noreferrer nofollow" className="cm-linkcard">
          <Icon name="link" size={18} />
          <span className="cm-linkcard__url">{p.linkUrl}</span>
        </a>
      )}

      {poll && (
        <fieldset className="cm-poll" aria-describedby={`cm-poll-${p.id}-total`}>
          <legend className="is-sr-only">{t('poll.legend')}</legend>
          {showResults ? (
            <ul className="cm-poll__results">
              {poll.options.map((o) => {
                const pct = poll.totalVotes ? Math.round((o.votes / poll.totalVotes) * 100) : 0;
                const mine = poll.userVote === o.index;
                return (
                  <li key={o.index} className={`cm-poll__result${mine ? ' is-mine' : ''}`}>
                    <div className="cm-poll__bar" style={{ width: `${pct}%` }} aria-hidden="true" />
                    <span className="cm-poll__label">
                      {o.text}
                      {mine && <span className="tag is-primary is-light ml-2">{t('poll.yourVote')}</span>}
                    </span>
                    <span className="cm-poll__count" data-testid="poll-count">
                      {t('poll.votes', { count: o.votes })} · {pct}%
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : (
            <div className="cm-poll__options">
              {poll.options.map((o) => (
                <label key={o.index} className="radio cm-poll__option">
                  <input type="radio" name={`cm-poll-${p.id}`} value={o.index} checked={choice === o.index} onChange={() => setChoice(o.index)} />
                  <span>{o.text}</span>
                </label>
              ))}
              <button type="button" className={`button is-primary is-small${vote.isPending ? ' is-loading' : ''}`} disabled={choice === null || vote.isPending} onClick={() => void onVote()}>
                {t('poll.vote')}
              </button>
            </div>
          )}
          <p id={`cm-poll-${p.id}-total`} className="help">
            {t('poll.total', { count: poll.totalVotes })}
          </p>
        </fieldset>
      )}

      {!compact && published && (
        <footer className="cm-post__actions">
          <button
            type="button"
            className={`button is-small is-white${p.isLiked ? ' cm-danger' : ''}`}
            aria-pressed={p.isLiked}
            disabled={!viewer.isMember || like.isPending}
            title={viewer.isMember ? undefined : t('post.membersOnly')}
            onClick={() => void onLike()}
          >
            <Icon name="heart" size={16} />
            <span>{t('post.likes', { count: p.likesCount })}</span>
          </button>
          <button type="button" className="button is-small is-white" aria-expanded={showComments} onClick={() => setShowComments((v) => !v)}>
            <Icon name="message" size={16} />
            <span>{showComments ? t('post.hideComments') : p.commentsCount > 0 ? t('post.viewComments', { count: p.commentsCount }) : viewer.canComment ? t('comments.add') : t('post.comments', { count: 0 })}</span>
          </button>
          {viewer.canModerate && (
            <button type="button" className={`button is-small is-white${pin.isPending ? ' is-loading' : ''}`} onClick={() => void onPin()} aria-pressed={p.isPinned}>
              <Icon name="star" size={16} />
              <span>{p.isPinned ? t('post.unpin') : t('post.pin')}</span>
            </button>
          )}
          <span className="cm-spacer" />
          {viewer.isMember && !p.canDelete && (
            <button type="button" className="button is-small is-white" onClick={() => setReporting(true)}>
              <Icon name="alert" size={16} />
              <span>{t('post.report')}</span>
            </button>
          )}
          {p.canDelete && (
            <button type="button" className="button is-small is-white cm-danger" onClick={() => setConfirmDelete(true)}>
              <Icon name="trash" size={16} />
              <span>{t('common.delete')}</span>
            </button>
          )}
        </footer>
      )}
      {!compact && p.status === 'pending' && <p className="help">{t('post.pendingHelp')}</p>}

      {showComments && published && !compact && (
        <Comments
          postId={p.id}
          isMember={viewer.isMember}
          canComment={viewer.canComment}
          commentBlockedReason={viewer.commentBlockedReason}
          onCountChange={(d) => onChange({ ...p, commentsCount: Math.max(0, p.commentsCount + d) })}
        />
      )}

      <ConfirmDialog open={confirmDelete} title={t('post.deleteTitle')} confirmLabel={t('common.delete')} busy={remove.isPending} onConfirm={() => void onDelete()} onClose={() => setConfirmDelete(false)}>
        <p>{t('post.deleteConfirm')}</p>
      </ConfirmDialog>
      <ReasonDialog
        open={reporting}
        title={t('report.postTitle')}
        label={t('report.reason')}
        confirmLabel={t('report.submit')}
        busy={report.isPending}
        value={reason}
        onChange={setReason}
        onConfirm={() => void onReport()}
        onClose={() => setReporting(false)}
      />
    </article>
  );
}
