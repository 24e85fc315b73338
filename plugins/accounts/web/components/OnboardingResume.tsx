import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation, useApi, toastApiError } from '../../../../web/src/index.ts';
import { getOnboardingUrl, updateOnboarding, type Onboarding } from '../../../../web/src/api/generated/accounts.ts';

/**
 * Home (slot home.top): an onboarding begun and left offers to continue, or to dismiss it (issue 21).
 * Most members have none to resume: accounts' texts (7 kB gzip) load only for those who do.
 */
export default function OnboardingResume() {
  const { data, mutate } = useApi<Onboarding>(getOnboardingUrl(), { revalidateOnFocus: false });
  if (data?.status !== 'started') return null;
  return <ResumeNotice onSaved={(saved) => void mutate(saved, { revalidate: false })} />;
}

function ResumeNotice({ onSaved }: { onSaved: (saved: Onboarding) => void }) {
  const { t } = useTranslation('accounts');
  const [saving, setSaving] = useState(false);
  // a failed dismissal says why (offline, signed out…) and leaves the notice to try again
  const dismiss = async () => {
    setSaving(true);
    try {
      onSaved(await updateOnboarding({ body: { status: 'skipped' } }));
    } catch (e) {
      toastApiError(e);
      setSaving(false);
    }
  };
  return (
    <div className="notification is-link is-light acc-onboarding-resume mb-4" data-testid="acc-onboarding-resume">
      <p className="mb-2">{t('onboarding.resumeText')}</p>
      <div className="buttons mb-0">
        <Link to="/welcome" className="button is-small is-link">
          {t('onboarding.resume')}
        </Link>
        <button type="button" className={`button is-small${saving ? ' is-loading' : ''}`} disabled={saving} onClick={() => void dismiss()} data-testid="acc-onboarding-dismiss">
          {t('onboarding.dismiss')}
        </button>
      </div>
    </div>
  );
}
