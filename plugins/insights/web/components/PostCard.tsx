import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation, useAuth, Avatar, RoleBadge, RelativeTime, Icon, Slot, toast, toastApiError, confirmDialog, signInToastAction, ResponsiveImage, storedSrcsets, infoSrcsets, Spinner } from '../../../../web/src/index.ts';
import { togglePostLike, deletePost } from '../../../../web/src/api/generated/insights.ts';
import { displayName, museumPath, profilePath, type Post } from '../types.ts';
import { MentionText } from '../../../accounts/web/components/MentionText.tsx';
import { PhotoMedia } from './PhotoMedia.tsx';

// the comments (and their composer) load when they are opened, not with every card
const Comments = lazy(() => import('./Comments.tsx').then((m) => ({ default: m.Comments })));

export interface PostCardProps {
  post: Post;
  /** after a delete */
  onDeleted?: (id: number) => void;
  /** hide the museum link (on the museum's own page) */
  hideMuseum?: boolean;
  /** open the comments at first */
  commentsOpen?: boolean;
  /** the first card of a page (above the fold): its image is fetched at once, not lazily (LCP) */
  priority?: boolean;
}

/** Post card (part 1 §2): author, role badge, museum link, image or video, like, caption, comments, time. */
export function PostCard({ post, onDeleted, hideMuseum, commentsOpen = false, priority = false }: PostCardProps) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const [liked, setLiked] = useState(post.isLiked);
  const [likes, setLikes] = useState(post.likesCount);
  const [liking, setLiking] = useState(false);
  const [comments, setComments] = useState(post.commentsCount);
  const [showComments, setShowComments] = useState(commentsOpen);
  const [playing, setPlaying] = useState(false);
  const name = displayName(post.user);
  const image = post.images[0] ?? null;
  // what the API says of a video's poster (its real size: a frame fit inside 1280 × 720)
  const poster = image && image === post.posterUrl ? (post.posterInfo ?? null) : null;
  const canDelete = user && (user.id === post.user.id || user.role === 'Admin');

  const like = async () => {
    if (!user) {
      toast({ title: t('post.signInRequired'), description: t('post.signInToLike'), variant: 'warning', action: signInToastAction() });
      return;
    }
    if (liking) return;
    // optimistic, then the server's exact count
    setLiking(true);
    setLiked(!liked);
    setLikes((n) => n + (liked ? -1 : 1));
    try {
      const r = await togglePostLike({ params: { id: post.id } });
      setLiked(r.liked);
      setLikes(r.likesCount);
    } catch (e) {
      setLiked(liked);
      setLikes(likes);
      toastApiError(e);
    } finally {
      setLiking(false);
    }
  };

  const remove = async () => {
    if (!(await confirmDialog({ title: t('post.delete'), message: t('post.deleteConfirm'), confirmLabel: t('comments.delete'), destructive: true }))) return;
    try {
      await deletePost({ params: { id: post.id } });
      toast({ title: t('post.deleted'), variant: 'success' });
      onDeleted?.(post.id);
    } catch (e) {
      toastApiError(e);
    }
  };

  return (
    <article className="card insights-post mb-4" aria-label={t('post.by', { name })} data-post-id={post.id}>
      <header className="card-content py-3 px-4 is-flex is-align-items-center" style={{ gap: '0.75rem' }}>
        <Link to={profilePath(post.user)} aria-label={name}>
          <Avatar src={post.user.profileImageUrl} info={post.user.profileImageInfo} name={name} size={40} decorative />
        </Link>
        <div style={{ flex: 1, minWidth: 0 }}>
          <p className="is-flex is-align-items-center" style={{ gap: '0.4rem', flexWrap: 'wrap' }}>
            <Link to={profilePath(post.user)} className="has-text-weight-semibold has-text-dark">
              {name}
            </Link>
            <RoleBadge role={post.user.role} />
          </p>
          {!hideMuseum && post.museum && (
            <p className="is-size-7">
              <Link to={museumPath(post.museum)} className="insights-museum-link">
                <Icon name="map-pin" size={12} /> {post.museum.name}
              </Link>
            </p>
          )}
          {!hideMuseum && !post.museum && post.pendingMuseumSuggestionId && <p className="is-size-7 has-text-grey">{t('post.pendingMuseum')}</p>}
        </div>
        <Slot name="insight.actions" targetType="insight" targetId={post.id} ownerId={post.user.id} />
        {canDelete && (
          <button type="button" className="button is-white is-small" onClick={remove} aria-label={t('post.delete')} title={t('post.delete')}>
            <Icon name="trash" size={16} />
          </button>
        )}
      </header>

      {post.type === 'photo' && post.photos?.length ? (
        <PhotoMedia photos={post.photos} postId={post.id} authorId={post.user.id} sensitive={post.sensitive} author={name} priority={priority} />
      ) : post.type === 'video' && post.videoUrl ? (
        <div className="card-image insights-media">
          {playing ? (
            // eslint-disable-next-line jsx-a11y/media-has-caption
            <video src={post.videoUrl} poster={post.posterUrl ?? undefined} controls autoPlay playsInline preload="metadata" aria-label={t('post.videoLabel', { name })} />
          ) : (
            <button type="button" className="insights-play" onClick={() => setPlaying(true)} aria-label={t('post.playVideo')}>
              {image ? (
                <ResponsiveImage
                  className="curio-picture--contents"
                  src={image}
                  // the poster's made widths, size and placeholder when the API says them; else derived from the URL
                  srcset={poster ? infoSrcsets(image, poster) : storedSrcsets(image)}
                  width={poster?.width}
                  height={poster?.height}
                  blurhash={poster?.blurhash}
                  sizes="(min-width: 769px) 600px, 100vw"
                  alt={t('post.imageAlt', { name })}
                  priority={priority}
                />
              ) : (
                <span className="insights-media-fallback" />
              )}
              <span className="insights-play-overlay" aria-hidden="true">
                <Icon name="play" size={36} />
              </span>
            </button>
          )}
        </div>
      ) : image ? (
        <div className="card-image insights-media">
          <ResponsiveImage
            className="curio-picture--contents"
            src={image}
            srcset={storedSrcsets(image)}
            sizes="(min-width: 769px) 600px, 100vw"
            alt={post.content ? post.content.slice(0, 120) : t('post.imageAlt', { name })}
            priority={priority}
          />
        </div>
      ) : null}

      <div className="card-content py-3 px-4">
        <div className="is-flex is-align-items-center mb-2" style={{ gap: '0.5rem' }}>
          <button
            type="button"
            className={`button is-small is-white insights-like${liked ? ' is-liked' : ''}`}
            onClick={like}
            aria-pressed={liked}
            aria-label={liked ? t('post.unlike') : t('post.like')}
          >
            <Icon name="heart" size={20} />
          </button>
          <span className="is-size-7 has-text-weight-semibold" aria-live="polite">
            {t('post.likes', { count: likes })}
          </span>
        </div>
        {post.content && (
          <p className="insights-caption" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <Link to={profilePath(post.user)} className="has-text-weight-semibold has-text-dark mr-1">
              {post.user.username}
            </Link>
            <MentionText text={post.content} mentions={post.mentions} />
          </p>
        )}
        {post.tags.length > 0 && (
          <p className="is-size-7 has-text-link mt-1">
            {post.tags.map((tag) => (
              <span key={tag} className="mr-2">
                #{tag}
              </span>
            ))}
          </p>
        )}
        <button type="button" className="button is-ghost is-small px-0 has-text-grey" onClick={() => setShowComments((v) => !v)} aria-expanded={showComments}>
          {showComments ? t('post.hideComments') : comments > 0 ? t('post.viewAllComments', { count: comments }) : t('post.addComment')}
        </button>
        <p className="is-size-7 has-text-grey">
          <RelativeTime date={post.createdAt} />
        </p>
        {showComments && (
          <Suspense fallback={<Spinner />}>
            <Comments postId={post.id} onCountChange={setComments} />
          </Suspense>
        )}
      </div>
    </article>
  );
}
