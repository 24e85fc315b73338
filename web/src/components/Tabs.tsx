import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollArrow, useScrollAffordance } from './ScrollRow.tsx';

export interface TabItem {
  id: string;
  label: ReactNode;
  /** a small count badge */
  count?: number;
  icon?: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  tabs: TabItem[];
  active: string;
  onChange: (id: string) => void;
  /** accessible name of the tab list */
  label?: string;
  /** id prefix tying tabs to their panels: panel ids are `${idPrefix}-panel-${tab.id}` */
  idPrefix?: string;
  className?: string;
  /** Bulma modifiers, e.g. 'is-boxed', 'is-toggle', 'is-fullwidth', 'is-centered' */
  variant?: string;
}

export function tabIds(prefix: string, id: string) {
  return { tab: `${prefix}-tab-${id}`, panel: `${prefix}-panel-${id}` };
}

/**
 * WAI-ARIA tabs: role=tablist, arrow keys (and Home/End) move between tabs and select them.
 * Render the content with <TabPanel idPrefix=… id=… active=…>.
 */
export function Tabs({ tabs, active, onChange, label, idPrefix, className, variant = '' }: TabsProps) {
  const auto = useId();
  const prefix = idPrefix ?? auto;
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const enabled = tabs.map((t, i) => (t.disabled ? -1 : i)).filter((i) => i >= 0);

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const pos = enabled.indexOf(index);
    let next: number | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = enabled[(pos + 1) % enabled.length];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = enabled[(pos - 1 + enabled.length) % enabled.length];
    else if (e.key === 'Home') next = enabled[0];
    else if (e.key === 'End') next = enabled[enabled.length - 1];
    if (next === undefined) return;
    e.preventDefault();
    refs.current[next]?.focus();
    onChange(tabs[next].id);
  };

  // A strip wider than the screen scrolls sideways, with a fade and an arrow on each side that
  // has more tabs (issue 21 #3); the selected tab is scrolled into view.
  const { t } = useTranslation('core');
  const strip = useScrollAffordance<HTMLDivElement>();
  const { reveal } = strip;
  useEffect(() => {
    const selected = refs.current[tabs.findIndex((tab) => tab.id === active)];
    reveal(selected);
    // A strip not laid out yet when it mounts (a dialog opening on its third tab, its texts still
    // loading) had nothing to scroll: the selected tab stayed out of sight. Reveal it once the
    // strip has its size, then leave it (a strip the user scrolled by hand stays where it is).
    const row = strip.ref.current;
    if (!row || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      if (row.clientWidth === 0 || row.scrollWidth <= row.clientWidth) return;
      reveal(selected);
      ro.disconnect();
    });
    ro.observe(row);
    if (row.firstElementChild) ro.observe(row.firstElementChild);
    return () => ro.disconnect();
    // only when the selection changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, tabs.length]);

  return (
    <div className={`curio-tabs-wrap${strip.moreClass}`}>
    {strip.more.start && <ScrollArrow side="start" className="curio-tabs__more" size={18} label={t('tabs.scrollBack')} onClick={() => strip.scroll(-1)} />}
    <div ref={strip.ref} className={`tabs curio-tabs ${variant} ${className ?? ''}`}>
      <ul role="tablist" aria-label={label}>
        {tabs.map((tab, i) => {
          const selected = tab.id === active;
          const ids = tabIds(prefix, tab.id);
          return (
            <li key={tab.id} className={selected ? 'is-active' : undefined} role="presentation">
              <button
                type="button"
                ref={(el) => {
                  refs.current[i] = el;
                }}
                role="tab"
                id={ids.tab}
                aria-selected={selected}
                aria-controls={ids.panel}
                tabIndex={selected ? 0 : -1}
                disabled={tab.disabled}
                onClick={() => onChange(tab.id)}
                onKeyDown={(e) => onKeyDown(e, i)}
              >
                {tab.icon && <span className="icon is-small">{tab.icon}</span>}
                <span>{tab.label}</span>
                {tab.count !== undefined && <span className="tag is-rounded curio-tabs__count">{tab.count}</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
    {strip.more.end && <ScrollArrow side="end" className="curio-tabs__more" size={18} label={t('tabs.scrollForward')} onClick={() => strip.scroll(1)} />}
    </div>
  );
}

export function TabPanel({ idPrefix, id, active, children, className }: { idPrefix: string; id: string; active: string; children: ReactNode; className?: string }) {
  const ids = tabIds(idPrefix, id);
  if (id !== active) return null;
  return (
    <div role="tabpanel" id={ids.panel} aria-labelledby={ids.tab} tabIndex={0} className={`curio-tabpanel ${className ?? ''}`}>
      {children}
    </div>
  );
}
