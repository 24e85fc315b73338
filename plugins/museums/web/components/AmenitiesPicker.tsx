import { useId, useState } from 'react';
import { Icon, useTranslation } from '../../../../web/src/index.ts';
import { AMENITY_GROUPS, type AmenityKey } from '../../shared/catalog.ts';

/** Amenities by catalogue group: collapsible groups of checkboxes, each with an "N selected" badge. */
export function AmenitiesPicker({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const { t } = useTranslation('museums');
  const base = useId();
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const selected = new Set(value);
  const toggle = (k: AmenityKey) => {
    const next = new Set(selected);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    // keep catalogue order
    onChange(AMENITY_GROUPS.flatMap((g) => g.amenities).filter((a) => next.has(a)));
  };
  return (
    <fieldset className="mz-amenities-picker">
      <legend className="label">
        {t('amenitiesPicker.title')} <span className="tag is-rounded is-light">{t('amenitiesPicker.selected', { count: value.length })}</span>
      </legend>
      {AMENITY_GROUPS.map((g) => {
        const count = g.amenities.filter((a) => selected.has(a)).length;
        const isOpen = !!open[g.id];
        const panel = `${base}-${g.id}`;
        return (
          <div className="mz-amenity-group" key={g.id}>
            <button type="button" className="mz-amenity-group__toggle" aria-expanded={isOpen} aria-controls={panel} onClick={() => setOpen({ ...open, [g.id]: !isOpen })}>
              <Icon name={isOpen ? 'chevron-down' : 'chevron-right'} size={16} />
              <span>{t(`amenityGroups.${g.id}`)}</span>
              {count > 0 && <span className="tag is-primary is-light is-rounded">{t('amenitiesPicker.selected', { count })}</span>}
            </button>
            <div id={panel} hidden={!isOpen} className="mz-amenity-group__items">
              {g.amenities.map((a) => (
                <label className="checkbox" key={a}>
                  <input type="checkbox" checked={selected.has(a)} onChange={() => toggle(a)} /> {t(`amenities.${a}`)}
                </label>
              ))}
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
