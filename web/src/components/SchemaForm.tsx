/**
 * A Bulma form rendered from a JSON Schema (object), validated in the browser with the same ajv
 * rules and the same messages as the server (core/shared/validation-messages.ts).
 *
 * Validators: a registered schema (with `$id`, in schemas/ or plugins/<id>/schemas/) uses the
 * build-time compiled validator (the server's CSP forbids ajv's runtime code generation);
 * `validate` overrides; otherwise ajv compiles at runtime where the page allows it (dev), and
 * the server remains the judge when it cannot.
 *
 * Widgets: string (text; a textarea when `x-widget: "textarea"` or a plain string over 1000
 * characters), `x-widget: "textarea" | "password" | "tel" | "hidden"`, formats email / uri /
 * url / date / time / date-time, number / integer, boolean (checkbox), enum (select, or radios
 * with `x-widget: "radio"`), array of strings (comma-separated list; checkboxes when the items
 * have an enum). Labels: `<ns>:fields.<name>`, else `x-label`, else the humanized name;
 * placeholders `<ns>:placeholders.<name>` / `x-placeholder`; help `<ns>:help.<name>` / `x-help`.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAjvErrors, summarize, type AjvLikeError, type FieldError } from '../../../core/shared/validation-messages.ts';
import { ApiError } from '../lib/api.ts';

export type JSONSchema = Record<string, any>;

/** What an ajv validate function looks like. */
export interface ValidateLike {
  (data: unknown): boolean;
  errors?: AjvLikeError[] | null;
}

export interface SchemaFormProps<T = Record<string, unknown>> {
  /** an object schema */
  schema: JSONSchema;
  /** i18n namespace for labels (`<ns>:fields.<name>`); default 'core' */
  ns?: string;
  initialValues?: Partial<T> & Record<string, unknown>;
  /** called with the cleaned, valid values; a thrown ApiError's field errors show under the fields */
  onSubmit: (values: T) => unknown | Promise<unknown>;
  submitLabel?: string;
  /** text of the submit button while onSubmit runs, e.g. 'Signing In...' */
  pendingLabel?: string;
  onCancel?: () => void;
  cancelLabel?: string;
  /** which properties, in which order (default: `x-order`, then the schema's order) */
  fields?: string[];
  /** properties not to render (their initial values are still submitted) */
  hide?: string[];
  /** a validator to use instead of the registered / runtime one */
  validate?: ValidateLike;
  /** errors to show (e.g. from a call made elsewhere) */
  errors?: FieldError[];
  disabled?: boolean;
  /** reset to the initial values after a successful submit */
  resetOnSuccess?: boolean;
  /** called on every change with the current (unvalidated) values */
  onChange?: (values: Partial<T>) => void;
  /** extra content between the fields and the buttons */
  children?: ReactNode;
  /** buttons full width (dialogs on mobile, auth forms) */
  fullWidthSubmit?: boolean;
  className?: string;
  id?: string;
}

type Raw = Record<string, string | boolean | string[]>;

function baseType(s: JSONSchema): string {
  const t = s?.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') ?? 'string';
  if (t) return t;
  if (s?.enum) return typeof s.enum[0] === 'number' ? 'number' : 'string';
  return 'string';
}

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function toLocalDateTime(v: unknown): string {
  if (typeof v !== 'string' || !v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Schema value → what the input holds. */
function toRaw(s: JSONSchema, v: unknown): string | boolean | string[] {
  const type = baseType(s);
  if (type === 'boolean') return v === true;
  if (type === 'array') {
    if (s.items?.enum) return Array.isArray(v) ? v.map(String) : [];
    return Array.isArray(v) ? v.join(', ') : '';
  }
  if (v === null || v === undefined) return '';
  if (s.format === 'date-time') return toLocalDateTime(v);
  return String(v);
}

/** What the input holds → schema value (undefined = leave the property out). */
function fromRaw(s: JSONSchema, raw: string | boolean | string[] | undefined): unknown {
  const type = baseType(s);
  if (type === 'boolean') return raw === true;
  if (type === 'array') {
    const itemType = baseType(s.items ?? {});
    const list = Array.isArray(raw) ? raw : String(raw ?? '').split(',').map((x) => x.trim()).filter(Boolean);
    if (itemType === 'integer' || itemType === 'number') return list.map((x) => (x.trim() !== '' && !Number.isNaN(Number(x)) ? Number(x) : x));
    return list;
  }
  const str = typeof raw === 'string' ? raw : '';
  if (str.trim() === '') return undefined;
  if (type === 'integer' || type === 'number') {
    const n = Number(str);
    return Number.isNaN(n) ? str : n;
  }
  if (s.format === 'date-time') {
    const d = new Date(str);
    return Number.isNaN(d.getTime()) ? str : d.toISOString();
  }
  if (s.enum && typeof s.enum[0] === 'number') return Number(str);
  return s['x-widget'] === 'password' || s.format === 'password' ? str : str.trim();
}

let runtimeAjv: Promise<{ compile: (s: JSONSchema) => ValidateLike } | null> | null = null;
function loadRuntimeAjv() {
  runtimeAjv ??= Promise.all([import('ajv'), import('ajv-formats')])
    .then(([ajvMod, formatsMod]) => {
      const Ajv = ((ajvMod as any).Ajv ?? (ajvMod as any).default?.Ajv ?? (ajvMod as any).default) as any;
      const addFormats = ((formatsMod as any).default?.default ?? (formatsMod as any).default ?? formatsMod) as any;
      const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
      addFormats(ajv);
      for (const k of ['x-messages', 'x-label', 'x-widget', 'x-order', 'x-placeholder', 'x-help', 'example']) if (!ajv.getKeyword(k)) ajv.addKeyword({ keyword: k });
      return ajv;
    })
    .catch(() => null);
  return runtimeAjv;
}

async function resolveValidator(schema: JSONSchema): Promise<ValidateLike | undefined> {
  if (typeof schema.$id === 'string') {
    try {
      const { loadValidator } = await import('virtual:curio-validators');
      const v = await loadValidator(schema.$id);
      if (v) return v;
    } catch {
      // fall through to runtime compilation
    }
  }
  const ajv = await loadRuntimeAjv();
  if (!ajv) return undefined;
  try {
    const copy = structuredClone(schema);
    delete copy.$id; // a runtime copy must not clash with a registered id
    return ajv.compile(copy);
  } catch (e) {
    console.warn('SchemaForm: no client-side validation for this schema (the server still validates)', (e as Error).message);
    return undefined;
  }
}

function fieldOf(path: string): string {
  // '/name', 'body/name', '/tags/0' → 'name' / 'tags'
  const parts = path.replace(/^(body|query|params)(?=\/)/, '').split('/').filter(Boolean);
  return parts[0] ?? '';
}

export function SchemaForm<T = Record<string, unknown>>(props: SchemaFormProps<T>) {
  const {
    schema,
    ns = 'core',
    initialValues,
    onSubmit,
    submitLabel,
    pendingLabel,
    onCancel,
    cancelLabel,
    fields,
    hide = [],
    validate: validateProp,
    errors: externalErrors,
    disabled = false,
    resetOnSuccess = false,
    onChange,
    children,
    fullWidthSubmit = false,
    className,
    id,
  } = props;
  const { t, i18n } = useTranslation([ns, 'core']);
  const autoId = useId();
  const formId = id ?? `sf${autoId.replace(/[^a-zA-Z0-9]/g, '')}`;
  const props_ = (schema.properties ?? {}) as Record<string, JSONSchema>;
  const required = new Set<string>(schema.required ?? []);

  const order = useMemo(() => {
    if (fields) return fields.filter((f) => f in props_);
    const names = Object.keys(props_);
    return names
      .map((n, i) => ({ n, o: typeof props_[n]['x-order'] === 'number' ? props_[n]['x-order'] : 1000 + i }))
      .sort((a, b) => a.o - b.o)
      .map((x) => x.n);
  }, [fields, props_]);
  const visible = order.filter((n) => !hide.includes(n) && props_[n]['x-widget'] !== 'hidden' && baseType(props_[n]) !== 'object');

  const initialRaw = useMemo<Raw>(() => {
    const r: Raw = {};
    for (const n of Object.keys(props_)) {
      const s = props_[n];
      const v = initialValues && n in initialValues ? initialValues[n] : s.default;
      r[n] = toRaw(s, v);
    }
    return r;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, JSON.stringify(initialValues ?? {})]);

  const [raw, setRaw] = useState<Raw>(initialRaw);
  useEffect(() => setRaw(initialRaw), [initialRaw]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const validatorRef = useRef<Promise<ValidateLike | undefined> | null>(null);
  const [validator, setValidator] = useState<ValidateLike | undefined>(validateProp);
  useEffect(() => {
    if (validateProp) {
      setValidator(() => validateProp);
      validatorRef.current = Promise.resolve(validateProp);
      return;
    }
    let alive = true;
    const p = resolveValidator(schema);
    validatorRef.current = p;
    void p.then((v) => alive && setValidator(() => v));
    return () => {
      alive = false;
    };
  }, [schema, validateProp]);

  useEffect(() => {
    if (!externalErrors) return;
    const map: Record<string, string> = {};
    for (const e of externalErrors) {
      const f = fieldOf(e.path);
      if (f && !map[f]) map[f] = e.message;
    }
    setFieldErrors(map);
  }, [externalErrors]);

  const values = (r: Raw): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const n of Object.keys(props_)) {
      if (baseType(props_[n]) === 'object') {
        if (initialValues && initialValues[n] !== undefined) out[n] = initialValues[n];
        continue;
      }
      const v = fromRaw(props_[n], r[n]);
      if (v !== undefined) out[n] = v;
    }
    return out;
  };

  const check = (v: ValidateLike | undefined, data: Record<string, unknown>): FieldError[] => {
    if (!v) return [];
    if (v(data)) return [];
    return formatAjvErrors((v.errors ?? []) as AjvLikeError[], schema);
  };

  const showErrors = (errs: FieldError[]) => {
    const map: Record<string, string> = {};
    const general: string[] = [];
    for (const e of errs) {
      const f = fieldOf(e.path);
      if (f && visible.includes(f)) {
        if (!map[f]) map[f] = e.message;
      } else general.push(e.message);
    }
    setFieldErrors(map);
    setFormError(general.length ? [...new Set(general)].join(', ') : null);
    return map;
  };

  const update = (name: string, value: string | boolean | string[]) => {
    const next = { ...raw, [name]: value };
    setRaw(next);
    onChange?.(values(next) as Partial<T>);
    if (attempted) {
      const errs = check(validator, values(next));
      const map: Record<string, string> = {};
      for (const e of errs) {
        const f = fieldOf(e.path);
        if (f && !map[f]) map[f] = e.message;
      }
      setFieldErrors(map);
    } else if (fieldErrors[name]) {
      setFieldErrors(({ [name]: _drop, ...rest }) => rest);
    }
  };

  const focusFirstError = (map: Record<string, string>) => {
    const first = visible.find((n) => map[n]);
    if (!first) return;
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending || disabled) return;
    setAttempted(true);
    const data = values(raw);
    const v = validator ?? (await validatorRef.current?.catch(() => undefined));
    const errs = check(v, data);
    if (errs.length) {
      focusFirstError(showErrors(errs));
      return;
    }
    setFieldErrors({});
    setFormError(null);
    setPending(true);
    try {
      await onSubmit(data as T);
      if (resetOnSuccess) {
        setRaw(initialRaw);
        setAttempted(false);
      }
    } catch (err) {
      if (err instanceof ApiError && err.errors.length) {
        const map = showErrors(err.errors);
        if (!Object.keys(map).length) setFormError(err.message);
        else focusFirstError(map);
      } else if (err instanceof Error) setFormError(err.message);
    } finally {
      setPending(false);
    }
  };

  const text = (key: string, fallback: string) => (i18n.exists(`${ns}:${key}`) ? t(`${ns}:${key}`) : fallback);

  const renderField = (name: string) => {
    const s = props_[name];
    const type = baseType(s);
    const fid = `${formId}-${name}`;
    const label = text(`fields.${name}`, s['x-label'] ?? s.title ?? humanize(name));
    const placeholder = text(`placeholders.${name}`, s['x-placeholder'] ?? '');
    const help = text(`help.${name}`, s['x-help'] ?? '');
    const err = fieldErrors[name];
    const isReq = required.has(name);
    const describedBy = [err ? `${fid}-error` : '', help ? `${fid}-help` : ''].filter(Boolean).join(' ') || undefined;
    const common = {
      id: fid,
      name,
      disabled: disabled || pending,
      'aria-invalid': err ? true : undefined,
      'aria-required': isReq || undefined,
      'aria-describedby': describedBy,
    };
    const errorNode = err && (
      <p className="help is-danger" id={`${fid}-error`}>
        {err}
      </p>
    );
    const helpNode = help && (
      <p className="help" id={`${fid}-help`}>
        {help}
      </p>
    );
    const labelNode = (
      <label className="label" htmlFor={fid}>
        {label}
        {isReq && (
          <span className="curio-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
    );

    if (type === 'boolean') {
      return (
        <div className="field" key={name}>
          <div className="control">
            <label className="checkbox curio-checkbox" htmlFor={fid}>
              <input type="checkbox" {...common} checked={raw[name] === true} onChange={(e) => update(name, e.target.checked)} /> {label}
            </label>
          </div>
          {helpNode}
          {errorNode}
        </div>
      );
    }

    if (type === 'array' && s.items?.enum) {
      const selected = Array.isArray(raw[name]) ? (raw[name] as string[]) : [];
      return (
        <fieldset className="field" key={name} aria-describedby={describedBy} aria-invalid={err ? true : undefined}>
          <legend className="label">{label}</legend>
          <div className="curio-checkbox-group">
            {(s.items.enum as unknown[]).map((opt) => {
              const o = String(opt);
              return (
                <label className="checkbox curio-checkbox" key={o}>
                  <input
                    type="checkbox"
                    name={name}
                    disabled={disabled || pending}
                    checked={selected.includes(o)}
                    onChange={(e) => update(name, e.target.checked ? [...selected, o] : selected.filter((x) => x !== o))}
                  />{' '}
                  {text(`options.${name}.${o}`, o)}
                </label>
              );
            })}
          </div>
          {helpNode}
          {errorNode}
        </fieldset>
      );
    }

    if (s.enum) {
      const opts = (s.enum as unknown[]).filter((o) => o !== null).map(String);
      if (s['x-widget'] === 'radio') {
        return (
          <fieldset className="field" key={name} aria-describedby={describedBy}>
            <legend className="label">{label}</legend>
            <div className="control curio-radio-group">
              {opts.map((o) => (
                <label className="radio" key={o}>
                  <input type="radio" name={name} value={o} disabled={disabled || pending} checked={raw[name] === o} onChange={() => update(name, o)} />{' '}
                  {text(`options.${name}.${o}`, o)}
                </label>
              ))}
            </div>
            {helpNode}
            {errorNode}
          </fieldset>
        );
      }
      return (
        <div className="field" key={name}>
          {labelNode}
          <div className="control is-expanded">
            <div className={`select is-fullwidth${err ? ' is-danger' : ''}`}>
              <select {...common} value={String(raw[name] ?? '')} onChange={(e) => update(name, e.target.value)}>
                {(!isReq || raw[name] === '') && <option value="">{placeholder || t('core:form.select')}</option>}
                {opts.map((o) => (
                  <option key={o} value={o}>
                    {text(`options.${name}.${o}`, o)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {helpNode}
          {errorNode}
        </div>
      );
    }

    if (type === 'string' && (s['x-widget'] === 'textarea' || (!s['x-widget'] && !s.format && !s.pattern && (s.maxLength ?? 0) > 1000))) {
      const value = String(raw[name] ?? '');
      const max = s.maxLength as number | undefined;
      return (
        <div className="field" key={name}>
          {labelNode}
          <div className="control">
            <textarea
              className={`textarea${err ? ' is-danger' : ''}`}
              {...common}
              rows={s['x-rows'] ?? 4}
              placeholder={placeholder || undefined}
              value={value}
              onChange={(e) => update(name, e.target.value)}
            />
          </div>
          <div className="curio-field-meta">
            <div>
              {helpNode}
              {errorNode}
            </div>
            {max !== undefined && (
              <p className={`help curio-counter${value.length > max ? ' is-danger' : ''}`} aria-live="polite">
                {t('core:form.characters', { count: value.length, max })}
              </p>
            )}
          </div>
        </div>
      );
    }

    let inputType = 'text';
    let extra: Record<string, unknown> = {};
    if (type === 'integer' || type === 'number') {
      inputType = 'number';
      extra = { step: type === 'integer' ? 1 : s.multipleOf ?? 'any', min: s.minimum, max: s.maximum, inputMode: type === 'integer' ? 'numeric' : 'decimal' };
    } else if (s['x-widget'] === 'password' || s.format === 'password') inputType = 'password';
    else if (s.format === 'email') inputType = 'email';
    else if (s.format === 'uri' || s.format === 'url') inputType = 'url';
    else if (s.format === 'date') inputType = 'date';
    else if (s.format === 'time') inputType = 'time';
    else if (s.format === 'date-time') inputType = 'datetime-local';
    else if (s['x-widget'] === 'tel') inputType = 'tel';
    const autoComplete =
      inputType === 'email' ? 'email' : inputType === 'password' ? (name.toLowerCase().includes('new') ? 'new-password' : 'current-password') : s['x-autocomplete'];
    return (
      <div className="field" key={name}>
        {labelNode}
        <div className="control">
          <input
            className={`input${err ? ' is-danger' : ''}`}
            type={inputType}
            {...common}
            {...extra}
            autoComplete={autoComplete}
            placeholder={placeholder || undefined}
            value={String(raw[name] ?? '')}
            onChange={(e) => update(name, e.target.value)}
          />
        </div>
        {type === 'array' && !help && <p className="help">{t('core:form.commaHint')}</p>}
        {helpNode}
        {errorNode}
      </div>
    );
  };

  return (
    <form ref={formRef} id={formId} className={`curio-schema-form ${className ?? ''}`} noValidate onSubmit={submit} aria-busy={pending || undefined}>
      {formError && (
        <div className="notification is-danger is-light curio-form-error" role="alert">
          {formError}
        </div>
      )}
      {visible.map(renderField)}
      {children}
      <div className={`field is-grouped curio-form-actions${fullWidthSubmit ? ' is-fullwidth' : ''}`}>
        {onCancel && (
          <div className="control">
            <button type="button" className="button is-light" onClick={onCancel} disabled={pending}>
              {cancelLabel ?? t('core:form.cancel')}
            </button>
          </div>
        )}
        <div className={`control${fullWidthSubmit ? ' is-expanded' : ''}`}>
          <button type="submit" className={`button is-primary${fullWidthSubmit ? ' is-fullwidth' : ''}`} disabled={disabled || pending} aria-disabled={disabled || pending}>
            {pending ? pendingLabel ?? t('core:form.submitting') : submitLabel ?? t('core:form.submit')}
          </button>
        </div>
      </div>
    </form>
  );
}

export { formatAjvErrors, summarize };
export type { FieldError };
