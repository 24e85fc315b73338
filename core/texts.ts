/**
 * Texts the server writes from locale files: `{{name}}` placeholders (i18next's syntax, so the web
 * app and the server read the same files) and dotted keys.
 */
import fs from 'node:fs';
import path from 'node:path';

export type TextParams = Record<string, string | number>;

/** `raw` with each `{{name}}` replaced by its parameter (empty when the parameter is missing). */
export function fillTemplate(raw: string, params: TextParams = {}): string {
  return raw.replace(/\{\{\s*(\w+)\s*\}\}/g, (_: string, k: string) => String(params[k] ?? ''));
}

/** The value at a dotted key (`a.b.c`) of a parsed locale file, undefined when a part is missing. */
export function textAt(tree: unknown, key: string): unknown {
  return key.split('.').reduce<any>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), tree);
}

const files = new Map<string, Record<string, unknown> | null>();

/** A locale file (JSON), parsed once per process; null when there is no such file. */
export function localeFile(file: string): Record<string, unknown> | null {
  if (!files.has(file)) files.set(file, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
  return files.get(file)!;
}

/**
 * The English texts of a plugin's `<localesDir>/en.json`: what the server stores (a notification's
 * title and message; the web app shows them in the member's language from their template). A
 * missing file or key is a programming error and throws.
 */
export function englishTexts(localesDir: string, label: string): (key: string, params?: TextParams) => string {
  const file = path.join(localesDir, 'en.json');
  const en = localeFile(file);
  if (!en) throw new Error(`${label} locale file ${file} is missing`);
  return (key, params = {}) => {
    const raw = textAt(en, key);
    if (typeof raw !== 'string') throw new Error(`${label} locale key ${key} is missing`);
    return fillTemplate(raw, params);
  };
}
