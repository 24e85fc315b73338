/**
 * The app's confirmation dialog, in place of the browser's `confirm()` (issue 21 #6): an
 * accessible Modal (labelled by its title, focus trapped, Escape or the close button cancel),
 * opened imperatively: `if (!(await confirmDialog({ title, message, confirmLabel, destructive }))) return;`
 * A module-level store like the toasts', rendered once by the shell's <ConfirmHost />.
 */
import { useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal.tsx';

export interface ConfirmOptions {
  title: string;
  message?: string;
  /** the confirm button's text (default "Confirm") */
  confirmLabel?: string;
  /** the cancel button's text (default "Cancel") */
  cancelLabel?: string;
  /** a red confirm button, for deleting */
  destructive?: boolean;
}

interface Pending extends ConfirmOptions {
  id: number;
  resolve: (ok: boolean) => void;
}

let queue: Pending[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

/** Asks; resolves true when confirmed, false when cancelled (button, Escape, backdrop). */
export function confirmDialog(opts: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    queue = [...queue, { ...opts, id: nextId++, resolve }];
    emit();
  });
}

function settle(id: number, ok: boolean) {
  const item = queue.find((p) => p.id === id);
  if (!item) return;
  queue = queue.filter((p) => p.id !== id);
  emit();
  item.resolve(ok);
}

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};
const snapshot = () => queue;

export function ConfirmHost() {
  const { t } = useTranslation('core');
  const items = useSyncExternalStore(subscribe, snapshot, snapshot);
  const current = items[0];
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (!current) return null;
  return (
    <Modal
      key={current.id}
      open
      size="small"
      className="curio-confirm"
      title={current.title}
      onClose={() => settle(current.id, false)}
      initialFocus={cancelRef}
      footer={
        <div className="buttons is-right curio-confirm__buttons">
          <button type="button" className="button" ref={cancelRef} onClick={() => settle(current.id, false)}>
            {current.cancelLabel ?? t('confirm.cancel')}
          </button>
          <button type="button" className={`button ${current.destructive ? 'is-danger' : 'is-primary'}`} onClick={() => settle(current.id, true)}>
            {current.confirmLabel ?? t('confirm.confirm')}
          </button>
        </div>
      }
    >
      {current.message && <p className="curio-confirm__message">{current.message}</p>}
    </Modal>
  );
}
