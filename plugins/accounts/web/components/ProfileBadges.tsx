import { EmojiIcon, inkOn, EmptyState, RelativeTime, Spinner, useApi, useTranslation } from '../../../../web/src/index.ts';
import { BADGE_STRIP_SIZE } from '../lib.ts';

export interface ProfileBadge {
  id: number;
  earnedAt: string;
  badge: { id?: number; name: string; description: string; icon: string; color: string };
}

const badgesKey = (userId: number) => `/api/user/${userId}/badges`;

function BadgeIcon({ b, size }: { b: ProfileBadge['badge']; size: number }) {
  return (
    <span className="acc-badge-icon" style={{ width: size, height: size, fontSize: Math.round(size * 0.5), background: b.color, color: inkOn(b.color) }} role="img" aria-label={b.name}>
      <EmojiIcon emoji={b.icon} size={Math.round(size * 0.55)} />
    </span>
  );
}

/** The badge strip (first 6, then '+N') when no plugin contributes `profile.badgeStrip`. */
export function BadgeStripFallback({ userId, onShowAll }: { userId: number; onShowAll?: () => void }) {
  const { t } = useTranslation('accounts');
  const { data } = useApi<ProfileBadge[]>(badgesKey(userId));
  const list = Array.isArray(data) ? data : [];
  if (!list.length) return null;
  const shown = list.slice(0, BADGE_STRIP_SIZE);
  const more = list.length - shown.length;
  return (
    <ul className="acc-badge-strip" aria-label={t('profile.badgesLabel')}>
      {shown.map((ub) => (
        <li key={ub.id} title={`${ub.badge.name} — ${ub.badge.description}`}>
          <BadgeIcon b={ub.badge} size={32} />
        </li>
      ))}
      {more > 0 && (
        <li>
          <button type="button" className="acc-badge-strip__more" onClick={onShowAll} aria-label={t('profile.moreBadges', { count: more })}>
            +{more}
          </button>
        </li>
      )}
    </ul>
  );
}

/** The BADGES tab when no plugin contributes `profile.badgesTab`. */
export function BadgesTabFallback({ userId }: { userId: number }) {
  const { t } = useTranslation('accounts');
  const { data, isLoading } = useApi<ProfileBadge[]>(badgesKey(userId));
  if (isLoading) return <Spinner center />;
  const list = Array.isArray(data) ? data : [];
  if (!list.length) return <EmptyState icon="award" title={t('profile.noBadges')} description={t('profile.noBadgesText')} />;
  return (
    <ul className="acc-badge-list">
      {list.map((ub) => (
        <li key={ub.id} className="acc-badge-list__item">
          <BadgeIcon b={ub.badge} size={44} />
          <div>
            <p className="has-text-weight-semibold">{ub.badge.name}</p>
            <p className="is-size-7 has-text-grey">{ub.badge.description}</p>
            <p className="is-size-7 has-text-grey">
              <RelativeTime date={ub.earnedAt} />
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
