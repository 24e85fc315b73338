import { useState } from 'react';
import { useTranslation, useAuth, useInfiniteApi, useCreateDialog, EmptyState, InfiniteList, Icon, Modal, ApiError, ResponsiveImage, storedSrcsets, infoSrcsets } from '../../../../web/src/index.ts';
import { listUserPostsUrl } from '../../../../web/src/api/generated/insights.ts';
import { PostCard } from './PostCard.tsx';
import type { Post } from '../types.ts';
import { useOnPosted } from './events.ts';
import './insights.css';

export interface ProfileInsightsProps {
  userId?: number;
  user?: { id: number } | null;
  isOwn?: boolean;
}

/** Slot `profile.insights`: the INSIGHTS tab, a 3-column grid with like counts; further pages on scroll. */
export default function ProfileInsights({ userId, user: owner, isOwn }: ProfileInsightsProps) {
  const { t } = useTranslation('insights');
  const { user } = useAuth();
  const { open } = useCreateDialog();
  const id = userId ?? owner?.id;
  const own = isOwn ?? (user != null && user.id === id);
  const list = useInfiniteApi<Post>(id ? listUserPostsUrl({ id }) : null, { limit: 12 });
  const [opened, setOpened] = useState<Post | null>(null);
  useOnPosted(() => void list.mutate());
  if (!id) return null;
  const isPrivate = list.error instanceof ApiError && list.error.status === 403;
  return (
    <>
      <InfiniteList<Post>
        className="insights-grid"
        items={list.items}
        getKey={(p) => p.id}
        hasMore={list.hasMore}
        loadMore={list.loadMore}
        isLoading={list.isLoading}
        isLoadingMore={list.isLoadingMore}
        error={list.error}
        errorState={<EmptyState tone={isPrivate ? 'neutral' : 'error'} icon={isPrivate ? 'shield' : 'alert'} title={isPrivate ? t('profile.private') : t('profile.loadError')} />}
        empty={
          <EmptyState
            icon="image"
            title={t('profile.empty')}
            description={own ? t('profile.emptyOwn') : undefined}
            action={
              own ? (
                <button type="button" className="button is-primary" onClick={() => open()}>
                  {t('profile.share')}
                </button>
              ) : undefined
            }
          />
        }
        renderItem={(p) => (
          <button type="button" className="insights-tile" onClick={() => setOpened(p)} aria-label={t('profile.open', { text: p.content.slice(0, 60) || t('profile.textInsight') })}>
            {p.type === 'photo' && p.photos?.[0] ? (
              <ResponsiveImage
                src={p.photos[0].url}
                width={p.photos[0].width}
                height={p.photos[0].height}
                alt=""
                srcset={p.photos[0].srcset}
                sizes="(min-width: 769px) 240px, 33vw"
                blurhash={p.photos[0].blurhash}
                focalPoint={p.photos[0].focalPoint}
                cover
                className={`insights-tile-picture${p.sensitive ? ' is-blurred' : ''}`}
              />
            ) : p.images[0] ? (
              <ResponsiveImage
                className="curio-picture--contents"
                src={p.images[0]}
                // a video's poster: exactly its made widths (posterInfo) when the API says them
                srcset={p.posterInfo && p.images[0] === p.posterUrl ? infoSrcsets(p.images[0], p.posterInfo) : storedSrcsets(p.images[0])}
                blurhash={p.images[0] === p.posterUrl ? p.posterInfo?.blurhash : undefined}
                sizes="(min-width: 769px) 240px, 33vw"
                alt=""
              />
            ) : (
              <span className="insights-tile-text">{p.content.slice(0, 140)}</span>
            )}
            {p.type === 'photo' && (p.photos?.length ?? 0) > 1 && (
              <span className="insights-tile-video" aria-hidden="true">
                <Icon name="image" size={18} />
              </span>
            )}
            {p.type === 'video' && (
              <span className="insights-tile-video" aria-hidden="true">
                <Icon name="play" size={18} />
              </span>
            )}
            <span className="insights-tile-meta" aria-hidden="true">
              <span>
                <Icon name="heart" size={12} /> {p.likesCount}
              </span>
              <span>
                <Icon name="message" size={12} /> {p.commentsCount}
              </span>
            </span>
          </button>
        )}
      />
      {opened && (
        <Modal open onClose={() => setOpened(null)} title={t('post.by', { name: opened.user.username })} size="medium">
          <PostCard
            post={opened}
            onDeleted={() => {
              setOpened(null);
              void list.mutate();
            }}
          />
        </Modal>
      )}
    </>
  );
}
