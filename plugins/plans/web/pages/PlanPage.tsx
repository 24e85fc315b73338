import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, EmptyState, Page, Spinner, confirmDialog, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import {
  addPlanStop,
  deletePlan,
  getPlanIcsUrl,
  getPlanUrl,
  getSharedPlanIcsUrl,
  getSharedPlanUrl,
  removePlanStop,
  reorderPlanStops,
  updatePlan,
  updatePlanStop,
  type Plan,
} from '../../../../web/src/api/generated/plans.ts';
import { formatPlanDate, formatMinutes, formatSpeed } from '../lib.ts';
import { StopItem } from '../components/StopItem.tsx';
import { MuseumSearch } from '../components/MuseumSearch.tsx';
import '../plans.css';

/** One plan: the editor for its owner, a read-only list with the same warnings for anyone else who may see it. */
export default function PlanPage() {
  const { t, i18n } = useTranslation('plans');
  const { id, token } = useParams();
  const key = token ? getSharedPlanUrl({ token }) : getPlanUrl({ id: Number(id) });
  const { data: plan, error, isLoading, mutate } = useApi<Plan>(key);

  if (isLoading && !plan) {
    return (
      <Page title={t('plan.loading')} className="plans-page">
        <div className="plans-state" role="status">
          <Spinner />
        </div>
      </Page>
    );
  }
  if (!plan) {
    const missing = !error || error.status === 404 || error.status === 400;
    return (
      <Page title={missing ? t('plan.notFound') : t('plan.error')} className="plans-page">
        <EmptyState
          tone={missing ? 'neutral' : 'error'}
          icon="map"
          title={missing ? t('plan.notFound') : t('plan.error')}
          description={missing ? t('plan.notFoundHint') : error?.message}
          action={
            missing ? undefined : (
              <button type="button" className="button" onClick={() => mutate()}>
                {t('list.retry')}
              </button>
            )
          }
        />
      </Page>
    );
  }
  const lang = i18n.language;
  const set = (p: Plan) => mutate(p, { revalidate: false });
  const icsUrl = token ? getSharedPlanIcsUrl({ token }) : getPlanIcsUrl({ id: plan.id });
  const summary = t('plan.summary', {
    warnings: t('plan.warnings', { count: plan.summary.warnings }),
    walk: formatMinutes(plan.summary.walkMinutes, lang),
    speed: formatSpeed(plan.walkingSpeedKmh, lang),
    free: t('plan.free', { count: plan.summary.freeStops }),
  });
  return (
    <Page
      title={plan.title}
      subtitle={
        <>
          {formatPlanDate(plan.date, lang)}
          {!plan.isOwner && plan.owner && (
            <>
              {' '}
              ·{' '}
              {t('plan.by', {
                name: `${plan.owner.firstName} ${plan.owner.lastName}`.trim() || plan.owner.username,
              })}
            </>
          )}
        </>
      }
      actions={
        <div className="buttons">
          <a className="button is-light" href={icsUrl} download data-testid="plan-ics">
            {t('plan.ics')}
          </a>
          {plan.isOwner && (
            <Link className="button is-text" to="/plans">
              {t('plan.back')}
            </Link>
          )}
        </div>
      }
      className="plans-page"
    >
      {plan.isOwner ? <OwnerHeader plan={plan} onChange={set} /> : <p className="mb-4 has-text-grey-dark">{t('plan.readOnly')}</p>}
      <p className="mb-4" data-testid="plan-summary" aria-live="polite">
        {summary}
      </p>
      {plan.isOwner && plan.suggestion && <SuggestionBox plan={plan} onChange={set} />}
      <h2 className="title is-5">{t('plan.stops')}</h2>
      {plan.stops.length === 0 ? (
        <EmptyState compact icon="map" title={t('plan.noStops')} description={plan.isOwner ? t('plan.noStopsHint') : undefined} />
      ) : (
        <ol className="plans-stops" data-testid="plan-stops">
          {plan.stops.map((s, i) => (
            <StopItem
              key={s.id}
              stop={s}
              index={i}
              count={plan.stops.length}
              editable={plan.isOwner}
              onTimes={async (body) =>
                set(
                  await updatePlanStop({
                    params: { id: plan.id, stopId: s.id },
                    body,
                  }),
                )
              }
              onMove={async (dir) => {
                const ids = plan.stops.map((x) => x.id);
                const j = i + dir;
                [ids[i], ids[j]] = [ids[j], ids[i]];
                set(
                  await reorderPlanStops({
                    params: { id: plan.id },
                    body: { stopIds: ids as [number, ...number[]] },
                  }),
                );
              }}
              onRemove={async () => {
                set(
                  await removePlanStop({
                    params: { id: plan.id, stopId: s.id },
                  }),
                );
                toast({
                  title: t('stop.removed'),
                  variant: 'success',
                  duration: 2500,
                });
              }}
            />
          ))}
        </ol>
      )}
      {plan.isOwner && (
        <MuseumSearch
          onPick={async (m) => {
            try {
              set(
                await addPlanStop({
                  params: { id: plan.id },
                  body: { museumId: m.id },
                }),
              );
              toast({
                title: t('add.added', { name: m.name }),
                variant: 'success',
                duration: 2500,
              });
            } catch (e) {
              errorToast(t, e);
              throw e;
            }
          }}
        />
      )}
      {plan.isOwner && <DeletePlan plan={plan} />}
    </Page>
  );
}

function errorToast(t: (k: string) => string, e: unknown) {
  toast({
    title: t('toast.error'),
    description: e instanceof ApiError ? e.message : undefined,
    variant: 'error',
  });
}

function OwnerHeader({ plan, onChange }: { plan: Plan; onChange: (p: Plan) => unknown }) {
  const { t, i18n } = useTranslation('plans');
  const id = useId();
  const [title, setTitle] = useState(plan.title);
  const [date, setDate] = useState(plan.date);
  useEffect(() => setTitle(plan.title), [plan.title]);
  useEffect(() => setDate(plan.date), [plan.date]);
  const save = async (body: Parameters<typeof updatePlan>[0]['body']) => {
    try {
      onChange(await updatePlan({ params: { id: plan.id }, body }));
    } catch (e) {
      errorToast(t, e);
    }
  };
  const link = plan.shareToken ? `${window.location.origin}/plans/shared/${plan.shareToken}` : '';
  return (
    <div className="box">
      <form
        className="plans-header"
        onSubmit={(e) => {
          e.preventDefault();
          if (title.trim() && date)
            void save({ title, date }).then(() =>
              toast({
                title: t('plan.saved'),
                variant: 'success',
                duration: 2000,
              }),
            );
        }}
      >
        <div className="field">
          <label className="label" htmlFor={`${id}-t`}>
            {t('plan.title')}
          </label>
          <input id={`${id}-t`} className="input" value={title} maxLength={100} required onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-d`}>
            {t('plan.date')}
          </label>
          <input id={`${id}-d`} className="input" type="date" value={date} required onChange={(e) => setDate(e.target.value)} data-testid="plan-date" />
        </div>
        <button type="submit" className="button is-primary" disabled={!title.trim() || !date || (title === plan.title && date === plan.date)}>
          {t('plan.save')}
        </button>
      </form>
      <div className="field mt-4">
        <label className="label" htmlFor={`${id}-s`}>
          {t('plan.speed')}
        </label>
        <div className="select">
          <select id={`${id}-s`} value={String(plan.walkingSpeedKmh)} onChange={(e) => void save({ walkingSpeedKmh: Number(e.target.value) })} data-testid="plan-speed">
            {[...new Set([3, 4.5, 6, plan.walkingSpeedKmh])].sort((a, b) => a - b).map((v) => (
              <option key={v} value={String(v)}>
                {formatSpeed(v, i18n.language)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor={`${id}-v`}>
          {t('visibility.label')}
        </label>
        <div className="select">
          <select id={`${id}-v`} value={plan.visibility} onChange={(e) => void save({ visibility: e.target.value as Plan['visibility'] })} data-testid="plan-visibility">
            {(['private', 'link', 'public'] as const).map((v) => (
              <option key={v} value={v}>
                {t(`visibility.${v}`)}
              </option>
            ))}
          </select>
        </div>
        {plan.visibility === 'public' && <p className="help">{t('visibility.hintPublic')}</p>}
      </div>
      {link && (
        <div className="field">
          <label className="label" htmlFor={`${id}-l`}>
            {t('plan.shareLink')}
          </label>
          <div className="plans-share">
            <input id={`${id}-l`} className="input" readOnly value={link} data-testid="plan-share-link" onFocus={(e) => e.target.select()} />
            <button
              type="button"
              className="button is-light"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(link);
                  toast({
                    title: t('plan.copied'),
                    variant: 'success',
                    duration: 2000,
                  });
                } catch {
                  (document.getElementById(`${id}-l`) as HTMLInputElement | null)?.select();
                }
              }}
            >
              {t('plan.copy')}
            </button>
            <button
              type="button"
              className="button is-light"
              onClick={() => void save({ newShareLink: true }).then(() => toast({ title: t('plan.newLinkDone'), variant: 'info' }))}
            >
              {t('plan.newLink')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function SuggestionBox({ plan, onChange }: { plan: Plan; onChange: (p: Plan) => unknown }) {
  const { t, i18n } = useTranslation('plans');
  const [busy, setBusy] = useState(false);
  const s = plan.suggestion!;
  const names = s.stopIds.map((sid) => {
    const x = plan.stops.find((y) => y.id === sid);
    return x?.event?.title ?? x?.museum?.name ?? '?';
  });
  return (
    <section className="box plans-suggestion" aria-labelledby="plans-suggestion-title" data-testid="plan-suggestion">
      <h2 className="title is-6" id="plans-suggestion-title">
        {t('suggestion.title')}
      </h2>
      <p>
        {t('suggestion.text', {
          order: names.join(' → '),
          warnings: t('plan.warnings', { count: s.warnings }),
          walk: formatMinutes(s.walkMinutes, i18n.language),
        })}
      </p>
      <button
        type="button"
        className="button is-link mt-2"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            onChange(
              await reorderPlanStops({
                params: { id: plan.id },
                body: {
                  stopIds: s.stopIds as [number, ...number[]],
                  arrivals: s.arrivals,
                },
              }),
            );
            toast({
              title: t('suggestion.applied'),
              variant: 'success',
              duration: 2500,
            });
          } catch (e) {
            errorToast(t, e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('suggestion.use')}
      </button>
    </section>
  );
}

function DeletePlan({ plan }: { plan: Plan }) {
  const { t } = useTranslation('plans');
  const navigate = useNavigate();
  return (
    <div className="mt-6">
      <button
        type="button"
        className="button is-danger is-light"
        onClick={async () => {
          if (
            !(await confirmDialog({
              title: t('plan.deleteConfirm'),
              message: t('plan.deleteConfirmText'),
              confirmLabel: t('plan.delete'),
              destructive: true,
            }))
          )
            return;
          try {
            await deletePlan({ params: { id: plan.id } });
            toast({ title: t('plan.deleted'), variant: 'success' });
            navigate('/plans');
          } catch (e) {
            errorToast(t, e);
          }
        }}
      >
        {t('plan.delete')}
      </button>
    </div>
  );
}
