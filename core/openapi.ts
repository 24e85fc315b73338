import type { SchemaRegistry, JSONSchema } from './schemas.ts';
import type { RegisteredRoute } from './plugin-api.ts';
import { responseSchemaFor } from './routes.ts';

export const componentName = (id: string) => id.replace(/[^A-Za-z0-9]+/g, '.');

/** Rewrites `$ref: "<plugin>/<Name>"` into OpenAPI component references. */
export function rewriteRefs(schema: unknown, to: (id: string) => string): any {
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, to));
  if (schema && typeof schema === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out[k] = to(v);
      else if (k === '$id') continue;
      else out[k] = rewriteRefs(v, to);
    }
    return out;
  }
  return schema;
}

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function paramsOf(schema: JSONSchema | undefined, where: 'path' | 'query', ref: (id: string) => string) {
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
  for (const [id, s] of reg.schemas) schemas[componentName(id)] = rewriteRefs(s, ref);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (!enabled.has(r.plugin)) continue;
    const p = toOpenApiPath(r.path);
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      tags: [r.plugin],
      summary: r.summary,
      parameters: [...paramsOf(r.schema?.params, 'path', ref), ...paramsOf(r.schema?.query, 'query', ref)],
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
