/**
 * Best time to visit (issue 20): an hour-by-hour view of one weekday (today at the museum by
 * default) from Curio's verified check-ins, each hour relative to the museum's busiest hour of the
 * week. Drawn as bars (decorative SVG) with the same numbers in a table for screen readers; hidden
 * behind a short line until the museum has enough check-ins (busyMinCheckIns).
 */
import { useId, useMemo, useState } from "react";
import { useApi, useTranslation } from "../../../../web/src/index.ts";
import { localDateTime } from "../../shared/opening-hours.ts";
import { busyLevel } from "../../shared/busy.ts";

interface BusyTimes {
  total: number;
  minimum: number;
  histogram: number[][] | null;
  relative: number[][] | null;
  now: "quiet" | "average" | "busy" | null;
}

const DAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
// 2024-01-01 was a Monday: weekday names and hours in the viewer's locale through Intl
const weekdayName = (i: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(2024, 0, 1 + i)),
  );
const hourName = (h: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { hour: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(2024, 0, 1, h)),
  );

export function BestTimeToVisit({
  museumId,
  timeZone,
}: {
  museumId: number;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation("museums");
  const locale = i18n.language || "en";
  const id = useId();
  const here = useMemo(() => localDateTime(new Date(), timeZone), [timeZone]);
  const today = DAYS.indexOf(here.weekday);
  const [day, setDay] = useState(today);
  const q = useApi<BusyTimes>(`/api/museums/${museumId}/busy-times`, {
    shouldRetryOnError: false,
  });

  if (q.error)
    return (
      <p className="has-text-danger" role="alert">
        {t("bestTime.error")}
      </p>
    );
  if (!q.data)
    return (
      <p className="has-text-grey" aria-busy="true">
        {t("bestTime.loading")}
      </p>
    );
  const { relative, total, minimum } = q.data;
  if (!relative)
    return (
      <p className="has-text-grey" data-testid="best-time-empty">
        {t("bestTime.notEnough", { count: total, minimum })}
      </p>
    );

  const hours = relative[day];
  const peak = Math.max(...hours);
  const busiestHour = hours.indexOf(peak);
  const nowHour = Math.floor(here.minutes / 60);
  const summary = peak
    ? t("bestTime.summary", {
        day: weekdayName(day, locale),
        hour: hourName(busiestHour, locale),
      })
    : t("bestTime.noVisits", { day: weekdayName(day, locale) });
  const W = 24 * 10;
  const H = 80;
  return (
    <div className="mz-besttime" data-testid="best-time">
      <div className="field">
        <label className="label is-small" htmlFor={`${id}-day`}>
          {t("bestTime.day")}
        </label>
        <div className="select is-small">
          <select
            id={`${id}-day`}
            value={day}
            onChange={(e) => setDay(Number(e.target.value))}
            data-testid="best-time-day"
          >
            {DAYS.map((d, i) => (
              <option key={d} value={i}>
                {weekdayName(i, locale)}
                {i === today ? ` (${t("bestTime.today")})` : ""}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="help mb-2" id={`${id}-summary`} aria-live="polite">
        {summary}
      </p>
      <svg
        className="mz-besttime__chart"
        viewBox={`0 0 ${W} ${H + 14}`}
        width="100%"
        aria-hidden="true"
        focusable="false"
      >
        {hours.map((v, h) => {
          const bh = Math.max(v ? 2 : 0, (v / 100) * H);
          const isNow = day === today && h === nowHour;
          return (
            <rect
              key={h}
              x={h * 10 + 1}
              y={H - bh}
              width={8}
              height={bh}
              rx={1.5}
              className={`mz-besttime__bar is-${busyLevel(v / 100)}${isNow ? " is-now" : ""}`}
              data-hour={h}
              data-value={v}
            />
          );
        })}
        <line
          x1={0}
          x2={W}
          y1={H + 0.5}
          y2={H + 0.5}
          className="mz-besttime__axis"
        />
        {[0, 6, 12, 18].map((h) => (
          <text
            key={h}
            x={h * 10 + 1}
            y={H + 12}
            className="mz-besttime__label"
          >
            {hourName(h, locale)}
          </text>
        ))}
      </svg>
      {/* the wrapper clips the table: a table is never narrower than its content */}
      <div className="is-sr-only">
        <table data-testid="best-time-table">
          <caption>
            {t("bestTime.caption", { day: weekdayName(day, locale) })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("bestTime.hour")}</th>
              <th scope="col">{t("bestTime.relative")}</th>
            </tr>
          </thead>
          <tbody>
            {hours.map((v, h) => (
              <tr key={h}>
                <th scope="row">{hourName(h, locale)}</th>
                <td>{t("bestTime.percent", { percent: v })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="help">{t("bestTime.basis", { count: total })}</p>
    </div>
  );
}
