/**
 * Accessibility facts (Wheelmap style): each yes / limited / no / unknown with an optional note.
 * "unknown" is not "no": a fact nobody has reported stays unknown. Isomorphic.
 */
export const ACCESS_KEYS = [
  'stepFreeEntrance',
  'accessibleToilets',
  'wheelchairLoan',
  'liftsAllFloors',
  'seating',
  'quietHours',
  'audioDescription',
  'signLanguageTours',
  'largePrintGuides',
  'assistanceDogs',
] as const;
export type AccessKey = (typeof ACCESS_KEYS)[number];
export type AccessValue = 'yes' | 'limited' | 'no' | 'unknown';
export const ACCESS_VALUES: readonly AccessValue[] = ['yes', 'limited', 'no', 'unknown'];
export interface AccessFact {
  value: AccessValue;
  note?: string;
  /** A stored photo of the fact (e.g. the step-free entrance): an /uploads URL under ACCESS_PHOTO_PREFIX. */
  photo?: string;
}
/** Storage key prefix of accessibility photos (the storage sweep keeps those a museum or a pending suggestion names). */
export const ACCESS_PHOTO_PREFIX = 'museums/accessibility';
/** Only our own stored photos are kept: /uploads/museums/accessibility/<random>.jpg. */
export const isAccessPhotoUrl = (v: unknown): v is string => typeof v === 'string' && /^\/uploads\/museums\/accessibility\/[a-z0-9][a-z0-9/_-]*\.jpg$/i.test(v) && !v.includes('..');
export type Accessibility = Record<AccessKey, AccessFact>;

export const isAccessKey = (k: unknown): k is AccessKey => typeof k === 'string' && (ACCESS_KEYS as readonly string[]).includes(k);

/** Every key present; unknown values and missing keys → unknown; notes trimmed (≤ 300 characters); a photo kept only when it is one of ours. */
export function normalizeAccessibility(v: unknown): Accessibility {
  const src = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const out = {} as Accessibility;
  for (const k of ACCESS_KEYS) {
    const f = src[k] as Record<string, unknown> | undefined;
    const value = f && (ACCESS_VALUES as readonly unknown[]).includes(f.value) ? (f.value as AccessValue) : 'unknown';
    const note = f && typeof f.note === 'string' ? f.note.trim().slice(0, 300) : '';
    const fact: AccessFact = note ? { value, note } : { value };
    if (f && isAccessPhotoUrl(f.photo)) fact.photo = f.photo;
    out[k] = fact;
  }
  return out;
}

/** Whether any fact is known (the museum page hides an all-unknown block behind one line). */
export const anyKnown = (a: Accessibility) => ACCESS_KEYS.some((k) => a[k].value !== 'unknown');
