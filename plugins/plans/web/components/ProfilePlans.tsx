import { EmptyState, useApi, useTranslation } from '../../../../web/src/index.ts';
import { listUserPublicPlansUrl, type PlanSummary } from '../../../../web/src/api/generated/plans.ts';
import PlanList from './PlanList.tsx';
import '../plans.css';

/**
 * Slot `profile.sections` (accounts' profile page, under the tabs, only when the viewer may see the
 * member): the member's public plans from `GET /api/users/:id/plans`, which applies accounts'
 * privacy rule itself (an empty list otherwise).
 */
export default function ProfilePlans({ userId, isOwn }: { userId: number; isOwn: boolean }) {
  const { t } = useTranslation('plans');
  const { data, error, isLoading, mutate } = useApi<PlanSummary[]>(listUserPublicPlansUrl({ id: userId }));
  return (
    <section className="plans-profile" aria-labelledby="plans-profile-title" data-testid="profile-plans">
      <h2 id="plans-profile-title" className="title is-5">
        {t('profile.title')}
      </h2>
      <PlanList
        data={data}
        error={error}
        isLoading={isLoading}
        retry={() => void mutate()}
        loading={t('profile.loading')}
        failed={t('profile.error')}
        empty={<EmptyState icon="map" title={t('profile.empty')} description={isOwn ? t('profile.emptyOwn') : undefined} />}
      />
    </section>
  );
}
