import type { SchemaRegistry, JSONSchema } from './schemas.ts';
import type { RegisteredRoute } from './plugin-api.ts';
import { responseSchemaFor } from './routes.ts';

export const componentName = (id: string) => id.replace(/[^A-Za-z0-9]+/g, '.');

/**
 * Rewrites `$ref: "<plugin>/<Name>[#/pointer]"` into OpenAPI component references (the pointer
 * kept, into the component), and a registered schema's own `#/…` refs (`self`) likewise.
 */
export function rewriteRefs(schema: unknown, to: (id: string) => string, self?: string): any {
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, to, self));
  if (schema && typeof schema === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
        const [id, pointer] = v.split('#');
        out[k] = to(id) + (pointer ?? '');
      } else if (k === '$ref' && typeof v === 'string' && self && v.startsWith('#/')) out[k] = to(self) + v.slice(1);
      else if (k === '$id') continue;
      else out[k] = rewriteRefs(v, to, self);
    }
    return out;
  }
  return schema;
}

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function paramsOf(schema: JSONSchema | undefined, where: 'path' | 'query', ref: (id: string) => string, reg: SchemaRegistry) {
  // A params/query schema given as a $ref to a registered schema: read that schema's properties.
  for (let i = 0; i < 5 && schema?.$ref && typeof schema.$ref === 'string' && !schema.properties; i++) {
    const [id, pointer] = (schema.$ref as string).split('#');
    let target: any = reg.get(id);
    if (pointer) for (const part of pointer.split('/').filter(Boolean)) target = target?.[part];
    schema = target;
  }
  if (!schema?.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name),
    schema: rewriteRefs(s, ref),
  }));
}

export function buildOpenApi(reg: SchemaRegistry, routes: RegisteredRoute[], enabled: ReadonlySet<string>, info = { title: 'Curio API', version: '0.1.0' }) {
  const ref = (id: string) => `#/components/schemas/${componentName(id)}`;
  const schemas: Record<string, unknown> = {};
  for (const [id, s] of reg.schemas) schemas[componentName(id)] = rewriteRefs(s, ref, id);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!enabled.has(r.plugin)) continue;
    const p = toOpenApiPath(r.path);
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      tags: [r.plugin],
      summary: r.summary,
      parameters: [...paramsOf(r.schema?.params, 'path', ref, reg), ...paramsOf(r.schema?.query, 'query', ref, reg)],
      'x-auth': r.auth ?? 'optional',
      ...(r.roles ? { 'x-roles': r.roles } : {}),
    };
    if (r.schema?.body) {
      op.requestBody = {
        required: true,
        content: { [r.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json']: { schema: rewriteRefs(r.schema.body, ref) } },
      };
    } else if (r.bodyType === 'multipart') {
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
    }
    const status = r.status ?? 200;
    const rs = responseSchemaFor(r, status);
    const responses: Record<string, unknown> = {
      [status]: r.raw
        ? { description: 'OK', content: { [r.rawContentType ?? 'application/octet-stream']: {} } }
        : { description: 'OK', ...(rs ? { content: { 'application/json': { schema: rewriteRefs(rs, ref) } } } : {}) },
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: ref('shared/Error') } } } },
    };
    op.responses = responses;
    (paths[p] ??= {})[r.method.toLowerCase()] = op;
  }
  return { openapi: '3.1.0', info, paths, components: { schemas } };
}
