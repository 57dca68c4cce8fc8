// The Swagger 2.0 document of /openapi/v2, derived from the OpenAPI v3
// schemas and paths of build.ts (one source): upstream's apiserver builds
// both from the same definitions, with v2's differences applied here —
// `#/definitions/` refs, a field's type as a bare `$ref` beside its
// description, no `oneOf` (int-or-string and quantities are strings),
// parameters without a `schema`, a `body` parameter on writes.

import { OPENAPI_INFO, componentSchemas, openapiGroupVersions, paths, type Json } from './build.js';

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One v3 schema as Swagger 2.0 has it (pure). */
export function toSwaggerSchema(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.startsWith(V3_REF) ? V2_REF + v.slice(V3_REF.length) : v;
    else if (k === 'items' || k === 'additionalProperties') out[k] = isObject(v) ? toSwaggerSchema(v) : v;
    else if (k === 'properties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, isObject(p) ? toSwaggerSchema(p) : p]));
    else if (k === 'allOf' && Array.isArray(v)) out[k] = v.map((x) => (isObject(x) ? toSwaggerSchema(x) : x));
    else out[k] = v;
  }
  // v3 wraps a typed field as allOf [ref] (so a description may stand beside it);
  // v2 puts the $ref beside the description, as upstream's swagger.json does.
  const allOf = out.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0].$ref === 'string') {
    delete out.allOf;
    delete out.default;
    out.$ref = allOf[0].$ref;
  }
  // Swagger 2.0 has no oneOf: upstream's v2 gives int-or-string and quantities type string.
  if (Array.isArray(out.oneOf)) {
    delete out.oneOf;
    out.type = 'string';
  }
  return out;
}

/** A v3 query parameter as a Swagger 2.0 non-body parameter (its schema inlined). */
function toSwaggerParameter(p: Json): Json {
  const { schema, ...rest } = p;
  return { uniqueItems: true, ...rest, ...(isObject(schema) ? schema : {}) };
}

const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** One v3 operation as Swagger 2.0 has it: parameters without schema, a body on writes, the response schema under `schema`. */
export function toSwaggerOperation(op: Json): Json {
  const action = op['x-kubernetes-action'];
  const v3Params = Array.isArray(op.parameters) ? (op.parameters as Json[]) : [];
  const ok = isObject(op.responses) ? (op.responses['200'] as Json | undefined) : undefined;
  const content = ok && isObject(ok.content) ? (ok.content['application/json'] as Json | undefined) : undefined;
  const responseSchema = content && isObject(content.schema) ? toSwaggerSchema(content.schema) : undefined;
  const params: Json[] = [];
  if ((action === 'post' || action === 'put') && responseSchema) params.push({ name: 'body', in: 'body', required: true, schema: responseSchema });
  // The patch body is any of the patch media types (upstream: meta/v1 Patch, an object).
  if (action === 'patch') params.push({ name: 'body', in: 'body', required: true, schema: { type: 'object' } });
  params.push(...v3Params.map(toSwaggerParameter));
  const out: Json = {
    description: op.description,
    consumes: action === 'patch' ? PATCH_TYPES : ['*/*'],
    produces: PRODUCES,
    schemes: ['https'],
    operationId: op.operationId,
    parameters: params,
    responses: { '200': { description: 'OK', ...(responseSchema ? { schema: responseSchema } : {}) }, '401': { description: 'Unauthorized' } },
  };
  for (const [k, v] of Object.entries(op)) if (k.startsWith('x-')) out[k] = v;
  return out;
}

/** The path parameters a path template names ({namespace}, {name}), at the path item as upstream declares them. */
function pathParameters(path: string, kind: string): Json[] {
  const out: Json[] = [];
  if (path.includes('{name}')) out.push({ uniqueItems: true, type: 'string', description: `name of the ${kind}`, name: 'name', in: 'path', required: true });
  if (path.includes('{namespace}'))
    out.push({ uniqueItems: true, type: 'string', description: 'object name and auth scope, such as for teams and projects', name: 'namespace', in: 'path', required: true });
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Adds one v3 document's paths to Swagger 2.0 `allPaths` (operations converted, path parameters at the path item). */
function addPaths(allPaths: Json, v3Paths: Json): void {
  for (const [path, item] of Object.entries(v3Paths)) {
    if (!isObject(item)) continue;
    const v2: Json = {};
    let kind = '';
    for (const m of METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      v2[m] = toSwaggerOperation(op);
      const gvk = op['x-kubernetes-group-version-kind'];
      if (isObject(gvk) && typeof gvk.kind === 'string') kind = gvk.kind;
    }
    const params = pathParameters(path, kind);
    if (params.length) v2.parameters = params;
    allPaths[path] = v2;
  }
}

/** A CRD schema as v2 publishes it: `nullable` (OpenAPI v3 only) dropped, as upstream's v2 builder for CRDs does. */
function withoutV3Only(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable') continue;
    if (k === 'properties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, isObject(p) ? withoutV3Only(p) : p]));
    else if ((k === 'items' || k === 'additionalProperties') && isObject(v)) out[k] = withoutV3Only(v);
    else if (k === 'allOf' && Array.isArray(v)) out[k] = v.map((x) => (isObject(x) ? withoutV3Only(x) : x));
    else out[k] = v;
  }
  return out;
}

const toDefinitions = (schemas: Json): Json => Object.fromEntries(Object.entries(schemas).map(([n, s]) => [n, isObject(s) ? toSwaggerSchema(s) : s]));

/**
 * The Swagger 2.0 document of every served group version (pure given the
 * schema), with the OpenAPI v3 documents of custom resources merged in, as
 * upstream's aggregated /openapi/v2 carries the CRDs' schemas.
 */
export function swaggerDocument(custom: Iterable<Json> = []): Json {
  const allPaths: Json = {};
  for (const key of openapiGroupVersions()) addPaths(allPaths, paths(key.replace(/^apis?\//, '')));
  const definitions = toDefinitions(componentSchemas());
  for (const doc of custom) {
    if (isObject(doc.paths)) addPaths(allPaths, doc.paths);
    const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    for (const [name, s] of Object.entries(toDefinitions(schemas))) definitions[name] ??= isObject(s) ? withoutV3Only(s) : s;
  }
  return { swagger: '2.0', info: { ...OPENAPI_INFO }, paths: allPaths, definitions };
}
