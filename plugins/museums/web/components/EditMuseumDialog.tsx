import { useMemo, useState, type FormEvent } from 'react';
import { ApiError, Modal, toast, useMutation, useTranslation } from '../../../../web/src/index.ts';
import { editMuseum, suggestMuseumEdit, type EditMuseumBody } from '../../../../web/src/api/generated/museums.ts';
import { CATEGORIES, type StructuredHours } from '../../shared/catalog.ts';
import { closedWeek, normalizeHours } from '../../shared/opening-hours.ts';
import { catKey, type MuseumView } from '../lib.ts';
import { AmenitiesPicker } from './AmenitiesPicker.tsx';
import { BusinessHoursEditor, seasonErrors } from './BusinessHoursEditor.tsx';
import { ClosuresEditor } from './ClosuresEditor.tsx';
import { AccessibilityEditor } from './AccessibilityBlock.tsx';
import { normalizeAccessibility, type Accessibility } from '../../shared/accessibility.ts';
import { AdmissionEditor, admissionFromDraft, draftFrom, type AdmissionDraft } from './AdmissionEditor.tsx';

interface FormState {
  description: string;
  phone: string;
  email: string;
  address: string;
  address2: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  category: string;
  amenities: string[];
  openingHours: StructuredHours;
  admission: AdmissionDraft;
  accessibility: Accessibility;
  reason: string;
}

const TEXT_FIELDS = ['description', 'phone', 'email', 'address', 'address2', 'city', 'state', 'zipCode', 'country', 'category'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function initialState(m: MuseumView): FormState {
  return {
    description: m.description ?? '',
    phone: m.phone ?? '',
    email: m.email ?? '',
    address: m.address ?? '',
    address2: m.address2 ?? '',
    city: m.city ?? '',
    state: m.state ?? '',
    zipCode: m.zipCode ?? '',
    country: m.country ?? '',
    category: m.category ?? '',
    amenities: [...m.amenities],
    openingHours: m.openingHours ? normalizeHours(m.openingHours) : { defaultHours: closedWeek(), seasonalHours: [] },
    admission: draftFrom(m.admission),
    accessibility: normalizeAccessibility(m.accessibility),
    reason: '',
  };
}

/**
 * "Edit Museum Information" (Admin, or the museum's manager: PATCH …/edit) or "Suggest Museum
 * Edit" (everyone else: POST …/suggest-edit with only the changed fields, never a blank email).
 */
export function EditMuseumDialog({ museum, mode, onClose, onSaved }: { museum: MuseumView; mode: 'edit' | 'suggest'; onClose: () => void; onSaved: (m?: MuseumView) => void }) {
  const { t } = useTranslation('museums');
  const initial = useMemo(() => initialState(museum), [museum]);
  const [form, setForm] = useState<FormState>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const edit = useMutation((body: EditMuseumBody) => editMuseum({ params: { id: museum.id }, body }), { retries: 0 });
  const suggest = useMutation((suggestedChanges: Record<string, unknown>, reason: string) => suggestMuseumEdit({ params: { id: museum.id }, body: { suggestedChanges, reason } }), { retries: 0 });
  const pending = edit.isPending || suggest.isPending;

  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setForm((f) => ({ ...f, [k]: v }));

  function validate(): Record<string, string> {
    const e: Record<string, string> = {};
    const req: Array<[keyof FormState, string]> = [
      ['address', 'validation.addressRequired'],
      ['city', 'validation.cityRequired'],
      ['state', 'validation.stateRequired'],
      ['zipCode', 'validation.zipRequired'],
      ['country', 'validation.countryRequired'],
      ['category', 'validation.categoryRequired'],
    ];
    for (const [k, msg] of req) if (!String(form[k]).trim()) e[k] = t(msg);
    if (form.email.trim() && !EMAIL.test(form.email.trim())) e.email = t('validation.invalidEmail');
    if (Object.keys(seasonErrors(form.openingHours)).length) e.openingHours = t('hoursEditor.seasonsInvalid');
    const adm = admissionFromDraft(form.admission);
    if ('error' in adm) e.admission = t(`admission.${adm.error}`);
    return e;
  }

  const admissionValue = () => {
    const a = admissionFromDraft(form.admission);
    return 'value' in a ? a.value : null;
  };
  const admissionChanged = () => {
    const before = admissionFromDraft(initial.admission);
    return JSON.stringify(admissionValue()) !== JSON.stringify('value' in before ? before.value : null);
  };

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setSubmitted(true);
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    if (mode === 'edit') {
      const body: EditMuseumBody = { amenities: form.amenities as EditMuseumBody['amenities'] };
      for (const k of TEXT_FIELDS) (body as Record<string, unknown>)[k] = form[k].trim();
      // Hours only when edited: stored hours from the text form may hold minutes the editor's
      // 30-minute choices (and the input schema) do not offer.
      if (JSON.stringify(form.openingHours) !== JSON.stringify(initial.openingHours)) body.openingHours = form.openingHours as EditMuseumBody['openingHours'];
      if (admissionChanged()) body.admission = admissionValue() as EditMuseumBody['admission'];
      if (JSON.stringify(normalizeAccessibility(form.accessibility)) !== JSON.stringify(initial.accessibility)) body.accessibility = normalizeAccessibility(form.accessibility) as EditMuseumBody['accessibility'];
      try {
        const updated = await edit.trigger(body);
        toast({ title: t('toasts.museumUpdated'), description: t('toasts.museumUpdatedText'), variant: 'success' });
        onSaved(updated as MuseumView);
        onClose();
      } catch (err) {
        showServerErrors(err as ApiError);
        toast({ title: t('toasts.error'), description: (err as ApiError).message || t('toasts.updateFailed'), variant: 'destructive' });
      }
      return;
    }
    // Suggest: only the fields that changed; a blank email is never sent.
    const changes: Record<string, unknown> = {};
    for (const k of TEXT_FIELDS) {
      const v = form[k].trim();
      if (v !== String(initial[k]).trim()) {
        if (k === 'email' && !v) continue;
        changes[k] = v;
      }
    }
    if (JSON.stringify(form.amenities) !== JSON.stringify(initial.amenities)) changes.amenities = form.amenities;
    if (JSON.stringify(form.openingHours) !== JSON.stringify(initial.openingHours)) changes.openingHours = form.openingHours;
    if (admissionChanged()) changes.admission = admissionValue();
    if (JSON.stringify(normalizeAccessibility(form.accessibility)) !== JSON.stringify(initial.accessibility)) changes.accessibility = normalizeAccessibility(form.accessibility);
    if (!Object.keys(changes).length) {
      toast({ title: t('toasts.noChanges'), description: t('toasts.noChangesText'), variant: 'destructive' });
      return;
    }
    try {
      await suggest.trigger(changes, form.reason.trim() || 'User suggested edit');
      toast({ title: t('toasts.suggestionSubmitted'), description: t('toasts.suggestionSubmittedText'), variant: 'success' });
      onClose();
    } catch (err) {
      showServerErrors(err as ApiError);
      toast({ title: t('toasts.error'), description: (err as ApiError).message || t('toasts.suggestFailed'), variant: 'destructive' });
    }
  }

  function showServerErrors(err: ApiError) {
    const e: Record<string, string> = {};
    for (const fe of err?.errors ?? []) {
      const field = fe.path.split('/').filter(Boolean).pop();
      if (field && !e[field]) e[field] = fe.message;
    }
    if (Object.keys(e).length) setErrors(e);
  }

  const field = (k: (typeof TEXT_FIELDS)[number], opts: { required?: boolean; type?: string; textarea?: boolean; autoComplete?: string } = {}) => {
    const id = `mz-edit-${k}`;
    return (
      <div className="field" key={k}>
        <label className="label" htmlFor={id}>
          {t(`fields.${k}`)}
          {opts.required && <span className="has-text-danger" aria-hidden="true"> *</span>}
        </label>
        <div className="control">
          {opts.textarea ? (
            <textarea id={id} className={`textarea${errors[k] ? ' is-danger' : ''}`} rows={4} maxLength={5000} value={form[k]} onChange={(e) => set(k, e.target.value)} />
          ) : (
            <input
              id={id}
              className={`input${errors[k] ? ' is-danger' : ''}`}
              type={opts.type ?? 'text'}
              value={form[k]}
              required={opts.required}
              aria-required={opts.required}
              aria-invalid={!!errors[k]}
              aria-describedby={errors[k] ? `${id}-error` : undefined}
              autoComplete={opts.autoComplete}
              onChange={(e) => set(k, e.target.value)}
            />
          )}
        </div>
        {errors[k] && (
          <p className="help is-danger" id={`${id}-error`}>
            {errors[k]}
          </p>
        )}
      </div>
    );
  };

  const title = mode === 'edit' ? t('edit.titleEdit') : t('edit.titleSuggest');
  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      size="large"
      closeOnBackdrop={false}
      footer={
        <div className="buttons is-right mz-dialog-buttons">
          <button type="button" className="button" onClick={onClose} disabled={pending}>
            {t('edit.cancel')}
          </button>
          <button type="submit" form="mz-edit-form" className={`button is-primary${pending ? ' is-loading' : ''}`} disabled={pending}>
            {mode === 'edit' ? (pending ? t('edit.saving') : t('edit.save')) : pending ? t('edit.submitting') : t('edit.submit')}
          </button>
        </div>
      }
    >
      <form id="mz-edit-form" onSubmit={onSubmit} noValidate className="mz-edit-form" data-mode={mode}>
        <p className="notification is-light py-2 px-3">{mode === 'edit' ? t('edit.introEdit') : t('edit.introSuggest')}</p>
        {field('description', { textarea: true })}
        <div className="field">
          <label className="label" htmlFor="mz-edit-category">
            {t('fields.category')}
            <span className="has-text-danger" aria-hidden="true"> *</span>
          </label>
          <div className={`select is-fullwidth${errors.category ? ' is-danger' : ''}`}>
            <select id="mz-edit-category" value={form.category} required aria-invalid={!!errors.category} onChange={(e) => set('category', e.target.value)}>
              <option value="">{t('edit.chooseCategory')}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`categories.${catKey(c)}`)}
                </option>
              ))}
              {form.category && !(CATEGORIES as readonly string[]).includes(form.category) && <option value={form.category}>{form.category}</option>}
            </select>
          </div>
          {errors.category && <p className="help is-danger">{errors.category}</p>}
        </div>
        <h3 className="title is-6 mt-4">{t('edit.contact')}</h3>
        <div className="columns">
          <div className="column">{field('phone', { type: 'tel', autoComplete: 'tel' })}</div>
          <div className="column">{field('email', { type: 'email', autoComplete: 'email' })}</div>
        </div>
        <h3 className="title is-6">{t('edit.location')}</h3>
        {field('address', { required: true })}
        {field('address2')}
        <div className="columns is-multiline">
          <div className="column is-half">{field('city', { required: true })}</div>
          <div className="column is-half">{field('state', { required: true })}</div>
          <div className="column is-half">{field('zipCode', { required: true })}</div>
          <div className="column is-half">{field('country', { required: true })}</div>
        </div>
        <AmenitiesPicker value={form.amenities} onChange={(v) => set('amenities', v)} />
        <AccessibilityEditor value={form.accessibility} onChange={(v) => set('accessibility', v)} museumId={museum.id} mode={mode} />
        <BusinessHoursEditor value={form.openingHours} onChange={(v) => set('openingHours', v)} showErrors={submitted} />
        {errors.openingHours && <p className="help is-danger">{errors.openingHours}</p>}
        {mode === 'suggest' && (
          <div className="field mt-4">
            <label className="label" htmlFor="mz-edit-reason">
              {t('fields.reason')}
            </label>
            <textarea id="mz-edit-reason" className="textarea" rows={2} maxLength={1000} placeholder={t('edit.reasonPlaceholder')} value={form.reason} onChange={(e) => set('reason', e.target.value)} />
          </div>
        )}
      </form>
      {/* Outside the dialog's form: these are forms of their own (no nested forms). */}
      <ClosuresEditor value={form.openingHours} onChange={(v) => set('openingHours', v)} guess={museum.holidayRegion?.guessed ? museum.holidayRegion : null} />
      <AdmissionEditor value={form.admission} onChange={(v) => set('admission', v)} error={errors.admission} />
    </Modal>
  );
}
