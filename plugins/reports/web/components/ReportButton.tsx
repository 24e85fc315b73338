import { lazy, Suspense, useState } from 'react';
import { Icon, useAuth, useTranslation } from '../../../../web/src/index.ts';
import type { TargetType } from './ReportDialog.tsx';

// the dialog loads when it is opened, not with every page that shows the button
const ReportDialog = lazy(() => import('./ReportDialog.tsx').then((m) => ({ default: m.ReportDialog })));

export interface ReportButtonProps {
  targetType: TargetType;
  targetId: number;
  /** the member who owns the content: no report menu on your own */
  ownerId?: number | null;
  /** 'icon' (cards, profile headers; default) or 'text' (comment lines) */
  variant?: 'icon' | 'text';
}

/** "Report" for signed-in members on content that is not theirs; opens the report dialog. */
export default function ReportButton({ targetType, targetId, ownerId, variant = 'icon' }: ReportButtonProps) {
  // the button's texts are in the bundled `nav` namespace: every insight card shows the button, and
  // its texts alone would load the whole reports namespace with the first screen
  const { t } = useTranslation('nav');
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!user || (ownerId != null && ownerId === user.id)) return null;
  const label = t(`reports.reportThis.${targetType}`);
  return (
    <>
      {variant === 'text' ? (
        <button type="button" className="button is-ghost is-small p-0 ml-2 has-text-grey" style={{ height: 'auto' }} onClick={() => setOpen(true)} aria-label={label} aria-haspopup="dialog">
          {t('reports.report')}
        </button>
      ) : (
        <button type="button" className="button is-white is-small reports-button" onClick={() => setOpen(true)} aria-label={label} title={label} aria-haspopup="dialog">
          <Icon name="alert" size={16} />
        </button>
      )}
      {open && (
        <Suspense fallback={null}>
          <ReportDialog targetType={targetType} targetId={targetId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
