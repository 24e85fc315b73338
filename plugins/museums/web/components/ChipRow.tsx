import type { ReactNode } from 'react';
import { ScrollArrow, useScrollAffordance, useTranslation } from '../../../../web/src/index.ts';

/**
 * A row of filter chips: wraps on wide screens; on phones one row that scrolls sideways, with a
 * fade and an arrow on each side that has more chips (issue 21 #2), through the shell's
 * `useScrollAffordance` (the same as the tab strips). The chips are ordinary buttons: Tab reaches
 * each one and a focused chip that is partly hidden is brought fully into view.
 */
export function ChipRow({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation('museums');
  const row = useScrollAffordance<HTMLDivElement>();
  return (
    <div className={`mz-chiprow${row.moreClass}`}>
      {row.more.start && <ScrollArrow side="start" className="mz-chiprow__more" label={t('discover.scrollBack')} onClick={() => row.scroll(-1)} />}
      <div ref={row.ref} className="mz-chips mz-chiprow__scroller" role="group" aria-label={label} data-testid={testId} onFocus={(e) => row.reveal(e.target)}>
        {children}
      </div>
      {row.more.end && <ScrollArrow side="end" className="mz-chiprow__more" label={t('discover.scrollForward')} onClick={() => row.scroll(1)} />}
    </div>
  );
}
