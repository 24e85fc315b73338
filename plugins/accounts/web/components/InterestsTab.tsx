import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation, useApi, Spinner, EmptyState, toast } from '../../../../web/src/index.ts';
import { getOnboardingUrl, updateOnboarding, type Onboarding } from '../../../../web/src/api/generated/accounts.ts';
import { HomeField, InterestsPicker } from './InterestsFields.tsx';

function InterestsForm({ data, onSaved }: { data: Onboarding; onSaved: (o: Onboarding) => void }) {
  const { t } = useTranslation('accounts');
  const [interests, setInterests] = useState<string[]>(data.interests);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      onSaved(await updateOnboarding({ body: { interests } }));
      toast({ title: t('onboarding.interestsSaved'), variant: 'success' });
    } catch (e) {
      toast({ title: t('onboarding.saveFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <InterestsPicker choices={data.choices} value={interests} onChange={setInterests} legend={t('onboarding.interestsLegend')} />
      <button type="button" className={`button is-link mt-3${saving ? ' is-loading' : ''}`} onClick={() => void save()} disabled={saving}>
        {t('onboarding.saveInterests')}
      </button>
    </>
  );
}

/** Settings → Interests: what onboarding asked, editable later; recommendations read it (issue 21). */
export function InterestsTab({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('accounts');
  const { data, error, isLoading, mutate } = useApi<Onboarding>(getOnboardingUrl());
  if (isLoading) return <Spinner center label={t('settings.loading')} />;
  if (error || !data) return <EmptyState tone="error" compact title={t('settings.loadFailed')} />;
  const saved = (o: Onboarding) => void mutate(o, { revalidate: false });
  return (
    <div>
      <p className="mb-4">{t('onboarding.settingsIntro')}</p>
      <InterestsForm data={data} onSaved={saved} />
      <hr />
      <h3 className="title is-6">{t('onboarding.homeTitle')}</h3>
      <HomeField home={data.home} idPrefix="acc-settings-home" onSaved={saved} />
      <hr />
      <Link to="/welcome" className="button is-small is-light" onClick={onClose}>
        {t('onboarding.restart')}
      </Link>
    </div>
  );
}
