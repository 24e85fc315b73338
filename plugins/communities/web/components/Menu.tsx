import { useEffect, useId, useRef, useState, type ReactNode, type KeyboardEvent } from 'react';

export interface MenuItem {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  /** a divider before this item */
  divider?: boolean;
}

/** A menu button: Enter/Space/ArrowDown opens, arrows move, Escape closes and returns focus. */
export function Menu({ label, items, className, buttonClassName, align = 'right', testId }: { label: ReactNode; items: MenuItem[]; className?: string; buttonClassName?: string; align?: 'left' | 'right'; testId?: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const refs = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    requestAnimationFrame(() => refs.current[0]?.focus());
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKey = (e: KeyboardEvent, i: number) => {
    const n = items.length;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      refs.current[(i + 1) % n]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      refs.current[(i - 1 + n) % n]?.focus();
    } else if (e.key === 'Home') {
      e.preventDefault();
      refs.current[0]?.focus();
    } else if (e.key === 'End') {
      e.preventDefault();
      refs.current[n - 1]?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };
  if (!items.length) return null;
  return (
    <div ref={root} className={`dropdown cm-menu${open ? ' is-active' : ''}${align === 'right' ? ' is-right' : ''} ${className ?? ''}`}>
      <div className="dropdown-trigger">
        <button
          ref={button}
          type="button"
          className={buttonClassName ?? 'button'}
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={id}
          data-testid={testId}
          onClick={() => setOpen((v) => !v)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setOpen(true);
            }
          }}
        >
          {label}
        </button>
      </div>
      <div className="dropdown-menu" id={id} role="menu">
        <div className="dropdown-content">
          {items.map((it, i) => (
            <div key={it.key}>
              {it.divider && <hr className="dropdown-divider" />}
              <button
                ref={(el) => {
                  refs.current[i] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={`dropdown-item cm-menu__item${it.danger ? ' cm-danger' : ''}`}
                onKeyDown={(e) => onKey(e, i)}
                onClick={() => {
                  setOpen(false);
                  it.onSelect();
                }}
              >
                {it.label}
              </button>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
