import type { ReactNode } from 'react';
import { Modal, useTranslation } from '../../../../web/src/index.ts';

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger = true,
  busy = false,
  confirmDisabled = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('communities');
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="small"
      footer={
        <>
          <button type="button" className={`button ${danger ? 'is-danger' : 'is-primary'}${busy ? ' is-loading' : ''}`} disabled={busy || confirmDisabled} onClick={onConfirm}>
            {confirmLabel}
          </button>
          <button type="button" className="button" onClick={onClose} autoFocus>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

/** A dialog asking for a reason (warn, ban, report). */
export function ReasonDialog({
  open,
  title,
  label,
  confirmLabel,
  required = true,
  danger = false,
  busy = false,
  value,
  onChange,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  label: string;
  confirmLabel: string;
  required?: boolean;
  danger?: boolean;
  busy?: boolean;
  value: string;
  onChange: (v: string) => void;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('communities');
  const blank = !value.trim();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="small"
      footer={
        <>
          <button
            type="submit"
            form="cm-reason-form"
            className={`button ${danger ? 'is-danger' : 'is-primary'}${busy ? ' is-loading' : ''}`}
            disabled={busy || (required && blank)}
          >
            {confirmLabel}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form
        id="cm-reason-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!required || !blank) onConfirm();
        }}
      >
        {children}
        <div className="field">
          <label className="label" htmlFor="cm-reason">
            {label}
            {required && <span aria-hidden="true"> *</span>}
          </label>
          <textarea id="cm-reason" className="textarea" rows={3} maxLength={500} required={required} value={value} onChange={(e) => onChange(e.target.value)} />
        </div>
      </form>
    </Modal>
  );
}
