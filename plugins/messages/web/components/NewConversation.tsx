import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Avatar, EmptyState, Spinner, apiRequest, mutate, useApi, useTranslation, type ImageInfo } from '../../../../web/src/index.ts';
import { personName } from '../shared.ts';
import { Composer } from './Composer.tsx';
import { PeoplePicker, type Person } from './PeoplePicker.tsx';

interface ContactStatus {
  canMessage: boolean;
  reason: string | null;
  conversationId: number | null;
}

/**
 * /messages/new?to={userId} (the profile's and the member menu's Message): the existing conversation
 * opens; otherwise the first message is written here, or the reason why not is explained.
 */
export function NewConversation({ to }: { to: number | null }) {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const { data: status, error } = useApi<ContactStatus>(to ? `/api/conversations/with/${to}` : null);
  const { data: person } = useApi<{ id: number; username: string; firstName?: string; lastName?: string; profileImageUrl?: string | null; profileImageInfo?: ImageInfo | null }>(to ? `/api/user/${to}` : null);

  useEffect(() => {
    if (status?.conversationId) navigate(`/messages/${status.conversationId}`, { replace: true });
  }, [status, navigate]);

  if (!to) return <NewGroup />;
  if (error) return <EmptyState tone="error" icon="mail" title={error.status === 404 ? t('new.notFound') : t('thread.loadFailed')} action={<Link to="/messages">{t('thread.back')}</Link>} />;
  if (!status || status.conversationId) return <Spinner center label={t('thread.loading')} />;
  const name = person ? personName(person) : '';

  if (!status.canMessage) {
    const why = status.reason === 'followers_only' ? t('new.followersOnly') : status.reason === 'self' ? t('new.self') : t('new.cannot');
    return (
      <div className="msg-thread__inner">
        <EmptyState icon="mail" title={why} action={<Link to="/messages">{t('thread.back')}</Link>} />
      </div>
    );
  }
  const send = async (message: { text?: string; imageIds?: number[] }) => {
    const c = await apiRequest<{ id: number }>('POST', '/api/conversations', { participantIds: [to], message });
    await mutate((key) => typeof key === 'string' && key.startsWith('/api/conversations'));
    navigate(`/messages/${c.id}`, { replace: true });
  };
  return (
    <div className="msg-thread__inner">
      <header className="msg-thread__header">
        <Link to="/messages" className="button is-white msg-back" aria-label={t('thread.back')} title={t('thread.back')}>
          <span aria-hidden="true">←</span>
        </Link>
        {person && <Avatar src={person.profileImageUrl} info={person.profileImageInfo} name={name} size={36} decorative />}
        <h2 className="msg-thread__title">{name ? t('new.to', { name }) : t('new.title')}</h2>
      </header>
      <div className="msg-messages">
        <EmptyState compact icon="mail" title={t('new.first')} />
      </div>
      <Composer onSend={send} autoFocus />
    </div>
  );
}

/** /messages/new without anyone chosen yet: pick one member (a direct conversation) or several (a group, at most 10 with you). */
function NewGroup() {
  const { t } = useTranslation('messages');
  const navigate = useNavigate();
  const [people, setPeople] = useState<Person[]>([]);
  const send = async (message: { text?: string; imageIds?: number[] }) => {
    const c = await apiRequest<{ id: number }>('POST', '/api/conversations', { participantIds: people.map((p) => p.id), message });
    await mutate((key) => typeof key === 'string' && key.startsWith('/api/conversations'));
    navigate(`/messages/${c.id}`, { replace: true });
  };
  return (
    <div className="msg-thread__inner">
      <header className="msg-thread__header">
        <Link to="/messages" className="button is-white msg-back" aria-label={t('thread.back')} title={t('thread.back')}>
          <span aria-hidden="true">←</span>
        </Link>
        <h2 className="msg-thread__title">{t('new.title')}</h2>
      </header>
      <div className="msg-messages">
        <PeoplePicker value={people} onChange={setPeople} max={9} />
        {people.length === 0 && <p className="has-text-grey is-size-7 mt-3">{t('new.pickHint')}</p>}
      </div>
      <Composer onSend={send} disabled={people.length === 0} />
    </div>
  );
}
