import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  EmptyState,
  Icon,
  InfiniteList,
  Page,
  RelativeTime,
  Tabs,
  TabPanel,
  mutate,
  toastApiError,
  useInfiniteApi,
  useMutation,
  useTranslation,
  type ApiError,
} from '../../../../web/src/index.ts';
import { markAllNotificationsRead, markNotificationRead } from '../../../../web/src/api/generated/notifications.ts';
import { LIST_URL, TYPE_ICONS, UNREAD_KEY, isExternal, localized, templateNamespaces, type Notification } from '../shared.ts';
import '../notifications.css';

type Filter = 'all' | 'unread';

function NotificationRow({ n, onRead }: { n: Notification; onRead: (n: Notification) => Promise<void> }) {
  const { t, i18n } = useTranslation(templateNamespaces([n]), { useSuspense: false });
  const navigate = useNavigate();
  const { title, message } = localized(n, t as any, (k) => i18n.exists(k));
  const priority = n.priority === 'urgent' || n.priority === 'high' ? n.priority : null;

  const open = async (e: React.MouseEvent) => {
    if (!n.link) return;
    if (!n.read) {
      if (!isExternal(n.link)) e.preventDefault();
      await onRead(n).catch(() => undefined);
      if (!isExternal(n.link)) navigate(n.link);
    }
  };

  const heading = n.link ? (
    isExternal(n.link) ? (
      <a href={n.link} target="_blank" rel="noopener noreferrer" onClick={open}>
        {title}
      </a>
    ) : (
      <Link to={n.link} onClick={open}>
        {title}
      </Link>
    )
  ) : (
    <span>{title}</span>
  );

  return (
    <article className={`curio-notification${n.read ? '' : ' is-unread'}${n.priority === 'urgent' ? ' is-urgent' : ''}`} aria-label={n.read ? title : t('notifications:item.unreadLabel', { title })}>
      <span className="curio-notification__icon" aria-hidden="true">
        <Icon name={TYPE_ICONS[n.type] ?? 'bell'} size={18} />
      </span>
      <div className="curio-notification__body">
        <h2 className="curio-notification__title is-size-6">
          {!n.read && <span className="curio-unread-dot" aria-hidden="true" />}
          {heading}
          {priority && <span className={`tag is-small is-rounded ${priority === 'urgent' ? 'is-danger' : 'is-warning'}`}>{t(`notifications:priority.${priority}`)}</span>}
        </h2>
        <p className="curio-notification__message">{message}</p>
        <p className="curio-notification__meta">
          <RelativeTime date={n.createdAt} />
          {n.read && <span className="ml-2">· {t('notifications:item.read')}</span>}
        </p>
      </div>
      {!n.read && (
        <div className="curio-notification__actions">
          <button type="button" className="button is-small is-white" onClick={() => void onRead(n)} title={t('notifications:item.markRead')} aria-label={t('notifications:item.markReadLabel', { title })}>
            <Icon name="check" size={16} />
          </button>
        </div>
      )}
    </article>
  );
}

/** The inbox (/notifications): newest first, unread filter, mark read, follow the link, mark all read. */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const [filter, setFilter] = useState<Filter>('all');
  const url = filter === 'unread' ? `${LIST_URL}?unread=true` : LIST_URL;
  const list = useInfiniteApi<Notification>(url, { limit: 20 });
  const unreadShown = useMemo(() => list.items.filter((n) => !n.read).length, [list.items]);

  const refreshAll = async () => {
    await mutate(UNREAD_KEY);
    await mutate((key) => typeof key === 'string' && key.startsWith('$inf$/api/notifications'));
  };

  const readOne = async (n: Notification) => {
    try {
      const updated = await markNotificationRead({ params: { id: n.id } });
      // update the cached pages in place (no refetch jump), then the bell
      await list.mutate(
        (pages) => pages?.map((p) => (p && !Array.isArray(p) ? { ...p, items: p.items.map((x) => (x.id === n.id ? { ...x, ...updated } : x)) } : p)),
        { revalidate: false },
      );
      await mutate(UNREAD_KEY);
    } catch (e) {
      toastApiError(e as ApiError);
      throw e;
    }
  };

  const readAll = useMutation(() => markAllNotificationsRead(), {
    toastOnError: true,
    onSuccess: () => void refreshAll().then(() => list.mutate()),
  });

  const tabs = [
    { id: 'all', label: t('filters.all') },
    { id: 'unread', label: t('filters.unread') },
  ];

  return (
    <Page
      title={t('title')}
      width="narrow"
      actions={
        <button type="button" className={`button is-small is-rounded is-light${readAll.isPending ? ' is-loading' : ''}`} onClick={() => void readAll.trigger().catch(() => undefined)} disabled={readAll.isPending || (list.items.length > 0 && unreadShown === 0 && !list.hasMore)}>
          <Icon name="check" size={16} />
          <span>{t('markAll')}</span>
        </button>
      }
    >
      <Tabs tabs={tabs} active={filter} onChange={(id) => setFilter(id as Filter)} label={t('filters.label')} idPrefix="curio-inbox" />
      <TabPanel idPrefix="curio-inbox" id={filter} active={filter}>
        <InfiniteList
          items={list.items}
          className="curio-inbox"
          renderItem={(n) => <NotificationRow n={n} onRead={readOne} />}
          getKey={(n) => n.id}
          hasMore={list.hasMore}
          loadMore={list.loadMore}
          isLoading={list.isLoading}
          isLoadingMore={list.isLoadingMore}
          error={list.error}
          showEnd
          empty={
            filter === 'unread' ? (
              <EmptyState icon="check" title={t('empty.unreadTitle')} description={t('empty.unreadDescription')} />
            ) : (
              <EmptyState icon="bell" title={t('empty.title')} description={t('empty.description')} />
            )
          }
          errorState={
            <EmptyState
              tone="error"
              title={t('error')}
              action={
                <button type="button" className="button is-small is-light" onClick={() => void list.mutate()}>
                  {t('retry')}
                </button>
              }
            />
          }
        />
      </TabPanel>
    </Page>
  );
}
