import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { apiRequest, useAuth, useTranslation } from '../../../../web/src/index.ts';
import '../accounts.css';

interface Person {
  id: number;
  username: string;
  firstName?: string | null;
  lastName?: string | null;
}

/** The "@name" being typed right before the caret, if any (at least 3 characters: the search's minimum). */
export function mentionQuery(text: string, caret: number): { start: number; q: string } | null {
  const m = /(^|[^A-Za-z0-9_.@-])@([A-Za-z0-9_.-]{3,30})$/.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[2].length - 1, q: m[2] };
}

type Props = {
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
} & Omit<React.InputHTMLAttributes<HTMLInputElement> & React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'>;

/**
 * A text input or textarea with @mention autocomplete (ARIA combobox): typing "@ann" lists
 * matching members from the user search (GET /api/search); Arrow keys move, Enter or Tab picks,
 * Escape closes. The server decides which mentions become links when the text is saved.
 */
export function MentionInput({ value, onChange, multiline, className, ...rest }: Props) {
  const { t } = useTranslation('accounts');
  const { user } = useAuth();
  const listId = useId();
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<{ start: number; q: string } | null>(null);
  const [people, setPeople] = useState<Person[]>([]);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const open = Boolean(query && people.length && closedFor !== `${query.start}:${query.q}`);

  useEffect(() => {
    if (!query || !user) {
      setPeople([]);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      apiRequest<{ users?: Person[] }>('GET', `/api/search?q=${encodeURIComponent(query.q)}&limit=6`)
        .then((r) => {
          if (cancelled) return;
          setPeople((r.users ?? []).filter((p) => p.username).slice(0, 6));
          setActive(0);
        })
        .catch(() => !cancelled && setPeople([]));
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query?.q, query?.start, user]);

  const update = (text: string, caret: number) => {
    onChange(text);
    setQuery(mentionQuery(text, caret));
  };

  const pick = (p: Person) => {
    if (!query) return;
    const end = query.start + 1 + query.q.length;
    const insert = `@${p.username} `;
    const next = value.slice(0, query.start) + insert + value.slice(end);
    onChange(next);
    setQuery(null);
    setPeople([]);
    const caret = query.start + insert.length;
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(caret, caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : people.length - 1)) % people.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(people[active]);
    }
  };

  // Escape closes the list only: caught on the window before a dialog around the field (which
  // listens on the document in the capture phase) would close itself. A layout effect: attached as
  // the list is drawn open, not after it (a passive effect runs later, and an Escape pressed as the
  // list appeared on a busy machine reached the dialog and closed it).
  useLayoutEffect(() => {
    if (!open || !query) return;
    const key = `${query.start}:${query.q}`;
    const onEscape = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || document.activeElement !== ref.current) return;
      e.preventDefault();
      e.stopPropagation();
      setClosedFor(key);
    };
    window.addEventListener('keydown', onEscape, true);
    return () => window.removeEventListener('keydown', onEscape, true);
  }, [open, query]);

  const common = {
    ...rest,
    ref,
    value,
    className,
    role: 'combobox',
    'aria-autocomplete': 'list' as const,
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-activedescendant': open ? `${listId}-${active}` : undefined,
    onKeyDown,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(e.target.value, e.target.selectionStart ?? e.target.value.length),
    onBlur: () => setTimeout(() => setPeople([]), 150),
  };

  return (
    <div className="acc-mention-input">
      {multiline ? <textarea {...(common as any)} /> : <input {...(common as any)} />}
      <ul id={listId} role="listbox" aria-label={t('mentions.suggestions')} className="acc-mention-list box p-1" hidden={!open}>
        {open &&
          people.map((p, i) => (
            <li
              key={p.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
            >
              <span className="has-text-weight-semibold">@{p.username}</span>{' '}
              <span className="has-text-grey is-size-7">{`${p.firstName ?? ''} ${p.lastName ?? ''}`.trim()}</span>
            </li>
          ))}
      </ul>
    </div>
  );
}
