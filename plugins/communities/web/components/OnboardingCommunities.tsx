import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation, useApi, Spinner, CoverImage } from '../../../../web/src/index.ts';
import { joinCommunity, listCommunitiesUrl } from '../../../../web/src/api/generated/communities.ts';
import type { CommunityCardData } from '../lib.ts';
import '../communities.css';

type State = 'idle' | 'pending' | 'joined' | 'requested';

/**
 * Onboarding's last step (slot onboarding.suggestions, accounts' /welcome): the busiest communities
 * the member is not in, one-click Join (a private one: a request) and "Join all".
 */
export default function OnboardingCommunities() {
  const { t } = useTranslation('communities');
  const { data, isLoading } = useApi<CommunityCardData[]>(listCommunitiesUrl({ limit: 12 }), { revalidateOnFocus: false });
  const [states, setStates] = useState<Record<number, State>>({});
  const list = (data ?? []).filter((c) => !c.isMember).slice(0, 4);
  const stateOf = (id: number) => states[id] ?? 'idle';
  const join = async (id: number) => {
    setStates((s) => ({ ...s, [id]: 'pending' }));
    try {
      const r = await joinCommunity({ params: { id }, body: {} });
      setStates((s) => ({ ...s, [id]: r.isMember ? 'joined' : 'requested' }));
    } catch (e) {
      console.error('join failed', e);
      setStates((s) => ({ ...s, [id]: 'idle' }));
    }
  };
  const joinAll = async () => {
    for (const c of list) if (stateOf(c.id) === 'idle') await join(c.id);
  };
  if (!isLoading && !list.length) return null;
  const allDone = list.every((c) => stateOf(c.id) !== 'idle');
  return (
    <section className="mb-5" aria-labelledby="onb-communities">
      <div className="is-flex is-justify-content-space-between is-align-items-center mb-3" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
        <h2 className="title is-5 mb-0" id="onb-communities">
          {t('onboarding.title')}
        </h2>
        {list.length > 0 && (
          <button type="button" className="button is-small is-link is-light" onClick={() => void joinAll()} disabled={allDone} data-testid="onb-communities-follow-all">
            {allDone ? t('onboarding.allJoined') : t('onboarding.joinAll')}
          </button>
        )}
      </div>
      {isLoading ? (
        <Spinner />
      ) : (
        <ul className="communities-onboarding">
          {list.map((c) => {
            const s = stateOf(c.id);
            return (
              <li key={c.id} className="box p-3 mb-3 is-flex is-align-items-center" style={{ gap: '0.75rem' }}>
                <span className="communities-onboarding-cover" aria-hidden="true">
                  <CoverImage src={c.imageUrl} info={c.imageInfo} kind="community" seed={c.name} sizes="56px" />
                </span>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Link to={`/communities/${c.id}`} className="has-text-weight-semibold has-text-dark">
                    {c.name}
                  </Link>
                  <p className="is-size-7 has-text-grey">
                    {t('common.members', { count: c.memberCount })}
                    {c.location ? ` · ${c.location}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  className={`button is-small ${s === 'idle' || s === 'pending' ? 'is-link' : 'is-light'}${s === 'pending' ? ' is-loading' : ''}`}
                  disabled={s !== 'idle'}
                  onClick={() => void join(c.id)}
                  aria-label={s === 'idle' ? t('onboarding.joinName', { name: c.name }) : undefined}
                >
                  {s === 'joined' ? t('onboarding.joined') : s === 'requested' ? t('onboarding.requested') : t('onboarding.join')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
