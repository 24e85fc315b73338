import { Link, useNavigate } from 'react-router-dom';
import { Icon, RelativeTime, useTranslation } from '../../../../web/src/index.ts';
import { TYPE_ICONS, excerpt, isExternal, localized, templateNamespaces, type Notification } from '../shared.ts';

/**
 * One notification (or one group: "Noah and 3 others liked your insight"), in the inbox and in the
 * bell's dropdown: its title links to the content (the insight, the comment, the meetup…), with a
 * short excerpt of that content when it has one. Following the link marks it read.
 */
export function NotificationRow({ n, onRead, compact, onNavigate }: { n: Notification; onRead: (n: Notification) => Promise<void>; compact?: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useTranslation(templateNamespaces([n]), { useSuspense: false });
  const navigate = useNavigate();
  const { title, message } = localized(n, t as any, (k) => i18n.exists(k));
  const quote = excerpt(n);
  const priority = n.priority === 'urgent' || n.priority === 'high' ? n.priority : null;
  const Heading = compact ? 'h3' : 'h2';

  const open = async (e: React.MouseEvent) => {
    if (!n.link) return;
    if (!n.read) {
      if (!isExternal(n.link)) e.preventDefault();
      await onRead(n).catch(() => undefined);
      if (!isExternal(n.link)) navigate(n.link);
    }
    onNavigate?.();
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
    <article
      className={`curio-notification${n.read ? '' : ' is-unread'}${n.priority === 'urgent' ? ' is-urgent' : ''}${compact ? ' is-compact' : ''}`}
      aria-label={n.read ? title : t('notifications:item.unreadLabel', { title })}
      data-group-count={n.groupCount ?? 1}
    >
      <span className="curio-notification__icon" aria-hidden="true">
        <Icon name={TYPE_ICONS[n.type] ?? 'bell'} size={compact ? 16 : 18} />
      </span>
      <div className="curio-notification__body">
        <Heading className="curio-notification__title is-size-6">
          {!n.read && <span className="curio-unread-dot" aria-hidden="true" />}
          {heading}
          {priority && <span className={`tag is-small is-rounded ${priority === 'urgent' ? 'is-danger' : 'is-warning'}`}>{t(`notifications:priority.${priority}`)}</span>}
        </Heading>
        <p className="curio-notification__message">{message}</p>
        {quote && (
          <blockquote className="curio-notification__excerpt" aria-label={t('notifications:item.excerptLabel')}>
            {quote}
          </blockquote>
        )}
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
