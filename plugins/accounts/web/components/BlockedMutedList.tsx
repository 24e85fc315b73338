import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Avatar, EmptyState, Spinner, formatDateTime, toast, useApi, useTranslation, withRetry, type ImageInfo } from '../../../../web/src/index.ts';
import { unblockUser, unmuteUser, type BlockPage, type MutePage } from '../../../../web/src/api/generated/accounts.ts';
import { displayName } from '../lib.ts';

export const BLOCKS_KEY = '/api/user/blocks?limit=100';
export const MUTES_KEY = '/api/user/mutes?limit=100';

type Person = { id: number; slug?: string | null; username: string; firstName?: string | null; lastName?: string | null; profileImageUrl?: string | null; profileImageInfo?: ImageInfo | null };

function Row({ user, detail, undoLabel, onUndo }: { user: Person; detail?: string; undoLabel: string; onUndo: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const name = displayName(user);
  return (
    <li className="acc-follow-list__item">
      <Link to={`/profile/${user.slug || user.id}`} className="acc-follow-list__who">
        <Avatar src={user.profileImageUrl ?? null} info={user.profileImageInfo} name={name} size={40} decorative />
        <span>
          <span className="acc-follow-list__name">{name}</span>
          <span className="acc-follow-list__handle">@{user.username}</span>
          {detail && <span className="is-size-7 has-text-grey is-block">{detail}</span>}
        </span>
      </Link>
      <button
        type="button"
        className={`button is-small is-light${busy ? ' is-loading' : ''}`}
        disabled={busy}
        aria-label={`${undoLabel}: ${name}`}
        onClick={async () => {
          setBusy(true);
          try {
            await onUndo();
          } finally {
            setBusy(false);
          }
        }}
      >
        {undoLabel}
      </button>
    </li>
  );
}

/** Settings → "Blocked and muted": the members you blocked and muted, each with undo. */
export function BlockedMutedList() {
  const { t, i18n } = useTranslation('accounts');
  const blocks = useApi<BlockPage>(BLOCKS_KEY);
  const mutes = useApi<MutePage>(MUTES_KEY);
  const lng = i18n.resolvedLanguage || 'en';
  const undo = async (what: 'block' | 'mute', id: number) => {
    try {
      await withRetry<unknown>(() => (what === 'block' ? unblockUser({ params: { id } }) : unmuteUser({ params: { id } })), { retries: 0 });
      toast({ title: what === 'block' ? t('safety.unblocked') : t('safety.unmuted'), variant: 'success' });
      await (what === 'block' ? blocks.mutate() : mutes.mutate());
    } catch (e) {
      toast({ title: t('safety.failed'), description: (e as Error).message, variant: 'destructive' });
    }
  };
  const section = (title: string, state: { isLoading: boolean; error?: unknown; retry: () => void }, body: ReactNode, empty: boolean, emptyText: string) => (
    <section className="mb-5">
      <h3 className="title is-6">{title}</h3>
      {state.isLoading ? (
        <Spinner center label={t('settings.loading')} />
      ) : state.error ? (
        <EmptyState
          tone="error"
          compact
          title={t('safety.loadFailed')}
          action={
            <button type="button" className="button is-light" onClick={state.retry}>
              {t('profile.retry')}
            </button>
          }
        />
      ) : empty ? (
        <p className="has-text-grey">{emptyText}</p>
      ) : (
        body
      )}
    </section>
  );
  return (
    <div>
      <p className="has-text-grey mb-4">{t('safety.intro')}</p>
      {section(
        t('safety.blockedTitle'),
        { isLoading: blocks.isLoading, error: blocks.error, retry: () => void blocks.mutate() },
        <ul className="acc-follow-list">
          {(blocks.data?.items ?? []).map((b) => (
            <Row key={b.user.id} user={b.user} undoLabel={t('safety.unblock')} onUndo={() => undo('block', b.user.id)} />
          ))}
        </ul>,
        !blocks.data?.items.length,
        t('safety.noBlocked'),
      )}
      {section(
        t('safety.mutedTitle'),
        { isLoading: mutes.isLoading, error: mutes.error, retry: () => void mutes.mutate() },
        <ul className="acc-follow-list">
          {(mutes.data?.items ?? []).map((m) => (
            <Row
              key={m.user.id}
              user={m.user}
              detail={m.expiresAt ? t('safety.mutedUntil', { date: formatDateTime(new Date(m.expiresAt), lng, { dateStyle: 'medium', timeStyle: 'short' }) }) : t('safety.mutedForever')}
              undoLabel={t('safety.unmute')}
              onUndo={() => undo('mute', m.user.id)}
            />
          ))}
        </ul>,
        !mutes.data?.items.length,
        t('safety.noMuted'),
      )}
    </div>
  );
}
