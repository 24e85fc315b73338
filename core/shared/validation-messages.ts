/**
 * Turns ajv errors into readable messages. Shared by the server (400 answers) and the browser
 * (SchemaForm), so both say the same thing for the same bad input.
 *
 * A property schema may carry "x-messages": { "<ajv keyword>": "Text" } to give the spec's exact
 * wording (e.g. { "required": "Title is required" }); "x-label" names the field in default texts.
 */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: Record<string, any>;
  message?: string;
}

export interface FieldError {
  path: string;
  message: string;
}

type Schema = Record<string, any>;

function resolveRef(root: Schema, ref: string, lookup?: (id: string) => Schema | undefined): Schema | undefined {
  if (ref.startsWith('#/')) {
    return ref.slice(2).split('/').reduce<any>((s, k) => (s ? s[k] : undefined), root);
  }
  return lookup?.(ref);
}

/** Finds the sub-schema describing the property at a JSON pointer (best effort). */
export function schemaAt(root: Schema, pointer: string, lookup?: (id: string) => Schema | undefined): Schema | undefined {
  let cur: Schema | undefined = root;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const part of parts) {
    let guard = 0;
    while (cur && cur.$ref && guard++ < 10) cur = resolveRef(root, cur.$ref, lookup);
    if (!cur) return undefined;
    if (cur.properties && part in cur.properties) cur = cur.properties[part];
    else if (cur.items && /^\d+$/.test(part)) cur = Array.isArray(cur.items) ? cur.items[Number(part)] : cur.items;
    else if (cur.additionalProperties && typeof cur.additionalProperties === 'object') cur = cur.additionalProperties;
    else return undefined;
  }
  let guard = 0;
  while (cur && cur.$ref && guard++ < 10) cur = resolveRef(root, cur.$ref, lookup);
  return cur;
}

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formatAjvErrors(
  errors: AjvLikeError[],
  rootSchema: Schema,
  lookup?: (id: string) => Schema | undefined,
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    // anyOf / oneOf / if wrappers repeat what their branches said.
    if (['anyOf', 'oneOf', 'if'].includes(err.keyword) && errors.length > 1) continue;
    let path = err.instancePath || '';
    if (err.keyword === 'required') path = `${path}/${err.params.missingProperty}`;
    if (err.keyword === 'additionalProperties') path = `${path}/${err.params.additionalProperty}`;
    const field = path.split('/').pop() || '';
    const propSchema = schemaAt(rootSchema, path, lookup) ?? {};
    const custom = propSchema['x-messages']?.[err.keyword];
    const label: string = propSchema['x-label'] || (field ? humanize(field) : 'Value');
    let message: string;
    if (custom) message = custom;
    else {
      switch (err.keyword) {
        case 'required': message = `${label} is required`; break;
        case 'additionalProperties': message = `Unknown field '${field}'`; break;
        case 'type': message = `${label} must be ${/^[aeiou]/.test(err.params.type) ? 'an' : 'a'} ${String(err.params.type).replace(',', ' or ')}`; break;
        case 'minLength':
          message = err.params.limit === 1 ? `${label} must not be blank` : `${label} must be at least ${err.params.limit} characters long`;
          break;
        case 'maxLength': message = `${label} must be at most ${err.params.limit} characters`; break;
        case 'minimum': message = `${label} must be at least ${err.params.limit}`; break;
        case 'maximum': message = `${label} must be at most ${err.params.limit}`; break;
        case 'exclusiveMinimum': message = `${label} must be greater than ${err.params.limit}`; break;
        case 'exclusiveMaximum': message = `${label} must be less than ${err.params.limit}`; break;
        case 'minItems': message = `${label} must have at least ${err.params.limit} items`; break;
        case 'maxItems': message = `${label} must have at most ${err.params.limit} items`; break;
        case 'enum': message = `${label} must be one of: ${(err.params.allowedValues as unknown[]).join(', ')}`; break;
        case 'const': message = `${label} must be ${JSON.stringify(err.params.allowedValue)}`; break;
        case 'format': message = `${label} must be a valid ${err.params.format}`; break;
        case 'pattern': message = `${label} is not in the expected format`; break;
        case 'minProperties': message = `${label} must have at least ${err.params.limit} fields`; break;
        case 'maxProperties': message = `${label} must have at most ${err.params.limit} fields`; break;
        default: message = `${label} ${err.message ?? 'is invalid'}`;
      }
    }
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

/** One sentence for the `message` field: the distinct messages joined by commas. */
export function summarize(errors: FieldError[]): string {
  const msgs = [...new Set(errors.map((e) => e.message))];
  return msgs.length ? msgs.join(', ') : 'Please check your input';
}
