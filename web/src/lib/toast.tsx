/**
 * Toasts (spec part 1 §2, §4, §9): one visible at a time (others wait in a queue), four types,
 * 5 s auto-dismiss paused on hover or focus, F8 focuses the region, swipe right ≥ 50 px or the
 * close button dismisses. A module-level store, so the request layer can toast outside React.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import i18next from 'i18next';
import { signInPath } from './next-path.ts';

export type ToastVariant = 'success' | 'error' | 'warning' | 'info' | 'destructive' | 'default';

export interface ToastOptions {
  /** usually a text; an element when part of it is drawn (a badge's icon: EmojiText) */
  title?: ReactNode;
  description?: ReactNode;
  /** 'destructive' is an alias of 'error'; 'default' of 'info' */
  variant?: ToastVariant;
  /** milliseconds before it closes itself; default 5000 */
  duration?: number;
  /** a link in the toast, e.g. { label: 'Sign in', to: signInPath() } */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  /** an in-app path */
  to: string;
}

export interface ToastItem {
  id: number;
  variant: 'success' | 'error' | 'warning' | 'info';
  duration: number;
  title?: ReactNode;
  description?: ReactNode;
  action?: ToastAction;
}

export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;

let queue: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

function normalize(v: ToastVariant | undefined): ToastItem['variant'] {
  if (v === 'destructive') return 'error';
  if (!v || v === 'default') return 'info';
  return v;
}

/** Shows a toast (queued behind the one on screen). Returns its id and a dismiss function. */
export function toast(opts: ToastOptions): { id: number; dismiss: () => void } {
  const id = nextId++;
  const item: ToastItem = {
    id,
    title: opts.title,
    description: opts.description,
    variant: normalize(opts.variant),
    duration: opts.duration ?? TOAST_DURATION,
    action: opts.action,
  };
  // The same toast twice in a row (e.g. a burst of failing calls) is shown once.
  const last = queue[queue.length - 1];
  if (last && last.title === item.title && last.description === item.description && last.variant === item.variant) {
    return { id: last.id, dismiss: () => dismissToast(last.id) };
  }
  queue = [...queue, item];
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id?: number): void {
  queue = id === undefined ? [] : queue.filter((t) => t.id !== id);
  emit();
}

function subscribe(fn: () => void) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const snapshot = () => queue;

/** The "Sign in required" toast's link: to the sign-in page, coming back here afterwards (issue 21 #8). */
export function signInToastAction(): ToastAction {
  return { label: i18next.t('core:nav.signIn'), to: signInPath() };
}

/** `const { toast } = useToast(); toast({ title, description, variant })` */
export function useToast() {
  return { toast, dismiss: dismissToast };
}

function useToastQueue(): ToastItem[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

const ICONS: Record<ToastItem['variant'], string> = {
  success: 'M20 6 9 17l-5-5',
  error: 'M12 8v5m0 3h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  warning: 'M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  info: 'M12 16v-4m0-4h.01M22 12a10 10 0 1 1-20 0 10 10 0 0 1 20 0z',
};

function ToastCard({ item, onDismiss }: { item: ToastItem; onDismiss: () => void }) {
  const { t } = useTranslation('core');
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dx, setDx] = useState(0);
  const [leaving, setLeaving] = useState(false);
  const remaining = useRef(item.duration);
  const startedAt = useRef(0);
  const drag = useRef<{ x: number; id: number } | null>(null);

  const isPaused = paused || hovered || focused;

  useEffect(() => {
    if (isPaused || leaving || !Number.isFinite(remaining.current)) return;
    startedAt.current = Date.now();
    const timer = setTimeout(onDismiss, Math.max(0, remaining.current));
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt.current;
    };
  }, [isPaused, leaving, onDismiss]);

  // Pause while the window is hidden: a toast should not expire unseen.
  useEffect(() => {
    const onVis = () => setPaused(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', onVis);
    return () => document.removeEventListener('visibilitychange', onVis);
  }, []);

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
    drag.current = { x: e.clientX, id: e.pointerId };
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // synthetic pointers cannot be captured
    }
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current || drag.current.id !== e.pointerId) return;
    setDx(Math.max(0, e.clientX - drag.current.x));
  };
  const endDrag = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag.current || drag.current.id !== e.pointerId) return;
    const moved = e.clientX - drag.current.x;
    drag.current = null;
    if (moved >= TOAST_SWIPE_THRESHOLD) {
      setLeaving(true);
      setDx(window.innerWidth);
      setTimeout(onDismiss, 150);
    } else setDx(0);
  };

  const role = item.variant === 'error' ? 'alert' : 'status';
  // one toast at a time, announced by its own live region: a plain container, not a list (an <li>
  // with role=status is no list item, which axe's list rule refuses)
  return (
    <div
      className={`curio-toast curio-toast--${item.variant}${leaving ? ' is-leaving' : ''}${dx ? ' is-swiping' : ''}`}
      role={role}
      aria-atomic="true"
      tabIndex={0}
      data-variant={item.variant}
      style={dx ? { transform: `translateX(${dx}px)`, opacity: Math.max(0.2, 1 - dx / 300) } : undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDismiss();
        }
      }}
      onMouseDown={(e) => {
        // A click or drag should not focus the toast (focus pauses it until it is blurred).
        if (!(e.target as HTMLElement).closest('button')) e.preventDefault();
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    >
      <svg className="curio-toast__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path d={ICONS[item.variant]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <div className="curio-toast__body">
        {item.title && <p className="curio-toast__title">{item.title}</p>}
        {item.description && <p className="curio-toast__description">{item.description}</p>}
        {item.action && (
          <Link to={item.action.to} className="curio-toast__action" onClick={onDismiss}>
            {item.action.label}
          </Link>
        )}
      </div>
      <button type="button" className="curio-toast__close" aria-label={t('toast.close')} onClick={onDismiss}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <path d="M18 6 6 18M6 6l12 12" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}

/** The notification region: the first queued toast, F8 moves focus here. */
export function Toaster() {
  const { t } = useTranslation('core');
  const items = useToastQueue();
  const regionRef = useRef<HTMLElement>(null);
  const current = items[0];

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F8' && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        const first = regionRef.current?.querySelector<HTMLElement>('.curio-toast');
        (first ?? regionRef.current)?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // How far down the screen a toast reaches, for the mobile dialogs to start below it (issue 21 #12).
  useEffect(() => {
    const region = regionRef.current;
    const root = document.documentElement;
    if (!region || !current) {
      root.style.removeProperty('--curio-toaster-h');
      return;
    }
    const update = () => {
      const r = region.getBoundingClientRect();
      // only a toast at the top of the screen (small screens) pushes dialogs down
      if (r.height > 0 && r.top < window.innerHeight / 2) root.style.setProperty('--curio-toaster-h', `${Math.ceil(r.bottom + 8)}px`);
      else root.style.removeProperty('--curio-toaster-h');
    };
    update();
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(update) : null;
    ro?.observe(region);
    window.addEventListener('resize', update);
    return () => {
      ro?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty('--curio-toaster-h');
    };
  }, [current]);

  const dismissCurrent = useCallback(() => {
    if (current) dismissToast(current.id);
  }, [current]);

  return (
    <section ref={regionRef} className="curio-toaster" aria-label={t('toast.region')} aria-live="polite" aria-keyshortcuts="F8" tabIndex={-1}>
      <div className="curio-toaster__stack">{current && <ToastCard key={current.id} item={current} onDismiss={dismissCurrent} />}</div>
    </section>
  );
}
