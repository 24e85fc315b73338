/**
 * Admission in the edit and suggestion dialogs: currency, one price per visitor type (typed as
 * amounts, stored in integer cents), and the free-entry rules, added with a SchemaForm rendered
 * from museums/FreeRule. Rendered outside the dialog's own form (SchemaForm is a form).
 */
import { useId } from 'react';
import { SchemaForm, useTranslation } from '../../../../web/src/index.ts';
import type { Admission, FreeRule, VisitorType } from '../../shared/admission.ts';
import freeRuleSchema from '../../schemas/free-rule.schema.json';
import { useRuleText } from './AdmissionBlock.tsx';

export const VISITOR_TYPES: readonly VisitorType[] = ['adult', 'reduced', 'child', 'member'];

/** What the editor holds: prices as typed text (amounts), so half-typed values are not lost. */
export interface AdmissionDraft {
  currency: string;
  prices: Record<VisitorType, string>;
  freeRules: FreeRule[];
}

export function draftFrom(a: Admission | null | undefined): AdmissionDraft {
  const prices = { adult: '', reduced: '', child: '', member: '' } as Record<VisitorType, string>;
  for (const p of a?.prices ?? []) prices[p.visitorType] = (p.cents / 100).toFixed(2);
  return { currency: a?.currency ?? '', prices, freeRules: [...(a?.freeRules ?? [])] };
}

const AMOUNT = /^\d{1,7}([.,]\d{1,2})?$/;

/** The draft → what the API takes (null when nothing is known), or the name of the problem. */
export function admissionFromDraft(d: AdmissionDraft): { value: Admission | null } | { error: 'invalidPrice' | 'invalidCurrency' } {
  const prices: Admission['prices'] = [];
  for (const v of VISITOR_TYPES) {
    const raw = d.prices[v].trim();
    if (!raw) continue;
    if (!AMOUNT.test(raw)) return { error: 'invalidPrice' };
    prices.push({ visitorType: v, cents: Math.round(Number(raw.replace(',', '.')) * 100) });
  }
  if (!prices.length && !d.freeRules.length && !d.currency.trim()) return { value: null };
  const currency = d.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return { error: 'invalidCurrency' };
  return { value: { currency, prices, freeRules: d.freeRules } };
}

export function AdmissionEditor({ value, onChange, error }: { value: AdmissionDraft; onChange: (v: AdmissionDraft) => void; error?: string }) {
  const { t } = useTranslation('museums');
  const ruleText = useRuleText();
  const id = useId().replace(/[^a-zA-Z0-9]/g, '');
  return (
    <section className="mt-4" aria-labelledby={`${id}-title`} data-testid="admission-editor">
      <h3 className="title is-6" id={`${id}-title`}>
        {t('admission.editTitle')}
      </h3>
      <div className="columns is-multiline">
        <div className="column is-half">
          <div className="field">
            <label className="label" htmlFor="mz-adm-currency">
              {t('admission.currency')}
            </label>
            <input id="mz-adm-currency" className="input" maxLength={3} autoCapitalize="characters" value={value.currency} onChange={(e) => onChange({ ...value, currency: e.target.value })} />
          </div>
        </div>
        {VISITOR_TYPES.map((v) => (
          <div className="column is-half" key={v}>
            <div className="field">
              <label className="label" htmlFor={`mz-adm-${v}`}>
                {t('admission.priceOf', { visitor: t(`admission.visitor.${v}`) })}
              </label>
              <input
                id={`mz-adm-${v}`}
                className="input"
                inputMode="decimal"
                maxLength={10}
                value={value.prices[v]}
                onChange={(e) => onChange({ ...value, prices: { ...value.prices, [v]: e.target.value } })}
              />
            </div>
          </div>
        ))}
      </div>
      {error && <p className="help is-danger mb-2">{error}</p>}
      {value.freeRules.length ? (
        <ul className="mz-closures__list">
          {value.freeRules.map((r, i) => (
            <li className="mz-closures__item" key={i} data-kind={r.kind}>
              <span>{ruleText(r)}</span>
              <button
                type="button"
                className="button is-small is-light"
                aria-label={t('admission.removeRule', { what: ruleText(r) })}
                onClick={() => onChange({ ...value, freeRules: value.freeRules.filter((_, j) => j !== i) })}
              >
                {t('closures.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="has-text-grey mb-2">{t('admission.noRules')}</p>
      )}
      <SchemaForm<FreeRule>
        schema={freeRuleSchema}
        ns="museums"
        id="mz-free-rule-form"
        initialValues={{ kind: 'always' }}
        submitLabel={t('admission.addRule')}
        resetOnSuccess
        onSubmit={(r) => {
          const clean: FreeRule = { kind: r.kind };
          for (const [k, v] of Object.entries(r)) if (k !== 'kind' && v !== undefined && v !== '') (clean as unknown as Record<string, unknown>)[k] = typeof v === 'string' ? v.trim() : v;
          if (r.nth !== undefined) clean.nth = Number(r.nth);
          onChange({ ...value, freeRules: [...value.freeRules, clean].slice(0, 20) });
        }}
      />
    </section>
  );
}
