import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, Icon, toast, useTranslation } from '../../../../web/src/index.ts';
import type { PlanStop } from '../../../../web/src/api/generated/plans.ts';
import { formatClock, formatDistance, formatStopTime, warningText } from '../lib.ts';

interface Props {
  stop: PlanStop;
  index: number;
  count: number;
  editable: boolean;
  onTimes: (body: { arrival?: string; durationMinutes?: number }) => Promise<unknown>;
  onMove: (dir: -1 | 1) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}

/** One stop: its times, the walk from the previous stop, its warnings or "open for your whole visit", free entry. */
export function StopItem({ stop: s, index, count, editable, onTimes, onMove, onRemove }: Props) {
  const { t, i18n } = useTranslation('plans');
  const lang = i18n.language;
  const id = useId();
  const [arrival, setArrival] = useState(s.arrival);
  const [duration, setDuration] = useState(String(s.durationMinutes));
  const [busy, setBusy] = useState(false);
  useEffect(() => setArrival(s.arrival), [s.arrival]);
  useEffect(() => setDuration(String(s.durationMinutes)), [s.durationMinutes]);
  const name = s.event?.title ?? s.museum?.name ?? (s.museumId === null ? t('stop.eventMissing') : t('stop.missing'));
  const isEvent = s.event !== null || s.museumId === null;
  const eventHref = s.event ? `/${s.event.kind === 'meetup' ? 'meetups' : 'events'}/${s.event.id}` : null;
  const tz = s.museum?.timezone ?? 'UTC';
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      toast({
        title: t('toast.error'),
        description: e instanceof ApiError ? e.message : undefined,
        variant: 'error',
      });
      setArrival(s.arrival);
      setDuration(String(s.durationMinutes));
    } finally {
      setBusy(false);
    }
  };
  const commitTimes = () => {
    const d = Number(duration);
    const body: { arrival?: string; durationMinutes?: number } = {};
    if (/^\d{2}:\d{2}$/.test(arrival) && arrival !== s.arrival) body.arrival = arrival;
    if (Number.isInteger(d) && d !== s.durationMinutes) body.durationMinutes = d;
    if (Object.keys(body).length) void run(() => onTimes(body));
  };
  return (
    <li className="plans-stop" data-testid="plan-stop" data-museum-id={s.museumId}>
      {s.walk && (
        <p className="plans-walk" data-testid="plan-walk">
          <Icon name="map" size={14} />{' '}
          {t('stop.walk', {
            minutes: s.walk.minutes,
            distance: formatDistance(s.walk.distanceMeters, lang),
          })}
        </p>
      )}
      <article className="box" aria-labelledby={`${id}-n`}>
        <div className="plans-stop__head">
          <h3 className="plans-stop__name" id={`${id}-n`}>
            {index + 1}. {eventHref ? <Link to={eventHref}>{name}</Link> : s.museum ? <Link to={`/museum/${s.museum.slug}`}>{s.museum.name}</Link> : name}
            {s.event ? (
              <span className="has-text-grey-dark has-text-weight-normal">
                {' '}
                · {[s.event.kind === 'meetup' ? t('stop.meetup') : t('stop.event'), s.museum?.name ?? s.event.location].filter(Boolean).join(' · ')}
              </span>
            ) : (
              s.museum?.city && <span className="has-text-grey-dark has-text-weight-normal"> · {s.museum.city}</span>
            )}
          </h3>
          <span>
            {t('stop.time', {
              start: formatStopTime(s.startsAt, tz, lang),
              end: formatStopTime(s.endsAt, tz, lang),
            })}
          </span>
        </div>
        {s.free.applies && (
          <p className="mt-2">
            <span className="tag is-success is-light" data-testid="stop-free">
              {s.free.note ? t('stop.freeNote', { note: s.free.note }) : t('stop.free')}
            </span>
          </p>
        )}
        {s.warnings.length > 0 ? (
          <ul className="plans-stop__warnings" aria-label={t('warning.label')} data-testid="stop-warnings">
            {s.warnings.map((w) => (
              <li key={w} data-warning={w}>
                {warningText(t, w, s, lang)}
              </li>
            ))}
          </ul>
        ) : isEvent ? null : (
          <p className="plans-stop__ok" data-testid="stop-ok">
            {t('stop.ok')}
            {s.opensAt && s.closesAt && (
              <>
                {' '}
                ·{' '}
                {t('stop.hoursThatDay', {
                  open: formatClock(s.opensAt, lang),
                  close: formatClock(s.closesAt, lang),
                })}
              </>
            )}
          </p>
        )}
        {editable && (
          <div className="plans-stop__times">
            {!isEvent && (
              <>
                <div className="field">
                  <label className="label is-small" htmlFor={`${id}-a`}>
                    {t('stop.arrival', { name })}
                  </label>
                  <input
                    id={`${id}-a`}
                    className="input is-small"
                    type="time"
                    value={arrival}
                    required
                    onChange={(e) => setArrival(e.target.value)}
                    onBlur={commitTimes}
                    data-testid="stop-arrival"
                  />
                </div>
                <div className="field">
                  <label className="label is-small" htmlFor={`${id}-d`}>
                    {t('stop.duration', { name })}
                  </label>
                  <input
                    id={`${id}-d`}
                    className="input is-small"
                    type="number"
                    min={15}
                    max={720}
                    step={15}
                    value={duration}
                    onChange={(e) => setDuration(e.target.value)}
                    onBlur={commitTimes}
                    data-testid="stop-duration"
                  />
                </div>
              </>
            )}
            <div className="buttons are-small">
              <button type="button" className="button" disabled={busy || index === 0} onClick={() => run(() => onMove(-1))} aria-label={t('stop.up', { name })}>
                ↑
              </button>
              <button type="button" className="button" disabled={busy || index === count - 1} onClick={() => run(() => onMove(1))} aria-label={t('stop.down', { name })}>
                ↓
              </button>
              <button type="button" className="button is-danger is-light" disabled={busy} onClick={() => run(onRemove)} aria-label={t('stop.remove', { name })}>
                <Icon name="trash" size={14} />
              </button>
            </div>
          </div>
        )}
      </article>
    </li>
  );
}
