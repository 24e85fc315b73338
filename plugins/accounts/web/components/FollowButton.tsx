import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { signInPath, signInToastAction, toast, useAuth, useTranslation, withRetry } from '../../../../web/src/index.ts';
import { toggleFollowUser } from '../../../../web/src/api/generated/accounts.ts';

/** Follow / Following toggle (POST /api/user/{id}/follow answers the new state). */
export function FollowButton({
  userId,
  following,
  onChange,
  size = '',
}: {
  userId: number;
  following: boolean;
  onChange: (following: boolean, followersCount: number) => void;
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
      onChange(r.following, r.followersCount);
    } catch (e) {
      toast({ title: t('profile.followFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return (
    <button
      type="button"
      className={`button ${size} ${following ? 'is-light' : 'is-primary'}${pending ? ' is-loading' : ''}`}
      aria-pressed={following}
      onClick={click}
      disabled={pending}
    >
      {following ? t('profile.unfollow') : t('profile.follow')}
    </button>
  );
}
