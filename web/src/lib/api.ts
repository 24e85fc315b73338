/**
 * The request layer (spec part 1 §7–§9): credentials on every call, a JSON body only when a
 * payload exists, readable error messages, status toasts, and the retry / cache policy.
 * The generated client (web/src/api/generated/*) calls `apiRequest`.
 */
import { toast } from './toast.tsx';
import { t } from '../i18n.ts';

export const FALLBACK_ERROR_MESSAGE = 'An unexpected error occurred';

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  /** field errors of a 400 answer: [{ path, message }] */
  get errors(): Array<{ path: string; message: string }> {
    const b = this.body as { errors?: unknown } | null;
    return Array.isArray(b?.errors) ? (b!.errors as any[]).filter((e) => e && typeof e.message === 'string') : [];
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

/** message, error, data.message, or the errors array's messages joined by ', '. */
function messageFromJson(json: unknown): string | undefined {
  if (typeof json === 'string') return str(json);
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, any>;
  const direct = str(o.message) ?? str(o.error) ?? str(o.data?.message);
  if (direct) return direct;
  if (o.error && typeof o.error === 'object' && str(o.error.message)) return o.error.message;
  if (Array.isArray(o.errors) && o.errors.length) {
    const parts = o.errors.map((e: any) => (typeof e === 'string' ? e : str(e?.message))).filter(Boolean);
    if (parts.length) return parts.join(', ');
  }
  return undefined;
}

/**
 * Cleans a raw error text: strips surrounding quotes, unescapes quotes, turns newlines into
 * spaces, collapses whitespace, and unwraps an embedded JSON object ("Error: {"message":"x"}" → "x").
 */
export function cleanErrorText(raw: string): string {
  let s = String(raw ?? '').trim();
  for (let i = 0; i < 2 && s.length >= 2 && ((s[0] === '"' && s.endsWith('"')) || (s[0] === "'" && s.endsWith("'"))); i++) {
    s = s.slice(1, -1).trim();
  }
  s = s.replace(/\\"/g, '"').replace(/\\'/g, "'");
  s = s.replace(/\\r\\n|\\n|\\r/g, ' ').replace(/\r\n|\n|\r/g, ' ');
  s = s.replace(/\s+/g, ' ').trim();
  const start = s.indexOf('{');
  const end = s.lastIndexOf('}');
  if (start !== -1 && end > start) {
    try {
      const inner = messageFromJson(JSON.parse(s.slice(start, end + 1)));
      if (inner) return cleanErrorText(inner);
    } catch {
      // not JSON after all
    }
  }
  return s;
}

/** The message of a failed answer, following spec §8. */
export function extractErrorMessage(text: string, statusText = ''): { message: string; body: unknown } {
  const trimmed = (text ?? '').trim();
  if (trimmed) {
    try {
      const json = JSON.parse(trimmed);
      const m = messageFromJson(json);
      if (m) return { message: cleanErrorText(m), body: json };
      const cleaned = typeof json === 'object' ? '' : cleanErrorText(String(json));
      if (cleaned) return { message: cleaned, body: json };
      return { message: str(statusText) ?? FALLBACK_ERROR_MESSAGE, body: json };
    } catch {
      const cleaned = cleanErrorText(trimmed);
      if (cleaned) return { message: cleaned, body: trimmed };
    }
  }
  return { message: str(statusText) ?? FALLBACK_ERROR_MESSAGE, body: trimmed || null };
}

/** Network failures become ApiError with status 0. */
function networkError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if ((e as Error)?.name === 'AbortError') return new ApiError(0, 'Request aborted', null);
  return new ApiError(0, t('core:toast.networkFailed'), null);
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') || '';
  if (type.includes('json')) return JSON.parse(text);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// API requests in flight and when the last one ended (the live stream opens once they are quiet)
let inFlight = 0;
let lastEnd = 0;
/** How many API requests are under way, and when (performance.now()) the last one ended. */
export function apiActivity(): { inFlight: number; lastEnd: number } {
  return { inFlight, lastEnd };
}

/**
 * One call to the API. Credentials are always sent; a JSON body with a JSON content type only
 * when `body` is given. Throws ApiError { status, message, body } on a failed answer.
 */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method: method.toUpperCase(), credentials: 'include', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    if (typeof FormData !== 'undefined' && body instanceof FormData) init.body = body;
    else {
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  inFlight++;
  try {
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (e) {
      throw networkError(e);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      const { message, body: errBody } = extractErrorMessage(text, res.statusText);
      throw new ApiError(res.status, message, errBody);
    }
    return (await parseBody(res)) as T;
  } finally {
    inFlight--;
    lastEnd = performance.now();
  }
}

/** Upload with progress (photos, videos): multipart via XMLHttpRequest, progress 0–100. */
export function uploadWithProgress<T = unknown>(
  url: string,
  formData: FormData,
  onProgress?: (percent: number, loaded: number, total: number) => void,
  options: { method?: string; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', url, true);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)), e.loaded, e.total);
    };
    xhr.onload = () => {
      const text = xhr.responseText ?? '';
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100, 1, 1);
        if (!text) return resolve(undefined as T);
        try {
          resolve(JSON.parse(text) as T);
        } catch {
          resolve(text as unknown as T);
        }
      } else {
        const { message, body } = extractErrorMessage(text, xhr.statusText);
        reject(new ApiError(xhr.status, message, body));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, t('core:toast.networkFailed'), null));
    xhr.onabort = () => reject(new ApiError(0, 'Request aborted', null));
    if (options.signal) {
      if (options.signal.aborted) return xhr.abort();
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(formData);
  });
}

// ---------------------------------------------------------------- retry policy

export const RETRY_BASE_DELAY = 1000;
export const RETRY_MAX_DELAY = 30000;
export const QUERY_RETRIES = 3;
export const MUTATION_RETRIES = 2;

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : (error as { status?: number })?.status;
}

/** No retry on 4xx answers, except 401 and 408. Network errors and 5xx are retried. */
export function isRetryable(error: unknown): boolean {
  const s = statusOf(error);
  if (s === undefined || s === 0) return true;
  if (s >= 400 && s < 500) return s === 401 || s === 408;
  return true;
}

/** 1000 ms, doubling per attempt (attempt 1 = first retry), capped at 30000 ms. */
export function retryDelay(attempt: number, base = RETRY_BASE_DELAY, max = RETRY_MAX_DELAY): number {
  return Math.min(base * 2 ** Math.max(0, attempt - 1), max);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs a mutation with the mutation retry policy (≤ 2 retries by default). */
export async function withRetry<T>(
  fn: () => Promise<T>,
  opts: { retries?: number; baseDelay?: number; maxDelay?: number; retryIf?: (e: unknown) => boolean } = {},
): Promise<T> {
  const retries = opts.retries ?? MUTATION_RETRIES;
  const retryIf = opts.retryIf ?? isRetryable;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= retries || !retryIf(e)) throw e;
      await sleep(retryDelay(attempt + 1, opts.baseDelay, opts.maxDelay));
    }
  }
}

// ---------------------------------------------------------------- toasts

/** The status toast of spec §8 for a failed call. */
export function toastApiError(error: unknown): void {
  const status = statusOf(error) ?? 0;
  const message = (error as Error)?.message || FALLBACK_ERROR_MESSAGE;
  switch (status) {
    case 0:
      toastNetworkError(message);
      return;
    case 401:
      toast({ title: t('core:toast.authError'), description: message, variant: 'error' });
      return;
    case 403:
      toast({ title: t('core:toast.accessDenied'), description: message, variant: 'error' });
      return;
    case 404:
      toast({ title: t('core:toast.notFound'), description: message, variant: 'error' });
      return;
    case 400:
      toast({ title: t('core:toast.validationError'), description: message, variant: 'warning' });
      return;
    case 500:
      toast({ title: t('core:toast.serverError'), description: t('core:toast.serverErrorDescription'), variant: 'error' });
      return;
    default:
      toast({ title: t('core:toast.requestFailed'), description: message, variant: 'error' });
  }
}

export function toastAuthError(message?: string): void {
  toast({ title: t('core:toast.authError'), description: message || t('core:toast.authRequired'), variant: 'error' });
}
export function toastNetworkError(message?: string): void {
  toast({ title: t('core:toast.connectionError'), description: message || t('core:toast.networkFailed'), variant: 'error' });
}
export function toastValidationError(message?: string): void {
  toast({ title: t('core:toast.validationError'), description: message || t('core:toast.checkInput'), variant: 'warning' });
}
export function toastSuccess(operation: string): void {
  toast({ title: t('core:toast.success'), description: t('core:toast.successDescription', { operation }), variant: 'success' });
}
export function toastFailure(operation: string): void {
  toast({ title: t('core:toast.failed'), description: t('core:toast.failedDescription', { operation }), variant: 'error' });
}
export function toastLoadFailure(data: string): void {
  toast({ title: t('core:toast.loadFailed'), description: t('core:toast.loadFailedDescription', { data }), variant: 'error' });
}
