import { useMemo, useState } from 'react';
import {
  EmptyState,
  Icon,
  InfiniteList,
  Page,
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
import { LIST_URL, UNREAD_KEY, type Notification } from '../shared.ts';
import { NotificationRow } from '../components/NotificationRow.tsx';
import '../notifications.css';

type Filter = 'all' | 'unread';

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
      <TabPanel idPrefix="curio-inbox" id={filter} active={filter} className="curio-inbox-panel">
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
