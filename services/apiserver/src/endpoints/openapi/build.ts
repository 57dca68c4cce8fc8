// OpenAPI v3 documents built from the schema of @kubelab/api: the root
// (/openapi/v3, one serverRelativeURL per group version) and one document per
// group version. kubectl reads them for `explain`, for apply's patch
// metadata, and to learn that the server validates fields itself
// (upstream: kube-openapi handler3 serving the per-GV specs).

import { createHash } from 'node:crypto';
import { RESOURCES, SCHEMA, apiVersionOf, fieldPatchMeta, schemaTypeOf, isPrimitiveType, openapiName, type FieldDef, type PrimitiveType, type ResourceInfo } from '@kubelab/api';

export type Json = Record<string, unknown>;

/** The `info` of both OpenAPI documents (upstream: the apiserver's title and its version). */
export const OPENAPI_INFO = { title: 'Kubernetes', version: 'v1.32.4' } as const;

const PRIMITIVES: Record<PrimitiveType, Json> = {
  string: { type: 'string' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  boolean: { type: 'boolean' },
  number: { type: 'number', format: 'double' },
  bytes: { type: 'string', format: 'byte' },
  object: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};

const ref = (t: string): Json => ({ $ref: `#/components/schemas/${openapiName(t)}` });

function itemSchema(t: string): Json {
  if (isPrimitiveType(t)) return { ...PRIMITIVES[t], default: t === 'string' ? '' : undefined };
  return { default: {}, allOf: [ref(t)] };
}

function fieldSchema(owner: string, field: string, [type, description]: FieldDef): Json {
  let s: Json;
  if (type.startsWith('[]')) {
    s = { description, type: 'array', items: itemSchema(type.slice(2)) };
    const pm = fieldPatchMeta(owner, field);
    if (pm?.strategy) s['x-kubernetes-patch-strategy'] = pm.strategy;
    if (pm?.mergeKey) {
      s['x-kubernetes-patch-merge-key'] = pm.mergeKey;
      s['x-kubernetes-list-type'] = 'map';
      s['x-kubernetes-list-map-keys'] = [pm.mergeKey];
    } else if (pm?.strategy === 'merge') {
      s['x-kubernetes-list-type'] = 'set';
    } else {
      s['x-kubernetes-list-type'] = 'atomic';
    }
  } else if (type.startsWith('map[string]')) {
    s = { description, type: 'object', additionalProperties: itemSchema(type.slice('map[string]'.length)) };
  } else if (isPrimitiveType(type)) {
    s = { description, ...PRIMITIVES[type] };
  } else {
    s = { description, allOf: [ref(type)] };
    const pm = fieldPatchMeta(owner, field);
    if (pm?.strategy) s['x-kubernetes-patch-strategy'] = pm.strategy;
  }
  return JSON.parse(JSON.stringify(s)) as Json;
}

/** group/version/kind of the top-level kinds, for `x-kubernetes-group-version-kind`. */
function gvkOf(typeName: string): Json[] | undefined {
  const extra: Record<string, [string, string]> = { Scale: ['autoscaling', 'v1'], Eviction: ['policy', 'v1'], Binding: ['', 'v1'], DeleteOptions: ['', 'v1'] };
  const r = RESOURCES.find((i) => schemaTypeOf(i) === typeName);
  if (r) return [{ group: r.group, kind: r.kind, version: r.version }];
  const e = extra[typeName];
  return e ? [{ group: e[0], kind: typeName, version: e[1] }] : undefined;
}

/** Every type of the schema as an OpenAPI v3 schema, keyed by its upstream definition name (also the source of /openapi/v2's definitions). */
export function componentSchemas(): Json {
  const out: Json = {};
  for (const [name, t] of Object.entries(SCHEMA)) {
    if (t.primitive) {
      out[openapiName(name)] = { description: t.description, ...t.primitive };
      continue;
    }
    const properties: Json = {};
    const required: string[] = [];
    for (const [f, def] of Object.entries(t.fields ?? {})) {
      properties[f] = fieldSchema(name, f, def);
      if (def[2]?.required) required.push(f);
    }
    const s: Json = { description: t.description, type: 'object', properties };
    if (required.length) s.required = required;
    const gvk = gvkOf(name);
    if (gvk) s['x-kubernetes-group-version-kind'] = gvk;
    out[openapiName(name)] = s;
  }
  return out;
}

const param = (name: string, description: string): Json => ({ name, in: 'query', description, schema: { type: 'string', uniqueItems: true } });
const WRITE_PARAMS = [
  param('dryRun', 'When All, the request is admitted and validated but not persisted.'),
  param('fieldManager', 'The name of the actor making the change.'),
  param('fieldValidation', 'Ignore, Warn (default) or Strict: what the server does with unknown or duplicate fields.'),
];

function operation(info: ResourceInfo, action: string, id: string, extraParams: Json[] = []): Json {
  return {
    description: `${action} ${info.kind}`,
    operationId: id,
    parameters: extraParams,
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref(schemaTypeOf(info)) } } } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: info.group, version: info.version, kind: info.kind },
  };
}

/** The v3 path items of one group version (also the source of /openapi/v2's paths). */
export function paths(gv: string): Json {
  const out: Json = {};
  for (const info of RESOURCES.filter((r) => apiVersionOf(r) === gv)) {
    const prefix = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
    const base = info.namespaced ? `${prefix}/namespaces/{namespace}/${info.resource}` : `${prefix}/${info.resource}`;
    const op = `${info.kind}${info.namespaced ? 'Namespaced' : ''}`;
    // The reviews are create-only: a POST and nothing else, as upstream.
    if (!info.verbs.includes('get')) {
      out[base] = { post: operation(info, 'post', `create${op}`, WRITE_PARAMS) };
      continue;
    }
    out[base] = { get: operation(info, 'list', `list${op}`), post: operation(info, 'post', `create${op}`, WRITE_PARAMS) };
    out[`${base}/{name}`] = {
      get: operation(info, 'get', `read${op}`),
      put: operation(info, 'put', `replace${op}`, WRITE_PARAMS),
      patch: operation(info, 'patch', `patch${op}`, [...WRITE_PARAMS, param('force', 'Force an apply that conflicts with other managers.')]),
      delete: operation(info, 'delete', `delete${op}`, [param('dryRun', 'When All, nothing is persisted.'), param('gracePeriodSeconds', 'Seconds before deletion.')]),
    };
  }
  return out;
}

/** The group versions kubelab serves, as OpenAPI path keys: `api/v1`, `apis/apps/v1`. */
export function openapiGroupVersions(): string[] {
  return [...new Set(RESOURCES.map((r) => apiVersionOf(r)))].map((gv) => (gv.includes('/') ? `apis/${gv}` : `api/${gv}`));
}

interface Built {
  root: string;
  docs: Map<string, { body: string; hash: string }>;
}

let built: Built | undefined;

function build(): Built {
  const schemas = componentSchemas();
  const docs = new Map<string, { body: string; hash: string }>();
  for (const key of openapiGroupVersions()) {
    const gv = key.replace(/^apis?\//, '');
    const doc = { openapi: '3.0.0', info: OPENAPI_INFO, paths: paths(gv), components: { schemas } };
    const body = JSON.stringify(doc);
    docs.set(key, { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() });
  }
  const rootPaths: Json = {};
  for (const [key, d] of docs) rootPaths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` };
  return { root: JSON.stringify({ paths: rootPaths }), docs };
}

/** The body of /openapi/v3. */
export function openapiRoot(): string {
  built ??= build();
  return built.root;
}

/** The body of /openapi/v3/<api/v1|apis/g/v>, or undefined if not served. */
export function openapiDocument(key: string): { body: string; hash: string } | undefined {
  built ??= build();
  return built.docs.get(key);
}
