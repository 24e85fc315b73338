/**
 * Distances in the viewer's unit: kilometres, unless the viewer's locale uses miles (the United
 * States, the United Kingdom, Liberia, Myanmar). The API answers miles (earth radius 3959); the web
 * pages convert and format with `Intl.NumberFormat(locale, { style: 'unit' })`.
 */
export const KM_PER_MILE = 1.609344;
export type DistanceUnit = 'kilometer' | 'mile';

const MILE_REGIONS = new Set(['US', 'GB', 'LR', 'MM']);

/** The region of a language tag ("en-GB" → GB), or the likeliest one ("en" → US, "fr" → FR). */
function regionOf(locale: string): string | undefined {
  try {
    const l = new Intl.Locale(locale);
    return l.region ?? l.maximize().region;
  } catch {
    return undefined;
  }
}

/** Miles where the locale's region uses them, kilometres everywhere else. */
export function distanceUnit(locale: string): DistanceUnit {
  const region = regionOf(locale || 'en');
  return region && MILE_REGIONS.has(region) ? 'mile' : 'kilometer';
}

/** A distance given in miles, in the viewer's unit: "2.3 mi" (en), "3,7 km" (fr). */
export function formatDistance(miles: number, locale: string): string {
  const unit = distanceUnit(locale);
  const value = unit === 'mile' ? miles : miles * KM_PER_MILE;
  return new Intl.NumberFormat(locale || 'en', { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

/** A radius choice ("10 km", "25 mi") in the viewer's language. */
export function formatRadius(value: number, unit: 'km' | 'mi', locale: string): string {
  return new Intl.NumberFormat(locale || 'en', { style: 'unit', unit: unit === 'km' ? 'kilometer' : 'mile', unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}
