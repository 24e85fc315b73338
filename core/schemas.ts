import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction, type AnySchema } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import { formatAjvErrors, summarize, type FieldError } from './shared/validation-messages.ts';

export type JSONSchema = Record<string, any>;

/** Keywords we allow in schemas beyond JSON Schema: messages and labels for forms and errors. */
const EXTRA_KEYWORDS = ['x-messages', 'x-label', 'x-widget', 'x-order', 'x-placeholder', 'x-help', 'example'];

/**
 * Schema ids are '<plugin>/<Name>' and a $ref names one exactly ('museums/Catalog#/definitions/X'),
 * from anywhere: without this, ajv would resolve it relative to the referring schema's own $id
 * ('museums/Museum' → 'museums/museums/Catalog').
 */
const ID_REF = /^[a-z][a-z0-9-]*\/[A-Za-z][A-Za-z0-9]*(#.*)?$/;
const uriResolver = {
  ...fastUri,
  resolve(base: string, ref: string) {
    return ID_REF.test(ref) ? ref : fastUri.resolve(base, ref);
  },
};

export function makeAjv(opts: { coerce?: boolean; removeAdditional?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    useDefaults: true,
    coerceTypes: opts.coerce ? 'array' : false,
    removeAdditional: opts.removeAdditional ? true : false,
    uriResolver: uriResolver as any,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const k of EXTRA_KEYWORDS) if (!ajv.getKeyword(k)) ajv.addKeyword({ keyword: k });
  return ajv;
}

/**
 * One registry of schemas by `$id`, shared by three ajv instances:
 * bodies (no coercion), params/query (strings coerced), responses (allow-list: removes
 * properties of objects declaring additionalProperties: false).
 */
export class SchemaRegistry {
  readonly schemas = new Map<string, JSONSchema>();
  /** plugin id (or 'shared') per schema id */
  readonly owners = new Map<string, string>();
  readonly body = makeAjv();
  readonly input = makeAjv({ coerce: true });
  readonly output = makeAjv({ removeAdditional: true });

  add(schema: JSONSchema, owner = 'shared'): void {
    if (!schema.$id) throw new Error('A registered schema needs an $id');
    if (this.schemas.has(schema.$id)) throw new Error(`Schema ${schema.$id} is registered twice`);
    this.schemas.set(schema.$id, schema);
    this.owners.set(schema.$id, owner);
    for (const a of [this.body, this.input, this.output]) a.addSchema(structuredClone(schema) as AnySchema);
  }

  get(id: string): JSONSchema | undefined {
    return this.schemas.get(id);
  }

  /** Loads every *.schema.json in a folder. */
  addDir(dir: string, owner: string): void {
    if (!fs.existsSync(dir)) return;
    for (const f of fs.readdirSync(dir).sort()) {
      if (f.endsWith('.schema.json')) this.add(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')), owner);
    }
  }

  compile(kind: 'body' | 'input' | 'output', schema: JSONSchema): ValidateFunction {
    return this[kind].compile(structuredClone(schema));
  }

  explain(validate: ValidateFunction, schema: JSONSchema): { message: string; errors: FieldError[] } {
    const errors = formatAjvErrors((validate.errors ?? []) as any, schema, (id) => this.get(id));
    return { message: summarize(errors), errors };
  }
}
