/** Small helpers several plugins need: tags, LIKE escaping, ISO dates, opaque cursors, URLs, blanks. */
import type Koa from 'koa';
import { HttpError } from './errors.ts';

/** Tags arrive as a list or as one comma-separated text: split, trim, drop blanks and duplicates. */
export function normalizeTags(input: unknown): string[] {
  const parts = Array.isArray(input) ? input.flatMap((t) => String(t).split(',')) : typeof input === 'string' ? input.split(',') : [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const p of parts) {
    const t = p.trim().replace(/\s+/g, ' ').slice(0, 40);
    if (!t || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  if (out.length > 20) throw new HttpError(400, 'At most 20 tags');
  return out;
}

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%q%` for ILIKE with the wildcards of q taken literally; control characters become spaces (they never match). */
export function containsPattern(q: string): string {
  const s = q.replace(/[\u0000-\u001f]+/g, ' ').trim();
  return `%${likeEscape(s)}%`;
}

export function iso(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return d instanceof Date ? d.toISOString() : new Date(d).toISOString();
}

export function encodeCursor(v: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

export function decodeCursor<T>(s: string | undefined, check: (v: any) => boolean): T | null {
  if (!s) return null;
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (v && typeof v === 'object' && check(v)) return v as T;
  } catch {
    /* fall through */
  }
  throw new HttpError(400, 'Invalid cursor');
}

/** An http(s) URL or null. */
export function httpUrl(v: unknown, message: string): string {
  const s = String(v ?? '').trim();
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new HttpError(400, message);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new HttpError(400, message);
  return u.toString();
}

export function blankToNull(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t ? t : null;
}

/** PostgreSQL refuses NUL characters in text: remove them from every string of a JSON value. */
export function stripNul<T>(v: T): T {
  if (typeof v === 'string') return (v.includes('\u0000') ? v.replace(/\u0000/g, '') : v) as T;
  if (Array.isArray(v)) return v.map(stripNul) as T;
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) (v as any)[k] = stripNul((v as any)[k]);
  }
  return v;
}

/**
 * Middleware that removes NUL characters from the JSON body and the query of the requests whose
 * path matches `paths` (a plugin's own routes): such text would reach PostgreSQL as an encoding
 * error; stripped, it meets the routes' schemas like any other text.
 */
export function stripNulFrom(paths: RegExp): Koa.Middleware {
  // not async: a request of another path goes straight on (issue 18: no promise of its own)
  return (k, next) => {
    if (paths.test(k.path)) {
      const req = k.request as { body?: unknown };
      if (req.body && typeof req.body === 'object') stripNul(req.body);
      if (k.querystring.includes('%00')) k.query = stripNul({ ...k.query });
    }
    return next();
  };
}

/** A short excerpt of a text for a notification or a digest (whitespace folded, cut at a word, with an ellipsis). */
export function excerptOf(text: string | null | undefined, max = 120): string {
  const s = String(text ?? '').replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
