import type { FieldError } from './shared/validation-messages.ts';

/** An error that becomes an HTTP answer `{ message, errors? }` with its status. */
export class HttpError extends Error {
  status: number;
  errors?: FieldError[];
  headers?: Record<string, string>;
  expose = true;
  /** Brand checked instead of instanceof: under mocha, core can be loaded twice (CJS and ESM). */
  readonly isHttpError = true;
  constructor(status: number, message: string, extra: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.errors = extra.errors;
    this.headers = extra.headers;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError(400, message, { errors });
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Access denied') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooLarge = (message: string) => new HttpError(413, message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });

/** PostgreSQL error codes worth turning into client errors rather than 500s. */
export function pgErrorToHttp(err: any): HttpError | null {
  switch (err?.code) {
    case '23505': return new HttpError(409, 'This already exists');
    case '23503': return new HttpError(409, 'A referenced record does not exist');
    case '23514': return new HttpError(409, 'This change breaks a rule of the data');
    case '22021':
    case '22P05':
    case '22P02':
    case '22003':
    case '22007':
    case '22008': return new HttpError(400, 'A value is not valid');
    default: return null;
  }
}

export function isHttpError(e: unknown): e is HttpError {
  return e instanceof HttpError || (typeof e === 'object' && e !== null && (e as any).isHttpError === true && typeof (e as any).status === 'number');
}
