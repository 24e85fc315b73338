import { useId, useState } from 'react';
import { Icon, Tabs, TabPanel, useTranslation } from '../../../../web/src/index.ts';
import { DAY_KEYS, type DayEntry, type DayKey, type Season, type StructuredHours, type WeeklyHours } from '../../shared/catalog.ts';
import { TIME_CHOICES, closedWeek, newSeason } from '../../shared/opening-hours.ts';
import { formatTime } from '../lib.ts';

const SEASON_DATE = /^(?:\d{4}-)?(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Problems of the seasonal schedules, per season index (empty when all are fine). */
export function seasonErrors(hours: StructuredHours): Record<number, 'name' | 'dates'> {
  const out: Record<number, 'name' | 'dates'> = {};
  (hours.seasonalHours ?? []).forEach((s, i) => {
    const bothYears = /^\d{4}-/.test(s.startDate) === /^\d{4}-/.test(s.endDate);
    if (!s.name.trim()) out[i] = 'name';
    else if (!SEASON_DATE.test(s.startDate) || !SEASON_DATE.test(s.endDate) || !bothYears) out[i] = 'dates';
  });
  return out;
}

function WeekEditor({ week, onChange, idPrefix }: { week: WeeklyHours; onChange: (w: WeeklyHours) => void; idPrefix: string }) {
  const { t, i18n } = useTranslation('museums');
  const lang = i18n.language || 'en';
  const set = (day: DayKey, e: DayEntry) => onChange({ ...week, [day]: e });
  const options = (current?: string) => {
    const list = [...TIME_CHOICES];
    if (current && !list.includes(current)) list.push(current);
    return list.sort();
  };
  return (
    <div className="mz-week">
      {DAY_KEYS.map((day) => {
        const e = week[day];
        const dayName = t(`days.${day}`);
        const status = !e.isOpen ? 'closed' : e.isByAppointment ? 'appointment' : 'open';
        return (
          <div className="mz-week__row" key={day} data-day={day}>
            <span className="mz-week__day">{dayName}</span>
            <div className="select is-small">
              <select
                aria-label={t('hoursEditor.status', { day: dayName })}
                value={status}
                onChange={(ev) => {
                  const v = ev.target.value;
                  // Closed also clears the by-appointment flag.
                  if (v === 'closed') set(day, { isOpen: false, isByAppointment: false });
                  else if (v === 'appointment') set(day, { isOpen: true, isByAppointment: true });
                  else set(day, { isOpen: true, isByAppointment: false, openTime: e.openTime ?? '09:00', closeTime: e.closeTime ?? '17:00' });
                }}
              >
                <option value="closed">{t('hoursEditor.closed')}</option>
                <option value="open">{t('hoursEditor.open')}</option>
                <option value="appointment">{t('hoursEditor.byAppointment')}</option>
              </select>
            </div>
            {status === 'open' && (
              <span className="mz-week__times">
                <span className="select is-small">
                  <select
                    aria-label={t('hoursEditor.openTimeOf', { day: dayName })}
                    value={e.openTime}
                    onChange={(ev) => set(day, { ...e, openTime: ev.target.value })}
                    id={`${idPrefix}-${day}-open`}
                  >
                    {options(e.openTime).map((x) => (
                      <option key={x} value={x}>
                        {formatTime(x, lang)}
                      </option>
                    ))}
                  </select>
                </span>
                <span aria-hidden="true">–</span>
                <span className="select is-small">
                  <select aria-label={t('hoursEditor.closeTimeOf', { day: dayName })} value={e.closeTime} onChange={(ev) => set(day, { ...e, closeTime: ev.target.value })}>
                    {options(e.closeTime).map((x) => (
                      <option key={x} value={x}>
                        {formatTime(x, lang)}
                      </option>
                    ))}
                  </select>
                </span>
              </span>
            )}
            {status === 'appointment' && <span className="tag is-info is-light">{t('hoursEditor.byAppointmentOnly')}</span>}
            {status === 'closed' && <span className="tag is-light">{t('hoursEditor.closed')}</span>}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The business-hours editor: Default Hours and Seasonal Hours (with a count) tabs, Monday first;
 * each day closed (default), open with times from the 30-minute choices (12-hour labels in
 * English), or by appointment. Seasons are added as "New Season" with empty dates and every day
 * closed, and can be removed. The value lives in the dialog's form ("saved automatically").
 */
export function BusinessHoursEditor({ value, onChange, showErrors }: { value: StructuredHours; onChange: (v: StructuredHours) => void; showErrors?: boolean }) {
  const { t } = useTranslation('museums');
  const [tab, setTab] = useState('default');
  const prefix = useId();
  const seasons = value.seasonalHours ?? [];
  const errors = showErrors ? seasonErrors(value) : {};
  const setSeason = (i: number, s: Season) => onChange({ ...value, seasonalHours: seasons.map((x, j) => (j === i ? s : x)) });
  return (
    <fieldset className="mz-hours-editor">
      <legend className="label">{t('hoursEditor.title')}</legend>
      <p className="help mb-2">{t('hoursEditor.autosave')}</p>
      <Tabs
        idPrefix={prefix}
        active={tab}
        onChange={setTab}
        label={t('hoursEditor.title')}
        tabs={[
          { id: 'default', label: t('hoursEditor.defaultHours') },
          { id: 'seasonal', label: t('hoursEditor.seasonalHours'), count: seasons.length },
        ]}
      />
      <TabPanel idPrefix={prefix} id="default" active={tab}>
        <WeekEditor idPrefix={`${prefix}-d`} week={value.defaultHours} onChange={(w) => onChange({ ...value, defaultHours: w })} />
      </TabPanel>
      <TabPanel idPrefix={prefix} id="seasonal" active={tab}>
        {!seasons.length && <p className="has-text-grey mb-3">{t('hoursEditor.noSeasons')}</p>}
        {seasons.map((s, i) => (
          <div className="mz-season box" key={i} data-season={i}>
            <div className="mz-season__head">
              <div className="field">
                <label className="label is-small" htmlFor={`${prefix}-s${i}-name`}>
                  {t('hoursEditor.seasonName')}
                </label>
                <input id={`${prefix}-s${i}-name`} className={`input is-small${errors[i] === 'name' ? ' is-danger' : ''}`} value={s.name} maxLength={100} onChange={(e) => setSeason(i, { ...s, name: e.target.value })} />
              </div>
              <div className="field">
                <label className="label is-small" htmlFor={`${prefix}-s${i}-start`}>
                  {t('hoursEditor.startDate')}
                </label>
                <input id={`${prefix}-s${i}-start`} className={`input is-small${errors[i] === 'dates' ? ' is-danger' : ''}`} placeholder="MM-DD" value={s.startDate} maxLength={10} onChange={(e) => setSeason(i, { ...s, startDate: e.target.value.trim() })} />
              </div>
              <div className="field">
                <label className="label is-small" htmlFor={`${prefix}-s${i}-end`}>
                  {t('hoursEditor.endDate')}
                </label>
                <input id={`${prefix}-s${i}-end`} className={`input is-small${errors[i] === 'dates' ? ' is-danger' : ''}`} placeholder="MM-DD" value={s.endDate} maxLength={10} onChange={(e) => setSeason(i, { ...s, endDate: e.target.value.trim() })} />
              </div>
              <button type="button" className="button is-small is-danger is-light" onClick={() => onChange({ ...value, seasonalHours: seasons.filter((_, j) => j !== i) })}>
                <Icon name="trash" size={14} />
                <span>{t('hoursEditor.removeSeason')}</span>
              </button>
            </div>
            <p className={`help ${errors[i] ? 'is-danger' : ''}`}>{errors[i] === 'name' ? t('hoursEditor.seasonNameRequired') : errors[i] === 'dates' ? t('hoursEditor.datesInvalid') : t('hoursEditor.datesHelp')}</p>
            <WeekEditor idPrefix={`${prefix}-s${i}`} week={s.hours} onChange={(w) => setSeason(i, { ...s, hours: w })} />
          </div>
        ))}
        <button
          type="button"
          className="button is-small is-link is-light"
          onClick={() => onChange({ ...value, seasonalHours: [...seasons, { ...newSeason(), name: t('hoursEditor.newSeason'), hours: closedWeek() }] })}
        >
          <Icon name="plus" size={14} />
          <span>{t('hoursEditor.addSeason')}</span>
        </button>
      </TabPanel>
    </fieldset>
  );
}
