/**
 * Structured corrections (issue 20): what a visitor's "no" to "still right?" asks to change,
 * turned into museum edit fields (the same fields the edit and suggestion flows carry), so that
 * the suggestion made from two or more such answers is approved into the museum's data by the
 * existing review (MuseumsDomain.reviewEditSuggestion) in one click.
 */
import { HttpError } from '../../../core/errors.ts';
import type { FactGroup } from '../shared/freshness.ts';
import { normalizeHours } from '../shared/opening-hours.ts';
import { normalizeAdmission, type VisitorType } from '../shared/admission.ts';
import { normalizeAccessibility, type AccessKey, type AccessValue } from '../shared/accessibility.ts';

export interface FactCorrection {
  hours?: { closed: boolean; openTime?: string; closeTime?: string };
  admission?: { currency?: string } & Partial<Record<VisitorType, number>>;
  accessibility?: { fact: AccessKey; value: AccessValue; note?: string };
  contact?: { phone?: string; website?: string };
}

const VISITOR_TYPES: VisitorType[] = ['adult', 'reduced', 'child', 'member'];
const jsonValue = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/**
 * The museum fields a correction asks for, from the museum's stored row. hours: a dated exception
 * for the local date of the visit (first in the list, so it wins; one already there for that date
 * is replaced); admission: the given prices replace those of their visitor type; accessibility:
 * the one fact; contact: phone and/or website. 400 when it is not for the group asked about.
 */
export function correctionToChanges(row: any, group: FactGroup, correction: FactCorrection, localDate: string): Record<string, unknown> {
  const keys = Object.keys(correction ?? {});
  if (keys.length !== 1 || keys[0] !== group) throw new HttpError(400, `The correction must be about the ${group} asked about`);
  if (group === 'hours') {
    const c = correction.hours!;
    const hours = normalizeHours(row.opening_hours == null ? null : jsonValue(row.opening_hours));
    if (!c.closed && (!c.openTime || !c.closeTime)) throw new HttpError(400, 'Please give the opening and closing times');
    if (!c.closed && c.openTime! >= c.closeTime!) throw new HttpError(400, 'The closing time must be after the opening time');
    const exception = c.closed
      ? { startDate: localDate, closed: true, note: 'Reported by visitors' }
      : { startDate: localDate, closed: false, openTime: c.openTime!, closeTime: c.closeTime!, note: 'Reported by visitors' };
    const others = (hours.exceptions ?? []).filter((e) => !(e.startDate === localDate && (!e.endDate || e.endDate === localDate)));
    return { openingHours: { ...hours, exceptions: [exception, ...others] } };
  }
  if (group === 'admission') {
    const c = correction.admission!;
    const current = normalizeAdmission(row.admission == null ? null : jsonValue(row.admission));
    const currency = c.currency ?? current?.currency;
    if (!currency) throw new HttpError(400, 'Please give the currency of the prices');
    const given = VISITOR_TYPES.filter((t) => typeof c[t] === 'number');
    if (!given.length) throw new HttpError(400, 'Please give at least one price');
    const prices = VISITOR_TYPES.flatMap((t) => {
      if (typeof c[t] === 'number') return [{ visitorType: t, cents: c[t]! }];
      const was = current?.prices.find((p) => p.visitorType === t);
      return was ? [was] : [];
    });
    return { admission: { currency, prices, freeRules: current?.freeRules ?? [] } };
  }
  if (group === 'accessibility') {
    const c = correction.accessibility!;
    const current = normalizeAccessibility(jsonValue(row.accessibility));
    const note = c.note?.trim();
    const { photo } = current[c.fact] as { photo?: string };
    return { accessibility: { ...current, [c.fact]: { value: c.value, ...(note ? { note } : {}), ...(photo ? { photo } : {}) } } };
  }
  const c = correction.contact!;
  const out: Record<string, unknown> = {};
  if (typeof c.phone === 'string') out.phone = c.phone.trim();
  if (typeof c.website === 'string') out.website = c.website.trim();
  if (!Object.keys(out).length) throw new HttpError(400, 'Please give the phone number or the website');
  return out;
}

/**
 * The change a suggestion made from several answers carries: the one most answers asked for
 * (the latest answer breaks ties); answers without a structured change do not vote.
 */
export function consensusChanges(answers: Array<{ changes: unknown }>): Record<string, unknown> {
  const votes = new Map<string, { n: number; last: number; value: Record<string, unknown> }>();
  answers.forEach((a, i) => {
    const v = jsonValue(a.changes);
    if (!v || typeof v !== 'object' || !Object.keys(v).length) return;
    const k = JSON.stringify(v);
    const e = votes.get(k) ?? { n: 0, last: i, value: v as Record<string, unknown> };
    e.n += 1;
    e.last = i;
    votes.set(k, e);
  });
  let best: { n: number; last: number; value: Record<string, unknown> } | null = null;
  for (const e of votes.values()) if (!best || e.n > best.n || (e.n === best.n && e.last > best.last)) best = e;
  return best?.value ?? {};
}
