import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';

/**
 * A row wider than the screen that scrolls sideways with a visible affordance (issue 21 #2, #3):
 * the shell's tab strips (Tabs.tsx) and Discover's chip rows. The hook watches the scroller (its
 * scroll position and its size, and its first child's) and says on which side more is hidden;
 * `scroll` moves by most of a screen; `reveal` brings a child fully into view (the selected tab,
 * a focused chip). Render a <ScrollArrow> on each side that has more.
 */
export function useScrollAffordance<T extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<T>(null);
  const [more, setMore] = useState({ start: false, end: false });
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const update = () => {
      const max = row.scrollWidth - row.clientWidth;
      const x = Math.abs(row.scrollLeft);
      const next = { start: max > 1 && x > 1, end: max > 1 && x < max - 1 };
      setMore((m) => (m.start === next.start && m.end === next.end ? m : next));
    };
    update();
    row.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : null;
    ro?.observe(row);
    if (row.firstElementChild) ro?.observe(row.firstElementChild);
    return () => {
      row.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, []);
  const scroll = useCallback((dir: 1 | -1) => {
    const row = ref.current;
    if (row) row.scrollBy({ left: dir * row.clientWidth * 0.7, behavior: 'smooth' });
  }, []);
  /** Scrolls the row when `el` is hidden or under an arrow (`margin` px from an edge), leaving room for the arrow. */
  const reveal = useCallback((el: Element | null | undefined, margin = 24) => {
    const row = ref.current;
    if (!row || !el || el === row || row.scrollWidth <= row.clientWidth) return;
    const r = row.getBoundingClientRect();
    const c = el.getBoundingClientRect();
    if (c.left < r.left + margin) row.scrollBy({ left: c.left - r.left - margin - 8 });
    else if (c.right > r.right - margin) row.scrollBy({ left: c.right - r.right + margin + 8 });
  }, []);
  /** `has-more-start` / `has-more-end` for the wrapper (the fades in CSS). */
  const moreClass = `${more.start ? ' has-more-start' : ''}${more.end ? ' has-more-end' : ''}`;
  return { ref, more, moreClass, scroll, reveal };
}

/**
 * The arrow on one side of a scrolling row. Out of the Tab order: keyboard users reach every item
 * by Tab or the arrow keys, and the row follows the focus; the arrow is for pointers.
 */
export function ScrollArrow({ side, label, className, onClick, size = 16 }: { side: 'start' | 'end'; label: string; className: string; onClick: () => void; size?: number }) {
  return (
    <button type="button" className={`curio-scroll-arrow curio-scroll-arrow--${side} ${className} ${className}--${side}`} tabIndex={-1} aria-label={label} onClick={onClick}>
      <Icon name={side === 'start' ? 'chevron-left' : 'chevron-right'} size={size} />
    </button>
  );
}
