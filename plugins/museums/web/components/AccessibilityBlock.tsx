import { useId, useRef, useState } from 'react';
import { ResponsiveImage, storedSrcsets, toast, toastApiError, uploadWithProgress, useTranslation } from '../../../../web/src/index.ts';
import { removeAccessibilityPhoto, suggestAccessibilityPhotoUrl, uploadAccessibilityPhotoUrl } from '../../../../web/src/api/generated/museums.ts';
import { ACCESS_KEYS, ACCESS_VALUES, anyKnown, normalizeAccessibility, type Accessibility, type AccessKey, type AccessValue } from '../../shared/accessibility.ts';

const MARK: Record<AccessValue, string> = { yes: '✓', limited: '◐', no: '✕', unknown: '?' };
const PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/** A fact's photo alt text: its label and note ("Step-free entrance: ramp on the left"). */
function photoAlt(label: string, note?: string) {
  return note ? `${label}: ${note}` : label;
}

/** The museum page's Accessibility box: every fact with yes / limited / no / unknown, its note and photo. */
export function AccessibilityBlock({ accessibility }: { accessibility: Accessibility }) {
  const { t } = useTranslation('museums');
  if (!anyKnown(accessibility) && !ACCESS_KEYS.some((k) => accessibility[k].photo)) return <p className="has-text-grey">{t('access.noneKnown')}</p>;
  return (
    <dl className="mz-access" data-testid="accessibility">
      {ACCESS_KEYS.map((k) => {
        const f = accessibility[k];
        const label = t(`access.facts.${k}`);
        return (
          <div className="mz-access__row" key={k} data-fact={k} data-value={f.value}>
            <dt>{label}</dt>
            <dd>
              <span className={`mz-access__value is-${f.value}`}>
                <span aria-hidden="true">{MARK[f.value]} </span>
                {t(`access.values.${f.value}`)}
              </span>
              {f.note && <span className="mz-access__note">{f.note}</span>}
              {f.photo && (
                <a className="mz-access__photo" href={f.photo} target="_blank" rel="noopener" data-testid={`access-photo-${k}`}>
                  <ResponsiveImage src={f.photo} srcset={storedSrcsets(f.photo)} alt={photoAlt(label, f.note)} sizes="200px" cover />
                </a>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * One fact's photo in the edit dialog: the manager or an Admin (mode edit) attaches, replaces or
 * removes it at once (its own route); any other member (mode suggest) sends a photo as a suggestion.
 */
function FactPhoto({ museumId, fact, mode, value, onChange }: { museumId: number; fact: AccessKey; mode: 'edit' | 'suggest'; value: Accessibility; onChange: (v: Accessibility) => void }) {
  const { t } = useTranslation('museums');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<number | 'remove' | null>(null);
  const photo = value[fact].photo;
  const label = t(`access.facts.${fact}`);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) {
      toast({ title: t('access.photo.failed'), description: t('access.photo.tooLarge'), variant: 'error' });
      return;
    }
    const form = new FormData();
    form.append('photo', file, file.name);
    setBusy(0);
    try {
      if (mode === 'edit') {
        const m = await uploadWithProgress<{ accessibility: Accessibility }>(uploadAccessibilityPhotoUrl({ id: museumId, fact }), form, (p) => setBusy(p));
        const stored = normalizeAccessibility(m.accessibility)[fact].photo;
        onChange({ ...value, [fact]: { ...value[fact], photo: stored } });
        toast({ title: t('access.photo.added'), variant: 'success' });
      } else {
        await uploadWithProgress(suggestAccessibilityPhotoUrl({ id: museumId, fact }), form, (p) => setBusy(p));
        toast({ title: t('access.photo.suggested'), description: t('access.photo.suggestedText'), variant: 'success' });
      }
    } catch (e) {
      toastApiError(e);
    } finally {
      setBusy(null);
      if (input.current) input.current.value = '';
    }
  };
  const remove = async () => {
    setBusy('remove');
    try {
      await removeAccessibilityPhoto({ params: { id: museumId, fact } });
      const { photo: _gone, ...rest } = value[fact];
      onChange({ ...value, [fact]: rest });
      toast({ title: t('access.photo.removed'), variant: 'success' });
    } catch (e) {
      toastApiError(e);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="mz-access-photo" data-testid={`access-photo-editor-${fact}`}>
      {photo && <img className="mz-access-photo__thumb" src={photo} alt={photoAlt(label, value[fact].note)} width={64} height={48} />}
      <label className={`button is-small is-light${typeof busy === 'number' ? ' is-loading' : ''}`} htmlFor={id}>
        {mode === 'suggest' ? t('access.photo.suggest') : photo ? t('access.photo.replace') : t('access.photo.add')}
        <span className="is-sr-only"> — {label}</span>
      </label>
      <input ref={input} id={id} className="is-sr-only" type="file" accept="image/jpeg,image/png,image/gif,image/webp" disabled={busy !== null} onChange={(e) => void pick(e.target.files?.[0])} />
      {mode === 'edit' && photo && (
        <button type="button" className={`button is-small is-text${busy === 'remove' ? ' is-loading' : ''}`} disabled={busy !== null} onClick={() => void remove()}>
          {t('access.photo.remove')}
          <span className="is-sr-only"> — {label}</span>
        </button>
      )}
      {typeof busy === 'number' && (
        <progress className="progress is-small is-primary" value={busy} max={100} aria-label={t('access.photo.uploading')}>
          {busy}%
        </progress>
      )}
    </div>
  );
}

/** yes / limited / no / unknown (with `placeholder`: a first empty choice). */
export function AccessValueSelect({ id, value, onChange, placeholder }: { id: string; value: AccessValue | ''; onChange: (v: AccessValue | '') => void; placeholder?: string }) {
  const { t } = useTranslation('museums');
  return (
    <div className="select is-small is-fullwidth">
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as AccessValue | '')}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {ACCESS_VALUES.map((v) => (
          <option key={v} value={v}>
            {t(`access.values.${v}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The edit and suggestion dialogs' part: one choice, one note and (with a museum) one photo per fact. */
export function AccessibilityEditor({ value, onChange, museumId, mode }: { value: Accessibility; onChange: (v: Accessibility) => void; museumId?: number; mode?: 'edit' | 'suggest' }) {
  const { t } = useTranslation('museums');
  const set = (k: AccessKey, patch: Partial<Accessibility[AccessKey]>) => {
    const next = { ...value[k], ...patch };
    if (!next.note) delete next.note;
    onChange({ ...value, [k]: next });
  };
  return (
    <fieldset className="mt-4" data-testid="accessibility-editor">
      <legend className="title is-6 mb-2">{t('access.title')}</legend>
      <p className="help mb-2">{t('access.editIntro')}</p>
      {ACCESS_KEYS.map((k) => (
        <div className="columns is-mobile is-multiline mb-0" key={k} data-fact={k}>
          <div className="column is-full-mobile is-5">
            <label className="label is-small" htmlFor={`mz-access-${k}`}>
              {t(`access.facts.${k}`)}
            </label>
            <AccessValueSelect id={`mz-access-${k}`} value={value[k].value} onChange={(v) => v && set(k, { value: v })} />
          </div>
          <div className="column is-full-mobile is-7">
            <label className="label is-small" htmlFor={`mz-access-${k}-note`}>
              {t('access.noteLabel')}
            </label>
            <input id={`mz-access-${k}-note`} className="input is-small" maxLength={300} value={value[k].note ?? ''} onChange={(e) => set(k, { note: e.target.value })} />
          </div>
          {museumId && mode && (
            <div className="column is-full pt-0">
              <FactPhoto museumId={museumId} fact={k} mode={mode} value={value} onChange={onChange} />
            </div>
          )}
        </div>
      ))}
    </fieldset>
  );
}
