/**
 * /welcome — onboarding after sign-up (issue 21): three skippable steps — interests (museum
 * categories), home city or "use my location", then things to follow (slot
 * `onboarding.suggestions`: the insights plugin's museums and people, the communities plugin's
 * communities, each with one-click follow and "Follow all"). Progress is stored (resumable: Home
 * offers to continue while it is `started`, and signing in without a page to go to comes back here:
 * after-sign-in.ts); focus moves to each step's heading.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation, useApi, useDocumentTitle, Spinner, EmptyState, Slot, safeNextPath, toast } from '../../../../web/src/index.ts';
import { getOnboardingUrl, updateOnboarding, type Onboarding } from '../../../../web/src/api/generated/accounts.ts';
import { HomeField, InterestsPicker } from '../components/InterestsFields.tsx';
import type { WelcomeState } from '../after-sign-in.ts';
import '../accounts.css';

const STEPS = 3;

export default function OnboardingPage() {
  const { t } = useTranslation('accounts');
  useDocumentTitle(t('onboarding.title'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // a sign-in brought the member back here (after-sign-in.ts): the step they left says so
  const arrival = useLocation().state as WelcomeState | null;
  const [resumed, setResumed] = useState(arrival?.resumedAfterSignIn === true);
  const { data, error, isLoading, mutate } = useApi<Onboarding>(getOnboardingUrl(), { revalidateOnFocus: false });
  const [step, setStep] = useState<number | null>(null);
  const [interests, setInterests] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  // first load: resume where the member left, and note that the onboarding was offered
  useEffect(() => {
    if (!data || step !== null) return;
    setInterests(data.interests);
    setStep(data.status === 'started' ? Math.min(data.step, STEPS - 1) : 0);
    if (data.status !== 'started') void updateOnboarding({ body: { status: 'started' } }).catch(() => undefined);
  }, [data, step]);
  // each step's heading takes the focus (screen readers hear where they are), once it is on
  // screen: a ref callback, since a page that comes in a navigation's transition (after a sign-in,
  // with its data already there) is first committed hidden, without its refs, and then revealed
  const focusedStep = useRef<number | null>(null);
  const heading = useCallback(
    (el: HTMLHeadingElement | null) => {
      if (!el || step === null || focusedStep.current === step || !el.getClientRects().length) return;
      focusedStep.current = step;
      el.focus();
    },
    [step],
  );

  const finish = async (status: 'done' | 'skipped') => {
    setBusy(true);
    try {
      const saved = await updateOnboarding({ body: status === 'done' ? { status, step: STEPS - 1, interests } : { status } });
      // Home's resume notice reads the same cache entry
      await mutate(saved, { revalidate: false });
      navigate(safeNextPath(params.get('next')), { replace: true });
    } catch (e) {
      toast({ title: t('onboarding.saveFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const go = async (to: number) => {
    setBusy(true);
    try {
      const saved = await updateOnboarding({ body: { step: to, ...(step === 0 ? { interests } : {}) } });
      void mutate(saved, { revalidate: false });
      setResumed(false);
      setStep(to);
    } catch (e) {
      toast({ title: t('onboarding.saveFailed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  if (error) return <EmptyState tone="error" icon="alert" title={t('onboarding.loadFailed')} />;
  if (isLoading || !data || step === null) return <Spinner center />;
  const titles = [t('onboarding.interestsTitle'), t('onboarding.homeTitle'), t('onboarding.followTitle')];
  const intros = [t('onboarding.interestsIntro'), t('onboarding.homeIntro'), t('onboarding.followIntro')];
  return (
    <div className="container px-3 py-5 acc-onboarding">
      <p className="is-size-7 has-text-weight-semibold is-uppercase has-text-grey mb-2">{t('onboarding.title')}</p>
      <div className="acc-onboarding-progress mb-4">
        <p id="acc-onb-progress" className="is-size-7 mb-1" aria-live="polite">
          {t('onboarding.progress', { step: step + 1, total: STEPS })}
        </p>
        <progress className="progress is-link is-small" value={step + 1} max={STEPS} aria-labelledby="acc-onb-progress">
          {step + 1}/{STEPS}
        </progress>
        <ol className="acc-onboarding-steps">
          {titles.map((title, i) => (
            <li key={title} className={i === step ? 'is-current' : i < step ? 'is-done' : ''} aria-current={i === step ? 'step' : undefined}>
              {title}
            </li>
          ))}
        </ol>
      </div>
      <section aria-labelledby="acc-onb-heading">
        {resumed && (
          <p className="notification is-link is-light py-3 mb-4" id="acc-onb-resumed" data-testid="acc-onb-resumed">
            {t('onboarding.resumedAfterSignIn')}
          </p>
        )}
        <h1 className="title is-4" id="acc-onb-heading" tabIndex={-1} ref={heading} aria-describedby={resumed ? 'acc-onb-resumed' : undefined}>
          {titles[step]}
        </h1>
        <p className="mb-4">{intros[step]}</p>
        {step === 0 && (data.choices.length ? <InterestsPicker choices={data.choices} value={interests} onChange={setInterests} legend={t('onboarding.interestsLegend')} /> : <p className="has-text-grey">{t('onboarding.noChoices')}</p>)}
        {step === 1 && <HomeField home={data.home} idPrefix="acc-onb" onSaved={(o) => void mutate(o, { revalidate: false })} />}
        {step === 2 && <Slot name="onboarding.suggestions" />}
      </section>
      <div className="acc-onboarding-actions mt-5">
        <button type="button" className="button is-ghost" onClick={() => void finish('skipped')} disabled={busy}>
          {t('onboarding.skip')}
        </button>
        <div className="buttons mb-0">
          {step > 0 && (
            <button type="button" className="button" onClick={() => void go(step - 1)} disabled={busy}>
              {t('onboarding.back')}
            </button>
          )}
          {step < STEPS - 1 ? (
            <button type="button" className={`button is-link${busy ? ' is-loading' : ''}`} onClick={() => void go(step + 1)} disabled={busy} data-testid="acc-onb-next">
              {t('onboarding.next')}
            </button>
          ) : (
            <button type="button" className={`button is-link${busy ? ' is-loading' : ''}`} onClick={() => void finish('done')} disabled={busy} data-testid="acc-onb-finish">
              {t('onboarding.finish')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
