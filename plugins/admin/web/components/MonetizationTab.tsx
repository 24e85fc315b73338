import { useId, useState } from 'react';
import { EmptyState, Modal, Pagination, Spinner, formatDateTime, useApi, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { adminCreatePlan, adminUpdatePlanStatus, type AdminListPlansResponse, type AdminRevenueStatsResponse } from '../../../../web/src/api/generated/admin.ts';
import {
  CURRENCIES,
  DEFAULT_PLAN,
  FEATURE_KEYS,
  PLAN_TEMPLATES,
  PLAN_TIERS,
  PLAN_TYPES,
  featuresAreRuled,
  formatMoney,
  planFeatures,
  toCents,
  type Currency,
  type PlanTier,
  type PlanType,
} from '../../shared/monetization.ts';
import { failToast, fullName, okToast, qs, refreshAdmin } from '../lib.ts';

type Plan = AdminListPlansResponse['items'][number];
const PAGE_SIZE = 10;
const STATUS_CLASS: Record<string, string> = { active: 'is-success', inactive: 'is-light', expired: 'is-warning is-light' };

function CreatePlanDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const id = useId();
  const [type, setType] = useState<PlanType>(DEFAULT_PLAN.type);
  const [plan, setPlan] = useState<PlanTier>(DEFAULT_PLAN.plan);
  const [amount, setAmount] = useState(String(DEFAULT_PLAN.amount));
  const [currency, setCurrency] = useState<Currency>(DEFAULT_PLAN.currency);
  const [switches, setSwitches] = useState<Record<string, boolean>>(() => planFeatures(DEFAULT_PLAN.type, DEFAULT_PLAN.plan));
  const [error, setError] = useState<string | null>(null);
  const [userId, setUserId] = useState('');
  const [museumId, setMuseumId] = useState('');
  const features = featuresAreRuled(type) ? planFeatures(type, plan) : planFeatures(type, plan, switches);
  const optionalId = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : null);
  const create = useMutation(
    () => adminCreatePlan({ body: { type, plan, amount: Number(amount), currency, features, userId: optionalId(userId), museumId: optionalId(museumId) } }),
    { retries: 0 },
  );

  const applyTemplate = (tpl: (typeof PLAN_TEMPLATES)[number]) => {
    setType(tpl.type);
    setAmount(String(tpl.amount));
    setCurrency(tpl.currency);
    setSwitches(planFeatures(tpl.type, plan));
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (amount.trim() === '' || !Number.isFinite(Number(amount))) return setError(t('money.errors.amountRequired'));
    if (Number(amount) < 0) return setError(t('money.errors.amountNegative'));
    if (toCents(Number(amount)) === null) return setError(t('money.errors.amountDecimals'));
    setError(null);
    try {
      await create.trigger();
      okToast(t('toast.success'), t('money.created'));
      await refreshAdmin('/api/admin/monetization', '/api/admin/actions', '/api/admin/analytics');
      onClose();
    } catch (err) {
      failToast(err, t('money.createFailed'));
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('money.createTitle')}
      footer={
        <div className="buttons is-right">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" form={`${id}-form`} className={`button is-primary${create.isPending ? ' is-loading' : ''}`} disabled={create.isPending}>
            {t('money.create')}
          </button>
        </div>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} noValidate>
        <fieldset className="field">
          <legend className="label">{t('money.templates')}</legend>
          <div className="buttons">
            {PLAN_TEMPLATES.map((tpl) => (
              <button key={tpl.type} type="button" className={`button is-small${type === tpl.type ? ' is-link is-light' : ''}`} onClick={() => applyTemplate(tpl)}>
                {t(`money.types.${tpl.type}`)} · {formatMoney(tpl.amount, tpl.currency, i18n.language)} {t(`money.per.${tpl.per}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <div className="columns is-multiline">
          <div className="column is-half field">
            <label className="label" htmlFor={`${id}-type`}>
              {t('money.fields.type')}
            </label>
            <div className="select is-fullwidth">
              <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as PlanType)}>
                {PLAN_TYPES.map((x) => (
                  <option key={x} value={x}>
                    {t(`money.types.${x}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="column is-half field">
            <label className="label" htmlFor={`${id}-plan`}>
              {t('money.fields.plan')}
            </label>
            <div className="select is-fullwidth">
              <select id={`${id}-plan`} value={plan} onChange={(e) => setPlan(e.target.value as PlanTier)}>
                {PLAN_TIERS.map((x) => (
                  <option key={x} value={x}>
                    {t(`money.tiers.${x}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="column is-half field">
            <label className="label" htmlFor={`${id}-amount`}>
              {t('money.fields.amount')} <span aria-hidden="true">*</span>
            </label>
            <input id={`${id}-amount`} className={`input${error ? ' is-danger' : ''}`} type="number" step="0.01" min="0" required value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={Boolean(error)} />
            {error && (
              <p className="help is-danger" role="alert">
                {error}
              </p>
            )}
          </div>
          <div className="column is-half field">
            <label className="label" htmlFor={`${id}-currency`}>
              {t('money.fields.currency')}
            </label>
            <div className="select is-fullwidth">
              <select id={`${id}-currency`} value={currency} onChange={(e) => setCurrency(e.target.value as Currency)}>
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <div className="columns">
          <div className="column field">
            <label className="label" htmlFor={`${id}-user`}>
              {t('money.fields.userId')}
            </label>
            <input id={`${id}-user`} className="input" inputMode="numeric" value={userId} onChange={(e) => setUserId(e.target.value)} />
          </div>
          <div className="column field">
            <label className="label" htmlFor={`${id}-museum`}>
              {t('money.fields.museumId')}
            </label>
            <input id={`${id}-museum`} className="input" inputMode="numeric" value={museumId} onChange={(e) => setMuseumId(e.target.value)} />
          </div>
        </div>
        <fieldset className="field">
          <legend className="label">{t('money.fields.features')}</legend>
          {featuresAreRuled(type) && <p className="help mb-2">{t('money.ruled')}</p>}
          {FEATURE_KEYS[type].map((k) => (
            <label key={k} className="checkbox admin-feature">
              <input type="checkbox" checked={features[k] === true} disabled={featuresAreRuled(type)} onChange={(e) => setSwitches({ ...switches, [k]: e.target.checked })} /> {t(`money.features.${k}`)}
            </label>
          ))}
        </fieldset>
      </form>
    </Modal>
  );
}

function StatusButton({ plan }: { plan: Plan }) {
  const { t } = useTranslation('admin');
  const next = plan.status === 'active' ? 'inactive' : 'active';
  const change = useMutation(() => adminUpdatePlanStatus({ params: { id: plan.id }, body: { status: next } }), { retries: 0 });
  const onClick = async () => {
    try {
      await change.trigger();
      okToast(t('toast.success'), next === 'active' ? t('money.activated') : t('money.deactivated'));
      await refreshAdmin('/api/admin/monetization', '/api/admin/actions', '/api/admin/analytics');
    } catch (err) {
      failToast(err, t('money.updateFailed'));
    }
  };
  return (
    <button type="button" className={`button is-small ${next === 'active' ? 'is-success is-outlined' : ''}${change.isPending ? ' is-loading' : ''}`} onClick={onClick} disabled={change.isPending}>
      {next === 'active' ? t('money.activate') : t('money.deactivate')}
    </button>
  );
}

export default function MonetizationTab() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const plans = useApi<AdminListPlansResponse>(`/api/admin/monetization${qs({ page, pageSize: PAGE_SIZE })}`, { keepPreviousData: true });
  const stats = useApi<AdminRevenueStatsResponse>('/api/admin/monetization/stats');
  const money = (n: number, c: string) => formatMoney(n, c, i18n.language);
  return (
    <div className="admin-money">
      <div className="admin-section-head">
        <h2 className="title is-5">{t('money.title')}</h2>
        <button type="button" className="button is-primary" onClick={() => setCreating(true)}>
          {t('money.add')}
        </button>
      </div>
      <section aria-labelledby="admin-revenue" className="mb-4">
        <h3 id="admin-revenue" className="title is-6">
          {t('money.revenue')}
        </h3>
        {stats.isLoading ? (
          <Spinner size="small" />
        ) : !stats.data?.currencies.length ? (
          <p className="has-text-grey">{t('money.noRevenue')}</p>
        ) : (
          <div className="columns is-multiline">
            {stats.data.currencies.map((c) => (
              <div key={c.currency} className="column is-4">
                <div className="box admin-stat">
                  <p className="admin-stat__label">{t('money.activeRevenue', { currency: c.currency })}</p>
                  <p className="admin-stat__value">{money(c.activeRevenue, c.currency)}</p>
                  <p className="is-size-7 has-text-grey">
                    {t('money.average', { amount: money(c.averageRevenue, c.currency) })} · {t('money.planCounts', { active: c.activePlans, total: c.totalPlans })}
                  </p>
                </div>
              </div>
            ))}
          </div>
        )}
      </section>
      {plans.isLoading ? (
        <Spinner center label={t('loading')} />
      ) : plans.error && !plans.data ? (
        <EmptyState tone="error" compact title={t('money.loadFailed')} />
      ) : !plans.data?.items.length ? (
        <EmptyState compact icon="star" title={t('money.none')} />
      ) : (
        <ul className="admin-list box">
          {plans.data.items.map((p) => (
            <li key={p.id} className="admin-row">
              <div className="admin-row__main">
                <p className="admin-row__title">
                  <strong>{t(`money.types.${p.type}`)}</strong> <span className="tag is-light">{t(`money.tiers.${p.plan}`)}</span>{' '}
                  <span className={`tag ${STATUS_CLASS[p.status]}`}>{t(`money.status.${p.status}`)}</span>
                </p>
                <p className="admin-row__sub">
                  <strong>{money(p.amount, p.currency)}</strong> · {t('money.since', { date: formatDateTime(new Date(p.startDate), i18n.language, { dateStyle: 'medium' }) })}
                  {p.endDate && ` · ${t('money.until', { date: formatDateTime(new Date(p.endDate), i18n.language, { dateStyle: 'medium' }) })}`}
                </p>
                {p.user && <p className="admin-row__sub">{t('money.forUser', { name: fullName(p.user), email: p.user.email, role: p.user.role })}</p>}
                {p.museum && <p className="admin-row__sub">{t('money.forMuseum', { name: p.museum.name, place: [p.museum.city, p.museum.country].filter(Boolean).join(', ') })}</p>}
                <p className="tags admin-row__tags">
                  {Object.entries(p.features)
                    .filter(([, on]) => on)
                    .map(([k]) => (
                      <span key={k} className="tag is-white admin-tag--outline">
                        {t(`money.features.${k}`, { defaultValue: k })}
                      </span>
                    ))}
                </p>
              </div>
              <div className="admin-row__actions">
                <StatusButton plan={p} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={PAGE_SIZE} total={plans.data?.total ?? 0} onChange={setPage} />
      {creating && <CreatePlanDialog onClose={() => setCreating(false)} />}
    </div>
  );
}
