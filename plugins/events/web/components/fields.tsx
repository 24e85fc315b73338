/** Small labelled form controls with error text wired for screen readers (Bulma markup). */
import { useId, type ReactNode } from 'react';

interface Base {
  label: ReactNode;
  error?: string;
  help?: ReactNode;
  required?: boolean;
  name: string;
}

function Wrap({ id, label, error, help, required, children }: Base & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
        {required && (
          <span className="curio-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <div className="control">{children}</div>
      {help && !error && (
        <p className="help" id={`${id}-help`}>
          {help}
        </p>
      )}
      {error && (
        <p className="help is-danger" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, error?: string, help?: ReactNode) => (error ? `${id}-error` : help ? `${id}-help` : undefined);

export function TextField(props: Base & { value: string; onChange: (v: string) => void; type?: string; maxLength?: number; placeholder?: string; inputMode?: 'decimal' | 'numeric'; step?: string; min?: string }) {
  const id = useId();
  const { value, onChange, type = 'text', maxLength, placeholder, inputMode, step, min, ...base } = props;
  return (
    <Wrap id={id} {...base}>
      <input
        id={id}
        name={base.name}
        className={`input${base.error ? ' is-danger' : ''}`}
        type={type}
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        inputMode={inputMode}
        step={step}
        min={min}
        aria-invalid={!!base.error}
        aria-required={base.required}
        aria-describedby={describedBy(id, base.error, base.help)}
        onChange={(e) => onChange(e.target.value)}
      />
    </Wrap>
  );
}

export function TextArea(props: Base & { value: string; onChange: (v: string) => void; rows?: number; maxLength?: number }) {
  const id = useId();
  const { value, onChange, rows = 3, maxLength, ...base } = props;
  return (
    <Wrap id={id} {...base}>
      <textarea
        id={id}
        name={base.name}
        className={`textarea${base.error ? ' is-danger' : ''}`}
        rows={rows}
        value={value}
        maxLength={maxLength}
        aria-invalid={!!base.error}
        aria-required={base.required}
        aria-describedby={describedBy(id, base.error, base.help)}
        onChange={(e) => onChange(e.target.value)}
      />
    </Wrap>
  );
}

export function SelectField(props: Base & { value: string; onChange: (v: string) => void; options: Array<{ value: string; label: string }> }) {
  const id = useId();
  const { value, onChange, options, ...base } = props;
  return (
    <Wrap id={id} {...base}>
      <div className={`select is-fullwidth${base.error ? ' is-danger' : ''}`}>
        <select id={id} name={base.name} value={value} aria-invalid={!!base.error} aria-required={base.required} aria-describedby={describedBy(id, base.error, base.help)} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </Wrap>
  );
}

export function CheckboxField({ label, checked, onChange, name, help }: { label: ReactNode; checked: boolean; onChange: (v: boolean) => void; name: string; help?: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <div className="control">
        <label className="checkbox curio-checkbox" htmlFor={id}>
          <input id={id} name={name} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {label}
        </label>
      </div>
      {help && <p className="help">{help}</p>}
    </div>
  );
}
