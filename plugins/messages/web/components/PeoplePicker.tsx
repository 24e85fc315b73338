import { useEffect, useState } from 'react';
import { Avatar, apiRequest, useAuth, useTranslation, type ImageInfo } from '../../../../web/src/index.ts';
import { personName } from '../shared.ts';

export interface Person {
  id: number;
  username: string;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
  /** the avatar's made widths and placeholder (GET /api/search answers it) */
  profileImageInfo?: ImageInfo | null;
}

/** Choose members by name (the app's search, users part); at most `max`; `exclude` are already in. */
export function PeoplePicker({ value, onChange, max, exclude = [] }: { value: Person[]; onChange: (p: Person[]) => void; max: number; exclude?: number[] }) {
  const { t } = useTranslation('messages');
  const { user } = useAuth();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<Person[]>([]);
  const [searching, setSearching] = useState(false);

  useEffect(() => {
    const term = q.trim();
    if (term.length <= 2) {
      setResults([]);
      return;
    }
    let live = true;
    setSearching(true);
    const timer = setTimeout(() => {
      apiRequest<{ users: Person[] }>('GET', `/api/search?q=${encodeURIComponent(term)}&limit=8`)
        .then((r) => live && setResults((r.users ?? []).filter((u) => u.id !== user?.id && !exclude.includes(u.id))))
        .catch(() => live && setResults([]))
        .finally(() => live && setSearching(false));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, user?.id, exclude.join(',')]);

  const chosen = new Set(value.map((p) => p.id));
  const toggle = (p: Person) => onChange(chosen.has(p.id) ? value.filter((x) => x.id !== p.id) : value.length >= max ? value : [...value, p]);

  return (
    <div className="msg-picker">
      {value.length > 0 && (
        <ul className="tags msg-picker__chosen" aria-label={t('picker.chosen')}>
          {value.map((p) => (
            <li key={p.id} className="tag is-medium is-link is-light">
              {personName(p)}
              <button type="button" className="delete is-small" aria-label={t('picker.remove', { name: personName(p) })} onClick={() => toggle(p)} />
            </li>
          ))}
        </ul>
      )}
      <label className="label is-small" htmlFor="msg-picker-q">
        {t('picker.label')}
      </label>
      <input id="msg-picker-q" className="input" type="search" value={q} placeholder={t('picker.placeholder')} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
      <p className="help">{value.length >= max ? t('picker.full', { count: max }) : searching ? t('picker.searching') : q.trim().length <= 2 ? t('picker.hint') : results.length ? '' : t('picker.none')}</p>
      {results.length > 0 && (
        <ul className="msg-picker__results">
          {results.map((p) => (
            <li key={p.id}>
              <button type="button" className={`msg-picker__person${chosen.has(p.id) ? ' is-chosen' : ''}`} aria-pressed={chosen.has(p.id)} disabled={!chosen.has(p.id) && value.length >= max} onClick={() => toggle(p)}>
                <Avatar src={p.profileImageUrl} info={p.profileImageInfo} name={personName(p)} size={28} decorative />
                <span>{personName(p)}</span>
                <span className="has-text-grey is-size-7">@{p.username}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
