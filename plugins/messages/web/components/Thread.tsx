import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ResponsiveImage,
  storedSrcsets,
  infoSrcsets,
  Avatar,
  EmptyState,
  Icon,
  Modal,
  RelativeTime,
  Spinner,
  apiRequest,
  mutate,
  toastApiError,
  useApi,
  useInfiniteApi,
  useLiveEvent,
  useLiveConnected,
  useTranslation,
  confirmDialog,
  Slot,
} from '../../../../web/src/index.ts';
import { UNREAD_KEY, conversationTitle, personName, type Conversation, type Message } from '../shared.ts';
import { Composer } from './Composer.tsx';
import { PeoplePicker, type Person } from './PeoplePicker.tsx';

const refreshLists = () => mutate((key) => typeof key === 'string' && key.startsWith('/api/conversations'));

/** One conversation: its messages (oldest at the top, older pages on demand), request actions, the composer. */
export function Thread({ id }: { id: number }) {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const { data: conv, error, mutate: reloadConv } = useApi<Conversation>(`/api/conversations/${id}`);
  // while the live stream is down, the thread polls
  const live = useLiveConnected();
  const msgs = useInfiniteApi<Message>(`/api/conversations/${id}/messages`, { limit: 30, config: { refreshInterval: live ? 0 : 15_000 } });
  const [menu, setMenu] = useState(false);
  const [adding, setAdding] = useState(false);
  const [toAdd, setToAdd] = useState<Person[]>([]);
  const bottom = useRef<HTMLDivElement>(null);
  const lastRead = useRef(0);

  useLiveEvent(['message.created', 'message.deleted'], (d) => {
    if (d?.conversationId === id) void msgs.mutate();
  });
  useLiveEvent('conversation.updated', (d) => {
    if (d?.conversationId === id) void reloadConv();
  });

  const ordered = useMemo(() => [...msgs.items].reverse(), [msgs.items]);
  const latest = msgs.items[0]?.id ?? 0;

  // what is on screen is read (while the tab is visible)
  useEffect(() => {
    if (!conv || !latest || latest <= lastRead.current) return;
    const mark = () => {
      if (document.visibilityState !== 'visible' || latest <= lastRead.current) return;
      lastRead.current = latest;
      apiRequest('POST', `/api/conversations/${id}/read`, { messageId: latest })
        .then(() => refreshLists())
        .catch(() => undefined);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [conv, latest, id]);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [latest]);

  if (error) return <EmptyState tone="error" icon="mail" title={error.status === 404 ? t('thread.notFound') : t('thread.loadFailed')} action={<Link to="/messages">{t('thread.back')}</Link>} />;
  if (!conv) return <Spinner center label={t('thread.loading')} />;

  const title = conversationTitle(conv, t('thread.nobody'));
  const act = async (fn: () => Promise<unknown>, after?: () => void) => {
    try {
      await fn();
      await Promise.all([reloadConv(), refreshLists()]);
      after?.();
    } catch (e) {
      toastApiError(e);
    }
  };
  const send = async (body: { text?: string; imageIds?: number[] }) => {
    await apiRequest('POST', `/api/conversations/${id}/messages`, body);
    await Promise.all([msgs.mutate(), refreshLists(), conv.status === 'request' ? reloadConv() : null]);
  };
  const remove = async (m: Message) => {
    if (!(await confirmDialog({ title: t('message.delete'), message: t('message.confirmDelete'), confirmLabel: t('message.delete'), destructive: true }))) return;
    await act(() => apiRequest('DELETE', `/api/messages/${m.id}`), () => void msgs.mutate());
  };

  return (
    <div className="msg-thread__inner">
      <header className="msg-thread__header">
        <Link to="/messages" className="button is-white msg-back" aria-label={t('thread.back')} title={t('thread.back')}>
          <span aria-hidden="true">←</span>
        </Link>
        <Avatar src={conv.participants[0]?.profileImageUrl} info={conv.participants[0]?.profileImageInfo} name={title} size={36} decorative />
        <h2 className="msg-thread__title">
          {conv.kind === 'direct' && conv.participants[0] ? <Link to={`/profile/${encodeURIComponent(conv.participants[0].slug || conv.participants[0].username)}`}>{title}</Link> : title}
          {conv.muted && <span className="tag is-light is-small ml-2">{t('thread.mutedTag')}</span>}
        </h2>
        <div className={`dropdown is-right${menu ? ' is-active' : ''}`}>
          <div className="dropdown-trigger">
            <button type="button" className="button is-white" aria-haspopup="menu" aria-expanded={menu} aria-label={t('thread.options')} onClick={() => setMenu((v) => !v)}>
              <Icon name="settings" size={18} />
            </button>
          </div>
          {menu && (
            <div className="dropdown-menu" role="menu">
              <div className="dropdown-content">
                <button type="button" role="menuitem" className="dropdown-item button is-white is-fullwidth" onClick={() => void act(() => apiRequest('POST', `/api/conversations/${id}/mute`, { muted: !conv.muted }), () => setMenu(false))}>
                  {conv.muted ? t('thread.unmute') : t('thread.mute')}
                </button>
                {conv.kind === 'group' && conv.isCreator && (
                  <button
                    type="button"
                    role="menuitem"
                    className="dropdown-item button is-white is-fullwidth"
                    onClick={() => {
                      setMenu(false);
                      setToAdd([]);
                      setAdding(true);
                    }}
                  >
                    {t('thread.addPeople')}
                  </button>
                )}
                <button
                  type="button"
                  role="menuitem"
                  className="dropdown-item button is-white is-fullwidth has-text-danger"
                  onClick={async () => {
                    if (await confirmDialog({ title: t('thread.leave'), message: t('thread.confirmLeave'), confirmLabel: t('thread.leave'), destructive: true }))
                      void act(() => apiRequest('POST', `/api/conversations/${id}/leave`), () => navigate('/messages'));
                  }}
                >
                  {t('thread.leave')}
                </button>
              </div>
            </div>
          )}
        </div>
      </header>

      {conv.status === 'request' && (
        <div className="notification is-info is-light msg-request" role="region" aria-label={t('request.label')}>
          <p>{t('request.text', { name: title })}</p>
          <div className="buttons mt-2">
            <button type="button" className="button is-primary is-small" onClick={() => void act(() => apiRequest('POST', `/api/conversations/${id}/accept`))}>
              {t('request.accept')}
            </button>
            <button
              type="button"
              className="button is-light is-small"
              onClick={async () => {
                if (await confirmDialog({ title: t('request.decline'), message: t('request.confirmDecline'), confirmLabel: t('request.decline'), destructive: true }))
                  void act(() => apiRequest('POST', `/api/conversations/${id}/decline`), () => navigate('/messages'));
              }}
            >
              {t('request.decline')}
            </button>
          </div>
        </div>
      )}

      <div className="msg-messages" role="log" aria-live="polite" aria-label={t('thread.messagesLabel', { name: title })}>
        {msgs.hasMore && (
          <div className="has-text-centered my-2">
            <button type="button" className="button is-small is-light is-rounded" disabled={msgs.isLoadingMore} onClick={() => void msgs.loadMore()}>
              {t('thread.earlier')}
            </button>
          </div>
        )}
        {msgs.isLoading && <Spinner center />}
        {!msgs.isLoading && ordered.length === 0 && <EmptyState compact icon="mail" title={t('thread.empty')} />}
        <ol className="msg-bubbles">
          {ordered.map((m) => (
            <li key={m.id} className={`msg-bubble${m.mine ? ' is-mine' : ''}${m.deleted ? ' is-deleted' : ''}`} data-testid="message">
              {!m.mine && conv.kind === 'group' && <span className="msg-bubble__sender">{personName(m.sender)}</span>}
              {m.deleted ? (
                <p className="msg-bubble__text">
                  <em>{t('message.deleted')}</em>
                </p>
              ) : (
                <>
                  {m.text && <p className="msg-bubble__text">{m.text}</p>}
                  {m.images.length > 0 && (
                    <div className="msg-bubble__images">
                      {m.images.map((img) => {
                        // what the API says of the image (its made widths, size and placeholder); before its variants are made, widths derived from the URL
                        const info = img.imageInfo ?? null;
                        const w = info?.width ?? img.width;
                        const h = info?.height ?? img.height;
                        return (
                          <a key={img.id} href={img.url} target="_blank" rel="noopener noreferrer" aria-label={t('message.openImage')}>
                            <ResponsiveImage
                              className="curio-picture--contents"
                              src={img.thumbnailUrl ?? img.url}
                              srcset={info ? infoSrcsets(img.url, info) : storedSrcsets(img.url, img.width)}
                              sizes="160px"
                              alt=""
                              width={w > h ? 160 : Math.round((160 * w) / Math.max(1, h))}
                              height={w > h ? Math.round((160 * h) / Math.max(1, w)) : 160}
                              blurhash={info?.blurhash}
                            />
                          </a>
                        );
                      })}
                    </div>
                  )}
                </>
              )}
              <span className="msg-bubble__meta">
                <RelativeTime date={m.createdAt} />
                {m.mine && !m.deleted && (
                  <button type="button" className="msg-bubble__delete" aria-label={t('message.delete')} title={t('message.delete')} onClick={() => void remove(m)}>
                    <Icon name="trash" size={14} />
                  </button>
                )}
                {/* someone else's message: the report menu (reports plugin), as on insights and comments */}
                {!m.mine && !m.deleted && <Slot name="message.actions" targetType="message" targetId={m.id} ownerId={m.sender?.id ?? null} variant="text" />}
              </span>
            </li>
          ))}
        </ol>
        <div ref={bottom} />
      </div>
      <Composer onSend={send} />
      <Modal
        open={adding}
        onClose={() => setAdding(false)}
        title={t('thread.addPeople')}
        footer={
          <>
            <button type="button" className="button" onClick={() => setAdding(false)}>
              {t('thread.cancel')}
            </button>
            <button
              type="button"
              className="button is-primary"
              disabled={!toAdd.length}
              onClick={() => void act(() => apiRequest('POST', `/api/conversations/${id}/participants`, { userIds: toAdd.map((p) => p.id) }), () => setAdding(false))}
            >
              {t('thread.add')}
            </button>
          </>
        }
      >
        <PeoplePicker value={toAdd} onChange={setToAdd} max={Math.max(0, 9 - conv.participants.length)} exclude={conv.participants.map((p) => p.id)} />
      </Modal>
    </div>
  );
}
