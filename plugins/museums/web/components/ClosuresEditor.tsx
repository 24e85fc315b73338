/**
 * Closures, special hours and the public-holiday rule of the edit and suggestion dialogs. Each
 * form is a SchemaForm rendered from its schema (museums/HoursException, museums/HolidayPolicy),
 * validated in the browser with the server's rules; the list and the rule live in the dialog's
 * opening hours and are sent with them.
 */
import { SchemaForm, useTranslation } from '../../../../web/src/index.ts';
import type { HolidayPolicy, HoursException, StructuredHours } from '../../shared/catalog.ts';
import holidayPolicySchema from '../../schemas/holiday-policy.schema.json';
import hoursExceptionSchema from '../../schemas/hours-exception.schema.json';
import { formatLocalDate, formatTime } from '../lib.ts';

/** `guess`: the holiday calendar guessed from the museum's address (Museum.holidayRegion when guessed), the form's default country. */
export function ClosuresEditor({ value, onChange, guess }: { value: StructuredHours; onChange: (v: StructuredHours) => void; guess?: { country: string; region?: string } | null }) {
  const { t, i18n } = useTranslation('museums');
  const lang = i18n.language || 'en';
  const list = value.exceptions ?? [];
  const policy = value.publicHolidays ?? null;

  const describe = (e: HoursException) => {
    const end = e.endDate && e.endDate !== e.startDate ? e.endDate : null;
    const dates = end ? t('closures.range', { from: formatLocalDate(e.startDate, lang), to: formatLocalDate(end, lang) }) : formatLocalDate(e.startDate, lang);
    const hours = e.closed ? t('closures.closed') : t('hours.timeRange', { open: formatTime(e.openTime, lang), close: formatTime(e.closeTime, lang) });
    return { dates, hours };
  };
  const where = (p: HolidayPolicy) => (p.country ? `${p.country}${p.region ? `-${p.region}` : ''}` : guess ? t('closures.holidaysGuessedShort', { code: `${guess.country}${guess.region ? `-${guess.region}` : ''}` }) : t('closures.holidaysUnknown'));
  const policyText = (p: HolidayPolicy) =>
    `${where(p)}: ${
      p.mode === 'hours' ? t('hours.timeRange', { open: formatTime(p.openTime, lang), close: formatTime(p.closeTime, lang) }) : t(`closures.modes.${p.mode}`)
    }`;

  return (
    <section className="mt-4" aria-labelledby="mz-closures-title" data-testid="closures-editor">
      <h3 className="title is-6" id="mz-closures-title">
        {t('closures.title')}
      </h3>
      <p className="help mb-2">{t('closures.intro')}</p>
      {list.length ? (
        <ul className="mz-closures__list">
          {list.map((e, i) => {
            const d = describe(e);
            return (
              <li className="mz-closures__item" key={`${e.startDate}-${i}`} data-date={e.startDate}>
                <strong>{d.dates}</strong>
                <span>{d.hours}</span>
                {e.note && <span className="has-text-grey">{e.note}</span>}
                <button
                  type="button"
                  className="button is-small is-light"
                  aria-label={t('closures.remove', { what: `${d.dates} ${d.hours}` })}
                  onClick={() => onChange({ ...value, exceptions: list.filter((_, j) => j !== i) })}
                >
                  {t('closures.removeShort')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="has-text-grey mb-2">{t('closures.empty')}</p>
      )}
      <SchemaForm<HoursException>
        schema={hoursExceptionSchema}
        ns="museums"
        id="mz-closure-form"
        initialValues={{ closed: true }}
        submitLabel={t('closures.add')}
        resetOnSuccess
        onSubmit={(e) => {
          const clean: HoursException = { startDate: e.startDate, endDate: e.endDate || e.startDate, closed: e.closed };
          if (!e.closed) Object.assign(clean, { openTime: e.openTime, closeTime: e.closeTime });
          if (e.note?.trim()) clean.note = e.note.trim();
          onChange({ ...value, exceptions: [...list, clean].slice(0, 100) });
        }}
      />

      <h3 className="title is-6 mt-4" id="mz-holidays-title">
        {t('closures.holidaysTitle')}
      </h3>
      <p className="help mb-2">{t('closures.holidaysIntro')}</p>
      {guess && !policy?.country && (
        <p className="help mb-2" data-testid="holiday-guess">
          {t('closures.holidaysGuess', { code: `${guess.country}${guess.region ? `-${guess.region}` : ''}` })}
        </p>
      )}
      <p className="mb-2" data-testid="holiday-rule">
        {policy ? t('closures.holidaysCurrent', { text: policyText(policy) }) : t('closures.holidaysNone')}
        {policy && (
          <button type="button" className="button is-small is-light ml-2" onClick={() => onChange({ ...value, publicHolidays: null })}>
            {t('closures.holidaysRemove')}
          </button>
        )}
      </p>
      <SchemaForm<HolidayPolicy>
        key={policy ? JSON.stringify(policy) : 'none'}
        schema={holidayPolicySchema}
        ns="museums"
        id="mz-holiday-form"
        initialValues={{ ...(policy ?? { mode: 'closed' }), country: policy?.country || guess?.country || '', region: policy?.country ? policy.region : (policy?.region ?? guess?.region) }}
        submitLabel={t('closures.holidaysApply')}
        onSubmit={(p) => {
          const clean: HolidayPolicy = { country: (p.country ?? '').trim().toUpperCase(), mode: p.mode };
          if (p.region?.trim()) clean.region = p.region.trim().toUpperCase();
          if (p.mode === 'hours') Object.assign(clean, { openTime: p.openTime, closeTime: p.closeTime });
          onChange({ ...value, publicHolidays: clean });
        }}
      />
    </section>
  );
}
