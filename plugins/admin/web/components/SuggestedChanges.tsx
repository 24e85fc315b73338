import { useId } from 'react';
import { useTranslation } from '../../../../web/src/index.ts';
import { useFactChanges, type FactChange } from '../../../museums/web/public.ts';

/**
 * A museum edit suggestion's changes, readable: each field (Business hours, Admission,
 * Accessibility, Phone…), and under it each fact that changes with its value now and the
 * proposed one, worded by the museums plugin as its museum page words them (a visitors'
 * structured correction reads "Thu, Dec 24 — Now: 9:00 AM – 6:00 PM · Proposed: Closed").
 * Reviewed suggestions (no current values) show the proposed values only. A description list:
 * screen readers read "fact, Now …, Proposed …"; stacked, it fits 320 px.
 */
export function SuggestedChanges({ changes, current }: { changes: Record<string, unknown>; current: Record<string, unknown> | null }) {
  const { t } = useTranslation('admin');
  const facts = useFactChanges();
  const id = useId();
  const fields = Object.keys(changes ?? {});
  if (!fields.length) return null;
  const known = current !== null;
  const value = (text: string | null, photo: string | undefined, which: 'now' | 'proposed') => (
    <span className={`admin-change__value is-${which}`}>
      <span className="admin-change__tag">{which === 'now' ? t('suggestions.now') : t('suggestions.proposed')}</span> <span className="admin-change__text">{text ?? t('suggestions.notSet')}</span>
      {photo && (
        <>
          {' '}
          <a href={photo} target="_blank" rel="noopener">
            {which === 'now' ? t('suggestions.photoNow') : t('suggestions.photoProposed')}
          </a>
        </>
      )}
    </span>
  );
  const row = (r: FactChange) => (
    <div key={r.key} className="admin-change__fact" data-fact={r.key}>
      <dt>{r.label}</dt>
      <dd>
        {known && value(r.current, r.currentPhoto, 'now')}
        {value(r.proposed, r.proposedPhoto, 'proposed')}
      </dd>
    </div>
  );
  return (
    <div className="admin-changes" data-testid="suggested-changes">
      {fields.map((field) => {
        const rows = facts.changes(field, changes[field], current ? (current[field] ?? null) : undefined);
        const label = facts.fieldLabel(field);
        // a plain field (phone, website…) is its own one fact: no heading above it
        const single = rows.length === 1 && rows[0].key === field;
        return (
          <div key={field} className="admin-change" data-field={field} {...(single ? {} : { role: 'group', 'aria-labelledby': `${id}-${field}` })}>
            {!single && (
              <p className="admin-change__field" id={`${id}-${field}`}>
                {label}
              </p>
            )}
            <dl className="admin-change__facts">{rows.map(row)}</dl>
          </div>
        );
      })}
    </div>
  );
}
