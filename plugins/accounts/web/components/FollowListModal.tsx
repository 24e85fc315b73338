import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, Avatar, Modal, RoleBadge, Spinner, apiRequest, useAuth, useTranslation } from '../../../../web/src/index.ts';
import type { GetUserFollowersResponse } from '../../../../web/src/api/generated/accounts.ts';
import { displayName } from '../lib.ts';
import { FollowButton } from './FollowButton.tsx';

type Item = GetUserFollowersResponse[number];
const PAGE = 50;

/** Followers or following of a member, 50 at a time, with follow buttons. */
export function FollowListModal({ userId, kind, onClose }: { userId: number; kind: 'followers' | 'following'; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const { user } = useAuth();
  const [items, setItems] = useState<Item[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'error' | 'hidden'>('loading');
  const [more, setMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  // follow requests sent from this list (private profiles), shown as Requested
  const [requested, setRequested] = useState<Set<number>>(new Set());

  const load = async (offset: number) => {
    const page = await apiRequest<Item[]>('GET', `/api/user/${userId}/${kind}?limit=${PAGE}&offset=${offset}`);
    setItems((prev) => (offset === 0 ? page : [...prev, ...page]));
    setMore(page.length === PAGE);
  };

  useEffect(() => {
    let live = true;
    setState('loading');
    load(0)
      .then(() => live && setState('ready'))
      .catch((e) => live && setState(e instanceof ApiError && e.status === 403 ? 'hidden' : 'error'));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, kind]);

  const loadMore = async () => {
    setLoadingMore(true);
    try {
      await load(items.length);
    } catch {
      setState('error');
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Modal open onClose={onClose} title={kind === 'followers' ? t('follows.followersTitle') : t('follows.followingTitle')} size="small">
      {state === 'loading' && <Spinner center label={t('follows.loading')} />}
      {state === 'error' && <p className="has-text-danger">{t('follows.failed')}</p>}
      {state === 'hidden' && <p className="has-text-grey">{t('follows.hidden')}</p>}
      {state === 'ready' && items.length === 0 && <p className="has-text-grey">{t('follows.empty')}</p>}
      {state === 'ready' && items.length > 0 && (
        <ul className="acc-follow-list">
          {items.map((u) => (
            <li key={u.id} className="acc-follow-list__item">
              <Link to={`/profile/${u.slug || u.id}`} className="acc-follow-list__who" onClick={onClose}>
                <Avatar src={u.profileImageUrl} info={u.profileImageInfo} name={displayName(u)} size={40} decorative />
                <span>
                  <span className="acc-follow-list__name">{displayName(u)}</span>
                  <span className="acc-follow-list__handle">@{u.username}</span>
                </span>
                <RoleBadge role={u.role} hideTraveler />
              </Link>
              {user && user.id !== u.id && (
                <FollowButton
                  userId={u.id}
                  following={u.isFollowing}
                  requested={requested.has(u.id)}
                  size="is-small"
                  onChange={(following, _count, req) => {
                    setItems((prev) => prev.map((x) => (x.id === u.id ? { ...x, isFollowing: following } : x)));
                    setRequested((prev) => {
                      const next = new Set(prev);
                      if (req) next.add(u.id);
                      else next.delete(u.id);
                      return next;
                    });
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {state === 'ready' && more && (
        <button type="button" className={`button is-light is-fullwidth mt-3${loadingMore ? ' is-loading' : ''}`} onClick={loadMore}>
          {t('follows.loadMore')}
        </button>
      )}
    </Modal>
  );
}
