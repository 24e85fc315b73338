import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, EmptyState, Page, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import { createPlan, listMyPlansUrl, type PlanSummary } from '../../../../web/src/api/generated/plans.ts';
import { todayLocal } from '../lib.ts';
import PlanList from '../components/PlanList.tsx';
import '../plans.css';

/** /plans: the member's plans and a form for a new one. */
export default function PlansPage() {
  const { t } = useTranslation('plans');
  const { data, error, isLoading, mutate } = useApi<PlanSummary[]>(listMyPlansUrl());
  return (
    <Page title={t('list.title')} subtitle={t('list.subtitle')} className="plans-page">
      <div className="columns">
        <div className="column is-two-thirds-desktop">
          <h2 className="title is-5">{t('list.label')}</h2>
          <PlanList
            data={data}
            error={error}
            isLoading={isLoading}
            retry={() => void mutate()}
            loading={t('list.loading')}
            failed={t('list.error')}
            empty={<EmptyState icon="map" title={t('list.empty')} description={t('list.emptyHint')} />}
            showVisibility
            testId="plans-list"
          />
        </div>
        <div className="column">
          <NewPlanForm />
        </div>
      </div>
    </Page>
  );
}

function NewPlanForm() {
  const { t } = useTranslation('plans');
  const navigate = useNavigate();
  const id = useId();
  const [title, setTitle] = useState('');
  const [date, setDate] = useState(todayLocal());
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    try {
      const p = await createPlan({ body: { title, date } });
      toast({ title: t('create.created'), variant: 'success' });
      navigate(`/plans/${p.id}`);
    } catch (error) {
      setErr(error instanceof ApiError ? error.message : t('toast.error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="box plans-new" onSubmit={submit} aria-labelledby={`${id}-h`} data-testid="new-plan-form">
      <h2 className="title is-5" id={`${id}-h`}>
        {t('create.title')}
      </h2>
      <div className="field">
        <label className="label" htmlFor={`${id}-title`}>
          {t('create.name')}
        </label>
        <div className="control">
          <input id={`${id}-title`} className="input" value={title} maxLength={100} required placeholder={t('create.namePlaceholder')} onChange={(e) => setTitle(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor={`${id}-date`}>
          {t('create.date')}
        </label>
        <div className="control">
          <input id={`${id}-date`} className="input" type="date" value={date} required onChange={(e) => setDate(e.target.value)} />
        </div>
      </div>
      {err && (
        <p className="help is-danger" role="alert">
          {err}
        </p>
      )}
      <button type="submit" className="button is-primary" disabled={busy || !title.trim() || !date}>
        {busy ? t('create.creating') : t('create.submit')}
      </button>
    </form>
  );
}
