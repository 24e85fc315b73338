import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon.tsx';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** buttons at the bottom */
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  /** clicking the backdrop closes (default true) */
  closeOnBackdrop?: boolean;
  /** element to focus first (default: the first focusable field, else the dialog) */
  initialFocus?: React.RefObject<HTMLElement | null>;
  className?: string;
}

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), [tabindex]:not([tabindex="-1"])';

let openCount = 0;

/** Accessible dialog: aria-modal, focus trapped inside, Escape closes, focus restored on close. */
export function Modal({ open, onClose, title, children, footer, size = 'medium', closeOnBackdrop = true, initialFocus, className }: ModalProps) {
  const { t } = useTranslation('core');
  const titleId = useId();
  const cardRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    openCount += 1;
    document.documentElement.classList.add('is-clipped');
    const card = cardRef.current;
    const focusFirst = () => {
      // a field of the dialog already taken (clicked or typed into before this frame) keeps the focus
      const active = document.activeElement as HTMLElement | null;
      if (card && active && card.contains(active) && (active.matches('input, textarea, select') || active.isContentEditable)) return;
      const target =
        initialFocus?.current ??
        card?.querySelector<HTMLElement>('[autofocus]') ??
        card?.querySelector('.modal-card-body')?.querySelector<HTMLElement>(FOCUSABLE) ??
        card;
      target?.focus();
    };
    const raf = requestAnimationFrame(focusFirst);
    const onKey = (e: KeyboardEvent) => {
      if (!card) return;
      if (e.key === 'Escape') {
        // only the top-most dialog closes
        const dialogs = document.querySelectorAll('.curio-modal.is-active');
        if (dialogs[dialogs.length - 1] !== card.closest('.curio-modal')) return;
        e.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = [...card.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
      if (!items.length) {
        e.preventDefault();
        card.focus();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (e.shiftKey && (active === first || !card.contains(active))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !card.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      cancelAnimationFrame(raf);
      document.removeEventListener('keydown', onKey, true);
      openCount -= 1;
      if (openCount <= 0) document.documentElement.classList.remove('is-clipped');
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;
  return createPortal(
    <div className={`modal is-active curio-modal curio-modal--${size} ${className ?? ''}`}>
      <div className="modal-background" onClick={closeOnBackdrop ? () => onCloseRef.current() : undefined} aria-hidden="true" />
      <div className="modal-card" ref={cardRef} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <header className="modal-card-head">
          <h2 className="modal-card-title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="curio-icon-button" aria-label={t('modal.close')} onClick={() => onCloseRef.current()}>
            <Icon name="x" size={20} />
          </button>
        </header>
        <section className="modal-card-body">{children}</section>
        {footer && <footer className="modal-card-foot">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
