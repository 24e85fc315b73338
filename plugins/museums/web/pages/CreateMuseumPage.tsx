import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError, Icon, Page, toast, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { autoPopulateMuseum, createMuseum, geocodeAddress, type CreateMuseumBody } from '../../../../web/src/api/generated/museums.ts';
import { PUBLIC_CATEGORIES } from '../../shared/catalog.ts';
import { museumPath } from '../lib.ts';
import '../museums.css';

interface Form {
  name: string;
  description: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  latitude: string;
  longitude: string;
  website: string;
  phone: string;
  email: string;
  category: string;
  featuredImage: string;
  wikidataId: string;
}

const EMPTY: Form = { name: '', description: '', address: '', city: '', state: '', zipCode: '', country: '', latitude: '', longitude: '', website: '', phone: '', email: '', category: '', featuredImage: '', wikidataId: '' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^https?:\/\/\S+$/;
/** "latitude and longitude numeric (non-numeric becomes 0)" */
const num = (s: string) => {
  const n = Number(s.trim().replace(',', '.'));
  return s.trim() === '' ? null : Number.isFinite(n) ? n : 0;
};

/** /create-museum: the public Create Museum Profile form with Wikidata auto-populate and coordinate lookup. */
export default function CreateMuseumPage() {
  const { t } = useTranslation('museums');
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const create = useMutation((body: CreateMuseumBody) => createMuseum({ body }), { retries: 0 });
  const populate = useMutation((museumName: string) => autoPopulateMuseum({ body: { museumName } }), { retries: 0 });
  const lookup = useMutation((address: string, city: string, country: string) => geocodeAddress({ query: { address, city, ...(country ? { country } : {}) } }), { retries: 0 });
  const set = (k: keyof Form, v: string) => setForm((f) => ({ ...f, [k]: v }));

  async function onAutoPopulate() {
    const name = form.name.trim();
    if (!name) {
      setErrors((e) => ({ ...e, name: t('validation.nameRequired') }));
      return;
    }
    try {
      const r = await populate.trigger(name);
      if (!r.found || !r.data) {
        toast({ title: t('toasts.museumNotFound'), description: t('toasts.museumNotFoundText'), variant: 'destructive' });
        return;
      }
      const d = r.data;
      setForm((f) => ({
        ...f,
        name: d.name || f.name,
        description: d.description || f.description,
        website: d.website || f.website,
        phone: d.phone || f.phone,
        email: d.email || f.email,
        address: d.address || f.address,
        city: d.city || f.city,
        state: d.state || f.state,
        zipCode: d.zipCode || f.zipCode,
        country: d.country || f.country,
        category: d.category && (PUBLIC_CATEGORIES as readonly string[]).includes(d.category) ? d.category : f.category,
        latitude: d.latitude != null ? String(d.latitude) : f.latitude,
        longitude: d.longitude != null ? String(d.longitude) : f.longitude,
        featuredImage: d.featuredImage || f.featuredImage,
        wikidataId: d.wikidataId || '',
      }));
      setErrors({});
      toast({ title: t('toasts.autoPopulated'), description: t('toasts.autoPopulatedText'), variant: 'success' });
    } catch {
      toast({ title: t('toasts.error'), description: t('toasts.autoPopulateFailed'), variant: 'destructive' });
    }
  }

  async function onLookup() {
    if (!form.address.trim() || !form.city.trim()) {
      toast({ title: t('toasts.missingInformation'), description: t('toasts.missingInformationText'), variant: 'destructive' });
      return;
    }
    try {
      const r = await lookup.trigger(form.address.trim(), form.city.trim(), form.country.trim());
      if (!r.found || r.latitude == null || r.longitude == null) {
        toast({ title: t('toasts.addressNotFound'), description: t('toasts.addressNotFoundText'), variant: 'destructive' });
        return;
      }
      setForm((f) => ({ ...f, latitude: String(r.latitude), longitude: String(r.longitude) }));
      toast({ title: t('toasts.coordinatesFound'), description: t('toasts.coordinatesFoundText', { lat: r.latitude.toFixed(5), lng: r.longitude!.toFixed(5) }), variant: 'success' });
    } catch {
      toast({ title: t('toasts.geocodingError'), description: t('toasts.geocodingErrorText'), variant: 'destructive' });
    }
  }

  function validate(): Partial<Record<keyof Form, string>> {
    const e: Partial<Record<keyof Form, string>> = {};
    if (!form.name.trim()) e.name = t('validation.nameRequired');
    if (!form.address.trim()) e.address = t('validation.addressRequired');
    if (!form.city.trim()) e.city = t('validation.cityRequired');
    if (!form.country.trim()) e.country = t('validation.countryRequired');
    if (form.website.trim() && !URL_RE.test(form.website.trim())) e.website = t('validation.invalidUrl');
    if (form.featuredImage.trim() && !URL_RE.test(form.featuredImage.trim())) e.featuredImage = t('validation.invalidImageUrl');
    if (form.email.trim() && !EMAIL.test(form.email.trim())) e.email = t('validation.invalidEmail');
    return e;
  }

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) {
      document.getElementById(`mz-create-${Object.keys(e)[0]}`)?.focus();
      return;
    }
    const lat = num(form.latitude);
    const lng = num(form.longitude);
    const body: CreateMuseumBody = {
      name: form.name.trim(),
      description: form.description.trim(),
      address: form.address.trim(),
      city: form.city.trim(),
      state: form.state.trim(),
      zipCode: form.zipCode.trim(),
      country: form.country.trim(),
      latitude: lat === null || lng === null ? null : Math.max(-90, Math.min(90, lat)),
      longitude: lat === null || lng === null ? null : Math.max(-180, Math.min(180, lng)),
      website: form.website.trim(),
      phone: form.phone.trim(),
      email: form.email.trim(),
      featuredImage: form.featuredImage.trim(),
      ...(form.category ? { category: form.category } : {}),
      ...(form.wikidataId ? { wikidataId: form.wikidataId } : {}),
    };
    try {
      const m = await create.trigger(body);
      toast({ title: t('toasts.created'), description: t('toasts.createdText', { name: m.name }), variant: 'success' });
      navigate(museumPath(m));
    } catch (err) {
      const api = err as ApiError;
      const fe: Partial<Record<keyof Form, string>> = {};
      for (const x of api?.errors ?? []) {
        const k = x.path.split('/').filter(Boolean).pop() as keyof Form | undefined;
        if (k && k in EMPTY && !fe[k]) fe[k] = x.message;
      }
      setErrors(fe);
      toast({ title: t('toasts.error'), description: api?.status === 409 ? api.message : t('toasts.createFailed'), variant: 'destructive' });
    }
  }

  const input = (k: keyof Form, opts: { required?: boolean; type?: string; placeholder?: string; inputMode?: 'decimal'; autoComplete?: string } = {}) => {
    const id = `mz-create-${k}`;
    return (
      <div className="field">
        <label className="label" htmlFor={id}>
          {t(`fields.${k}`)}
          {opts.required && <span className="has-text-danger" aria-hidden="true"> *</span>}
        </label>
        <div className="control">
          <input
            id={id}
            className={`input${errors[k] ? ' is-danger' : ''}`}
            type={opts.type ?? 'text'}
            inputMode={opts.inputMode}
            value={form[k]}
            placeholder={opts.placeholder}
            required={opts.required}
            aria-invalid={!!errors[k]}
            aria-describedby={errors[k] ? `${id}-error` : undefined}
            autoComplete={opts.autoComplete}
            onChange={(e) => set(k, e.target.value)}
          />
        </div>
        {errors[k] && (
          <p className="help is-danger" id={`${id}-error`}>
            {errors[k]}
          </p>
        )}
      </div>
    );
  };

  return (
    <Page title={t('create.title')} subtitle={t('create.subtitle')} width="narrow" className="mz-create">
      <p className="mb-4">
        <Link to="/discover" className="mz-back">
          <Icon name="chevron-left" size={16} /> {t('create.back')}
        </Link>
      </p>
      <form onSubmit={onSubmit} noValidate className="box">
        <h2 className="title is-6">{t('create.basics')}</h2>
        {input('name', { required: true })}
        <div className="field">
          <button type="button" className={`button is-link is-light${populate.isPending ? ' is-loading' : ''}`} onClick={() => void onAutoPopulate()} disabled={populate.isPending} data-testid="auto-populate">
            <Icon name="refresh" size={16} />
            <span>{populate.isPending ? t('create.autoPopulating') : t('create.autoPopulate')}</span>
          </button>
          <p className="help">{t('create.autoPopulateHelp')}</p>
        </div>
        <div className="field">
          <label className="label" htmlFor="mz-create-description">
            {t('fields.description')}
          </label>
          <textarea id="mz-create-description" className="textarea" rows={4} maxLength={5000} value={form.description} onChange={(e) => set('description', e.target.value)} />
        </div>
        <div className="field">
          <label className="label" htmlFor="mz-create-category">
            {t('fields.category')}
          </label>
          <div className="select is-fullwidth">
            <select id="mz-create-category" value={form.category} onChange={(e) => set('category', e.target.value)}>
              <option value="">{t('create.chooseCategory')}</option>
              {PUBLIC_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`publicCategories.${c}`)}
                </option>
              ))}
            </select>
          </div>
        </div>

        <h2 className="title is-6 mt-5">{t('create.location')}</h2>
        {input('address', { required: true, autoComplete: 'address-line1' })}
        <div className="columns is-multiline">
          <div className="column is-half">{input('city', { required: true, autoComplete: 'address-level2' })}</div>
          <div className="column is-half">{input('state', { autoComplete: 'address-level1' })}</div>
          <div className="column is-half">{input('zipCode', { autoComplete: 'postal-code' })}</div>
          <div className="column is-half">{input('country', { required: true, autoComplete: 'country-name' })}</div>
          <div className="column is-half">{input('latitude', { inputMode: 'decimal', placeholder: '40.7794' })}</div>
          <div className="column is-half">{input('longitude', { inputMode: 'decimal', placeholder: '-73.9632' })}</div>
        </div>
        <div className="field">
          <button type="button" className={`button is-light${lookup.isPending ? ' is-loading' : ''}`} onClick={() => void onLookup()} disabled={lookup.isPending} data-testid="lookup-coordinates">
            <Icon name="map-pin" size={16} />
            <span>{lookup.isPending ? t('create.lookingUp') : t('create.lookup')}</span>
          </button>
          <p className="help">{t('create.lookupHelp')}</p>
        </div>

        <h2 className="title is-6 mt-5">{t('create.contact')}</h2>
        <div className="columns is-multiline">
          <div className="column is-half">{input('website', { type: 'url', placeholder: 'https://', autoComplete: 'url' })}</div>
          <div className="column is-half">{input('phone', { type: 'tel', autoComplete: 'tel' })}</div>
          <div className="column is-half">{input('email', { type: 'email', autoComplete: 'email' })}</div>
          <div className="column is-half">{input('featuredImage', { type: 'url', placeholder: 'https://' })}</div>
        </div>

        <div className="buttons is-right mt-4">
          <Link to="/discover" className="button">
            {t('edit.cancel')}
          </Link>
          <button type="submit" className={`button is-primary${create.isPending ? ' is-loading' : ''}`} disabled={create.isPending}>
            {create.isPending ? t('create.submitting') : t('create.submit')}
          </button>
        </div>
      </form>
    </Page>
  );
}
