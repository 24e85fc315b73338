import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, Icon, Modal, Spinner, useApi, useAuth, useTranslation } from '../../../../web/src/index.ts';
import { addPlanStop, createPlan, listMyPlansUrl, type PlanSummary } from '../../../../web/src/api/generated/plans.ts';
import { formatPlanDate, todayLocal } from '../lib.ts';

type Target = { museumId: number } | { eventId: number; date: string };

/**
 * "Add to a plan" on the museum page (slot museum.actions) and an event or meetup page (slot
 * event.actions): into one of your plans or a new one (on the event's day), then open it.
 */
export default function AddToPlan(props: { museumId?: number; museum?: { name?: string }; eventId?: number; event?: { title?: string; date?: string } }) {
  const { t } = useTranslation('plans');
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  const target: Target | null = props.eventId
    ? {
        eventId: props.eventId,
        date: props.event?.date || todayLocal(),
      }
    : props.museumId
      ? { museumId: props.museumId }
      : null;
  if (!target) return null;
  const name = props.event?.title ?? props.museum?.name ?? '';
  return (
    <>
      <button type="button" className="button is-light" onClick={() => setOpen(true)} data-testid="add-to-plan">
        <Icon name="calendar" size={16} />
        <span>{t('addToPlan.button')}</span>
      </button>
      {open && <AddDialog target={target} name={name} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddDialog({ target, name, onClose }: { target: Target; name: string; onClose: () => void }) {
  const isEvent = 'eventId' in target;
  const { t, i18n } = useTranslation('plans');
  const navigate = useNavigate();
  const id = useId();
  const { data: plans, isLoading } = useApi<PlanSummary[]>(listMyPlansUrl());
  const [choice, setChoice] = useState<string>('');
  const [title, setTitle] = useState(name);
  const [date, setDate] = useState('eventId' in target ? target.date : todayLocal());
  const [arrival, setArrival] = useState('');
  const [duration, setDuration] = useState('90');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const planTarget = choice || (plans?.length ? String(plans[0].id) : 'new');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    const stop =
      'eventId' in target
        ? { eventId: target.eventId }
        : {
            museumId: target.museumId,
            durationMinutes: Number(duration) || 90,
            ...(arrival ? { arrival } : {}),
          };
    try {
      const plan =
        planTarget === 'new'
          ? await createPlan({
              body: { title: title.trim() || name, date, stops: [stop] },
            })
          : await addPlanStop({ params: { id: Number(planTarget) }, body: stop });
      onClose();
      navigate(`/plans/${plan.id}`);
    } catch (error) {
      setErr(error instanceof ApiError ? error.message : t('toast.error'));
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('addToPlan.title', { name })}
      size="small"
      footer={
        <div className="buttons">
          <button
            type="submit"
            form={`${id}-f`}
            className="button is-primary"
            disabled={busy || (planTarget === 'new' && (!date || !(title.trim() || name)))}
            data-testid="add-to-plan-submit"
          >
            {t('addToPlan.submit')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('core:form.cancel')}
          </button>
        </div>
      }
    >
      {isLoading && !plans ? (
        <p className="plans-state" role="status">
          <Spinner size="small" />
          <span>{t('addToPlan.loading')}</span>
        </p>
      ) : (
        <form id={`${id}-f`} onSubmit={submit}>
          <div className="field">
            <label className="label" htmlFor={`${id}-p`}>
              {t('addToPlan.plan')}
            </label>
            <div className="select is-fullwidth">
              <select id={`${id}-p`} value={planTarget} onChange={(e) => setChoice(e.target.value)} data-testid="add-to-plan-select">
                {(plans ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.title} · {formatPlanDate(p.date, i18n.language)}
                  </option>
                ))}
                <option value="new">{t('addToPlan.newPlan')}</option>
              </select>
            </div>
          </div>
          {planTarget === 'new' && (
            <>
              <div className="field">
                <label className="label" htmlFor={`${id}-t`}>
                  {t('create.name')}
                </label>
                <input id={`${id}-t`} className="input" value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} />
              </div>
              <div className="field">
                <label className="label" htmlFor={`${id}-d`}>
                  {t('create.date')}
                </label>
                <input id={`${id}-d`} className="input" type="date" value={date} required onChange={(e) => setDate(e.target.value)} />
              </div>
            </>
          )}
          {!isEvent && (
            <>
              <div className="field">
                <label className="label" htmlFor={`${id}-a`}>
                  {t('addToPlan.arrival')}
                </label>
                <input id={`${id}-a`} className="input" type="time" value={arrival} onChange={(e) => setArrival(e.target.value)} />
              </div>
              <div className="field">
                <label className="label" htmlFor={`${id}-m`}>
                  {t('addToPlan.duration')}
                </label>
                <input id={`${id}-m`} className="input" type="number" min={15} max={720} step={15} value={duration} onChange={(e) => setDuration(e.target.value)} />
              </div>
            </>
          )}
          {err && (
            <p className="help is-danger" role="alert">
              {err}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
