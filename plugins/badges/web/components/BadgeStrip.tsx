import { Link, useLocation } from 'react-router-dom';
import { useApi, useTranslation } from '../../../../web/src/index.ts';
import { BADGE_STRIP_SIZE } from '../../shared/badge-rules.ts';
import { BadgeIcon } from './BadgeIcon.tsx';
import { profileUserId, userBadgesKey, type ProfileBadge, type ProfileSlotProps } from './types.ts';

/** Profile header: the first 6 badges, then '+N' (spec part 1, badge strip 6). Nothing when there are none. */
export default function BadgeStrip(props: ProfileSlotProps) {
  const { t } = useTranslation('badges');
  const { pathname } = useLocation();
  const id = profileUserId(props);
  const { data } = useApi<ProfileBadge[]>(userBadgesKey(id));
  const list = data ?? [];
  if (!list.length) return null;
  const shown = list.slice(0, BADGE_STRIP_SIZE);
  const more = list.length - shown.length;
  const moreLabel = t('strip.moreLabel', { count: more });
  return (
    <ul className="curio-badge-strip" aria-label={t('strip.label', { count: list.length })}>
      {shown.map((ub) => (
        <li key={ub.id} title={`${ub.badge.name} — ${ub.badge.description}`}>
          <BadgeIcon icon={ub.badge.icon} color={ub.badge.color} size={32} label={ub.badge.name} />
        </li>
      ))}
      {more > 0 && (
        <li>
          {props.onShowAll ? (
            <button type="button" className="curio-badge-strip__more" onClick={props.onShowAll} aria-label={moreLabel}>
              +{more}
            </button>
          ) : (
            <Link className="curio-badge-strip__more" to={`${pathname}?tab=badges`} aria-label={moreLabel}>
              +{more}
            </Link>
          )}
        </li>
      )}
    </ul>
  );
}
