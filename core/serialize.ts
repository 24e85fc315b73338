/**
 * Response serializers compiled from the routes' response schemas (issue 18), as Fastify does with
 * fast-json-stringify: one function per schema writes the JSON text, visiting only what the schema
 * declares, instead of `JSON.parse(JSON.stringify(result))` and then ajv removing what is not
 * declared.
 *
 * The allow-list guarantee stays: a property an object's schema does not declare never leaves.
 * A schema compiles only when fast-json-stringify writes exactly what the allow-list path
 * (core/routes.ts) would for data that matches it:
 * - every object declares its `properties` with `additionalProperties: false` (an object open to
 *   more properties, or a map, keeps the allow-list path, which passes them through);
 * - `$ref`s are put in place (ids of the schema registry and local `#/…` pointers); a schema that
 *   refers to itself (recursion) keeps the allow-list path;
 * - `anyOf`/`oneOf` only as "this or null" (`[X, {type: 'null'}]`, becoming a nullable X); any
 *   other `anyOf`, `oneOf`, `allOf`, `if`, `not`, `patternProperties`, tuples, `default`s (ajv fills
 *   them in) or several non-null types keep the allow-list path;
 * - validation-only keywords (lengths, patterns, enums, formats, messages) are dropped: the
 *   serializer never validates. Data that does not match (a required property missing, a wrong
 *   type) makes the serializer throw, and that answer takes the allow-list path (core/routes.ts).
 * With `validateResponses` (tests, development) every answer also takes the allow-list path and
 * the two texts must parse to the same value, so the whole API test suite checks these rules.
 */
import fastJson from 'fast-json-stringify';
import type { JSONSchema, SchemaRegistry } from './schemas.ts';

export class Unsupported extends Error {}

/** Keywords that only validate or describe: the serializer needs none of them. */
const IGNORED = new Set([
  '$id', '$schema', '$comment', 'title', 'description', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly',
  'definitions', '$defs', 'enum', 'const', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties',
  'maxProperties', 'contentEncoding', 'contentMediaType',
]);
const STRUCTURAL = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', '$ref', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'default']);

/**
 * Whether a subschema only validates: nothing in it removes properties (additionalProperties),
 * fills them in (default) or may do either ($ref). `if`/`then`/`else` and the extra members of an
 * `allOf` are ignored when they only validate (e.g. "kind weekly requires weekday").
 */
function validationOnly(x: unknown): boolean {
  if (x === null || typeof x !== 'object') return true;
  if (Array.isArray(x)) return x.every(validationOnly);
  for (const [k, v] of Object.entries(x)) {
    if (k === 'additionalProperties' || k === 'default' || k === '$ref' || k === 'unevaluatedProperties') return false;
    if (!validationOnly(v)) return false;
  }
  return true;
}

interface Ctx {
  reg: SchemaRegistry;
  /** refs being put in place (a ref met again inside itself is recursion) */
  stack: string[];
  /** recursive refs: their prepared schema, referred to as #/definitions/<name> */
  defs: Record<string, JSONSchema>;
  names: Map<string, string>;
}

function pointer(doc: any, frag: string): any {
  if (!frag || frag === '/') return doc;
  let cur = doc;
  for (const raw of frag.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur == null || typeof cur !== 'object' || !(key in cur)) throw new Unsupported(`unresolved pointer #${frag}`);
    cur = cur[key];
  }
  return cur;
}

/** The schema, with its refs in place and only what the serializer reads; throws Unsupported. */
export function prepare(reg: SchemaRegistry, schema: JSONSchema): JSONSchema {
  const ctx: Ctx = { reg, stack: [], defs: {}, names: new Map() };
  const out = prep(ctx, schema, schema);
  return Object.keys(ctx.defs).length ? { ...out, definitions: ctx.defs } : out;
}

function prep(ctx: Ctx, schema: unknown, root: JSONSchema): JSONSchema {
  const { reg, stack } = ctx;
  if (schema === true || (schema && typeof schema === 'object' && Object.keys(schema).length === 0)) return {};
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new Unsupported('not a schema');
  if (stack.length > 40) throw new Unsupported('too deep');
  let s = schema as JSONSchema;
  for (const k of Object.keys(s)) {
    if (!STRUCTURAL.has(k) && !IGNORED.has(k) && !k.startsWith('x-')) throw new Unsupported(`keyword ${k}`);
  }
  // validation only: if/then/else and the allOf members that only validate
  if (s.if !== undefined || s.then !== undefined || s.else !== undefined) {
    if (![s.if, s.then, s.else].every(validationOnly)) throw new Unsupported('if/then/else that shapes the answer');
    const { if: _i, then: _t, else: _e, ...rest } = s;
    s = rest;
  }
  if (s.allOf !== undefined) {
    if (!Array.isArray(s.allOf)) throw new Unsupported('allOf');
    const shaping = s.allOf.filter((x: unknown) => !validationOnly(x));
    const { allOf: _a, ...rest } = s;
    const siblings = Object.keys(rest).filter((k) => !IGNORED.has(k) && !k.startsWith('x-'));
    if (shaping.length > 1 || (shaping.length === 1 && siblings.length)) throw new Unsupported('allOf of several shapes');
    s = shaping.length === 1 ? shaping[0] : rest;
    if (shaping.length === 1) return prep(ctx, s, root);
  }
  if (s.$ref) {
    const ref = String(s.$ref);
    const [id, frag = ''] = ref.split('#');
    const doc = id ? reg.get(id) : root;
    if (!doc) throw new Unsupported(`unknown schema ${id}`);
    const key = `${id || root.$id || '(root)'}#${frag}`;
    const others = Object.keys(s).filter((k) => k !== '$ref' && !IGNORED.has(k) && !k.startsWith('x-'));
    if (others.length) throw new Unsupported(`$ref beside ${others.join(', ')}`);
    let name = ctx.names.get(key);
    if (stack.includes(key)) {
      // recursion (a comment's replies): the schema goes in definitions, referred to from itself
      if (!name) {
        name = `r${ctx.names.size}`;
        ctx.names.set(key, name);
      }
      return { $ref: `#/definitions/${name}` };
    }
    stack.push(key);
    let out: JSONSchema;
    try {
      out = prep(ctx, pointer(doc, frag), id ? doc : root);
    } finally {
      stack.pop();
    }
    name = ctx.names.get(key);
    if (name) {
      ctx.defs[name] = out;
      return { $ref: `#/definitions/${name}` };
    }
    return out;
  }
  const alts = s.anyOf ?? s.oneOf;
  if (alts) {
    if (s.anyOf && s.oneOf) throw new Unsupported('anyOf with oneOf');
    const others = Object.keys(s).filter((k) => k !== 'anyOf' && k !== 'oneOf' && !IGNORED.has(k) && !k.startsWith('x-'));
    const isNull = (x: any) => x && typeof x === 'object' && x.type === 'null' && Object.keys(x).every((k) => k === 'type' || IGNORED.has(k));
    const rest = Array.isArray(alts) ? alts.filter((x: any) => !isNull(x)) : [];
    if (others.length || !Array.isArray(alts) || alts.length !== 2 || rest.length !== 1) throw new Unsupported('anyOf/oneOf other than "X or null"');
    const inner = prep(ctx, rest[0], root);
    const t = inner.type;
    if (typeof t !== 'string') throw new Unsupported('"X or null" where X has no single type');
    return { ...inner, type: [t, 'null'] };
  }
  const out: JSONSchema = {};
  // ajv (useDefaults) fills a missing property with its default; fast-json-stringify writes it too
  if (s.default !== undefined) out.default = s.default;
  let types: string[] = [];
  if (s.type !== undefined) {
    types = Array.isArray(s.type) ? [...s.type] : [s.type];
    if (types.filter((t) => t !== 'null').length > 1) throw new Unsupported('several types');
    out.type = Array.isArray(s.type) ? types : s.type;
  }
  const isObject = types.includes('object') || s.properties !== undefined || s.additionalProperties !== undefined || s.required !== undefined;
  if (isObject) {
    if (s.additionalProperties !== false) throw new Unsupported('an object open to more properties');
    if (!types.length) throw new Unsupported('an object without its type');
    if (!types.includes('object')) throw new Unsupported('properties on a non-object');
    out.additionalProperties = false;
    out.properties = {};
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out.properties[k] = prep(ctx, v, root);
    if (Array.isArray(s.required) && s.required.length) {
      if (!s.required.every((k: string) => k in out.properties)) throw new Unsupported('a required property it does not declare');
      out.required = [...s.required];
    }
  }
  if (s.items !== undefined) {
    if (Array.isArray(s.items)) throw new Unsupported('tuple items');
    if (!types.includes('array')) throw new Unsupported('items on a non-array');
    out.items = prep(ctx, s.items, root);
  } else if (types.includes('array')) {
    out.items = {};
  }
  return out;
}

export type Serializer = (value: unknown) => string;

/** A serializer for the schema, or the reason it keeps the allow-list path. */
export function compileSerializer(reg: SchemaRegistry, schema: JSONSchema): { serialize: Serializer | null; reason: string | null } {
  try {
    const prepared = prepare(reg, schema);
    // A bare "anything" answer gains nothing: the allow-list path is JSON.stringify already.
    if (!prepared.type && !prepared.$ref) throw new Unsupported('no type');
    return { serialize: fastJson(prepared as any) as Serializer, reason: null };
  } catch (e) {
    if (e instanceof Unsupported) return { serialize: null, reason: e.message };
    return { serialize: null, reason: `fast-json-stringify: ${(e as Error).message}` };
  }
}

/** Deep equality of parsed JSON values (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as any)[k], (b as any)[k]));
}
