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
  const { t } = useTranslation('reports');
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!user || (ownerId != null && ownerId === user.id)) return null;
  const label = t('menu.reportThis', { kind: t(`targetType.${targetType}`) });
  return (
    <>
      {variant === 'text' ? (
        <button type="button" className="button is-ghost is-small p-0 ml-2 has-text-grey" style={{ height: 'auto' }} onClick={() => setOpen(true)} aria-label={label} aria-haspopup="dialog">
          {t('menu.report')}
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
