/**
 * npm run i18n:check — every locale of a namespace must have the same keys.
 * Namespaces: `core` (web/src/locales) and each plugin (plugins/<id>/locales, namespace = id; its
 * emails' strings in plugins/<id>/locales/email, namespace <id>/email).
 * Plural forms (key_one, key_other, key_many…) count as one key, since languages need different
 * sets. A namespace lacking a locale file that other namespaces have is reported too.
 * Exit 1 and a list of problems when anything is missing; a summary line either way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Json = Record<string, unknown>;

function flatten(obj: Json, prefix = '', out = new Set<string>()): Set<string> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Json, key, out);
    else out.add(key.replace(PLURAL, ''));
  }
  return out;
}

function vars(obj: Json, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) vars(v as Json, key, out);
    else if (typeof v === 'string') {
      const found = [...v.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).filter((n) => n !== 'count');
      out.set(key.replace(PLURAL, ''), [...new Set(found)].sort().join(','));
    }
  }
  return out;
}

interface Namespace {
  name: string;
  dir: string;
  locales: Map<string, Json>;
}

const problems: string[] = [];
const warnings: string[] = [];
const namespaces: Namespace[] = [];

function readNamespace(name: string, dir: string) {
  if (!fs.existsSync(dir)) return;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  if (!files.length) return;
  const locales = new Map<string, Json>();
  for (const f of files) {
    const file = path.join(dir, f);
    try {
      const data = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('not a JSON object');
      locales.set(f.replace(/\.json$/, ''), data);
    } catch (e) {
      problems.push(`${path.relative(ROOT, file)}: invalid JSON (${(e as Error).message})`);
    }
  }
  namespaces.push({ name, dir, locales });
}

readNamespace('core', path.join(ROOT, 'web', 'src', 'locales'));
const pluginsDir = path.join(ROOT, 'plugins');
if (fs.existsSync(pluginsDir)) {
  for (const id of fs.readdirSync(pluginsDir).sort()) {
    readNamespace(id, path.join(pluginsDir, id, 'locales'));
    // email templates' strings (server side, core/mail.ts emailTranslator): not in the web bundle
    readNamespace(`${id}/email`, path.join(pluginsDir, id, 'locales', 'email'));
  }
}

const allLocales = new Set<string>();
for (const ns of namespaces) for (const l of ns.locales.keys()) allLocales.add(l);

let keyCount = 0;
for (const ns of namespaces) {
  const rel = path.relative(ROOT, ns.dir);
  for (const l of allLocales) if (!ns.locales.has(l)) problems.push(`${rel}: missing ${l}.json`);
  const keys = new Map([...ns.locales].map(([l, data]) => [l, flatten(data)]));
  const union = new Set<string>();
  for (const set of keys.values()) for (const k of set) union.add(k);
  keyCount += union.size;
  for (const [l, set] of keys) {
    const missing = [...union].filter((k) => !set.has(k)).sort();
    for (const k of missing) problems.push(`${rel}/${l}.json: missing key "${k}" (namespace ${ns.name})`);
  }
  // Placeholders that differ between languages are likely mistakes, but not always.
  const placeholders = new Map([...ns.locales].map(([l, data]) => [l, vars(data)]));
  const [first, ...rest] = [...placeholders];
  if (first) {
    for (const [l, map] of rest) {
      for (const [k, v] of first[1]) {
        if (map.has(k) && map.get(k) !== v) warnings.push(`${rel}: "${k}" uses {{${v || '—'}}} in ${first[0]} but {{${map.get(k) || '—'}}} in ${l}`);
      }
    }
  }
}

for (const w of warnings) console.warn(`warning: ${w}`);
for (const p of problems) console.error(`✗ ${p}`);
const summary = `i18n: ${namespaces.length} namespace(s), ${allLocales.size} locale(s) [${[...allLocales].sort().join(', ')}], ${keyCount} key(s), ${problems.length} problem(s), ${warnings.length} warning(s)`;
if (problems.length) {
  console.error(summary);
  process.exit(1);
}
console.log(summary);
