import { Link, useParams, useSearchParams } from 'react-router-dom';
import { EmptyState, Page, useTranslation } from '../../../../web/src/index.ts';
import { ConversationList } from '../components/ConversationList.tsx';
import { Thread } from '../components/Thread.tsx';
import { NewConversation } from '../components/NewConversation.tsx';
import '../messages.css';

/** /messages and /messages/{id}: the list beside the thread; on a phone the list, then the thread with a back button. */
export default function MessagesPage() {
  const { t } = useTranslation('messages');
  const { id } = useParams();
  const [search] = useSearchParams();
  const isNew = id === 'new';
  const num = id && /^\d+$/.test(id) ? Number(id) : null;
  const to = search.get('to');
  const selected = isNew || num !== null;
  return (
    <Page
      title={t('title')}
      width="wide"
      className="msg-page"
      actions={
        <Link to="/messages/new" className="button is-primary is-small" data-testid="new-message">
          {t('new.title')}
        </Link>
      }
    >
      <div className={`msg-layout${selected ? ' has-selection' : ''}`}>
        <aside className="msg-list" aria-label={t('list.label')}>
          <ConversationList selectedId={num} />
        </aside>
        <section className="msg-thread" aria-label={t('thread.label')}>
          {isNew ? (
            <NewConversation to={to && /^\d+$/.test(to) ? Number(to) : null} />
          ) : num !== null ? (
            <Thread key={num} id={num} />
          ) : (
            // as far from the pane's edges as the list's own notice is from its pane's
            <div className="msg-thread__empty">
              {id ? <EmptyState tone="error" icon="mail" title={t('thread.notFound')} /> : <EmptyState icon="mail" title={t('thread.pick')} description={t('thread.pickHint')} />}
            </div>
          )}
        </section>
      </div>
    </Page>
  );
}
