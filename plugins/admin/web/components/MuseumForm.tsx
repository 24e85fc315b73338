import type { ReactNode } from 'react';
import { useTranslation } from '../../../../web/src/index.ts';
import { CATEGORIES } from '../../../museums/shared/catalog.ts';

export interface MuseumFormValues {
  name: string;
  description: string;
  category: string;
  phone: string;
  email: string;
  website: string;
  address: string;
  address2: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  latitude: string;
  longitude: string;
  featuredImage: string;
}

export const EMPTY_MUSEUM: MuseumFormValues = {
  name: '',
  description: '',
  category: 'Art Museums',
  phone: '',
  email: '',
  website: '',
  address: '',
  address2: '',
  city: '',
  state: '',
  zipCode: '',
  country: '',
  latitude: '',
  longitude: '',
  featuredImage: '',
};

export type MuseumErrors = Partial<Record<keyof MuseumFormValues, string>>;

const URL_RE = /^https?:\/\/\S+$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** "12.5" → 12.5, "" → null, anything else non-numeric → 0 (spec part 2 §5). */
export function coordinate(v: string): number | null {
  if (!v.trim()) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** The admin forms' rules (spec part 2 §5), with the spec's messages. `create` adds state, zip code and category. */
export function validateMuseum(v: MuseumFormValues, t: (k: string) => string, create: boolean): MuseumErrors {
  const e: MuseumErrors = {};
  const req = (k: keyof MuseumFormValues, key: string) => {
    if (!v[k].trim()) e[k] = t(`museumForm.errors.${key}`);
  };
  req('name', 'name');
  req('address', 'address');
  req('city', 'city');
  req('country', 'country');
  if (create) {
    req('state', 'state');
    req('zipCode', 'zipCode');
    req('category', 'category');
  }
  if (v.website.trim() && !URL_RE.test(v.website.trim())) e.website = t('museumForm.errors.url');
  if (v.featuredImage.trim() && !URL_RE.test(v.featuredImage.trim())) e.featuredImage = t('museumForm.errors.imageUrl');
  if (v.email.trim() && !EMAIL_RE.test(v.email.trim())) e.email = t('museumForm.errors.email');
  const lat = coordinate(v.latitude);
  const lng = coordinate(v.longitude);
  if (lat !== null && (lat < -90 || lat > 90)) e.latitude = t('museumForm.errors.latitude');
  if (lng !== null && (lng < -180 || lng > 180)) e.longitude = t('museumForm.errors.longitude');
  return e;
}

/** Form values → API fields (blank optional text → null). */
export function museumPayload(v: MuseumFormValues) {
  const opt = (s: string) => (s.trim() ? s.trim() : null);
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    category: v.category || null,
    phone: opt(v.phone),
    email: opt(v.email),
    website: opt(v.website),
    address: v.address.trim(),
    address2: opt(v.address2),
    city: v.city.trim(),
    state: opt(v.state),
    zipCode: opt(v.zipCode),
    country: v.country.trim(),
    latitude: coordinate(v.latitude),
    longitude: coordinate(v.longitude),
    featuredImage: opt(v.featuredImage),
  };
}

function Field({ id, label, error, required, children, help }: { id: string; label: string; error?: string; required?: boolean; children: ReactNode; help?: string }) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <div className="control">{children}</div>
      {help && !error && <p className="help">{help}</p>}
      {error && (
        <p className="help is-danger" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The museum text fields shared by the Add New Museum and Edit Museum dialogs. */
export function MuseumFields({ idPrefix, values, errors, onChange, create }: { idPrefix: string; values: MuseumFormValues; errors: MuseumErrors; onChange: (v: MuseumFormValues) => void; create: boolean }) {
  const { t } = useTranslation('admin');
  const { t: tm } = useTranslation('museums');
  const input = (k: keyof MuseumFormValues, type = 'text', extra: Record<string, unknown> = {}) => (
    <input
      id={`${idPrefix}-${k}`}
      className={`input${errors[k] ? ' is-danger' : ''}`}
      type={type}
      value={values[k]}
      aria-invalid={Boolean(errors[k])}
      aria-describedby={errors[k] ? `${idPrefix}-${k}-error` : undefined}
      onChange={(e) => onChange({ ...values, [k]: e.target.value })}
      {...extra}
    />
  );
  const f = (k: keyof MuseumFormValues, required = false, type = 'text', extra: Record<string, unknown> = {}) => (
    <Field id={`${idPrefix}-${k}`} label={t(`museumForm.${k}`)} error={errors[k]} required={required}>
      {input(k, type, extra)}
    </Field>
  );
  return (
    <div className="admin-museum-form">
      {f('name', true, 'text', { maxLength: 200 })}
      <Field id={`${idPrefix}-description`} label={t('museumForm.description')}>
        <textarea id={`${idPrefix}-description`} className="textarea" rows={3} maxLength={5000} value={values.description} onChange={(e) => onChange({ ...values, description: e.target.value })} />
      </Field>
      <div className="columns is-multiline">
        <div className="column is-half">
          <Field id={`${idPrefix}-category`} label={t('museumForm.category')} error={errors.category} required={create}>
            <div className={`select is-fullwidth${errors.category ? ' is-danger' : ''}`}>
              <select id={`${idPrefix}-category`} value={values.category} onChange={(e) => onChange({ ...values, category: e.target.value })}>
                {!create && <option value="">—</option>}
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {tm(`categories.${c.toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '')}`, { defaultValue: c })}
                  </option>
                ))}
              </select>
            </div>
          </Field>
        </div>
        <div className="column is-half">{f('phone', false, 'tel', { maxLength: 50 })}</div>
        <div className="column is-half">{f('email', false, 'email', { maxLength: 254 })}</div>
        <div className="column is-half">{f('website', false, 'url', { placeholder: 'https://', maxLength: 2000 })}</div>
        <div className="column is-full">{f('address', true, 'text', { maxLength: 300 })}</div>
        <div className="column is-full">{f('address2', false, 'text', { maxLength: 300 })}</div>
        <div className="column is-half">{f('city', true, 'text', { maxLength: 120 })}</div>
        <div className="column is-half">{f('state', create, 'text', { maxLength: 120 })}</div>
        <div className="column is-half">{f('zipCode', create, 'text', { maxLength: 30 })}</div>
        <div className="column is-half">{f('country', true, 'text', { maxLength: 120 })}</div>
        <div className="column is-half">{f('latitude', false, 'number', { step: 'any', min: -90, max: 90 })}</div>
        <div className="column is-half">{f('longitude', false, 'number', { step: 'any', min: -180, max: 180 })}</div>
        <div className="column is-full">{f('featuredImage', false, 'url', { placeholder: 'https://', maxLength: 2000 })}</div>
      </div>
    </div>
  );
}
