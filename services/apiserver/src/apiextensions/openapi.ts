// The OpenAPI v3 document of a custom resource group version (upstream:
// apiextensions' openapi builder behind /openapi/v3/apis/<group>/<version>):
// each kind's structural schema with apiVersion, kind and metadata added,
// named by the reversed group (`com.example.stable.v1.CronTab`), so that
// `kubectl explain` describes custom resources.

import { createHash } from 'node:crypto';
import { openapiName, type JSONSchemaProps, type ResourceInfo } from '@kubelab/api';
import { componentSchemas, OPENAPI_INFO, type Json } from '../endpoints/openapi/build.js';
import type { Registry } from '../registry/interface.js';

/** A served custom resource and its version's schema. */
export interface CustomResourceSchema {
  info: ResourceInfo;
  schema: JSONSchemaProps;
}

/** Upstream's definition name of a custom kind: the group reversed, the version, the kind. */
export function definitionName(info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>): string {
  return `${info.group.split('.').reverse().join('.')}.${info.version}.${info.kind}`;
}

const META = openapiName('ObjectMeta');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The kind's schema as published: upstream adds the type and object meta fields at the root. */
function kindSchema(r: CustomResourceSchema): Json {
  const { info, schema } = r;
  return {
    ...schema,
    type: 'object',
    properties: {
      apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
      kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
      metadata: { description: "Standard object's metadata.", allOf: [ref(META)] },
      ...(schema.properties ?? {}),
    },
    'x-kubernetes-group-version-kind': [{ group: info.group, kind: info.kind, version: info.version }],
  };
}

function pathsOf(r: CustomResourceSchema): Json {
  const { info } = r;
  const base = info.namespaced ? `/apis/${info.group}/${info.version}/namespaces/{namespace}/${info.resource}` : `/apis/${info.group}/${info.version}/${info.resource}`;
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  const op = (action: string, verb: string) => ({
    operationId: `${verb}${info.namespaced ? 'Namespaced' : ''}${info.kind}`,
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref(definitionName(info)) } } } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  });
  return {
    [base]: { get: op('list', 'list'), post: op('post', 'create') },
    [`${base}/{name}`]: { get: op('get', 'read'), put: op('put', 'replace'), patch: op('patch', 'patch'), delete: op('delete', 'delete') },
  };
}

let metaSchemas: Json | undefined;

/** ObjectMeta and the definitions it references, computed once (the built-in schema is fixed). */
function objectMetaSchemas(): Json {
  if (metaSchemas) return metaSchemas;
  const all = componentSchemas();
  const schemas: Json = { [META]: all[META] };
  // ObjectMeta's own references (ManagedFieldsEntry, OwnerReference, Time...) come along, as upstream's document carries them.
  const pending = [JSON.stringify(all[META])];
  while (pending.length) {
    for (const m of pending.pop()!.matchAll(/#\/components\/schemas\/([^"]+)/g)) {
      const name = m[1]!;
      if (!schemas[name] && all[name]) {
        schemas[name] = all[name];
        pending.push(JSON.stringify(all[name]));
      }
    }
  }
  return (metaSchemas = schemas);
}

/** The document of one group version of custom resources, with the hash its URL and ETag carry. */
export function customResourceDocument(resources: readonly CustomResourceSchema[]): { body: string; hash: string } {
  const schemas: Json = { ...objectMetaSchemas() };
  let paths: Json = {};
  for (const r of resources) {
    schemas[definitionName(r.info)] = kindSchema(r);
    paths = { ...paths, ...pathsOf(r) };
  }
  const body = JSON.stringify({ openapi: '3.0.0', info: OPENAPI_INFO, paths, components: { schemas } });
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

/** The documents of every group version of custom resources the registry serves, by OpenAPI key (`apis/<group>/<version>`). */
export function customResourceDocuments(registry: Registry): Map<string, { body: string; hash: string }> {
  const byGv = new Map<string, CustomResourceSchema[]>();
  for (const info of registry.runtimeResources?.() ?? []) {
    const schema = registry.store(info.group, info.version, info.resource)?.custom?.schema;
    if (!schema) continue;
    const key = `apis/${info.group}/${info.version}`;
    byGv.set(key, [...(byGv.get(key) ?? []), { info, schema }]);
  }
  return new Map([...byGv].map(([key, rs]) => [key, customResourceDocument(rs)]));
}

/** The /openapi/v3 root with the custom resources' group versions added. */
export function withCustomResourcePaths(root: string, docs: ReadonlyMap<string, { hash: string }>): string {
  if (docs.size === 0) return root;
  const parsed = JSON.parse(root) as { paths: Json };
  for (const [key, d] of docs) parsed.paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` };
  return JSON.stringify(parsed);
}
