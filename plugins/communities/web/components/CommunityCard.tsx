import { Link } from 'react-router-dom';
import { CoverImage, Icon, useTranslation } from '../../../../web/src/index.ts';
import { typeLabelKey, type CommunityCardData } from '../lib.ts';

/** A community in the grid: name, description, location, member count, membership type, 2 tags plus +N. */
export function CommunityCard({ c }: { c: CommunityCardData }) {
  const { t } = useTranslation('communities');
  const shown = c.tags.slice(0, 2);
  const more = c.tags.length - shown.length;
  const typeKey = typeLabelKey(c.type);
  return (
    <article className="cm-card" data-testid="community-card">
      <Link to={`/communities/${c.id}`} className="cm-card__link" aria-label={c.name}>
        <div className="cm-card__image" aria-hidden="true">
          <CoverImage src={c.imageUrl} info={c.imageInfo} kind="community" category={c.type} seed={c.name} sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" />
        </div>
      </Link>
      <div className="cm-card__body">
        <div className="cm-card__top">
          <h2 className="cm-card__name">
            <Link to={`/communities/${c.id}`}>{c.name}</Link>
          </h2>
          {c.isMember && <span className="tag is-success is-light">{t('list.memberBadge')}</span>}
        </div>
        {c.description && <p className="cm-card__description">{c.description}</p>}
        <ul className="cm-card__facts">
          {c.location && (
            <li>
              <Icon name="map" size={14} /> {c.location}
            </li>
          )}
          <li>
            <Icon name="users" size={14} /> {t('common.members', { count: c.memberCount })}
          </li>
          <li>
            <span className={`tag is-rounded ${c.membershipType === 'private' ? 'is-warning is-light' : 'is-info is-light'}`}>
              {t(`membership.${c.membershipType}`)}
            </span>
          </li>
          {typeKey && (
            <li>
              <span className="tag is-rounded is-light">{t(typeKey)}</span>
            </li>
          )}
        </ul>
        {c.tags.length > 0 && (
          <div className="tags cm-card__tags">
            {shown.map((tag) => (
              <span key={tag} className="tag is-primary is-light">
                {tag}
              </span>
            ))}
            {more > 0 && (
              <span className="tag" title={c.tags.slice(2).join(', ')}>
                {t('list.moreTags', { count: more })}
              </span>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
