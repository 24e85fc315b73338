/**
 * Build-time ajv validators for the browser.
 *
 * The server's Content-Security-Policy has no 'unsafe-eval', so ajv cannot compile schemas in the
 * browser (it generates code with `new Function`). Instead, every registered schema
 * (schemas/*.schema.json and plugins/<id>/schemas/*.schema.json, by `$id`) is compiled here,
 * with the same ajv options as the server's body validator (core/schemas.ts `makeAjv`), into
 * standalone code. SchemaForm loads them lazily:
 *
 *   import { loadValidator } from 'virtual:curio-validators';
 *   const validate = await loadValidator('museums/MuseumSuggestion'); // undefined when unknown
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { makeAjv } from '../../core/schemas.ts';

const INDEX_ID = 'virtual:curio-validators';
const ONE_PREFIX = 'virtual:curio-validator:';

type Json = Record<string, any>;

function readSchemas(root: string): Json[] {
  const dirs = [path.join(root, 'schemas')];
  const pluginsDir = path.join(root, 'plugins');
  if (fs.existsSync(pluginsDir)) {
    for (const p of fs.readdirSync(pluginsDir).sort()) dirs.push(path.join(pluginsDir, p, 'schemas'));
  }
  const out: Json[] = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) {
      if (!f.endsWith('.schema.json')) continue;
      try {
        const s = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
        if (s && typeof s.$id === 'string') out.push(s);
      } catch {
        // a broken schema file is reported by the server and by `npm run gen`
      }
    }
  }
  return out;
}

const BASE = 'https://schemas.curio.local/';

/**
 * Schema ids are written "<plugin>/<Name>" and refs "shared/UserSummary"; relative to an id
 * like "communities/Ban" ajv would resolve that to "communities/shared/UserSummary". Make ids
 * and cross-schema refs absolute so each resolves to the schema of that id.
 */
function absolutize<T>(node: T): T {
  if (Array.isArray(node)) return node.map(absolutize) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === '$id' || k === '$ref') && typeof v === 'string' && !v.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(v)) out[k] = BASE + v;
    else out[k] = absolutize(v);
  }
  return out as T;
}

/** ajv's standalone output uses require() for format and runtime helpers; turn those into imports. */
function requiresToImports(code: string): string {
  const mods = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_m, mod: string) => {
    if (!mods.has(mod)) mods.set(mod, `__req${mods.size}`);
    return mods.get(mod)!;
  });
  // CommonJS interop differs between bundler modes: accept both namespace shapes.
  const helper = 'function __cjs(ns) { const d = ns && ns.default; return d && typeof d === "object" && d.__esModule ? d : ns; }';
  const imports = [...mods].map(([mod, name]) => `import * as ${name}__ns from ${JSON.stringify(mod)};\nconst ${name} = __cjs(${name}__ns);`);
  imports.unshift(helper);
  return `${imports.join('\n')}\n${body.replace(/^"use strict";/, '')}`;
}

export function curioValidators(root: string): Plugin {
  let schemas: Json[] = [];
  const load = () => (schemas = readSchemas(root));
  return {
    name: 'curio-validators',
    buildStart() {
      load();
    },
    resolveId(id) {
      if (id === INDEX_ID || id.startsWith(ONE_PREFIX)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (!id.startsWith('\0')) return null;
      const real = id.slice(1);
      if (real === INDEX_ID) {
        if (!schemas.length) load();
        const entries = schemas
          .map((s) => `  ${JSON.stringify(s.$id)}: () => import(${JSON.stringify(ONE_PREFIX + s.$id)}).then((m) => m.default),`)
          .join('\n');
        return `const loaders = {\n${entries}\n};\nexport const validatorIds = Object.keys(loaders);\nexport function loadValidator(id) {\n  const l = Object.prototype.hasOwnProperty.call(loaders, id) ? loaders[id] : undefined;\n  return l ? l() : Promise.resolve(undefined);\n}\n`;
      }
      if (real.startsWith(ONE_PREFIX)) {
        const schemaId = real.slice(ONE_PREFIX.length);
        if (!schemas.length) load();
        const ajv = makeAjv();
        (ajv.opts.code as any).source = true;
        (ajv.opts.code as any).esm = true;
        for (const s of schemas) {
          try {
            ajv.addSchema(absolutize(s));
          } catch (e) {
            this.warn(`schema ${s.$id}: ${(e as Error).message}`);
          }
        }
        try {
          const standaloneCode = ((standaloneCodeModule as any).default ?? standaloneCodeModule) as (a: unknown, refs: Record<string, string>) => string;
          const code = standaloneCode(ajv, { validate: BASE + schemaId });
          return `${requiresToImports(code)}\nexport default validate;\n`;
        } catch (e) {
          this.warn(`cannot precompile schema ${schemaId}: ${(e as Error).message}`);
          return 'export default undefined;\n';
        }
      }
      return null;
    },
  };
}
