import { useTranslation } from '../../../../web/src/index.ts';
import { ACCESS_KEYS, ACCESS_VALUES, anyKnown, type Accessibility, type AccessKey, type AccessValue } from '../../shared/accessibility.ts';

const MARK: Record<AccessValue, string> = { yes: '✓', limited: '◐', no: '✕', unknown: '?' };

/** The museum page's Accessibility box: every fact with yes / limited / no / unknown and its note. */
export function AccessibilityBlock({ accessibility }: { accessibility: Accessibility }) {
  const { t } = useTranslation('museums');
  if (!anyKnown(accessibility)) return <p className="has-text-grey">{t('access.noneKnown')}</p>;
  return (
    <dl className="mz-access" data-testid="accessibility">
      {ACCESS_KEYS.map((k) => {
        const f = accessibility[k];
        return (
          <div className="mz-access__row" key={k} data-fact={k} data-value={f.value}>
            <dt>{t(`access.facts.${k}`)}</dt>
            <dd>
              <span className={`mz-access__value is-${f.value}`}>
                <span aria-hidden="true">{MARK[f.value]} </span>
                {t(`access.values.${f.value}`)}
              </span>
              {f.note && <span className="mz-access__note">{f.note}</span>}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The edit and suggestion dialogs' part: one choice and one note per fact. */
export function AccessibilityEditor({ value, onChange }: { value: Accessibility; onChange: (v: Accessibility) => void }) {
  const { t } = useTranslation('museums');
  const set = (k: AccessKey, patch: Partial<Accessibility[AccessKey]>) => {
    const next = { ...value[k], ...patch };
    if (!next.note) delete next.note;
    onChange({ ...value, [k]: next });
  };
  return (
    <fieldset className="mt-4" data-testid="accessibility-editor">
      <legend className="title is-6 mb-2">{t('access.title')}</legend>
      <p className="help mb-2">{t('access.editIntro')}</p>
      {ACCESS_KEYS.map((k) => (
        <div className="columns is-mobile is-multiline mb-0" key={k} data-fact={k}>
          <div className="column is-full-mobile is-5">
            <label className="label is-small" htmlFor={`mz-access-${k}`}>
              {t(`access.facts.${k}`)}
            </label>
            <div className="select is-small is-fullwidth">
              <select id={`mz-access-${k}`} value={value[k].value} onChange={(e) => set(k, { value: e.target.value as AccessValue })}>
                {ACCESS_VALUES.map((v) => (
                  <option key={v} value={v}>
                    {t(`access.values.${v}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="column is-full-mobile is-7">
            <label className="label is-small" htmlFor={`mz-access-${k}-note`}>
              {t('access.noteLabel')}
            </label>
            <input id={`mz-access-${k}-note`} className="input is-small" maxLength={300} value={value[k].note ?? ''} onChange={(e) => set(k, { note: e.target.value })} />
          </div>
        </div>
      ))}
    </fieldset>
  );
}
