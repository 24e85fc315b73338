import { useTranslation } from '../../../../web/src/index.ts';
import { formatPrice, type Admission, type FreeRule } from '../../shared/admission.ts';
import { formatLocalDate, formatTime } from '../lib.ts';

/** A free-entry rule in the viewer's language: "Free on the first Sunday of the month, 17:00 – 21:00". */
export function useRuleText() {
  const { t, i18n } = useTranslation('museums');
  const lang = i18n.language || 'en';
  return (r: FreeRule): string => {
    const day = r.weekday ? t(`days.${r.weekday}`) : '';
    let text: string;
    if (r.kind === 'always') text = t('admission.rules.always');
    else if (r.kind === 'weekly') text = t('admission.rules.weekly', { day });
    else if (r.kind === 'nthWeekday') text = t('admission.rules.nthWeekday', { nth: t(`admission.nth.${r.nth === -1 ? 'last' : r.nth}`), day });
    else if (r.kind === 'age') text = t('admission.rules.age', { age: r.maxAge });
    else text = t('admission.rules.dateRange', { from: r.startDate ? formatLocalDate(r.startDate, lang) : '', to: r.endDate ? formatLocalDate(r.endDate, lang) : '' });
    if (r.from || r.to) text += `, ${t('hours.timeRange', { open: formatTime(r.from ?? '00:00', lang), close: formatTime(r.to ?? '00:00', lang) })}`;
    return r.note ? `${text} (${r.note})` : text;
  };
}

/** The museum page's Admission box: prices per visitor type and free-entry rules. */
export function AdmissionBlock({ admission }: { admission: Admission | null }) {
  const { t, i18n } = useTranslation('museums');
  const lang = i18n.language || 'en';
  const ruleText = useRuleText();
  if (!admission || (!admission.prices.length && !admission.freeRules.length)) return <p className="has-text-grey">{t('admission.none')}</p>;
  return (
    <div data-testid="admission">
      {admission.prices.length > 0 && (
        <table className="table is-fullwidth is-narrow">
          <tbody>
            {admission.prices.map((p) => (
              <tr key={p.visitorType} data-visitor={p.visitorType}>
                <th scope="row">{t(`admission.visitor.${p.visitorType}`)}</th>
                <td>{p.cents === 0 ? t('admission.free') : formatPrice(p.cents, admission.currency, lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admission.freeRules.length > 0 && (
        <ul className="mz-free-rules">
          {admission.freeRules.map((r, i) => (
            <li key={i}>{ruleText(r)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
