import { useEffect, useState } from 'react';
import { mutate, toast, ApiError, translate } from '../../../web/src/index.ts';

/** The server's message when there is one, else the spec's default text (§8). */
export function messageOf(e: unknown, fallback: string): string {
  if (e instanceof ApiError && e.message && e.status !== 500) return e.message;
  return fallback;
}

/** A destructive toast: title, and the server message or the default text (spec part 2 §8). */
export function failToast(e: unknown, fallback: string, title = translate('admin:toast.error')): void {
  toast({ title, description: messageOf(e, fallback), variant: 'destructive' });
}

export function okToast(title: string, description?: string): void {
  toast({ title, description, variant: 'success' });
}

/** Refetches every cached admin list whose URL starts with one of the prefixes (all admin data by default). */
export function refreshAdmin(...prefixes: string[]): Promise<unknown> {
  const list = prefixes.length ? prefixes : ['/api/admin/'];
  return mutate((key) => {
    const url = Array.isArray(key) ? String(key[0]) : typeof key === 'string' ? key : '';
    return list.some((p) => url.startsWith(p));
  });
}

export function qs(params: Record<string, string | number | null | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export function fullName(u: { firstName?: string | null; lastName?: string | null } | null | undefined): string {
  return `${u?.firstName ?? ''} ${u?.lastName ?? ''}`.trim();
}

/** Value shown for a suggested change: text as is, objects as JSON (spec §2). */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** "2026-05-01T14:30" (datetime-local) → ISO string, or null. */
export function localToIso(v: string): string | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Debounced value. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** After a failed client-side check: focus the first field marked invalid (once React has rendered the errors). */
export function focusFirstError(formId: string): void {
  requestAnimationFrame(() => {
    const el = document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]');
    el?.focus();
  });
}
