import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { signInPath, signInToastAction, toast, useAuth, useTranslation, withRetry } from '../../../../web/src/index.ts';
import { toggleFollowUser } from '../../../../web/src/api/generated/accounts.ts';

/**
 * Follow / Requested / Following (POST /api/user/{id}/follow answers the new state). On a private
 * profile a click asks to follow ("Requested" until the owner decides); a click on Requested
 * withdraws the request, on Following unfollows.
 */
export function FollowButton({
  userId,
  following,
  requested = false,
  onChange,
  size = '',
}: {
  userId: number;
  following: boolean;
  requested?: boolean;
  onChange: (following: boolean, followersCount: number, requested: boolean) => void;
  size?: string;
}) {
  const { t } = useTranslation('accounts');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const click = async () => {
    if (!user) {
      toast({ title: t('profile.signInRequired'), description: t('profile.signInToFollow'), variant: 'warning', action: signInToastAction() });
      navigate(signInPath());
      return;
    }
    setPending(true);
    try {
      // A toggle must not be resent blindly (a lost answer would undo it): no retries.
      const r = await withRetry(() => toggleFollowUser({ params: { id: userId } }), { retries: 0 });
      onChange(r.following, r.followersCount, r.requested);
      if (r.requested) toast({ title: t('profile.requestSent'), description: t('profile.requestSentText'), variant: 'success' });
    } catch (e) {
      toast({ title: t('profile.followFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  const label = following ? t('profile.unfollow') : requested ? t('profile.requested') : t('profile.follow');
  return (
    <button
      type="button"
      className={`button ${size} ${following || requested ? 'is-light' : 'is-primary'}${pending ? ' is-loading' : ''}`}
      aria-pressed={following || requested}
      title={requested ? t('profile.requestedHint') : undefined}
      onClick={click}
      disabled={pending}
    >
      {label}
    </button>
  );
}
