import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar, EmptyState, InfiniteList, RelativeTime, useApi, useInfiniteApi, useLiveConnected, useLiveEvent, useTranslation } from '../../../../web/src/index.ts';
import { UNREAD_KEY, conversationTitle, type Conversation } from '../shared.ts';

/** Inbox and Requests, latest activity first; refreshed by live events. */
export function ConversationList({ selectedId }: { selectedId: number | null }) {
  const { t } = useTranslation('messages');
  const [folder, setFolder] = useState<'inbox' | 'requests'>('inbox');
  // while the live stream is down, the list polls
  const live = useLiveConnected();
  const list = useInfiniteApi<Conversation>(`/api/conversations?folder=${folder}`, { limit: 20, config: { refreshInterval: live ? 0 : 30_000 } });
  const { data: unread } = useApi<{ count: number; requests: number }>(UNREAD_KEY);
  useLiveEvent(['message.created', 'message.deleted', 'conversation.read', 'conversation.updated'], () => void list.mutate());

  return (
    <div className="msg-list__inner">
      <div className="msg-folders buttons has-addons" role="group" aria-label={t('folders.label')}>
        <button type="button" className={`button is-small${folder === 'inbox' ? ' is-primary is-selected' : ''}`} aria-pressed={folder === 'inbox'} onClick={() => setFolder('inbox')}>
          {t('folders.inbox')}
        </button>
        <button type="button" className={`button is-small${folder === 'requests' ? ' is-primary is-selected' : ''}`} aria-pressed={folder === 'requests'} onClick={() => setFolder('requests')}>
          {t('folders.requests')}
          {unread?.requests ? <span className="tag is-rounded is-danger is-light ml-1">{unread.requests}</span> : null}
        </button>
      </div>
      <InfiniteList
        as="ul"
        className="msg-conversations"
        items={list.items}
        getKey={(c) => c.id}
        hasMore={list.hasMore}
        loadMore={list.loadMore}
        isLoading={list.isLoading}
        isLoadingMore={list.isLoadingMore}
        error={list.error}
        empty={<EmptyState compact icon="mail" title={folder === 'requests' ? t('list.noRequests') : t('list.empty')} description={folder === 'requests' ? undefined : t('list.emptyHint')} />}
        renderItem={(c) => <ConversationRow c={c} selected={c.id === selectedId} />}
      />
    </div>
  );
}

function ConversationRow({ c, selected }: { c: Conversation; selected: boolean }) {
  const { t } = useTranslation('messages');
  const title = conversationTitle(c, t('thread.nobody'));
  const first = c.participants[0];
  const last = c.lastMessage;
  const preview = !last ? '' : last.deleted ? t('message.deleted') : last.text || t('message.imageOnly');
  return (
    <div className={`msg-row${selected ? ' is-selected' : ''}${c.unreadCount ? ' is-unread' : ''}`}>
      <Link to={`/messages/${c.id}`} aria-current={selected ? 'page' : undefined} className="msg-row__link">
        <Avatar src={first?.profileImageUrl} info={first?.profileImageInfo} name={title} size={40} decorative />
        <span className="msg-row__body">
          <span className="msg-row__title">
            {title}
            {c.kind === 'group' && <span className="tag is-light is-small ml-1">{t('list.group', { count: c.participants.length + 1 })}</span>}
            {c.muted && <span className="is-sr-only">{t('list.muted')}</span>}
          </span>
          <span className="msg-row__preview">
            {last?.mine ? `${t('message.you')}: ` : ''}
            {preview}
          </span>
        </span>
        <span className="msg-row__meta">
          <RelativeTime date={c.lastMessageAt} />
          {c.unreadCount > 0 && (
            <span className="msg-row__count curio-count-badge" aria-label={t('list.unread', { count: c.unreadCount })}>
              {c.unreadCount}
            </span>
          )}
        </span>
      </Link>
    </div>
  );
}
