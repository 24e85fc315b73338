/**
 * The structured correction of the "still right?" question's no (issue 20): today's hours (closed,
 * or other times), the prices seen, one accessibility fact, or the phone and website, in the form
 * of the group asked about. Empty fields send no structured change (the note alone still counts).
 */
import { useTranslation } from '../../../../web/src/index.ts';
import { ACCESS_KEYS, type AccessKey, type AccessValue } from '../../shared/accessibility.ts';
import { AccessValueSelect } from './AccessibilityBlock.tsx';
import type { FactGroup } from '../../shared/freshness.ts';
import type { MuseumView } from '../lib.ts';

export interface CorrectionDraft {
  hoursMode: '' | 'closed' | 'open';
  openTime: string;
  closeTime: string;
  currency: string;
  prices: Record<'adult' | 'reduced' | 'child' | 'member', string>;
  fact: AccessKey;
  value: '' | AccessValue;
  note: string;
  phone: string;
  website: string;
}

export function emptyDraft(m: MuseumView): CorrectionDraft {
  return {
    hoursMode: '',
    openTime: '',
    closeTime: '',
    currency: m.admission?.currency ?? 'EUR',
    prices: { adult: '', reduced: '', child: '', member: '' },
    fact: 'stepFreeEntrance',
    value: '',
    note: '',
    phone: '',
    website: '',
  };
}

/** The draft as the route's `change` (FactCorrection), or null when nothing structured was given. */
export function changeFrom(group: FactGroup, d: CorrectionDraft): Record<string, unknown> | null {
  if (group === 'hours') {
    if (d.hoursMode === 'closed') return { hours: { closed: true } };
    if (d.hoursMode === 'open' && d.openTime && d.closeTime) return { hours: { closed: false, openTime: d.openTime, closeTime: d.closeTime } };
    return null;
  }
  if (group === 'admission') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d.prices)) {
      const n = Number(v.replace(',', '.'));
      if (v.trim() !== '' && Number.isFinite(n) && n >= 0) out[k] = Math.round(n * 100);
    }
    if (!Object.keys(out).length) return null;
    return { admission: { currency: d.currency.trim().toUpperCase() || undefined, ...out } };
  }
  if (group === 'accessibility') {
    if (!d.value) return null;
    return { accessibility: { fact: d.fact, value: d.value, ...(d.note.trim() ? { note: d.note.trim() } : {}) } };
  }
  const c: Record<string, string> = {};
  if (d.phone.trim()) c.phone = d.phone.trim();
  if (d.website.trim()) c.website = d.website.trim();
  return Object.keys(c).length ? { contact: c } : null;
}

export function FactCorrectionFields({ group, draft, onChange }: { group: FactGroup; draft: CorrectionDraft; onChange: (d: CorrectionDraft) => void }) {
  const { t } = useTranslation('museums');
  const set = (patch: Partial<CorrectionDraft>) => onChange({ ...draft, ...patch });
  if (group === 'hours') {
    return (
      <fieldset className="mz-correction" data-testid="correction-hours">
        <legend className="label is-small">{t('fresh.fix.hoursLegend')}</legend>
        <div className="control">
          <label className="radio mr-3">
            <input type="radio" name="mz-fix-hours" value="closed" checked={draft.hoursMode === 'closed'} onChange={() => set({ hoursMode: 'closed' })} /> {t('fresh.fix.closedToday')}
          </label>
          <label className="radio">
            <input type="radio" name="mz-fix-hours" value="open" checked={draft.hoursMode === 'open'} onChange={() => set({ hoursMode: 'open' })} /> {t('fresh.fix.otherHours')}
          </label>
        </div>
        {draft.hoursMode === 'open' && (
          <div className="columns is-mobile mt-1">
            <div className="column">
              <label className="label is-small" htmlFor="mz-fix-open">
                {t('fresh.fix.opens')}
              </label>
              <input id="mz-fix-open" className="input is-small" type="time" required value={draft.openTime} onChange={(e) => set({ openTime: e.target.value })} />
            </div>
            <div className="column">
              <label className="label is-small" htmlFor="mz-fix-close">
                {t('fresh.fix.closes')}
              </label>
              <input id="mz-fix-close" className="input is-small" type="time" required value={draft.closeTime} onChange={(e) => set({ closeTime: e.target.value })} />
            </div>
          </div>
        )}
      </fieldset>
    );
  }
  if (group === 'admission') {
    return (
      <fieldset className="mz-correction" data-testid="correction-admission">
        <legend className="label is-small">{t('fresh.fix.pricesLegend', { currency: draft.currency })}</legend>
        <div className="columns is-mobile is-multiline">
          {(['adult', 'reduced', 'child', 'member'] as const).map((k) => (
            <div className="column is-half" key={k}>
              <label className="label is-small" htmlFor={`mz-fix-price-${k}`}>
                {t(`admission.visitor.${k}`)}
              </label>
              <input id={`mz-fix-price-${k}`} className="input is-small" inputMode="decimal" pattern="[0-9]+([.,][0-9]{1,2})?" value={draft.prices[k]} onChange={(e) => set({ prices: { ...draft.prices, [k]: e.target.value } })} />
            </div>
          ))}
        </div>
      </fieldset>
    );
  }
  if (group === 'accessibility') {
    return (
      <fieldset className="mz-correction" data-testid="correction-accessibility">
        <legend className="label is-small">{t('fresh.fix.accessLegend')}</legend>
        <div className="columns is-mobile is-multiline">
          <div className="column is-full-mobile">
            <label className="label is-small" htmlFor="mz-fix-fact">
              {t('fresh.fix.fact')}
            </label>
            <div className="select is-small is-fullwidth">
              <select id="mz-fix-fact" value={draft.fact} onChange={(e) => set({ fact: e.target.value as AccessKey })}>
                {ACCESS_KEYS.map((k) => (
                  <option key={k} value={k}>
                    {t(`access.facts.${k}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="column is-full-mobile">
            <label className="label is-small" htmlFor="mz-fix-value">
              {t('fresh.fix.value')}
            </label>
            <AccessValueSelect id="mz-fix-value" value={draft.value} onChange={(v) => set({ value: v })} placeholder={t('fresh.fix.choose')} />
          </div>
        </div>
      </fieldset>
    );
  }
  return (
    <fieldset className="mz-correction" data-testid="correction-contact">
      <legend className="label is-small">{t('fresh.fix.contactLegend')}</legend>
      <label className="label is-small" htmlFor="mz-fix-phone">
        {t('fields.phone')}
      </label>
      <input id="mz-fix-phone" className="input is-small" type="tel" maxLength={50} value={draft.phone} onChange={(e) => set({ phone: e.target.value })} />
      <label className="label is-small mt-2" htmlFor="mz-fix-website">
        {t('fresh.fix.website')}
      </label>
      <input id="mz-fix-website" className="input is-small" type="url" maxLength={2000} placeholder="https://" value={draft.website} onChange={(e) => set({ website: e.target.value })} />
    </fieldset>
  );
}
